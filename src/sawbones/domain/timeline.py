"""Advancing the game clock: everything that falls due runs in chronological order.

Each rule module registers a scheduler: given the state, it names the next moment something of
its own is due and the decision to run then. The clock stops at each such moment in turn.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Iterable

from .evolve import evolve
from .state import Campaign

Due = tuple[int, str, Callable[[Any], list[dict]]]  # (when, sort key, decision)
Scheduler = Callable[[Any], Iterable[Due]]
_SCHEDULERS: list[Scheduler] = []
MAX_STEPS = 100_000


def scheduler(fn: Scheduler) -> Scheduler:
    _SCHEDULERS.append(fn)
    return fn


def clock_event(seconds: int) -> dict:
    return {"type": "clock_advanced", "data": {"seconds": seconds}}


def advance(ctx: Any, seconds: int) -> list[dict]:
    """The events of moving the clock `seconds` forward, with all that falls due on the way."""
    target = ctx.state.clock + seconds
    state: Campaign = ctx.state
    events: list[dict] = []

    def apply(new: list[dict]) -> None:
        nonlocal state
        for event in new:
            state = evolve(state, event)
            events.append(event)

    for _ in range(MAX_STEPS):
        step_ctx = replace(ctx, state=state)
        due = [d for s in _SCHEDULERS for d in s(step_ctx) if d[0] <= target]
        if not due:
            break
        when, _, decision = min(due, key=lambda d: (d[0], d[1]))
        if when > state.clock:
            apply([clock_event(when - state.clock)])
        apply(decision(replace(ctx, state=state)))
    if target > state.clock:
        apply([clock_event(target - state.clock)])
    return events
