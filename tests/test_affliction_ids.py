"""A disease is `d<n>`, a poison `t<n>` (toxin): never the `a<n>` of an action, which `log`, `undo a14` and the
API's named undo show. The number is the campaign's one count (injuries, wounds, afflictions, pending saves).

Campaigns from before keep their `a<n>` afflictions (ids never lie): tests/fixtures/legacy_afflictions.json was
exported with the code at 812c75b (pf1e, seed 7): Brena got wound w1 and a2 Filth Fever, Tam a3 Giant Scorpion
Venom, then a4 Mindfire, undone."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from sawbones.application.service import Service
from sawbones.interfaces.cli import main
from test_newcomer import readme_commands
from test_tracks_helpers import ok

FIXTURES = Path(__file__).parent / "fixtures"
LEGACY = FIXTURES / "legacy_afflictions.json"
ACTION_LABEL = re.compile(r"^\s*\d+\s+(a\d+)\s", re.M)  # `log`: "   12 a8    action 7 undone"


def _afflictions(doc: dict) -> dict[str, list[str]]:
    return {c["name"]: [a["id"] for a in c["afflictions"]] for c in doc["characters"]}


def test_the_tours_disease_is_never_named_like_an_action(tmp_path, monkeypatch, capsys):
    """The README's quick tour up to its `log`: Aria catches filth fever, and the log shows every action. The
    disease's id (in `status`, as the GM reads it) is none of the action labels `log` shows."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SAWBONES_DATABASE_URL", raising=False)
    commands = readme_commands()
    story = commands[:commands.index(["log"])]
    assert ["expose", "Aria", "filth_fever", "--save", "3"] in story
    for args in story:
        assert main(args) == 0, args
    capsys.readouterr()
    assert main(["log"]) == 0
    actions = set(ACTION_LABEL.findall(capsys.readouterr().out))
    assert main(["status"]) == 0
    status = capsys.readouterr().out
    assert main(["--json", "status"]) == 0
    shown = [i for ids in _afflictions(json.loads(capsys.readouterr().out)).values() for i in ids]
    assert len(actions) >= 10 and shown and all(i.startswith("d") for i in shown), (actions, shown)
    assert not set(shown) & actions, "an affliction and an action share an id"
    for i in shown:
        assert re.search(rf"\b{i} Filth Fever\b", status)
    assert not {a for a in actions if re.search(rf"\b{a}\b", status)}, "status shows no action label"


def test_a_disease_gets_a_d_id_and_a_poison_a_t_id(cli):
    """The letter says the kind; the number is the campaign's count, shared with wounds and injuries."""
    ok(cli("campaign", "create", "T", "--system", "pf1e", "--seed", "3"))
    ok(cli("character", "add", "Aria", "--max-hp", "40"))
    ok(cli("wound", "Aria", "hand", "--damage", "3", "--side", "left"))  # w1
    poison = ok(cli("expose", "Aria", "giant_scorpion_venom", "--save", "1")).out
    disease = ok(cli("expose", "Aria", "filth_fever", "--save", "1")).out
    assert "t2 Giant Scorpion Venom · poison" in poison and "d3 Filth Fever · disease" in disease
    assert _afflictions(ok(cli("--json", "status")).json) == {"Aria": ["t2", "d3"]}
    french = ok(cli("--lang", "fr", "status")).out
    assert "t2 Venin de scorpion géant" in french and "d3 Fièvre des marais" in french
    cured = ok(cli("--json", "cure", "Aria", "t2", "--spell", "neutralize_poison", "--cl-check", "40")).json
    assert [e["data"]["state"]["id"] for e in cured["events"]] == ["t2"]
    ok(cli("undo"))  # the undone cure gives nothing back: the next id still counts on
    assert "d4 Mindfire" in ok(cli("expose", "Aria", "mindfire", "--save", "1")).out


def test_an_old_campaigns_afflictions_keep_their_a_ids(tmp_path, cli, db):
    """An export from before (a2 Filth Fever, a3 Giant Scorpion Venom, a4 undone) imports and replays with the
    same ids; the commands find them by those ids; the clock's saves run for them; the next new affliction takes
    a number no id ever had (4, undone, stays spent)."""
    shutil.copy(LEGACY, tmp_path / "old.json")
    ok(cli("import", str(tmp_path / "old.json")))
    ok(cli("campaign", "use", "Old Fever"))
    assert _afflictions(ok(cli("--json", "status")).json) == {"Brena": ["a2"], "Tam": ["a3"]}
    reloaded = Service(Service.open(db).store, memory_cache=False).load("Old Fever").state
    assert [a.id for c in reloaded.characters for a in c.afflictions] == ["a2", "a3"], "a replay gives the same ids"
    assert reloaded.counter == 4

    saved = ok(cli("--json", "advance", "1r", "--auto")).json  # Tam's poison saves on its round
    assert [e["data"]["state"]["id"] for e in saved["events"] if e["type"] == "affliction_saved"] == ["a3"]
    refused = cli("cure", "Tam", "d3", "--spell", "neutralize_poison", "--cl-check", "40")
    assert refused.code != 0 and "'d3'" in refused.err and "a3 giant_scorpion_venom" in refused.err, "not renamed"
    for name, id_, spell, check in (("Brena", "a2", "remove_disease", "30"), ("Tam", "a3", "neutralize_poison", "40")):
        cured = ok(cli("--json", "cure", name, id_, "--spell", spell, "--cl-check", check)).json
        assert [e["data"]["state"]["id"] for e in cured["events"] if e["type"] == "affliction_spell"] == [id_]

    new = ok(cli("--json", "expose", "Tam", "mindfire", "--save", "1")).json
    contracted = [e["data"]["state"]["id"] for e in new["events"] if e["type"] == "affliction_contracted"]
    assert contracted == ["d5"], "4 was handed out (the undone Mindfire): never again"
    doc = ok(cli("--json", "status", "Tam")).json
    assert [a["id"] for a in doc["characters"][0]["afflictions"]] == ["d5"], "a3 cured and gone"
