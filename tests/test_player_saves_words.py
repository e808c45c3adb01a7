"""A player's saves in their own words (issue 12 follow-ups): "What applies to my rolls" lists every save the
campaign's system has, read as `sawbones mods` reads it, and a French player reads French: the 5e save is a
"jet de sauvegarde de Constitution" and the condition behind a disadvantage is "Épuisé", as the seeds say.
"""

from __future__ import annotations

import warnings

import pytest
from markupsafe import escape

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sawbones.application.service import Service
from sawbones.interfaces.web import create_app

ABILITIES = ("str", "dex", "con", "int", "wis", "cha")


@pytest.fixture
def client(db):
    app = create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=3)
    with TestClient(app, base_url="http://testserver") as c:
        yield c


def table(client, system: str, sheet: dict) -> tuple:
    """A campaign 'Table' of this system, with Aria (this save sheet) and her player's token."""
    made = client.post("/api/campaigns", json={"name": "Table", "system": system, "seed": 5})
    assert made.status_code == 201, made.text
    secret = made.json()["gm_secret"]

    def gm(action, body, method="POST"):
        done = client.request(method, f"/api/campaigns/Table/{action}", json=body,
                              headers={"Authorization": f"Bearer {secret}"})
        assert done.status_code in (200, 201), done.text
        return done.json()

    gm("characters", {"name": "Aria", "max_hp": 30, "saves": sheet})
    link = client.get("/api/campaigns/Table/characters/Aria/player-link", headers={"Authorization": f"Bearer {secret}"})
    return gm, link.json()["url"].rsplit("/", 1)[1]


def saves_of(view: dict) -> dict:
    return {r["roll"]: r for r in view["rolls"] if r["roll"].startswith("save_")}


def test_a_5e_player_reads_the_six_ability_saves_with_what_mods_says_of_each(client, cli):
    """dnd5e: a save per ability; Physical Impaired is exhausted, read in 5e as disadvantage on saving throws."""
    gm, token = table(client, "dnd5e", {"con": 5})
    gm("expose", {"character": "Aria", "affliction": "filth_fever", "save": 1, "deadly": "impaired"})
    for lang, label, exhausted in (("en", "Constitution save", "Exhausted"),
                                   ("fr", "Jet de sauvegarde de Constitution", "Épuisé")):
        saves = saves_of(client.get(f"/api/player/{token}?lang={lang}").json())
        assert list(saves) == [f"save_{a}" for a in ABILITIES]
        assert saves["save_con"]["label"] == label
        for ability in ABILITIES:
            mods = cli("--json", "--lang", lang, "mods", "Aria", "save", "--save", ability)
            assert mods.code == 0, mods.err
            said = {k: v for k, v in mods.json.items() if k not in ("character", "name", "roll")}
            mine = saves[f"save_{ability}"]
            assert {k: mine[k] for k in said} == said and mine["asked"] == mods.json["roll"], ability
        sources = [line["source"]["name"] for line in saves["save_con"]["disadvantage"]]
        assert sources == [exhausted]


def test_a_pf1e_player_reads_fortitude_reflex_and_will_in_that_order(client):
    gm, token = table(client, "pf1e", {"fortitude": 3})
    for lang, labels in (("en", ["Fortitude save", "Reflex save", "Will save"]),
                         ("fr", ["Jet de Vigueur", "Jet de Réflexes", "Jet de Volonté"])):
        saves = saves_of(client.get(f"/api/player/{token}?lang={lang}").json())
        assert list(saves) == ["save_fortitude", "save_reflex", "save_will"]
        assert [s["label"] for s in saves.values()] == labels


