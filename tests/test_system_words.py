"""Rules words of the campaign's own system (issue 39, item 7), from the user's steps: a hand wound in a 5e
campaign listed 3.5 skills (Open Lock, Disable Device, Use Rope); a pf1e campaign refused `cure_light_wounds` and
offered 5e's `cure_wounds`. Each system speaks its own names, as docs/rules.md promises."""

from __future__ import annotations

import pytest

THREE_FIVE = ("Open Lock", "Disable Device", "Use Rope", "Forgery", "Crochetage", "Maîtrise des cordes")


def _table(cli, system):
    assert cli("campaign", "create", "Table", "--system", system, "--seed", "3").code == 0
    assert cli("character", "add", "Cora", "--max-hp", "20").code == 0
    assert cli("wound", "Cora", "hand", "--side", "left", "--damage", "4").code == 0


@pytest.mark.parametrize("lang, skills", [("en", ("Sleight of Hand", "Athletics", "Medicine")),
                                          ("fr", ("Escamotage", "Athlétisme", "Médecine"))])
def test_a_hand_wound_in_5e_names_5e_skills(cli, lang, skills):
    _table(cli, "dnd5e")
    wound = cli("--json", "--lang", lang, "status", "Cora").json["characters"][0]["wounds"][0]
    assert all(word not in wound["affects"] for word in THREE_FIVE), wound["affects"]
    assert all(skill in wound["affects"] for skill in skills), wound["affects"]
    assert skills[2] in wound["heals_by"][0] and "(Heal)" not in wound["heals_by"][0]  # first aid: 5e's Medicine
    assert all(word not in cli("--lang", lang, "status", "Cora").out for word in THREE_FIVE)


def test_a_hand_wound_in_pathfinder_keeps_the_seeds_words(cli):
    _table(cli, "pf1e")
    wound = cli("--json", "status", "Cora").json["characters"][0]["wounds"][0]
    assert "Open Lock" in wound["affects"] and "first aid (Heal) DC 15" in wound["heals_by"]


def test_the_dashboard_and_the_players_page_say_the_systems_words(db):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from sawbones.application.service import Service
    from sawbones.interfaces.web import create_app

    with TestClient(create_app(lambda: Service.open(db)), base_url="http://testserver") as client:
        made = client.post("/api/campaigns", json={"name": "Alpha", "seed": 7}).json()
        gm = {"Authorization": f"Bearer {made['gm_secret']}"}
        client.post("/api/campaigns/Alpha/characters", json={"name": "Cora", "max_hp": 20}, headers=gm)
        assert client.post("/api/campaigns/Alpha/wound", json={"character": "cora", "part": "hand", "side": "left",
                                                               "damage": 4}, headers=gm).status_code == 200
        link = client.get("/api/campaigns/Alpha/characters/Cora/player-link", headers=gm).json()["url"]
        player = client.get(link).text
        client.get(client.post("/api/campaigns/Alpha/sign-in-link", headers=gm).json()["gm_link"])
        page = client.get("/c/Alpha").text
    card = page.split('id="char-cora"', 1)[1].split("</article>", 1)[0]
    for html in (card, player):
        assert "Sleight of Hand" in html and all(word not in html for word in ("Open Lock", "Use Rope"))


def test_pathfinder_heals_with_its_own_cure_spells(cli):
    assert cli("campaign", "create", "Table", "--system", "pf1e", "--seed", "3").code == 0
    assert cli("character", "add", "Kyra", "--max-hp", "20").code == 0
    assert cli("damage", "Kyra", "21", "slashing", "--d20", "19").code == 0  # a minor injury
    assert cli("stabilize", "Kyra").code == 0
    healed = cli("heal", "Kyra", "--spell", "cure_light_wounds")
    assert healed.code == 0, healed.err
    by_name = cli("heal", "Kyra", "--spell", "soins légers")  # its French name: found (nothing left to heal now)
    assert "unknown spell" not in by_name.err and "not a pf1e spell" not in by_name.err
    refused = cli("heal", "Kyra", "--spell", "cure_wounds")
    assert refused.code != 0 and "Cure Wounds is not a pf1e spell" in refused.err and "Cure Light Wounds" in refused.err
    fr = cli("--lang", "fr", "heal", "Kyra", "--spell", "cure_wounds")
    assert "n'est pas un sort de pf1e" in fr.err
