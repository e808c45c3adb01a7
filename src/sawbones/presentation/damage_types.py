"""Damage types with their weights, as the reader gives them (`odds --party --types`, the API's `types`)."""

from __future__ import annotations


def parse_types(text: str | None) -> tuple[tuple[str, float], ...]:
    """fire,slashing=2 -> (("fire", 1.0), ("slashing", 2.0)); a UsageError (where: "types") says what is wrong."""
    import math

    from ..errors import UsageError
    from ..message import msg

    if not text:
        return ()
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, weight = part.partition("=")
        try:
            w = float(weight) if weight else 1.0
        except ValueError:
            raise UsageError(msg("{part}: TYPE or TYPE=WEIGHT (fire=2)", part=repr(part)), "types") from None
        if not math.isfinite(w):
            raise UsageError(msg("{part}: a weight is a finite number", part=repr(part)), "types")
        out.append((name.strip().lower(), w))
    return tuple(out)