def test_a_french_prompt_names_the_5e_save_and_the_condition_in_french(client, cli):
    """The prompt, the page, `pending` and the log of a 5e save in French: "jet de sauvegarde de Constitution",
    "Épuisé : désavantage"; no English name left in the French."""
    gm, token = table(client, "dnd5e", {"con": 5})
    gm("options/who_rolls", {"value": "players"}, method="PUT")
    gm("expose", {"character": "Aria", "affliction": "filth_fever", "save": 1, "deadly": "impaired"})
    gm("advance", {"duration": "1d"})
    for lang, save, why in (("en", "Constitution save", "Exhausted: disadvantage"),
                            ("fr", "jet de sauvegarde de Constitution", "Épuisé : désavantage")):
        prompt = client.get(f"/api/player/{token}/prompts?lang={lang}").json()["prompts"][0]
        assert prompt["save_name"] == save and why in prompt["modifiers_text"]
        page = client.get(f"/p/{token}?lang={lang}", headers={"Accept-Language": lang}).text
        assert why in page.replace("\u00a0", " ")  # (a French page holds ":" to its word: web/i18n.french_marks)
        pending = cli("--lang", lang, "pending")
        assert save in pending.out, pending.out
    assert "Exhausted" not in client.get(f"/p/{token}?lang=fr", headers={"Accept-Language": "fr"}).text
    answered = client.post(f"/api/player/{token}/answer?lang=fr", json={"pending": prompt["id"], "d20": 3})
    assert answered.status_code == 200, answered.text
    log = cli("--lang", "fr", "log")
    assert "jet de sauvegarde de Constitution" in log.out and "jet de Constitution" not in log.out, log.out


def test_what_stops_every_roll_is_said_once_on_the_page_and_kept_on_each_roll_in_the_api(client):
    """Seed 000, Force 06-10 "Paralysie temporaire : vous obtenez la condition Paralysée": what paralysis forbids
    holds for every roll, so the player's page says it once above the list; the API keeps it on each roll."""
    gm, token = table(client, "dnd5e", {"con": 5})
    gm("injure", {"character": "Aria", "type": "force", "d20": 7})
    for lang, paralyzed in (("en", "Paralyzed"), ("fr", "Paralysé")):
        view = client.get(f"/api/player/{token}?lang={lang}").json()
        shared = view["restrictions"]
        assert shared and {line["source"]["name"] for line in shared} >= {paralyzed}
        assert all(line in roll["restrictions"] for roll in view["rolls"] for line in shared)
        page = client.get(f"/p/{token}?lang={lang}", headers={"Accept-Language": lang}).text
        rolls = page[page.index('class="panel your-rolls"'):page.index('id="since"')]
        assert rolls.count(str(escape(shared[0]["text"]))) == 1, shared[0]["text"]


def test_mods_in_french_names_the_roll_and_the_conditions_in_french(cli):
    """`sawbones --lang fr mods`: the save is a "jet de sauvegarde de Constitution", the condition that replaces
    Fatigué is "Épuisé", and French puts a space before its colons; no id or English word left."""
    for args in (("campaign", "create", "T", "--system", "dnd5e", "--seed", "3"),
                 ("character", "add", "Aria", "--max-hp", "30", "--saves", "con=5"),
                 ("expose", "Aria", "filth_fever", "--save", "1", "--deadly", "impaired")):
        assert cli(*args).code == 0
    out = cli("--lang", "fr", "mods", "Aria", "save", "--save", "con").out
    assert out.startswith("Aria · jet de sauvegarde de Constitution (D&D 5e)"), out
    assert "jet : désavantage" in out and "désavantage : Épuisé ← Fièvre des marais" in out, out
    assert "(remplacé par Épuisé)" in out and "exhausted" not in out and "· save ·" not in out, out
    english = cli("mods", "Aria", "attack", "--hand", "left").out
    assert english.startswith("Aria · attack · left hand (D&D 5e)"), english


def test_expose_and_advance_in_french_put_a_space_before_their_colons(cli):
    for args in (("campaign", "create", "T", "--system", "dnd5e", "--seed", "3"),
                 ("character", "add", "Aria", "--max-hp", "30", "--saves", "con=5"),
                 ("campaign", "set", "who_rolls", "players")):
        assert cli(*args).code == 0
    exposed = cli("--lang", "fr", "expose", "Aria", "filth_fever", "--save", "1").out
    assert exposed.startswith("Aria · Fièvre des marais (exposition) : jet 1 contre DD 12 raté"), exposed
    advanced = cli("--lang", "fr", "advance", "1d").out
    assert "Aria : jet en attente p" in advanced and "Aria: " not in advanced, advanced
