"""The wound commands and `mods` through the CLI runner: JSON documents, human output, one-line errors."""

from __future__ import annotations

import pytest


@pytest.fixture
def party(cli):
    assert cli("campaign", "create", "T", "--seed", "4").code == 0
    assert cli("character", "add", "Vex", "--abilities", "str=14,dex=12", "--skills", "medicine=5").code == 0
    return cli


def test_wound_json_and_status(party):
    result = party("--json", "wound", "Vex", "hand", "--side", "left", "--damage", "4", "--cause", "flames")
    assert result.code == 0, result.err
    doc = result.json
    assert doc["wound"]["id"] == "w1" and doc["wound"]["name"] == "Hand (left)" and doc["wound"]["superficial"]
    assert doc["events"][0]["type"] == "wound_received"
    status = party("--json", "status", "Vex").json["characters"][0]
    assert [x["id"] for x in status["wounds"]] == ["w1"] and status["wound_conditions"] == []
    human = party("status")
    assert "w1 Hand (left)" in human.out and "first aid (Medicine) DC 15" in human.out  # 5e: its own skill (issue 39)
    assert "Main (côté gauche)" in party("--lang", "fr", "status").out


def test_both_eyes_in_the_status(party):
    party("wound", "Vex", "eye", "--side", "left", "--damage", "2")
    result = party("--json", "wound", "Vex", "oeil", "--side", "droite", "--damage", "2")  # typed as read (issue 39)
    assert result.json["wound_conditions"] == [{"condition": "blinded", "name": "Blinded", "part": "eye",
                                                "wounds": ["w1", "w2"]}]
    assert "Blinded (w1, w2)" in party("status").out


def test_mods_human_and_json(party):
    party("wound", "Vex", "hand", "--side", "right", "--damage", "4")
    party("wound", "Vex", "eye", "--side", "left", "--damage", "3")
    out = party("mods", "Vex", "attack", "--hand", "right", "--melee").out
    assert "modifier -2" in out and "Hand (right) [wound w1]" in out
    out = party("mods", "Vex", "attack").out
    assert "if made with the right hand or arm" in out and "if the attack is ranged" in out
    doc = party("--json", "mods", "Vex", "open_lock").json  # a 3.5 skill as the ROLL shortcut, in 5e
    assert doc["roll"]["skill"] == "sleight_of_hand" and doc["modifier"] == -4
    doc = party("--json", "mods", "Vex", "reflex").json
    assert doc["roll"]["kind"] == "save" and doc["roll"]["save"] == "dex" and doc["modifier"] == -2
    doc = party("--json", "mods", "Vex", "dex").json
    assert doc["roll"]["kind"] == "check" and doc["modifier"] == -2
    assert "bonus -1 (fiche +1, Œil (côté gauche) -2)" in party("--lang", "fr", "mods", "Vex", "initiative").out


@pytest.mark.parametrize("typed, kind, detail", [
    ("attaque", "attack", {}), ("Attack", "attack", {}), ("dégâts", "damage", {}), ("classe d'armure", "ac", {}),
    ("jet de sauvegarde", "save", {}), ("Force", "check", {"ability": "str"}), ("Strength", "check", {"ability": "str"}),
    ("jet de sauvegarde de Dextérité", "save", {"save": "dex"}), ("Dexterity save", "save", {"save": "dex"}),
    ("Réflexes", "save", {"save": "dex"}), ("Discrétion", "skill", {"skill": "stealth"})])
def test_a_gm_names_the_roll_in_either_language(party, typed, kind, detail):
    """`mods NAME ROLL`: a French GM says the roll in French (attaque, Force, jet de sauvegarde de Dextérité), as an
    English one says it in English; both read it the same."""
    doc = party("--json", "mods", "Vex", typed).json
    assert doc["roll"]["kind"] == kind and all(doc["roll"][k] == v for k, v in detail.items()), doc["roll"]


def test_a_roll_not_understood_lists_the_rolls_in_the_readers_language(party):
    result = party("--lang", "fr", "mods", "Vex", "jonglage")
    assert result.code == 2
    assert "n'est ni un jet (attaque, dégâts, test," in result.err and "attack" not in result.err
    assert "is not a roll (attack, damage, check," in party("mods", "Vex", "juggling").err


def test_firstaid_and_wound_heal(party):
    party("wound", "Vex", "foot_leg", "--side", "left", "--damage", "2", "--cause", "caltrops")
    party("wound", "Vex", "head", "--damage", "8")
    result = party("--json", "firstaid", "Vex", "w1", "--check", "12")
    assert result.code == 0 and result.json["success"] is False
    result = party("firstaid", "Vex", "w1", "--healer", "Vex")
    assert result.code == 0 and "First aid on w1" in result.out
    assert party("firstaid", "Vex", "w2", "--check", "20").code == 1  # not superficial
    result = party("--json", "wound-heal", "Vex", "--magic", "5")
    assert result.code == 0 and result.json["recovery"][0]["wound"] == "w2"
    result = party("--json", "wound-heal", "Vex", "w2", "--gm")
    assert result.json["healed"] == ["w2"]


def test_wound_heal_by_rest_needs_a_day(party):
    party("wound", "Vex", "foot_leg", "--side", "left", "--damage", "2")
    result = party("wound-heal", "Vex", "--rest")
    assert result.code == 1 and "less than a day" in result.err
    party("advance", "1d")
    assert "Healed: w1" in party("wound-heal", "Vex", "--rest").out


@pytest.mark.parametrize("args, code, message", [
    (("wound", "Vex", "hand", "--damage", "3"), 2, "needs a side"),
    (("wound", "Vex", "tail", "--damage", "3"), 2, "unknown body part"),
    (("wound", "Vex", "head", "--damage", "3", "--fort", "12"), 1, "allow_fort_ignore"),
    (("wound", "Nobody", "head", "--damage", "3"), 2, "no character named"),
    (("firstaid", "Vex", "w9", "--check", "20"), 2, "no wound 'w9'"),
    (("wound-heal", "Vex", "--magic", "3", "--rest"), 2, "exactly one"),
    (("wound-heal", "Vex", "--gm"), 2, "needs the wounds to heal"),
    (("mods", "Vex", "juggling"), 2, "is not a roll"),
    (("mods", "Vex", "skill", "--skill", "knitting"), 2, "unknown skill"),
])
def test_errors_are_one_line(party, args, code, message):
    result = party(*args)
    assert result.code == code, result.err
    assert message in result.err and "Traceback" not in result.err and len(result.err.strip().splitlines()) == 1


def test_fortitude_through_the_cli(party):
    party("campaign", "set", "allow_fort_ignore", "true")
    party("campaign", "set", "fort_ignore_duration", "10_minutes")
    result = party("wound", "Vex", "hand", "--side", "left", "--damage", "3", "--fort", "13")
    assert "success: penalty ignored" in result.out
    out = party("mods", "Vex", "climb").out
    assert "ignored (Fortitude) until day 1, 00:10:00" in out and "bonus +2 (sheet +2)" in out
    party("advance", "1h")
    assert "bonus +0 (sheet +2, Hand (left) -2)" in party("mods", "Vex", "climb").out
