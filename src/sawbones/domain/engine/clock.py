"""Game time: durations typed by the GM ("3r", "10min", "8h", "2d", "1w") and how the clock reads."""

from __future__ import annotations

from ...durations import MAX_ADVANCE as MAX_ADVANCE, parse_duration as parse_duration  # (content reads them too)
from .state import DAY, HOUR, MINUTE, ROUND


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
