"""Damage types with their weights, as the reader gives them (`odds --party --types`, the API's `types`)."""

from __future__ import annotations


def parse_types(text: str | None) -> tuple[tuple[str, float], ...]:
    """fire,slashing=2 -> (("fire", 1.0), ("slashing", 2.0))."""
    import math

    import click

    if not text:
        return ()
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, weight = part.partition("=")
        try:
            w = float(weight) if weight else 1.0
        except ValueError:
            raise click.BadParameter(f"{part!r}: TYPE or TYPE=WEIGHT (fire=2)", param_hint="--types") from None
        if not math.isfinite(w):
            raise click.BadParameter(f"{part!r}: a weight is a finite number", param_hint="--types")
        out.append((name.strip().lower(), w))
    return tuple(out)
