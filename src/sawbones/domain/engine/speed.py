"""A character's speed: the base walking speed on its sheet, and the effective speed every `speed` effect gives.

The effects are the content's (`type: speed`): an injury's (Blessure à la jambe « Vitesse réduite de moitié »,
Gelure « votre vitesse est réduite de 1,5m », a foot lost or burnt: « votre vitesse est réduite de moitié (si pieds
touchés) »), and those of the conditions on the character in its system's reading (PF1 blinded, exhausted...), each
condition counted once. A site guard (`site_foot`) is already settled by the provider; no other guard applies to
speed.

How they combine (docs/rules.md, "Speed"):
1. a fixed speed (`set_ft`) wins over everything else, the lowest if several;
2. otherwise the changes in feet add up (`change_ft`: -5), never below 0;
3. then the strongest multiplier applies, once: two halvings are one halving (each effect says "your speed is
   halved"; halving a halved speed again is not what either says). Rounded down to the foot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...content import schema as s
from ...frozen import frozen
from .effects import active_effects

if TYPE_CHECKING:
    from ...content.rules import Rules


SITE_GUARDS = frozenset(("site_hand", "site_foot"))  # settled by the providers


@frozen
class SpeedReading:
    base: int | None  # feet, from the sheet (None: not given)
    effective: int | None  # feet (None: no base to apply the effects to)
    lines: tuple[tuple[Any, Any], ...]  # (the Speed effect, its source's name) in the order found


def _condition_speeds(condition: str, rules: Rules, system: str, seen: set[str]) -> list[Any]:
    """The speed effects a condition's reading brings in `system`, and those of the conditions it brings."""
    if condition in seen:
        return []
    seen.add(condition)
    entry = rules.condition_readings.get(condition)
    reading = entry.reading(system) if entry is not None else None
    out: list[Any] = []
    for effect in reading.effects if reading is not None else ():
        if isinstance(effect, s.Speed) and not effect.while_:
            out.append(effect)
        elif isinstance(effect, s.ConditionEffect) and not effect.while_:
            out += _condition_speeds(effect.condition, rules, system, seen)
    return out


def speed_effects(character: Any, rules: Rules, options: dict[str, Any], system: str) -> list[tuple[Any, Any]]:
    """Every speed effect on the character now, with the name of what it comes from."""
    found: list[tuple[Any, Any]] = []
    seen: set[str] = set()
    for ae in active_effects(character, rules, options):
        effect = ae.effect
        if set(getattr(effect, "while_", ())) - SITE_GUARDS:
            continue
        if isinstance(effect, s.Speed):
            found.append((effect, ae.name))
        elif isinstance(effect, s.ConditionEffect):
            known = rules.conditions.get(effect.condition)
            name = known.name if known is not None else ae.name
            found += [(speed, name) for speed in _condition_speeds(effect.condition, rules, system, seen)]
    return found


def combine(base: int, effects: list[Any]) -> int:
    """The effective speed from `base` (feet) and the Speed effects (the module's rule)."""
    fixed: list[int] = [e.set_ft for e in effects if e.set_ft is not None]
    if fixed:
        return max(0, min(fixed))
    feet = max(0, base + sum(e.change_ft or 0 for e in effects))
    multipliers = [e.multiplier for e in effects if e.multiplier is not None]
    return int(feet * min(multipliers)) if multipliers else feet


def effective_speed(character: Any, rules: Rules, options: dict[str, Any], system: str) -> SpeedReading:
    lines = speed_effects(character, rules, options, system)
    base = character.speed
    effective = combine(base, [e for e, _ in lines]) if base is not None else None
    return SpeedReading(base, effective, tuple(lines))
