"""Durations as the GM types them ("3r", "10min", "8h", "2d", "1w"), read into seconds of game time.

At the bottom of the layers: the content checks its options' durations with it (content/checks.py), the domain's
clock reads the GM's durations with it (domain/engine/clock.py re-exports `parse_duration`).
"""

from __future__ import annotations

import re

from .errors import UsageError
from .message import msg

ROUND, MINUTE, HOUR, DAY = 6, 60, 3600, 86400  # seconds (domain/engine/state.py counts the same)
WEEK = 7 * DAY
END_OF_COMBAT = "end_of_combat"  # an option's duration that lasts until the GM ends the combat

_UNITS = {
    "r": ROUND, "rd": ROUND, "round": ROUND, "rounds": ROUND, "tour": ROUND, "tours": ROUND,
    "min": MINUTE, "m": MINUTE, "minute": MINUTE, "minutes": MINUTE,
    "h": HOUR, "hour": HOUR, "hours": HOUR, "heure": HOUR, "heures": HOUR,
    "d": DAY, "j": DAY, "day": DAY, "days": DAY, "jour": DAY, "jours": DAY,
    "w": WEEK, "week": WEEK, "weeks": WEEK, "sem": WEEK, "semaine": WEEK, "semaines": WEEK,
}  # (the units a GM may type, in either language: input, not words said to people)
_PART = re.compile(r"\s*(\d+)\s*([a-z]+)\s*", re.IGNORECASE)
MAX_ADVANCE = 10 * 365 * DAY


def parse_duration(text: str) -> int:
    """Seconds in a duration like '3r', '10min', '1d12h'. Raises UsageError when unreadable."""
    source = text.strip()
    total, pos = 0, 0
    if not source:
        raise UsageError(msg("empty duration (try 3r, 10min, 8h, 2d or 1w)"))
    if source.startswith("-"):
        raise UsageError(msg("the clock only moves forward: {duration} is negative (undo takes an advance back)",
                             duration=repr(text)))
    while pos < len(source):
        match = _PART.match(source, pos)
        if not match or match.group(2).lower() not in _UNITS:
            raise UsageError(msg("cannot read duration {duration} (try 3r, 10min, 8h, 2d or 1w)", duration=repr(text)))
        total += int(match.group(1)) * _UNITS[match.group(2).lower()]
        pos = match.end()
    if total <= 0:
        raise UsageError(msg("duration {duration} is zero", duration=repr(text)))
    if total > MAX_ADVANCE:
        raise UsageError(msg("duration {duration} is longer than ten years", duration=repr(text)))
    return total
