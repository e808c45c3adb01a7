"""A stage of an affliction's odds, named as the reader says it (the odds command, the odds page)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .locale import name as named

if TYPE_CHECKING:
    from ..content.rules import Rules


def stage_names(rules: Rules, affliction_id: str) -> dict[str, str]:
    """Stage label -> display name (labels of two tracks at different stages are joined by '+')."""
    defn = rules.afflictions[affliction_id]
    names: dict[str, str] = {}
    for track_id in defn.tracks:
        for stage in rules.tracks[track_id].stages:
            names.setdefault(stage.id, named(stage.name))
    return names


def stage_label(names: dict[str, str], label: str) -> str:
    return " + ".join(names.get(part, part) for part in label.split("+"))
