"""Game time: durations typed by the GM ("3r", "10min", "8h", "2d", "1w"). How the clock reads, in words, is the
presentation's (presentation/time_words.py)."""

from __future__ import annotations

import re

from ...errors import UsageError
from .state import DAY, HOUR, MINUTE, ROUND, WEEK
from ...message import msg

_UNITS = {
    "r": ROUND, "rd": ROUND, "round": ROUND, "rounds": ROUND, "tour": ROUND, "tours": ROUND,
    "min": MINUTE, "m": MINUTE, "minute": MINUTE, "minutes": MINUTE,
    "h": HOUR, "hour": HOUR, "hours": HOUR, "heure": HOUR, "heures": HOUR,
    "d": DAY, "j": DAY, "day": DAY, "days": DAY, "jour": DAY, "jours": DAY,
    "w": WEEK, "week": WEEK, "weeks": WEEK, "sem": WEEK, "semaine": WEEK, "semaines": WEEK,
}
_PART = re.compile(r"\s*(\d+)\s*([a-z]+)\s*", re.IGNORECASE)
MAX_ADVANCE = 10 * 365 * DAY


def parse_duration(text: str) -> int:
    """Seconds in a duration like '3r', '10min', '1d12h'. Raises UsageError when unreadable."""
    source = text.strip()
    total, pos = 0, 0
    if not source:
        raise UsageError(msg("empty duration (try 3r, 10min, 8h, 2d or 1w)"))
    if source.startswith("-"):
        raise UsageError(msg("the clock only moves forward: {text} is negative (undo takes an advance back)",
                             text=repr(text)))
    while pos < len(source):
        match = _PART.match(source, pos)
        if not match or match.group(2).lower() not in _UNITS:
            raise UsageError(msg("cannot read duration {text} (try 3r, 10min, 8h, 2d or 1w)", text=repr(text)))
        total += int(match.group(1)) * _UNITS[match.group(2).lower()]
        pos = match.end()
    if total <= 0:
        raise UsageError(msg("duration {text} is zero", text=repr(text)))
    if total > MAX_ADVANCE:
        raise UsageError(msg("duration {text} is longer than ten years", text=repr(text)))
    return total
