"""Words that are a GM's (issue 39, item 6), from the user's steps: form errors named fields (`parts.0.amount : …`);
`campaign options` showed rule ids (AMB-0-9, TRK-8), two "General" sections, and values it then called "not
modelled"; `tables` printed `Severity: severity`; `damage` printed `Borin: feet -1`; the page said `waiting save p6
answered by the player (a d20 typed)` and `Undo a14`; counts disagreed with nouns (`1 saves waiting`, `1 jets en
attente`, `1,00 essais`); French marks were missing on the CLI (`Éloïse:`, `Jet d'attaque;`); `est exposé(e)`."""

from __future__ import annotations

import re
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sawbones.application.service import Service
from sawbones.presentation.typeset import unit_name
from sawbones.presentation.locale import speaking
from sawbones.interfaces.web import create_app

RULE_ID = re.compile(r"\b(?:AMB|TRK|INJ|LOC)-\d")


def said(lang, words, *args):
    """What a typeset function writes for a reader of `lang`."""
    with speaking(lang):
        return words(*args)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_campaign_options_say_what_a_gm_reads(cli, lang):
    assert cli("campaign", "create", "T").code == 0
    out = cli("--lang", lang, "campaign", "options").out
    assert not RULE_ID.search(out), RULE_ID.search(out)
    heads = [line for line in out.splitlines() if line and not line.startswith(" ")]
    assert len(heads) == len(set(heads)), heads  # each group once ("General" was twice)
    facts = out.split("raise_cures_affliction = ", 1)[1].splitlines()[1]
    assert "true" in facts and "false" not in facts  # its "one of" lists only what the engine takes
    assert RULE_ID.search(cli("--json", "campaign", "options").out)  # the ids stay in --json


def test_tables_and_damage_say_it_in_words(cli):
    assert cli("campaign", "create", "T", "--seed", "1").code == 0
    assert cli("character", "add", "Borin", "--max-hp", "10").code == 0
    assert "Severity: severity" not in cli("tables").out
    out = cli("damage", "Borin", "12", "slashing", "--d20", "1").out
    assert "Borin loses a hand" in out and "-1" not in out.split("Borin loses")[1].split("\n")[0]
    assert "Borin perd une main" in cli("--lang", "fr", "log").out


def test_french_on_the_command_line_has_its_marks_and_no_gender_marks(cli):
    assert cli("campaign", "create", "T", "--seed", "1").code == 0
    assert cli("character", "add", "Éloïse", "--max-hp", "30").code == 0
    wound = cli("--lang", "fr", "wound", "Éloïse", "main", "--side", "gauche", "--damage", "2").out
    assert wound.startswith("Éloïse :") and "Éloïse:" not in wound and " ;" in wound and "d'attaque;" not in wound
    exposed = cli("--lang", "fr", "expose", "Éloïse", "filth_fever", "--save", "1").out + \
        cli("--lang", "fr", "log").out
    assert "(e)" not in exposed and "exposé" not in exposed
    assert "day 1, 00:00:00" not in exposed and re.search(r"\d\d:\d\d:\d\d", exposed)  # a time keeps its colons


@pytest.mark.parametrize("n, en, fr", [(0, "saves waiting", "jet en attente"), (1, "save waiting", "jet en attente"),
                                       (2, "saves waiting", "jets en attente"), (1.0, "attempt", "essai")])
def test_a_count_agrees_with_its_noun(n, en, fr):
    unit = "attempt" if isinstance(n, float) else "save_waiting"
    assert said("en", unit_name, unit, n) == en and said("fr", unit_name, unit, n) == fr


