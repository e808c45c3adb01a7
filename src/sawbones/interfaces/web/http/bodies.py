"""One depth limit for every JSON body the server reads (issue 41): a body nested deeper than MAX_DEPTH is
refused (422, the one error shape) by the guard before any route parses it, so no parser on any path (an
action's short way, an Idempotency-Key's digest, FastAPI's own) recurses into it.

The check costs a count of brackets for an ordinary body; only a body with more than MAX_DEPTH opening
brackets has its strings taken out (a regular expression) and its depth summed (C-level iteration).

The JSON bodies a worker is still receiving hold at most MAX_HELD bytes together (`Held`): past it the guard
answers 503, so many slow senders of big bodies cannot fill its memory.
"""

from __future__ import annotations

import re
from itertools import accumulate

MAX_DEPTH = 64  # as an export's (adapters/transfer.py): the deepest body sawbones takes is far shallower
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = [0] * 256
_STEP[ord("[")] = _STEP[ord("{")] = 1
_STEP[ord("]")] = _STEP[ord("}")] = -1


def json_type(content_type: str | None) -> bool:
    """A JSON body: application/json, or any */*+json."""
    kind = (content_type or "").partition(";")[0].strip().lower()
    return kind == "application/json" or kind.endswith("+json")


def too_deep(raw: bytes, limit: int = MAX_DEPTH) -> bool:
    """True when the JSON text nests arrays and objects more than `limit` deep (brackets in strings aside)."""
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False
    brackets = _STRING.sub(b"", raw).translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0) > limit


HELD_ENV = "SAWBONES_BODIES_HELD"  # (tests lower it)
MAX_HELD = 64_000_000  # bytes of unfinished JSON bodies a worker holds at once, all clients together


class Held:
    """The bytes of JSON bodies this worker is still receiving (guard.py reads them whole before the route): past
    MAX_HELD a new part is refused (503), so slow senders cannot fill the worker's memory."""

    total = 0

    @classmethod
    def room_for(cls, size: int) -> bool:
        return cls.total + size <= held_limit()


def held_limit() -> int:
    import os

    from ....numbers import parse_int

    value = parse_int(os.environ.get(HELD_ENV, ""), 1, 10**12)
    return MAX_HELD if value is None else value
