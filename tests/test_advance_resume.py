"""Advances of the clock that resume where an earlier one from the same state stopped (issue 17, the injury
odds' cold build): within `timeline.resuming`, every advance gives exactly the events, state, dice taken and
rolls of the same advance made afresh, whatever the order of the targets and the dice the script holds."""

from __future__ import annotations

import pytest

from sawbones.content.loader import load_rules
from sawbones.domain.engine import odds_engine
from sawbones.domain.injuries.rules import injure
from sawbones.domain.engine.evolve import fold
from sawbones.domain.engine.odds_engine import VICTIM, Branch, Resumes, ScriptRoller, campaign, context, victim
from sawbones.domain.engine.options import effective_options
from sawbones.domain.engine.state import DAY
from sawbones.domain.engine.timeline import advance_folded, resuming

RULES = load_rules()
DEFAULTS = effective_options(RULES, {})


def _wounded():
    """A victim with frostbite (cold 3-5: its 1d4-day deadline turns it into severe frostbite, whose own 1d4
    days then run, and its hand or foot) and sepsis (poison 1-2: a loss every 24 hours)."""
    state = campaign(victim(), counter=0)
    for table, d20, dice in (("cold", 3, (2,)), ("poison", 1, ())):
        events = injure(context(state, RULES, DEFAULTS, ScriptRoller(dice)), VICTIM, table, d20, cause="test")
        state = fold(events, state)
    assert [i.injury for i in state.character(VICTIM).injuries] == ["frostbite", "sepsis"]
    return state


def _advance(state, script, days):
    roller = ScriptRoller(script)
    try:
        events, after = advance_folded(context(state, RULES, DEFAULTS, roller), round(days * DAY), auto=True)
    except Branch as branch:
        return ("branch", branch.formula, roller.used)
    return (events, after, roller.used, list(roller.made))


# (dice the script holds, days): shorter then longer, longer then shorter, the same twice, dice that differ
# from those an earlier advance took (the severe frostbite's deadline, its hand or foot), past the script
ASKS = [((), 1), ((1, 3), 9), ((1, 3), 4), ((), 2.5), ((1, 3), 9), ((2, 2), 12), ((1, 2), 12), ((2,), 30),
        ((1,), 12), ((2, 1), 1.5), ((2, 1), 20), ((1, 3), 0), ((1, 4), 30)]


@pytest.mark.parametrize("order", [ASKS, ASKS[::-1], sorted(ASKS, key=lambda a: a[1])])
def test_a_resumed_advance_is_the_advance_made_afresh(order):
    state = _wounded()
    afresh = [_advance(state, script, days) for script, days in order]
    memo = Resumes()
    with resuming(memo):
        resumed = [_advance(state, script, days) for script, days in order]
    assert resumed == afresh
    assert any(kept for kept in memo.kept.values())  # the advances did go on from one another


def test_every_outcome_is_the_same_with_and_without_resuming(monkeypatch):
    state = _wounded()

    def run(roller):
        days = roller.roll("4d4", "treatment time")
        return advance_folded(context(state, RULES, DEFAULTS, roller), days * DAY, auto=True)[1]

    shared = odds_engine.every_outcome(run)

    class Never(Resumes):
        def start(self, ctx, target):
            return None

    monkeypatch.setattr(odds_engine, "Resumes", Never)
    assert odds_engine.every_outcome(run) == shared
