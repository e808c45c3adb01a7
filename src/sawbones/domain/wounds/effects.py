"""What wounds do in play (LOC-2 to LOC-4): each wound's -2 on its part's rolls and the part's notes, a
condition when a part is wounded on every side, the GM's extra affected rolls (option extra_affected_rolls).
An effect provider registered with the engine (loaded by name from sawbones.domain.RULE_MODULES)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from ...content import schema as s
from ...content.models import Invalid, validate
from ...errors import UsageError
from ...message import msg
from ..engine.effects import ActiveEffect, provider
from ..engine.state import Character
from .rules import ANATOMY, Wound, wound_name

if TYPE_CHECKING:
    from ...content.rules import Rules


def _extra_rolls(part_id: str, value: Any) -> tuple[s.Rolls, ...]:
    """The GM's extra rolls for a part (option extra_affected_rolls): Rolls mappings, or 'kind[:id]' text."""
    if value is None:
        return ()
    items = value if isinstance(value, list) else [value]
    out: list[s.Rolls] = []
    for item in items:
        if isinstance(item, str):
            for piece in filter(None, (p.strip() for p in item.split(";"))):
                kind, _, ident = piece.partition(":")
                field = "abilities" if ident in ("str", "dex", "con", "int", "wis", "cha") else "skills"
                item_dict: dict[str, Any] = {"kinds": [kind.strip()]}
                if ident:
                    item_dict[field] = [ident.strip()]
                out.append(_rolls(part_id, item_dict))
        else:
            out.append(_rolls(part_id, item))
    return tuple(out)


def _rolls(part_id: str, item: Any) -> s.Rolls:
    try:
        return validate(s.Rolls, item)
    except Invalid as exc:
        raise UsageError(msg("option extra_affected_rolls: {part_id}: {problem} (got {item})", part_id=part_id,
                             problem=str(exc), item=repr(item))) from None


def both_sides(character: Character, rules: Rules, options: dict[str, Any]) -> list[tuple[s.BodyPart, list[Wound]]]:
    """Parts wounded on every side the body still has (LOC-4): (part, wounds) for each such part."""
    severe_only = options.get("blind_deaf_requires_severe", False)
    out = []
    for part in rules.body_parts.values():
        if not part.both_sides_condition or not part.sides:
            continue
        counted = [w for w in character.wounds if w.part == part.id and not (severe_only and w.superficial)]
        have = getattr(character.body, ANATOMY.get(part.id, ""), len(part.sides))
        need = min(len(part.sides), have)
        if need > 0 and len({w.side for w in counted}) >= need:
            out.append((part, counted))
    return out


@provider
def wound_effects(character: Character, rules: Rules, options: dict[str, Any]) -> Iterable[ActiveEffect]:
    """Each wound: its part's -2 on the part's rolls, and the part's notes; both eyes/ears: the condition."""
    if not character.wounds:
        return
    stacking = options.get("stacking", "per_part_type")
    extra = options.get("extra_affected_rolls") or {}
    for w in character.wounds:
        part = rules.body_parts.get(w.part)
        if part is None:  # a content pack removed the part: nothing left to apply
            continue
        detail: dict[str, Any] = {"part": w.part, "side": w.side,
                                  "stack_group": "wound" if stacking == "never_more_than_2" else f"wound:{w.part}"}
        if w.suppressed:
            detail |= {"suppressed": True, "suppressed_until": w.suppressed_until}
        rolls = part.rolls + _extra_rolls(part.id, extra.get(part.id))
        effect = s.Modifier(type="modifier", value=part.penalty, rolls=rolls)
        name = wound_name(part, w.side)
        yield ActiveEffect(effect, "wound", w.id, part.id, name, detail)
        for note in part.notes:
            yield ActiveEffect(note, "wound", w.id, part.id, name, {"part": w.part, "side": w.side})
    for part, wounds in both_sides(character, rules, options):
        ids = sorted(w.id for w in wounds)
        name = part.both_sides_name or part.name  # (content/data/body_parts.yaml: "Eye (both sides)")
        yield ActiveEffect(s.ConditionEffect(type="condition", condition=part.both_sides_condition or ""),
                           "wound", "+".join(ids), part.id, name, {"part": part.id, "side": "both", "wounds": ids})
