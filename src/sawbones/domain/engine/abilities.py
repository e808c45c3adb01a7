"""Ability scores after the active effects of every rule: injuries' and afflictions' reductions, their minimum."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...content import schema as s
from .effects import active_effects
from .state import Character

if TYPE_CHECKING:
    from ...content.rules import Rules


def effective_abilities(character: Character, rules: Rules, options: dict[str, Any]) -> dict[str, int]:
    """Ability scores after injury reductions (score, not modifier; at least the effect's minimum), then the scores
    an effect sets (`set`: at most that, the lowest if several; the Animal stage's Int 1)."""
    scores = dict(character.abilities)
    floors: dict[str, int] = {}
    fixed: dict[str, int] = {}
    stack = options.get("stack_identical_ability_reductions", True)
    seen: set[tuple[str, str, int]] = set()
    for active in active_effects(character, rules, options):
        effect = active.effect
        if isinstance(effect, s.AbilityChange) and effect.set_ is not None:
            fixed[effect.ability] = min(fixed.get(effect.ability, effect.set_), effect.set_)
        elif isinstance(effect, s.AbilityChange) and isinstance(effect.change, int):
            key = (active.content_id, effect.ability, effect.change)
            if not stack and key in seen and effect.minimum != 0:
                continue
            seen.add(key)
            scores[effect.ability] += effect.change
            floors[effect.ability] = min(floors.get(effect.ability, 30), effect.minimum)
    changed = {a: max(v, floors.get(a, v)) if a in floors else v for a, v in scores.items()}
    return {a: min(v, fixed[a]) if a in fixed else v for a, v in changed.items()}


def heal_bonus(character: Character, rules: Rules) -> int:
    """The Heal skill bonus on the sheet (5e: Medicine), else the Wisdom modifier."""
    skills = dict(character.skills)
    heal = rules.skills.get("heal")
    for key in ("heal", heal.maps_to.get("dnd5e") if heal else "medicine"):
        if key in skills:
            return skills[key]
    return dict(character.abilities_mod())["wis"]
