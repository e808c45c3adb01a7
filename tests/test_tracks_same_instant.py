"""Seed 004: "La victime tente un jet de sauvegarde à un rythme basé sur la fréquence de la maladie."

Every save that falls due at one moment is made at that moment, whoever it belongs to, and however the
advance was interrupted: nothing due at an instant is dropped or pushed into the past by a player's die.
"""

from __future__ import annotations

from test_tracks_helpers import expose, ok

F = 1  # a failed initial save


def _party(cli) -> None:
    ok(cli("campaign", "create", "t", "--system", "pf1e", "--seed", "3"))
    for name in ("Mira", "Tobin", "Sela"):
        ok(cli("character", "add", name, "--saves", "fortitude=2", "--max-hp", "30"))


def _saves(doc: dict) -> list[tuple[str, int]]:
    return [(e["data"]["character"], e["data"]["at"]) for e in doc["events"] if e["type"] == "affliction_saved"]


def test_every_save_due_at_the_same_moment_is_queued_together(cli):
    # a marsh crossing: three companions catch filth fever (1/day) in the same hour
    _party(cli)
    for name in ("Mira", "Tobin", "Sela"):
        expose(cli, name, "filth_fever", F)
    doc = ok(cli("--json", "advance", "1d")).json
    day = 86400
    assert doc["clock"] == day
    waiting = ok(cli("--json", "pending")).json["pending"]
    assert [(p["name"], p["at"]) for p in waiting] == [("Mira", day), ("Tobin", day), ("Sela", day)]
    # one answer: the others still wait, the clock does not move, nothing is rolled in their place
    doc = ok(cli("--json", "answer", waiting[0]["id"], "15")).json
    assert _saves(doc) == [("mira", day)] and doc["clock"] == day
    assert [p["name"] for p in ok(cli("--json", "pending")).json["pending"]] == ["Tobin", "Sela"]
    r = cli("advance", "1h")
    assert r.code == 1 and "answer" in r.err
    ok(cli("--json", "answer", waiting[1]["id"], "3"))
    doc = ok(cli("--json", "answer", waiting[2]["id"], "20")).json
    assert _saves(doc) == [("sela", day)] and doc["pending"] == []
    # the next day's saves are one interval after the first, for all three
    doc = ok(cli("--json", "advance", "1d", "--auto")).json
    assert sorted(_saves(doc)) == [("mira", 2 * day), ("sela", 2 * day), ("tobin", 2 * day)]


def test_auto_answer_rolls_the_saves_queued_with_it_at_their_moment(cli):
    _party(cli)
    expose(cli, "Mira", "filth_fever", F)
    expose(cli, "Tobin", "filth_fever", F)
    ok(cli("advance", "1d"))
    first = ok(cli("--json", "pending")).json["pending"][0]
    doc = ok(cli("--json", "answer", first["id"], "15", "--auto")).json
    assert _saves(doc) == [("mira", 86400), ("tobin", 86400)]
    assert ok(cli("--json", "pending")).json["pending"] == []



def test_what_else_falls_due_at_the_interrupted_moment_happens_then(cli):
    # seed 001: a superficial wound heals after a day of rest (option: a normal day); seed 004: filth fever's
    # first save comes one day after contraction. Both fall due at the same moment; a player's die for the
    # save must not hold the healing back, nor push it to a later advance.
    _party(cli)
    ok(cli("campaign", "set", "day_of_rest", "normal_day"))
    ok(cli("wound", "Tobin", "hand", "--damage", "2", "--side", "left", "--superficial"))
    expose(cli, "Mira", "filth_fever", F)
    doc = ok(cli("--json", "advance", "1d")).json
    assert doc["clock"] == 86400 and [p["name"] for p in doc["pending"]] == ["Mira"]
    ok(cli("--json", "answer", doc["pending"][0]["id"], "15"))
    tobin = ok(cli("--json", "status", "Tobin")).json["characters"][0]
    assert tobin["wounds"] == []