def test_the_dashboard_says_it_in_words(db):
    app = create_app(lambda: Service.open(db))
    with TestClient(app, base_url="http://testserver") as client:
        made = client.post("/api/campaigns", json={"name": "Alpha", "seed": 5}).json()
        gm = {"Authorization": f"Bearer {made['gm_secret']}"}
        client.post("/api/campaigns/Alpha/characters", json={"name": "Cora", "max_hp": 20}, headers=gm)
        client.put("/api/campaigns/Alpha/options/who_rolls", json={"value": "players"}, headers=gm)
        client.post("/api/campaigns/Alpha/expose", json={"character": "cora", "affliction": "filth_fever", "save": 1},
                    headers=gm)
        client.post("/api/campaigns/Alpha/advance", json={"duration": "1d"}, headers=gm)
        link = client.get("/api/campaigns/Alpha/characters/Cora/player-link", headers=gm).json()["url"]
        player = TestClient(app, base_url="http://testserver")
        csrf = re.search(r'name="csrf" value="([^"]+)"', player.get(link).text).group(1)
        pending = client.get("/api/campaigns/Alpha/dashboard", headers=gm).json()["pending"][0]["id"]
        player.post(f"{link}/answer", data={"csrf": csrf, "pending": pending, "d20": "20"})
        client.get(client.post("/api/campaigns/Alpha/sign-in-link", headers=gm).json()["gm_link"])
        page = client.get("/c/Alpha").text
        fr = client.get("/c/Alpha?lang=fr").text
        page_csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
        bad = client.post("/c/Alpha/act/damage", data={"csrf": page_csrf, "character": "cora", "parts.0.amount": "lots",
                                                       "parts.0.type": "fire", "back": "char-cora"})
    assert "Cora: the player answered the save waiting (a d20 typed)" in page
    assert not re.search(r"waiting save p\d", page) and not re.search(r"Undo a\d", page)
    assert re.search(r'class="count">\d</span> (save|saves) waiting', page)
    assert not re.search(r'class="count">1</span> saves', page) and not re.search(r'class="count">1</span> jets', fr)
    flash = re.search(r'id="flash"[^>]*>(.*?)</div>', bad.text, re.S).group(1)
    assert "parts.0" not in flash and re.search(r"(amount|montant)\s?: ", flash), flash


@pytest.mark.parametrize("lang, said", [
    ("en", "Summary: 2 saves (1 made, 1 failed), 1 stage change."),
    ("fr", "Bilan : 2 jets (1 réussi, 1 raté), 1 changement de cran."),
])
def test_the_advance_summary_counts_agree_with_their_nouns(cli, lang, said):
    """The README's tour: `advance 2d --auto` said "saves 2 (1 made, 1 failed), stage changes 1" and, in French,
    "jets 2 (1 réussis, 1 ratés)"."""
    assert cli("campaign", "create", "Sword Coast", "--seed", "7").code == 0
    assert cli("character", "add", "Aria", "--max-hp", "24").code == 0
    assert cli("expose", "Aria", "filth_fever", "--save", "3").code == 0
    out = cli("--lang", lang, "advance", "2d", "--auto").out
    assert said in out, out


def test_an_unknown_table_is_said_in_french_whole(cli):
    """`tables nope` in French ended in English ("; or KIND:ID with KIND one of …") and named leprosy twice."""
    r = cli("--lang", "fr", "tables", "nope")
    assert r.code == 2
    assert "pas de table 'nope'" in r.err and " with " not in r.err and "one of" not in r.err
    assert " ; ou TYPE:ID" in r.err and r.err.count("leprosy") == 1


def test_wound_rolls_keep_the_french_marks(cli):
    """A wound's rolls, read on the page and the CLI: "Jet d'attaque ; …" (the 3.5 list was "Jet d'attaque;")."""
    from sawbones.content.loader import load_rules
    from sawbones.domain.wounds.words import affects

    rules = load_rules()
    for part in rules.body_parts.values():
        for system in (None, "dnd5e"):
            text = affects(part, rules, system, "fr")
            assert not re.search(r"\w;", text), text


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_an_injury_gone_in_the_action_is_still_named(cli, lang):
    """The README's tour: `treat Borin i1` said "treatment of i1 begins", "i1 turns worse" once the burn had
    turned worse (gone from Borin), the log and `heal` too; now the id comes with the injury's name."""
    assert cli("campaign", "create", "Sword Coast", "--seed", "7").code == 0
    for args in (("character", "add", "Aria", "--max-hp", "24", "--prof", "medicine,herbalism_kit", "--skills",
                  "medicine=5"), ("character", "add", "Borin", "--max-hp", "31"), ("damage", "Borin", "35", "fire", "--d20", "2")):
        assert cli(*args).code == 0
    burn = "Severe Burn (Hands or Feet)" if lang == "en" else "Brûlure sévère (Mains ou pieds)"
    out = cli("--lang", lang, "treat", "Borin", "i1", "--healer", "Aria").out
    lines = [line for line in out.splitlines() if "i1" in line]
    assert lines and all(f"i1 {burn}" in line for line in lines), out
    out = cli("--lang", lang, "heal", "Borin", "--spell", "regenerate").out
    assert re.search(r"i2 \w", out), out
    log = [line for line in cli("--lang", lang, "log").out.splitlines() if re.search(r"\bi1\b", line)]
    assert log and all(f"i1 {burn}" in line or "i1 —" in line for line in log), log
