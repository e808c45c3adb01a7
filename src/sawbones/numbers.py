"""The one reading of a whole number from text, for everything sawbones reads (headers, query strings,
cookies, forms, sheets): ASCII digits only, with an optional sign, and few of them.

`str.isdigit()` is true for "²" and "٣", and `int()` takes "٣" and "1_000": a header `If-Match: ²` once
passed the first and failed the second, a 500. Here a text is a number or it is not.
"""

from __future__ import annotations

import re

MAX_DIGITS = 18  # every number sawbones reads fits in 64 bits
_WHOLE = re.compile(r"[+-]?[0-9]{1,%d}" % MAX_DIGITS, re.ASCII)


def parse_int(text: object, low: int | None = None, high: int | None = None, signed: bool = False) -> int | None:
    """The number `text` writes (surrounding blanks ignored), within [low, high]; None when it is not one.

    Unsigned by default: "-1" is not a count."""
    if not isinstance(text, str):
        return None
    text = text.strip(" \t")
    if not _WHOLE.fullmatch(text) or (not signed and text[0] in "+-"):
        return None
    value = int(text)
    if (low is not None and value < low) or (high is not None and value > high):
        return None
    return value
