"""Every event type the engine can emit reads as a sentence in English and French (interfaces/sentences.py).

Stories played through the CLI make every event type (the test fails naming a type no story
reaches, so a new event type needs a story and a sentence); each stored event is then said in both
languages, and a line that looks like data (a dict, a list, a Python literal) or shows an internal
id (snake_case like long_rest, cure_wounds) fails.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import pytest

from sawbones.application.service import UNDO
from sawbones.domain.engine.evolve import event_types
from sawbones.presentation.locale import set_language, speaking
from sawbones.presentation.sentences import SENTENCES, check_text, sentence

FIVE_E = [
    "campaign create Coast --seed 7",
    "character add Aria --max-hp 24 --prof medicine,herbalism_kit --skills medicine=5 --hit-dice 3",
    "character add Borin --max-hp 31 --abilities str=16,con=16",
    "character add Cleo --max-hp 8",
    "damage Borin 35 fire --d20 2",
    "stabilize Borin",
    "treat Borin i1 --healer Aria",
    "rest --long",
    "heal Borin --spell regenerate",
    "damage Aria 30 cold --d20 4",
    "advance 3d",
    "turn Aria",
    "campaign set temporary_condition_duration 1_minute",
    "injure Cleo --type force --d20 7",
    "advance 2min",
    "character edit Cleo --notes brave",
    "injure Cleo --type bludgeoning --d20 1",
    "action Cleo --save 1",
    "turn Cleo --prone",
    "stand Cleo",
    "character remove Cleo",
    "campaign set severity_bands lenient",
    "campaign set --pack {pack}",
    "campaign set --no-packs",
    "campaign rename Coast Côte",
    "undo",
]
PF = [
    "campaign create Golarion --system pf1e --seed 3",
    "character add Kyra --max-hp 30 --saves fortitude=14",
    "character add Val --max-hp 20",
    "character add Zed --max-hp 6 --saves fortitude=-20",
    "wound Kyra hand --side left --damage 3 --superficial",
    "firstaid Kyra w1 --check 18",
    "wound Kyra arm --side right --damage 4 --severe",
    "wound-heal Kyra --magic 2",
    "campaign set allow_fort_ignore true",
    "campaign set fort_ignore_duration 1_minute",
    "wound Kyra eye --side right --damage 8 --severe --fort 30",
    "expose Kyra giant_scorpion_venom --save 3",
    "expose Kyra giant_scorpion_venom --save 3",
    "advance 1r",
    "pending",
    "answer {pending} 5",
    "advance 1d --auto",
    "expose Val filth_fever --save 2",
    "cure Val {val} --spell remove_disease --cl-check 30",
    "expose Zed deathblade --save 1",
    "advance 2d --auto",
    "recover Kyra --night",
    "recover Kyra --bed-rest",
    "expose Val filth_fever --save 2",
    "cure Val filth_fever --spell miracle",
    # players roll their own saves (issue 12): a player's answer waits for the GM, who rejects then confirms it
    "campaign set who_rolls players",
    "campaign set confirm_player_answers true",
    "campaign set afflictions_known false",
    "campaign set check_reveals_affliction true",
    "expose Val cackle_fever",
    "@player {pending} roll",
    "answer {pending} --reject",
    "@player {pending} d20=1",
    "answer {pending} --confirm",
    "diagnose Val cackle_fever --healer Kyra --check 30",
    "reveal Val cackle_fever --hide",
    "wound Kyra hand --side right --damage 2",
    "@player {pending} roll",
    "answer {pending} --confirm",
]

def all_types():
    from sawbones.domain.engine.evolve import evolve
    from sawbones.domain.engine.state import Campaign

    evolve(Campaign(name="x"), {"type": "campaign_created", "data": {"name": "x", "system": "dnd5e", "seed": 1}})
    return set(event_types()) | {UNDO}  # the first fold loads every rule module's handlers


ALL = all_types()
DATA_LOOK = re.compile(r"[{}\[\]]|': |\b(None|True|False)\b|\b[a-z]+(?:_[a-z0-9]+)+\b")


def play(cli, script, player=None):
    for line in script:
        if "{pending}" in line:
            pending = cli("--json", "pending").json["pending"]
            if not pending:
                continue
            line = line.format(pending=pending[0]["id"])
        if "{pack}" in line:
            pack = Path(tempfile.mkdtemp()) / "pack"
            pack.mkdir()
            (pack / "empty.yaml").write_text("{}\n", encoding="utf-8")
            line = line.format(pack=pack)
        if "{val}" in line:
            val = cli("--json", "status", "Val").json["characters"][0]["afflictions"]
            line = line.format(val=val[-1]["id"])
        if line.startswith("@player"):  # the character's player answers from their page (the player API)
            player(*line.split()[1:])
            continue
        cli(*line.split())  # some steps may be refused by the rules: the events made are what counts
    return cli("--json", "log", "--limit", "100000").json


@pytest.fixture(scope="module")
def stories(tmp_path_factory):
    from sawbones.interfaces.cli import main
    import contextlib
    import io
    import json

    db = str(tmp_path_factory.mktemp("stories") / "s.db")

    class R:
        def __init__(self, out):
            self.out = out

        @property
        def json(self):
            return json.loads(self.out)

    def cli(*args):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            main(["--db", db, *args])
        return R(out.getvalue())

    def player(pending_id, how):
        from sawbones.application.service import Service
        from sawbones.domain.afflictions.decide import answer

        service = Service.open(db)
        owner = next(p.character for p in service.load("Golarion").state.pending if p.id == pending_id)
        d20 = int(how.partition("=")[2]) if how.startswith("d20=") else None
        service.act("Golarion", lambda ctx: answer(ctx, pending_id, d20=d20, roll=how == "roll", by="player",
                                                   player=owner))

    logs = [play(cli, FIVE_E), play(cli, PF, player)]
    from sawbones.application.service import Service

    service = Service.open(db)
    out = []
    for log in logs:
        loaded = service.load(log["campaign"])
        out.append((loaded.state, service.rules_for(loaded.state), log["events"]))
    return out


def test_every_event_type_has_a_sentence():
    assert ALL <= set(SENTENCES), ALL - set(SENTENCES)


def test_the_stories_reach_every_event_type(stories):
    from sawbones.domain.engine.evolve import KEYED

    seen = {e["type"] for _, _, events in stories for e in events}
    # an idempotency key is recorded only for API requests that send one (tests/test_requests.py)
    missing = (ALL) - seen - {KEYED}
    assert not missing, f"no story emits {sorted(missing)}: add a step to FIVE_E or PF"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_event_reads_as_a_sentence(stories, lang):
    options = set()
    for state, rules, events in stories:
        options |= set(rules.options)
        for e in events:
            with speaking(lang):
                text = sentence(e, state, rules)
            assert text.strip(), e["type"]
            for line in text.splitlines():
                shown = re.sub(r"/\S+", "", line)  # folder paths are shown as they are
                if e["type"] == "option_set":  # the option's id is what `campaign set` takes
                    shown = line.replace(e["data"]["option"], "")
                found = DATA_LOOK.search(shown)
                assert found is None, f"{e['type']} in {lang}: {line!r} shows {found.group(0)!r}"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_recorded_idempotency_key_reads_as_a_sentence(lang):
    from sawbones.content.loader import load_rules
    from sawbones.domain.engine.evolve import KEYED

    with speaking(lang):
        text = sentence({"type": KEYED, "data": {"key": "k1", "digest": "abc", "answer": {}}}, None, load_rules())
    assert text.strip() and DATA_LOOK.search(text) is None, text


def test_french_sentences_use_french_units(stories):
    for state, rules, events in stories:
        for e in events:
            with speaking("fr"):
                text = sentence(e, state, rules)
            assert not re.search(r"\b(HP|DC)\b", text), text


if __name__ == "__main__":  # print every sentence of the stories: python tests/test_sentences.py fr
    import sys

    set_language(sys.argv[1] if len(sys.argv) > 1 else "en")

    class _Tmp:
        def mktemp(self, name):
            return Path(tempfile.mkdtemp())

    for state, rules, events in stories.__wrapped__(_Tmp()):
        for e in events:
            print(f"{e['type']:<24} {sentence(e, state, rules)}")


def test_a_rolled_treatment_check_shows_its_die_and_bonus_not_typed(tmp_path, capsys):
    """A healer rolls the check (d20 + Medicine, through the roll query): the line shows the die and the bonus;
    "typed" only when the GM typed the total."""
    from sawbones.interfaces.cli import main

    db = str(tmp_path / "t.db")
    for args in (["campaign", "create", "T", "--seed", "7"],
                 ["character", "add", "Aria", "--max-hp", "24", "--prof", "medicine,herbalism_kit", "--skills",
                  "medicine=5"],
                 ["character", "add", "Bo", "--max-hp", "20"], ["injure", "Bo", "--type", "fire", "--d20", "19"]):
        assert main(["--db", db, *args]) == 0
    capsys.readouterr()
    assert main(["--db", db, "--json", "treat", "Bo", "i1", "--healer", "Aria"]) == 0
    events = json.loads(capsys.readouterr().out)["events"]
    check = next(e for e in events if e["type"] in ("treatment_failed", "injury_healed") and "check" in e["data"])
    die = check["data"]["rolls"][-1]
    assert not die["typed"]
    line = check_text(check["data"])
    assert "typed" not in line and f"1d20: {die['faces'][0]}, +5" in line, line
    with speaking("fr"):
        assert f"1d20 : {die['faces'][0]}, +5" in check_text(check["data"])  # the French colon, as the page sets it
        assert check_text({"check": 14, "rolls": []}) == "14 (tapé)"
