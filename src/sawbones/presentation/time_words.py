"""The game clock in words, in the reader's language (presentation.locale): "day 3, 14:05:06", "in 2 days 3 h",
"4 rounds". The domain counts seconds (domain/engine/state.py's units); only here are they said."""

from __future__ import annotations

from ..domain.engine.state import DAY, HOUR, MINUTE, ROUND
from .locale import _, ngettext


def describe(seconds: int) -> str:
    """'day 3, 14:05:06' (days counted from 1)."""
    day, rest = divmod(seconds, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes, secs = divmod(rest, MINUTE)
    return _("day {day}, {time}", day=day + 1, time=f"{hours:02d}:{minutes:02d}:{secs:02d}")


def describe_in(seconds: int) -> str:
    """When something is due, for people: 'now', 'in 2 days 3 h', 'in 4 rounds'."""
    if seconds < ROUND:
        return _("now")
    return _("in {span}", span=describe_span(seconds))


def describe_span(seconds: int) -> str:
    """A span for people: '2 days 3 h', '1 day', '4 rounds' (days in words: "the clock moves 1 day", not "1 d";
    hours and minutes as the clock writes them)."""
    if seconds < MINUTE:
        return ngettext("{n} round", "{n} rounds", seconds // ROUND)
    parts = []
    for size in (DAY, HOUR, MINUTE):
        n, seconds = divmod(seconds, size)
        if n:
            parts.append(ngettext("{n} day", "{n} days", n) if size == DAY else
                         _("{n} h", n=n) if size == HOUR else _("{n} min", n=n))
    return " ".join(parts) or "0"
