"""Game time: durations typed by the GM ("3r", "10min", "8h", "2d", "1w") and how the clock reads."""

from __future__ import annotations

import re

from ...errors import UsageError
from .state import DAY, HOUR, MINUTE, ROUND, WEEK

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
        raise UsageError("empty duration (try 3r, 10min, 8h, 2d or 1w)")
    if source.startswith("-"):
        raise UsageError(f"the clock only moves forward: {text!r} is negative (undo takes an advance back)")
    while pos < len(source):
        match = _PART.match(source, pos)
        if not match or match.group(2).lower() not in _UNITS:
            raise UsageError(f"cannot read duration {text!r} (try 3r, 10min, 8h, 2d or 1w)")
        total += int(match.group(1)) * _UNITS[match.group(2).lower()]
        pos = match.end()
    if total <= 0:
        raise UsageError(f"duration {text!r} is zero")
    if total > MAX_ADVANCE:
        raise UsageError(f"duration {text!r} is longer than ten years")
    return total


def describe(seconds: int, lang: str = "en") -> str:
    """'day 3, 14:05:06' (days counted from 1)."""
    day, rest = divmod(seconds, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes, secs = divmod(rest, MINUTE)
    word = "jour" if lang == "fr" else "day"
    return f"{word} {day + 1}, {hours:02d}:{minutes:02d}:{secs:02d}"


def describe_in(seconds: int, lang: str = "en") -> str:
    """When something is due, for people: 'now', 'in 2 d 3 h', 'in 4 rounds'."""
    if seconds < ROUND:
        return "maintenant" if lang == "fr" else "now"
    return f"{'dans' if lang == 'fr' else 'in'} {describe_span(seconds, lang)}"


def describe_span(seconds: int, lang: str = "en") -> str:
    """A span for people: '2 days 3 h', '1 day', '4 rounds' / '2 jours 3 h', '1 jour' (days in words: "the clock
    moves 1 day", not "1 d"; hours and minutes as the clock writes them)."""
    if seconds < MINUTE:
        n = seconds // ROUND
        return f"{n} {'tour' if lang == 'fr' else 'round'}{'s' if n != 1 else ''}"
    parts = []
    for size, fr, en in ((DAY, "jour", "day"), (HOUR, "h", "h"), (MINUTE, "min", "min")):
        n, seconds = divmod(seconds, size)
        if n:
            word = fr if lang == "fr" else en
            plural = size == DAY and (n >= 2 if lang == "fr" else n != 1)
            parts.append(f"{n} {word}{'s' if plural else ''}")
    return " ".join(parts) or "0"
