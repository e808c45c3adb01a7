"""The rolls of a turn, a Dash or an action in the players' hands (issue 12): seed 000's injuries whose effects
trigger on those moments with a save, and the pf1e dying check of the hit point model (content hit_points.yaml).

Seed 000: Nausée, "Faire un jet de sauvegarde de Constitution DD 8 à chaque tour ou passer son action à vomir";
Côtes cassées, "Dès lors que vous tentez une action en combat, vous devez réussir un jet de sauvegarde de
Constitution DD 10 ou perdre votre action et votre réaction"; Blessure par perforation, "Vous perdez 1 point de
vie à la fin de chaque tour tant que vous êtes debout". Pf1e: a dying character makes a DC 10 Constitution check
on each of its turns (minus its negative hit points): stable, or it loses 1 HP; dead at minus its Constitution.

With players rolling, each roll of the moment (the dying check, then each trigger's save, in order) that is the
player's stops the moment there; the answer makes that step with the player's die and runs the rest.
"""

from __future__ import annotations

import pytest


def pending(cli):
    return cli("--json", "pending").json["pending"]


def log(cli):
    return cli("--json", "log", "--limit", "1000").json["events"]


def steps(cli):
    """Every step the moments told, in order, from the `noted` events of the log (undone ones left out)."""
    told = [e["data"] for e in log(cli) if e["type"] == "noted" and not e.get("undone")]
    return [(r.get("on"), (r.get("source") or {}).get("content_id"), r.get("total"),
             r.get("applies", r.get("succeeded"))) for d in told for r in d.get("results") or []]


def sheet(cli, name):
    return next(c for c in cli("--json", "status", name).json["characters"] if c["name"] == name)


@pytest.fixture
def table(cli):
    """5e: Aria has Nausea twice (two saves at the start of each turn) and a Puncture Wound (1 HP lost at the end
    of each turn while standing); the players roll."""
    assert cli("campaign", "create", "Table", "--seed", "4").code == 0
    cli("character", "add", "Aria", "--max-hp", "20", "--saves", "con=2")
    for table, d20 in (("acid", "19"), ("poison", "19"), ("piercing", "12")):
        assert cli("injure", "Aria", "--type", table, "--d20", d20).code == 0
    cli("campaign", "set", "puncture_zero_hp_injury", "none")
    cli("campaign", "set", "who_rolls", "players")
    return cli


def test_a_nausea_save_waits_for_the_player_and_their_die_makes_it(table):
    cli = table
    assert cli("turn", "Aria").code == 0
    [waiting] = pending(cli)
    assert (waiting["kind"], waiting["to"], waiting["save"], waiting["dc"]) == ("moment", "player", "con", 8)
    assert waiting["about"] == "Nausea: start of the turn" and waiting["save_name"] == "Constitution save"
    assert steps(cli) == [] and sheet(cli, "Aria")["hp"] == 20  # nothing made yet: the turn stops at its first save
    french = cli("--lang", "fr", "pending").out
    assert "Nausée : début du tour" in french and "jet de sauvegarde de Constitution DD 8" in french
    assert cli("answer", waiting["id"], "7").code == 0  # failed: the action is spent vomiting
    assert steps(cli) == [("turn_start", "nausea", 7, True)]
    cleared = [e["data"] for e in log(cli) if e["type"] == "pending_cleared"]
    assert cleared == [{"id": waiting["id"], "character": "aria", "by": "gm", "how": "total"}]
    assert pending(cli)[0]["about"] == "Nausea: start of the turn"  # the second Nausea's save is next


def test_each_player_roll_waits_in_turn_and_every_step_is_told_once_as_the_gm_would_have(table):
    """The same turn, the GM typing both totals, tells the same steps with the same outcome."""
    cli = table
    assert cli("turn", "Aria").code == 0
    first = pending(cli)[0]["id"]
    assert cli("answer", first, "12").code == 0
    second = pending(cli)[0]["id"]
    assert second != first and sheet(cli, "Aria")["hp"] == 20  # the Puncture Wound waits behind the second save
    assert cli("answer", second, "3").code == 0
    assert pending(cli) == [] and sheet(cli, "Aria")["hp"] == 19
    played = steps(cli)
    assert played == [("turn_start", "nausea", 12, False), ("turn_start", "nausea", 3, True),
                      ("turn_end", "puncture_wound", None, True)]

    cli("undo"), cli("undo"), cli("undo")  # the two answers and the turn
    assert steps(cli) == [] and pending(cli) == [] and sheet(cli, "Aria")["hp"] == 20
    assert cli("turn", "Aria", "--rolls", "gm", "--save", "12", "--save", "3").code == 0
    assert steps(cli) == played and sheet(cli, "Aria")["hp"] == 19


