"""Lasting effects and their remedies, each as its catalog entry says (issue 40).

A permanent condition (Mort vaseuse, Peste infernale: « les effets de l'état Épuisé deviennent permanents jusqu'à
utilisation de Restauration ou Guérison suprême »; Mal aveuglant: « devient définitivement Aveugle ») and a
recovery floor (Cendres d'ungol: « au-delà du stade Diminué, les effets deviennent permanents jusqu'à utilisation
de Restauration ou Guérison suprême »; Poussière de démence: « la condition ne s'améliore pas sans une Restauration
suprême ou Guérison suprême ») each say in the content whether their spells work while the affliction still runs
(`lifted_while_running`) or only once it is gone. The status says the same (`once_gone`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...content import schema as s
from ..engine.effects import option_matches
from .rules import AfflictionState, stage_index

if TYPE_CHECKING:
    from ...content.rules import Rules


def permanent_outcome(defn: Any, condition: str, options: dict[str, Any]) -> Any:
    """The outcome of the entry's trigger that made `condition` permanent (None: not the content's)."""
    for effect in defn.effects:
        if (isinstance(effect, s.Trigger) and effect.on == "stage_entered" and option_matches(effect, options)
                and effect.outcome.permanent and effect.outcome.condition == condition):
            return effect.outcome
    return None


def once_gone(defn: Any, condition: str, options: dict[str, Any]) -> bool:
    """Whether a permanent condition's removers wait until the affliction is gone (Mal aveuglant, TRK-S2)."""
    outcome = permanent_outcome(defn, condition, options) if defn is not None else None
    return outcome is None or not outcome.lifted_while_running


def holding_floors(a: AfflictionState, defn: Any, rules: Rules, options: dict[str, Any], spell: str) -> list[Any]:
    """The recovery floors `spell` lifts that hold now: their stage reached on a track beyond healthy."""
    out = []
    for floor in defn.recovery_floors:
        if spell not in floor.lifted_by or not option_matches(floor, options):
            continue
        for track_id, index in zip(a.tracks, a.stages):
            reached = stage_index(rules.tracks[track_id], floor.once_reached) if floor.once_reached else 1
            if reached is not None and index >= max(reached, 1):
                out.append(floor)
                break
    return out


def restore_running(a: AfflictionState, rules: Rules) -> tuple[AfflictionState, list[dict[str, Any]]]:
    """Back to healthy on every track while the affliction runs on (its saves still due: a failure advances
    again)."""
    facts = []
    for track_id, index in zip(a.tracks, a.stages):
        track = rules.tracks[track_id]
        if index:
            facts.append({"what": "stage", "track": track_id, "from": track.stages[index].id, "to": track.stages[0].id})
    return replace(a, stages=tuple(0 for _ in a.stages)), facts
