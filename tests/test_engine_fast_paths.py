"""The engine's fast paths (issue 17, cold injury odds) change no result.

- `state.with_fields` gives what `dataclasses.replace` gives, refuses what it refuses;
- `timeline.advance_folded` returns the state its events fold to (treat and the rests no longer fold twice);
- the odds' treatment chain, built from `treat` in its two halves (the time spent once for a check made and a
  check missed), equals the chain built by running the whole `treat` once per check, branch for branch.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

import pytest

from sawbones.content.loader import load_rules
from sawbones.domain.injuries import care as injury_care, odds as odds_injury
from sawbones.domain.engine.evolve import fold
from sawbones.domain.engine.odds_engine import VICTIM, ReadOptions, campaign, context, every_outcome, victim
from sawbones.domain.engine.options import effective_options
from sawbones.domain.engine.rolls import Roller
from sawbones.domain.engine.state import DAY, Body, Campaign, Injury, with_fields
from sawbones.domain.engine.timeline import advance, advance_folded

RULES = load_rules()
DEFAULTS = effective_options(RULES, {})


def _injury(**changes):
    base = Injury(id="i1", injury="severe_burn", table="fire", d20=1, severity="critical", dc=25)
    return replace(base, **changes)


def test_with_fields_is_dataclasses_replace():
    injury = _injury(deadline_at=DAY, site="hand")
    person = victim(injury, Body(hands=1))
    state = campaign(person)
    for value, changes in ((injury, {"dc": 22, "failures": 1}), (person, {"hp": 3, "injuries": ()}),
                           (state, {"clock": 60, "version": 7}), (Body(), {"eyes": 1}), (state, {})):
        fast = with_fields(value, **changes)
        assert fast == replace(value, **changes) and type(fast) is type(value)
        assert hash(fast) == hash(replace(value, **changes))
        assert fast is not value
    assert injury.dc == 25 and person.hp == victim().hp  # the original is left as it was
    with pytest.raises(TypeError):
        with_fields(injury, no_such_field=1)


def test_with_fields_runs_post_init_where_a_class_has_one():
    @dataclass(frozen=True)
    class Checked:
        n: int

        def __post_init__(self):
            if self.n < 0:
                raise ValueError("negative")

    assert with_fields(Checked(1), n=2) == Checked(2)
    with pytest.raises(ValueError):
        with_fields(Checked(1), n=-1)


def _ctx(state: Campaign):
    import random

    return context(state, RULES, DEFAULTS, Roller(random.Random(4)))


@pytest.mark.parametrize("days", [0, 1, 3, 9])
def test_advance_folded_returns_the_state_its_events_fold_to(days):
    # a severe burn with a deadline in 2 days and a daily tick: things fall due on the way
    injury = _injury(deadline_at=2 * DAY, next_tick_at=DAY // 2, site="hand")
    state = campaign(victim(injury))
    events, after = advance_folded(_ctx(state), days * DAY + 17, auto=True)
    assert after == fold(events, state)
    assert events == advance(_ctx(state), days * DAY + 17, auto=True)  # same dice, same events


def test_treat_is_its_two_halves():
    injury = _injury(deadline_at=DAY, site="foot", failures=1, dc=22, deadline_passed=True)
    state = campaign(victim(injury))
    for check in (30, 3):
        whole = injury_care.treat(_ctx(state), VICTIM, "i1", check=check)
        ctx = _ctx(state)
        spent = injury_care.spend_treatment_time(ctx, VICTIM, "i1", check=check)
        assert list(spent.events) + injury_care.treatment_check(ctx, spent, check=check) == whole
    assert fold(whole, state).character(VICTIM).body.feet == 1  # missed after the deadline: the foot is lost


def _whole_treat_edges(graph: odds_injury.Graph, k: int) -> dict:
    """The attempt from node k as it was built before the split: the whole `treat` once per check."""
    node = graph.nodes[k]
    state = node.state()
    out: dict = {}
    for made in (True, False):
        total = node.injury.dc if made else node.injury.dc - 1

        def run(roller, total=total):
            return odds_injury._after(injury_care.treat(context(state, RULES, DEFAULTS, roller), VICTIM, "i1",
                                                        check=total), state)

        for w, (after, seconds) in every_outcome(run):
            out[(made, after, seconds)] = out.get((made, after, seconds), Fraction(0)) + w
    return out


@pytest.mark.parametrize("table", ["fire", "cold", "slashing", "piercing", "necrotic"])
def test_the_chain_from_the_two_halves_equals_the_chain_from_the_whole_treat(table):
    graph = odds_injury.Graph(RULES, ReadOptions(DEFAULTS))
    firsts = [int(r.d20.split("-")[0]) for r in RULES.damage_tables[table].rows]
    for d20 in firsts:
        odds_injury.treatment(RULES, DEFAULTS, table, d20, wait_days=1, private=graph)
    todo, seen, checked = [k for k in range(len(graph.nodes))], set(), 0
    while todo and checked < 40:
        k = todo.pop()
        if k in seen or graph.ends[k] is not None:
            continue
        seen.add(k)
        split: dict = {}
        for made, j, w, seconds in graph.attempt(k):
            key = (made, graph.nodes[j], seconds)
            split[key] = split.get(key, Fraction(0)) + w
        assert split == _whole_treat_edges(graph, k)
        assert sum(split.values()) == 2  # made and missed, each a whole distribution
        todo += [j for _, j, _, _ in graph.attempt(k)]
        checked += 1
    assert checked >= 6