def test_steps_before_the_pause_stand_and_a_typed_total_serves_first(table):
    """The GM types the first save (`--save`): it is made at once; the second is the player's."""
    cli = table
    assert cli("turn", "Aria", "--save", "2").code == 0
    assert steps(cli) == [("turn_start", "nausea", 2, True)]
    [waiting] = pending(cli)
    told = [e for e in log(cli) if e["type"] == "noted"][-1]["data"]
    assert told["waits"] == waiting["id"]
    assert cli("answer", waiting["id"], "--roll").code == 0
    played = steps(cli)
    assert len(played) == 3 and played[0] == ("turn_start", "nausea", 2, True)  # not made again
    assert played[2] == ("turn_end", "puncture_wound", None, True)


def test_standing_is_read_when_the_step_comes_not_when_the_moment_began(table):
    """At 1 HP with two Puncture Wounds, the first drops Aria to 0: she is no longer standing, the second does
    nothing, whether the turn paused for a player's save before them or not."""
    cli = table
    cli("injure", "Aria", "--type", "piercing", "--d20", "13")  # a second Puncture Wound
    cli("character", "edit", "Aria", "--hp", "1")
    assert cli("turn", "Aria").code == 0
    for _ in range(2):
        assert cli("answer", pending(cli)[0]["id"], "15").code == 0
    assert [s[1] for s in steps(cli)] == ["nausea", "nausea", "puncture_wound"]
    assert sheet(cli, "Aria")["hp"] == 0


def test_undoing_the_answer_puts_the_roll_back_in_the_players_hands(table):
    cli = table
    cli("turn", "Aria")
    first = pending(cli)[0]["id"]
    cli("answer", first, "3")
    assert cli("undo").code == 0
    assert [p["id"] for p in pending(cli)] == [first] and steps(cli) == []
    assert cli("answer", first, "14").code == 0 and steps(cli)[0] == ("turn_start", "nausea", 14, False)


@pytest.fixture
def pf1e(cli):
    """Pf1e: Elfe (Con 12: +1) has Nausea and is dying at -3 HP; the players roll."""
    assert cli("campaign", "create", "Table", "--system", "pf1e", "--seed", "4").code == 0
    cli("character", "add", "Elfe", "--max-hp", "10", "--abilities", "con=12", "--saves", "fortitude=2")
    cli("injure", "Elfe", "--type", "acid", "--d20", "19")
    cli("character", "edit", "Elfe", "--hp", "-3")
    cli("campaign", "set", "who_rolls", "players")
    return cli


def test_the_dying_check_goes_to_the_player_and_a_stable_character_makes_no_save_that_turn(pf1e):
    """Unconscious, the dying character's check is its whole turn: no Nausea save follows it, stable or not."""
    cli = pf1e
    cli("turn", "Elfe")
    [check] = pending(cli)
    assert (check["kind"], check["save_name"], check["dc"], check["about"]) == ("dying", "Constitution check", 10,
                                                                                "dying: stabilize")
    assert cli("answer", check["id"], "--d20", "12").code == 0  # 12 + 1 (Con) - 3 (HP below 0) = 10: stable
    assert sheet(cli, "Elfe")["stable"] and steps(cli) == [("dying", None, 10, True)] and pending(cli) == []
    cli("undo")
    assert cli("answer", check["id"], "--d20", "2").code == 0  # 2 + 1 - 3 = 0: 1 HP lost, still dying
    assert sheet(cli, "Elfe")["hp"] == -4 and steps(cli) == [("dying", None, 0, False)] and pending(cli) == []
    cli("character", "edit", "Elfe", "--hp", "5")  # healed: conscious again, its next turn makes its Nausea save
    cli("turn", "Elfe")
    [nausea] = pending(cli)
    assert nausea["kind"] == "moment" and nausea["save_name"] == "Fortitude" and nausea["dc"] == 8


