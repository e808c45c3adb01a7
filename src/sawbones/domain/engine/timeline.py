"""Advancing the game clock: everything that falls due runs in chronological order.

Each rule module registers a scheduler: given the state, it names the next moment something of
its own is due and the decision to run then. The clock stops at each such moment in turn.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from ...frozen import frozen
from ...errors import RuleViolation
from .evolve import evolve
from .player_rolls import PENDING_EVENT, route
from .state import Campaign, with_fields
from .context import Context
from ...message import PerAudience, msg

if TYPE_CHECKING:
    from ...content.rules import Rules


Due = tuple[int, str, Callable[[Any], list[dict[Any, Any]]]]  # (when, sort key, decision)
Scheduler = Callable[[Any], Iterable[Due]]
_SCHEDULERS: list[Scheduler] = []
MAX_STEPS = 100_000
# an advance of the clock that may start where an earlier one from the same state stopped (the odds: `resuming`)
_RESUMING: ContextVar[Any] = ContextVar("sawbones_resuming", default=None)


_WHEN = itemgetter(0, 1)  # a due's moment, then its sort key


def scheduler(fn: Scheduler) -> Scheduler:
    _SCHEDULERS.append(fn)
    return fn


def clock_event(seconds: int) -> dict[Any, Any]:
    return {"type": "clock_advanced", "data": {"seconds": seconds}}


@frozen
class AdvanceContext:
    """What a due decision gets during an advance: the decision context plus the advance's mode.

    `auto`: roll every save with the character's bonus; otherwise a decision that needs a player's die
    returns a `save_pending` event instead, and the advance stops there. `target`: where the advance
    goes (stored in the pending save so that answering it resumes the advance).
    """

    state: Any
    rules: Rules
    options: dict[Any, Any]
    roller: Any
    auto: bool = False
    target: int = 0
    rolls: str = "gm"  # who rolls a save that falls due (player_rolls.py): gm | players | ask


def next_due(ctx: Context) -> int | None:
    """When the clock next has something to run (a save, a deadline, a daily loss), or None."""
    from .effects import _load_providers

    _load_providers()  # rule modules register their schedulers on import
    base = AdvanceContext(ctx.state, ctx.rules, ctx.options, ctx.roller)
    moments = [due[0] for s in _SCHEDULERS for due in s(base)]
    return min(moments) if moments else None


def advance(ctx: Context, seconds: int, auto: bool = False, rolls: str | None = None) -> list[dict[Any, Any]]:
    """The events of moving the clock `seconds` forward, with all that falls due on the way.

    Stops early (clock at the moment of the save) when a due save needs a player's die (not `auto`); every
    other save due at that moment is queued as well, and everything else due then runs, in key order.
    """
    return advance_folded(ctx, seconds, auto, rolls)[0]


def advance_folded(ctx: Context, seconds: int, auto: bool = False, rolls: str | None = None,
                   ) -> tuple[list[dict[Any, Any]], Campaign]:
    """`advance`, with the state after its events (folded on the way: the caller need not fold them again)."""
    if ctx.state.pending:
        waiting = ", ".join(p.id for p in ctx.state.pending)
        raise RuleViolation(msg("a save is waiting for a die ({waiting}): answer it first ({fix})",  # (GM's or player's)
                                waiting=waiting, fix=PerAudience(cli=msg("`sawbones pending`, `sawbones answer ID TOTAL`"),
                                                                 api=msg("GET …/pending, POST …/answer"),
                                                                 page=msg("Saves waiting for a die"))))
    return _advance_to(ctx, ctx.state.clock + seconds, auto, route(ctx.options, rolls, auto))


def advance_to(ctx: Context, target: int, auto: bool = False, rolls: str = "gm") -> list[dict[Any, Any]]:
    """Run everything due up to the absolute time `target`, then move the clock there (unless stopped)."""
    return _advance_to(ctx, target, auto, rolls)[0]


def _advance_to(ctx: Context, target: int, auto: bool, rolls: str = "gm") -> tuple[list[dict[Any, Any]], Campaign]:
    from .effects import _load_providers

    _load_providers()  # rule modules register their schedulers on import
    state: Campaign = ctx.state
    base = AdvanceContext(ctx.state, ctx.rules, ctx.options, ctx.roller, auto, target, rolls)
    events: list[dict[Any, Any]] = []
    memo = _RESUMING.get() if auto else None  # a decision reads the target only to ask for a player's die
    run = memo.start(ctx, target) if memo is not None else None
    if run is not None and run.resumed is not None:
        state, events = run.resumed[0], list(run.resumed[1])

    def apply(new: list[dict[Any, Any]]) -> None:
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
        when, _, decision = min(due, key=_WHEN) if len(due) > 1 else due[0]
        if when > state.clock:
            apply([clock_event(when - state.clock)])
            step_ctx = with_fields(base, state=state)
        new = decision(step_ctx)
        apply(new)
        if any(e["type"] == PENDING_EVENT for e in new):
            # the advance stops at this moment, but everything else due at the very same moment still runs
            # (other saves are queued too): nothing due at an instant is left behind by the interruption
            stopped, limit = True, min(limit, max(when, state.clock))
    if run is not None and not stopped:
        run.keep(state, events)  # everything due up to `target` has run: a later target goes on from here
    if not stopped and target > state.clock:
        apply([clock_event(target - state.clock)])
    return events, state


@contextmanager
def resuming(memo: Any) -> Iterator[None]:
    """Within this block, an advance with `auto` asks `memo.start(ctx, target)` for a run that either starts
    afresh or resumes (`.resumed`: the state and events where an earlier advance from the same state stopped,
    everything due up to an earlier target run), and gives it `.keep(state, events)` when all that is due up
    to its target has run. The same events as advancing from the start: dues run in time order, whatever the
    target, and the target is read only for a player's die (never with `auto`)."""
    token = _RESUMING.set(memo)
    try:
        yield
    finally:
        _RESUMING.reset(token)
