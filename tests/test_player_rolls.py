"""Who rolls the saves the engine asks for (issue 12), through the GM's CLI: the option who_rolls, the per-action
choice (--rolls), NPCs staying with the GM, and what the GM's answers record."""

from __future__ import annotations

import pytest


@pytest.fixture
def table(cli):
    assert cli("campaign", "create", "Table", "--system", "pf1e", "--seed", "4").code == 0
    cli("character", "add", "Cora", "--max-hp", "20", "--saves", "fortitude=3")
    cli("character", "add", "Gob", "--max-hp", "6", "--npc", "--saves", "fortitude=0")
    for name in ("Cora", "Gob"):
        assert cli("expose", name, "filth_fever", "--save", "1").code == 0
    return cli


def pending(cli):
    return cli("--json", "pending").json["pending"]


def test_players_roll_their_characters_saves_and_the_gm_keeps_the_npcs(table):
    cli = table
    cli("campaign", "set", "who_rolls", "players")
    cli("advance", "1d")
    waiting = {p["name"]: p["to"] for p in pending(cli)}
    assert waiting == {"Cora": "player", "Gob": "gm"}


def test_auto_still_rolls_everything_and_rolls_players_routes_anyway(table):
    cli = table
    cli("campaign", "set", "who_rolls", "players")
    assert cli("advance", "1d", "--auto").code == 0 and pending(cli) == []
    cli("advance", "1d", "--auto", "--rolls", "players")
    assert [(p["name"], p["to"]) for p in pending(cli)] == [("Cora", "player")]  # the NPC's save was rolled


def test_ask_refuses_an_advance_that_does_not_say_who_rolls(table):
    cli = table
    cli("campaign", "set", "who_rolls", "ask")
    before = cli("--json", "log", "--limit", "1000").json["events"]
    refused = cli("advance", "1d")
    assert refused.code == 2 and refused.err.startswith("error:") and "who rolls Cora's save?" in refused.err
    assert refused.err.count("\n") == 1 and "Traceback" not in refused.err
    assert cli("--json", "log", "--limit", "1000").json["events"] == before
    french = cli("--lang", "fr", "advance", "1d")
    assert "qui lance le jet de Cora" in french.err
    assert cli("advance", "1d", "--rolls", "gm").code == 0


def test_the_gm_rolls_a_pending_save_on_the_server_and_the_log_says_who(table):
    cli = table
    cli("advance", "1d")  # who_rolls gm: both wait for the GM's die
    first = pending(cli)[0]
    assert first["to"] == "gm"
    assert cli("answer", first["id"], "--roll").code == 0
    log = cli("--json", "log", "--limit", "1000").json["events"]
    cleared = [e for e in log if e["type"] == "pending_cleared"][0]
    assert cleared["data"]["by"] == "gm" and cleared["data"]["how"] == "rolled"
    assert "the GM answered the save waiting (rolled by the server)" in cleared["text"]
    saved = [e["data"] for e in log if e["type"] == "affliction_saved"][0]
    assert not saved["typed"] and 1 <= saved["d20"] <= 20


def test_an_exposure_the_player_rolls_waits_and_refuses_a_wrong_deadly_stage_at_once(cli):
    cli("campaign", "create", "Table", "--system", "pf1e", "--seed", "4")
    cli("character", "add", "Cora", "--max-hp", "20")
    wrong = cli("expose", "Cora", "filth_fever", "--rolls", "players", "--deadly", "nowhere")
    assert wrong.code == 2 and "no stage 'nowhere'" in wrong.err
    assert cli("expose", "Cora", "filth_fever", "--rolls", "players").code == 0
    assert [p["kind"] for p in pending(cli)] == ["exposure"]
    assert cli("advance", "1d").code == 1  # nothing moves while a die is awaited
    assert cli("answer", pending(cli)[0]["id"], "--d20", "1").code == 0
    status = cli("--json", "status", "Cora").json["characters"][0]
    assert [a["affliction"] for a in status["afflictions"]] == ["filth_fever"]


def test_reveal_is_undone_like_any_action(table, db):
    cli = table
    from sawbones.application.service import Service
    from sawbones.domain.engine.options import effective_options
    from sawbones.domain.afflictions.secrets import is_known

    cli("campaign", "set", "afflictions_known", "false")
    cli("reveal", "Cora", "filth_fever")

    def known():
        service = Service.open(db)
        state = service.load("Table").state
        return is_known(state, effective_options(service.rules_for(state), state.option_overrides()), "cora", "d1")

    assert known() is True
    cli("undo")
    assert known() is False


def test_the_gms_pending_list_says_whose_die_each_save_waits_for(table):
    """The GM reads at a glance which saves the players roll on their pages, and which are theirs to type
    (in both languages)."""
    cli = table
    cli("campaign", "set", "who_rolls", "players")
    cli("advance", "1d")
    lines = cli("pending").out.splitlines()
    cora = lines[lines.index(next(x for x in lines if "Cora" in x)) + 1]
    gob = lines[lines.index(next(x for x in lines if "Gob" in x)) + 1]
    assert "waits for the player's die" in cora and "answer:" not in cora
    assert gob.strip().startswith("answer: sawbones answer")
    assert "attend le dé du joueur" in cli("--lang", "fr", "pending").out