def test_a_character_dying_at_its_check_makes_no_more_saves(pf1e):
    cli = pf1e
    cli("character", "edit", "Elfe", "--hp", "-11")  # dead at -12 (minus its Constitution)
    cli("turn", "Elfe")
    assert cli("answer", pending(cli)[0]["id"], "1").code == 0  # failed: 1 HP lost
    assert sheet(cli, "Elfe")["dead"] and pending(cli) == []
    assert steps(cli) == [("dying", None, 1, False)]


def test_an_npcs_rolls_stay_the_gms_and_a_moment_without_a_save_is_as_before(table):
    cli = table
    cli("campaign", "set", "apply_to_npcs", "true")
    cli("character", "add", "Gob", "--max-hp", "9", "--npc")
    cli("injure", "Gob", "--type", "acid", "--d20", "19")
    assert cli("turn", "Gob").code == 0 and pending(cli) == []
    assert steps(cli)[0][:2] == ("turn_start", "nausea")
    cli("character", "add", "Bo", "--max-hp", "9")
    cli("injure", "Bo", "--type", "piercing", "--d20", "12")  # a Puncture Wound: no save at all
    cli("campaign", "set", "who_rolls", "ask")
    assert cli("turn", "Bo").code == 0 and pending(cli) == [] and sheet(cli, "Bo")["hp"] == 8
    asked = cli("turn", "Aria")  # who rolls Aria's save? The GM must say, and nothing is written
    before = log(cli)
    assert asked.code == 2 and asked.err.startswith("error:") and "who rolls Aria's save?" in asked.err
    assert log(cli) == before


def test_a_second_moment_waits_for_the_first_and_an_interrupted_advance_resumes_after_both(cli):
    """Pf1e: Cora's filth fever save, due in a day, waits for her player; her turn comes meanwhile: its save waits
    too. Whichever is answered last, the advance then goes on to its end."""
    assert cli("campaign", "create", "Table", "--system", "pf1e", "--seed", "4").code == 0
    cli("character", "add", "Cora", "--max-hp", "20", "--saves", "fortitude=3")
    cli("expose", "Cora", "filth_fever", "--save", "1")
    cli("injure", "Cora", "--type", "acid", "--d20", "19")
    cli("campaign", "set", "who_rolls", "players")
    cli("advance", "3d")
    [fever] = pending(cli)
    assert fever["kind"] == "periodic" and fever["target"] == 3 * 86400
    assert cli("turn", "Cora").code == 0
    moment = [p for p in pending(cli) if p["kind"] == "moment"][0]
    refused = cli("dash", "Cora")
    assert refused.code == 1 and "Cora's turn waits for a roll" in refused.err and refused.err.count("\n") == 1
    assert cli("answer", fever["id"], "20").code == 0
    assert [p["id"] for p in pending(cli)] == [moment["id"]] and cli("--json", "status").json["clock"] < 3 * 86400
    assert cli("answer", moment["id"], "20").code == 0  # the advance goes on, to the fever's next save
    [after] = pending(cli)
    assert after["kind"] == "periodic" and after["at"] > fever["at"] and after["target"] == 3 * 86400
    assert cli("--json", "status").json["clock"] == after["at"]


def test_the_pending_list_says_where_the_clock_goes_only_when_an_advance_waits(table):
    """A GM reading `sawbones pending`: a turn's save moves no clock, so nothing 'resumes up to' the time it is
    already; a save that interrupted an advance says where the advance goes once answered."""
    cli = table
    assert cli("turn", "Aria").code == 0
    for lang, words in (("en", "resumes up to"), ("fr", "reprend jusqu'à")):
        shown = cli("--lang", lang, "pending").out
        assert "sawbones answer" in shown and words not in shown, shown
    cli("campaign", "create", "Later", "--system", "pf1e", "--seed", "4")
    cli("character", "add", "Cora", "--max-hp", "20", "--saves", "fortitude=3")
    cli("expose", "Cora", "filth_fever", "--save", "1")
    cli("campaign", "set", "who_rolls", "players")
    cli("advance", "3d")
    assert "resumes up to day 4" in cli("pending").out
