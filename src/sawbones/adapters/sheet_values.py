"""What every character sheet importer shares: the `Entry` a file becomes, and the bounded reading of its
numbers and dice (every number read from a file is bounded; a bad one is one UsageError naming it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import UsageError
from ..message import N_, Message, msg
from ..numbers import parse_int

MAX_NUMBER = 10_000  # any number read from a sheet: the API's bound on hit points (the rules check the rest)


@dataclass
class Entry:
    name: str
    sheet: dict[str, Any] = field(default_factory=dict)
    external: list[str] = field(default_factory=list)
    source: str = ""  # the file it came from


def number(value: Any, what: str | Message, low: int = -MAX_NUMBER, high: int = MAX_NUMBER,
           index: int | None = None) -> int:
    """A whole number of a sheet, within [low, high] (every number read from a file is bounded); `index`: the
    party file's character it belongs to."""
    said = {"what": what, "index": index, "low": low, "high": high, "value": shown(value)}
    if isinstance(value, bool) or value is None:
        raise UsageError(Message(N_("character {index}: {what} is missing or not a number") if index else
                                 N_("{what} is missing or not a number"), said))
    number: int | None = None
    if isinstance(value, str):
        number = parse_int(value, signed=True)
    elif isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        number = int(value)
    if number is None:
        raise UsageError(Message(N_("character {index}: {what} is not a whole number ({value})") if index else
                                 N_("{what} is not a whole number ({value})"), said))
    if not low <= number <= high:
        raise UsageError(Message(N_("character {index}: {what} is out of range ({low} to {high}): {value}") if index
                                 else N_("{what} is out of range ({low} to {high}): {value}"), said))
    return number


def shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def die(text: Any) -> int:
    value = parse_int(str(text).lower().lstrip("d")[:20], 1, 100)
    if value is None:
        raise UsageError(msg("hit dice {dice} is not a die like d8", dice=shown(text)))
    return value
