"""Advancing the game clock: everything that falls due runs in chronological order.

Each rule module registers a scheduler: given the state, it names the next moment something of
its own is due and the decision to run then. The clock stops at each such moment in turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from ..errors import RuleViolation
from .evolve import evolve
from .state import Campaign, with_fields

Due = tuple[int, str, Callable[[Any], list[dict]]]  # (when, sort key, decision)
Scheduler = Callable[[Any], Iterable[Due]]
_SCHEDULERS: list[Scheduler] = []
MAX_STEPS = 100_000
PENDING_EVENT = "save_pending"  # a due decision that needs a player's die returns this event type


def scheduler(fn: Scheduler) -> Scheduler:
    _SCHEDULERS.append(fn)
    return fn


def clock_event(seconds: int) -> dict:
    return {"type": "clock_advanced", "data": {"seconds": seconds}}


@dataclass(frozen=True)
class AdvanceContext:
    """What a due decision gets during an advance: the decision context plus the advance's mode.

    `auto`: roll every save with the character's bonus; otherwise a decision that needs a player's die
    returns a `save_pending` event instead, and the advance stops there. `target`: where the advance
    goes (stored in the pending save so that answering it resumes the advance).
    """

    state: Any
    rules: Any
    options: dict
    roller: Any
    auto: bool = False
    target: int = 0
    rolls: str = "gm"  # who rolls a save that falls due (domain/player_rolls.py): gm | players | ask


def next_due(ctx: Any) -> int | None:
    """When the clock next has something to run (a save, a deadline, a daily loss), or None."""
    from .effects import _load_providers

    _load_providers()  # rule modules register their schedulers on import
    base = AdvanceContext(ctx.state, ctx.rules, ctx.options, ctx.roller)
    moments = [due[0] for s in _SCHEDULERS for due in s(base)]
    return min(moments) if moments else None


def advance(ctx: Any, seconds: int, auto: bool = False, rolls: str | None = None) -> list[dict]:
    """The events of moving the clock `seconds` forward, with all that falls due on the way.

    Stops early (clock at the moment of the save) when a due save needs a player's die (not `auto`); every
    other save due at that moment is queued as well, and everything else due then runs, in key order.
    """
    return advance_folded(ctx, seconds, auto, rolls)[0]


def advance_folded(ctx: Any, seconds: int, auto: bool = False, rolls: str | None = None,
                   ) -> tuple[list[dict], Campaign]:
    """`advance`, with the state after its events (folded on the way: the caller need not fold them again)."""
    if ctx.state.pending:
        waiting = ", ".join(p.id for p in ctx.state.pending)
        raise RuleViolation(f"a save is waiting for a player's die ({waiting}): "
                            "answer it first (`sawbones pending`, `sawbones answer ID TOTAL`)")
    from .player_rolls import route

    return _advance_to(ctx, ctx.state.clock + seconds, auto, route(ctx.options, rolls, auto))


def advance_to(ctx: Any, target: int, auto: bool = False, rolls: str = "gm") -> list[dict]:
    """Run everything due up to the absolute time `target`, then move the clock there (unless stopped)."""
    return _advance_to(ctx, target, auto, rolls)[0]


def _advance_to(ctx: Any, target: int, auto: bool, rolls: str = "gm") -> tuple[list[dict], Campaign]:
    from .effects import _load_providers

    _load_providers()  # rule modules register their schedulers on import
    state: Campaign = ctx.state
    base = AdvanceContext(ctx.state, ctx.rules, ctx.options, ctx.roller, auto, target, rolls)
    events: list[dict] = []

    def apply(new: list[dict]) -> None:
        nonlocal state
        for event in new:
            state = evolve(state, event)
            events.append(event)

    limit = target
    stopped = False
    for _ in range(MAX_STEPS):
        step_ctx = with_fields(base, state=state)
        due = [d for s in _SCHEDULERS for d in s(step_ctx) if d[0] <= limit]
        if not due:
            break
        when, _, decision = min(due, key=lambda d: (d[0], d[1]))
        if when > state.clock:
            apply([clock_event(when - state.clock)])
        new = decision(with_fields(base, state=state))
        apply(new)
        if any(e["type"] == PENDING_EVENT for e in new):
            # the advance stops at this moment, but everything else due at the very same moment still runs
            # (other saves are queued too): nothing due at an instant is left behind by the interruption
            stopped, limit = True, min(limit, max(when, state.clock))
    if not stopped and target > state.clock:
        apply([clock_event(target - state.clock)])
    return events, state
