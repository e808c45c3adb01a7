"""What makes a save's bonus, in the reader's language: "sheet +4, Sickened -2" (the breakdown a save keeps in
its event data, domain/engine/saves.py's `breakdown`)."""

from __future__ import annotations

from typing import Any

from ..domain.engine.saves import ADVANTAGE, DISADVANTAGE
from .locale import _, name


def describe(breakdown: dict[str, Any]) -> str:
    """What makes the bonus, for a line: "sheet +4, Sickened -2", plus disadvantage / automatic failure."""
    parts = [_("sheet {bonus}", bonus=f"{breakdown.get('sheet', 0):+d}")]
    for line in breakdown.get("lines", ()):
        source = line.get("source", {})
        said = name(source["names"]) if source.get("names") else source.get("name", "?")
        if line["type"] == "modifier" and line.get("stacks", True):
            parts.append(f"{said} {line['value']:+d}")
        elif line["type"] == ADVANTAGE:
            parts.append(_("{source}: advantage", source=said))
        elif line["type"] == DISADVANTAGE:
            parts.append(_("{source}: disadvantage", source=said))
        elif line["type"] == "auto_fail":
            parts.append(_("{source}: automatic failure", source=said))
    return ", ".join(parts)
