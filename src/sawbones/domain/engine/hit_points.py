"""One hit point model per game system (content: hit_point_models): how low HP go, dying, death.

Every HP loss goes through `lower`: damage (with 5e massive damage), HP loss that is not damage
(Puncture Wound, the Disabled stage's standard action: "1 or down to -1, whichever is worse"), poison
damage. The model is data (content/data/hit_points.yaml); this module reads it. Rules: docs/rules.md
"Hit points, dying and death (one model per system)".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...frozen import frozen
from .state import Character

if TYPE_CHECKING:
    from ...content.rules import Rules


Event = dict[str, Any]


@frozen
class Loss:
    hp: int  # the character's HP after the loss
    killed: str | None = None  # why it died ("massive_damage", "negative_hp"), or None


def model(rules: Rules, system: str) -> Any:
    return rules.hit_point_models[system]


def death_threshold(character: Character, rules: Rules, options: dict[str, Any], system: str) -> int | None:
    """HP at or below which the character is dead (pf1e: minus its Constitution score), or None."""
    ability = model(rules, system).dead_at_minus_ability
    if ability is None:
        return None
    from .abilities import effective_abilities  # here, not at the top: `sawbones --help` loads no pydantic

    return -effective_abilities(character, rules, options)[ability]


def lower(character: Character, amount: int, rules: Rules, options: dict[str, Any], system: str, *,
          at_most: int | None = None, damage: bool = False) -> Loss:
    """HP after losing `amount` (at least down to `at_most` when given: "1 or down to -1, whichever is worse").

    The system's floor bounds the result (5e: 0). `damage`: real damage, for 5e massive damage (the damage
    left once at 0 HP kills outright when it reaches the HP maximum).
    """
    m = model(rules, system)
    hp = character.hp - amount
    if at_most is not None:
        hp = min(hp, at_most)
    if m.floor is not None:
        hp = max(m.floor, hp)
    if damage and m.massive_damage and amount > 0 and hp <= (m.floor or 0):
        remaining = amount - max(0, character.hp - (m.floor or 0))
        if remaining >= character.max_hp:
            return Loss(hp, "massive_damage")
    threshold = death_threshold(character, rules, options, system)
    if threshold is not None and hp <= threshold:
        return Loss(hp, "negative_hp")
    return Loss(hp)


def dying(character: Character, rules: Rules, system: str) -> bool:
    """Dying: HP at or below the model's dying line, not stable, not dead."""
    return not character.dead and not character.stable and character.hp <= model(rules, system).dying_at


def death_event(character: Character, loss: Loss) -> list[Event]:
    if loss.killed is None or character.dead:
        return []
    return [{"type": "character_died", "data": {"character": character.id, "cause": loss.killed, "hp": loss.hp}}]


def falls_prone(character: Character, loss: Loss, rules: Rules, system: str) -> bool:
    """Falling unconscious (from above the model's dying line to it or below) falls prone when the system's reading
    of unconscious brings the condition prone (5e « tombe à terre »): the character wakes prone (posture.py). The
    event of the loss says so (`"prone": true`)."""
    line = model(rules, system).dying_at
    if loss.killed is not None or character.dead or character.prone or character.hp <= line or loss.hp > line:
        return False
    return _brings(rules, system, "unconscious", "prone", frozenset())


def _brings(rules: Rules, system: str, condition: str, wanted: str, seen: frozenset[str]) -> bool:
    entry = rules.condition_readings.get(condition)
    reading = entry.reading(system) if entry is not None and condition not in seen else None
    return any(getattr(e, "type", None) == "condition" and not e.while_ and
               (e.condition == wanted or _brings(rules, system, e.condition, wanted, seen | {condition}))
               for e in (reading.effects if reading is not None else ()))
