"""`tables`: every entry the index lists can be opened, and each shows what the seed's tables give.

Seed 004's summary tables give each affliction a type (vector), a save and DC, a track, an onset, a
frequency and a cure; four of them (Lèpre, Ajonc à feuilles bleues, Extrait de lotus noir, Lotus vert)
also have their own special track. Seed 001 lists body parts one by one.
"""

from __future__ import annotations

import pytest

from test_tracks_helpers import ok

SECTION_KIND = {"damage_tables": "damage_table", "body_parts": "body_part", "tracks": "track",
                "diseases": "disease", "poisons": "poison"}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_id_the_index_lists_opens_that_entry(cli, lang):
    index = ok(cli("--json", "--lang", lang, "tables")).json
    seen = set()
    for section, kind in SECTION_KIND.items():
        for entry in index[section]:
            assert entry["id"] not in seen, f"{entry['id']} listed twice"
            seen.add(entry["id"])
            doc = ok(cli("--json", "--lang", lang, "tables", entry["id"])).json
            assert doc["kind"] == kind and doc["id"] == entry["id"].rpartition(":")[2], entry
            assert doc["name"] == entry["name"]


def test_an_affliction_with_its_own_track_shows_its_catalog_line_and_its_track(cli):
    # "Lèpre | Blessure Contact Inhalation | Vig (12) | Physique (spé) | 1/sem | ... Raidi est l'État final"
    doc = ok(cli("--json", "--lang", "fr", "tables", "leprosy")).json
    assert doc["kind"] == "disease" and doc["dc"] == 12
    assert doc["vectors_text"] == "Blessure, Contact, Inhalation" and doc["save_text"] == "Vigueur (DD 12)"
    ladder = doc["track_details"][0]["stages"]
    assert [s["name"] for s in ladder] == ["Sain", "Latent / Porteur", "Léthargique", "Raidi"]
    assert [s["end_state"] for s in ladder] == [False, False, False, True]
    # "Extrait de lotus noir | Contact | Vig (20) | Co spé | 1 min | 1/Rd (6Rd) | Sain - Affaibli - Handicapé - Mort"
    doc = ok(cli("--json", "--lang", "fr", "tables", "black_lotus_extract")).json
    assert (doc["kind"], doc["dc"], doc["onset_text"], doc["frequency_text"]) == ("poison", 20, "1 min",
                                                                                  "1/tour (6 tours)")
    assert [s["name"] for s in doc["track_details"][0]["stages"]] == ["Sain", "Affaibli", "Handicapé", "Mort"]
    assert ok(cli("--json", "tables", "track:black_lotus_extract")).json["kind"] == "track"


def test_one_body_part(cli):
    doc = ok(cli("--json", "--lang", "fr", "tables", "hand")).json
    assert (doc["kind"], doc["name"], doc["penalty"]) == ("body_part", "Main", -2)
    assert "Main" in ok(cli("--lang", "fr", "tables", "hand")).out


@pytest.mark.parametrize("table_id", ["filth_fever", "green_lotus", "id_moss", "lose_an_eye", "hand", "leprosy"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_entries_read_as_text_not_program_values(cli, table_id, lang):
    out = ok(cli("--lang", lang, "tables", table_id)).out
    for raw in ("{'", "['", "': ", "None", "True", "False"):
        assert raw not in out, f"{raw!r} in {out}"


def test_a_kind_prefix_that_does_not_match_is_refused(cli):
    r = cli("tables", "poison:leprosy")
    assert r.code == 2 and "no table 'poison:leprosy'" in r.err


def test_web_pages_open_every_kind(db):
    from fastapi.testclient import TestClient

    from sawbones.application.service import Service
    from sawbones.interfaces.web.app import create_app

    with TestClient(create_app(lambda: Service.open(db)), base_url="http://testserver") as client:
        for table_id, shown in (("leprosy", "Raidi"), ("track:leprosy", "Raidi"), ("hand", "Main"),
                                ("deathblade", "Mortelame"), ("lose_an_eye", "œil")):
            page = client.get(f"/tables/{table_id}", params={"lang": "fr"})
            assert page.status_code == 200 and shown in page.text, table_id
