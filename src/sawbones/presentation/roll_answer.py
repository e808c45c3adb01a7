"""The roll query's answer (domain/engine/roll_query.py) as a document for people, in the reader's language
(presentation.locale): each line with its source's name, its text and note, and what a conditional line
depends on. The domain answers in content entries and Messages; only here are they said."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..content.schema import Text
from ..domain.engine.effects import ActiveEffect
from ..domain.engine.roll_query import Answer, ConditionLine, Line, Source, describe_needs
from ..message import Message
from .locale import name, say

if TYPE_CHECKING:
    from ..content.rules import Rules


def effect_source(active: ActiveEffect) -> dict[str, Any]:
    """Where a line comes from, an active effect: its kind, ids, details and name (in the reader's language)."""
    return {**active.source(), "name": say(active.name)}


def source_doc(source: Source, rules: Rules) -> dict[str, Any]:
    """A line's source: an active effect, or a condition with the effects that brought it."""
    if source.condition is None and source.effect is not None:
        return effect_source(source.effect)
    cond = rules.conditions.get(source.condition) if source.condition else None
    out: dict[str, Any] = {"kind": "condition", "id": source.condition,
                           "name": name(cond.name) if cond else source.condition,
                           "from": [effect_source(o) for o in source.origins]}
    if source.via:
        out["via"] = list(source.via)
    return out


def line_doc(item: Line, rules: Rules) -> dict[str, Any]:
    out: dict[str, Any] = {"type": item.type, "source": source_doc(item.source, rules)}
    if item.value is not None:
        out["value"] = item.value
    if item.text is not None:
        out["text"] = say(item.text)
    if item.note is not None:
        out["note"] = say(item.note)
    if not item.stacks:
        out["stacks"] = False
    if item.needs:
        out["if"] = [say(describe_needs(n, rules)) for n in item.needs]
        out["needs"] = [[{"on": k, "value": list(v) if isinstance(v, tuple) else v} for k, v in n]
                        for n in item.needs]
    out.update({k: say(v) if isinstance(v, (Text, Message)) else v for k, v in item.extra})
    return out


def condition_doc(c: ConditionLine, rules: Rules) -> dict[str, Any]:
    cond = rules.conditions.get(c.id)
    out: dict[str, Any] = {"id": c.id, "name": name(cond.name) if cond else c.id, "official": c.official,
                           "matters": c.matters, "reading": name(c.reading.text) if c.reading else None,
                           "source": source_doc(c.source, rules)}
    if c.superseded_by:
        out["superseded_by"] = c.superseded_by
        by = rules.conditions.get(c.superseded_by)
        out["superseded_by_name"] = name(by.name) if by else c.superseded_by
    if c.needs:
        out["if"] = [say(describe_needs(n, rules)) for n in c.needs]
    return out


def answer_doc(answer: Answer) -> dict[str, Any]:
    """The whole answer, JSON-ready, in the reader's language (what `mods` shows and the API returns)."""
    rules = answer.rules
    assert rules is not None, "the roll query keeps the rules it read"
    return {
        "system": answer.system, "roll": answer.roll.as_dict(), "modifier": answer.modifier, "mode": answer.mode,
        "auto_fail": answer.auto_fail,
        "modifiers": [line_doc(x, rules) for x in answer.modifiers],
        "by_source": [{"kind": k, "id": i, "total": v} for (k, i), v in answer.by_source().items()],
        "advantage": [line_doc(x, rules) for x in answer.advantages],
        "disadvantage": [line_doc(x, rules) for x in answer.disadvantages],
        "auto_fails": [line_doc(x, rules) for x in answer.auto_fails],
        "conditional": [line_doc(x, rules) for x in answer.conditional],
        "suppressed": [line_doc(x, rules) for x in answer.suppressed],
        "conditions": [condition_doc(c, rules) for c in answer.conditions],
        "restrictions": [line_doc(x, rules) for x in answer.restrictions],
        "triggers": [line_doc(x, rules) for x in answer.triggers],
        "notes": [line_doc(x, rules) for x in answer.notes],
    }
