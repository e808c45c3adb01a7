"""pydantic's errors (a request body, a form, a query parameter) in the catalog's words: each error's type and
values become a Message said in the reader's language; a message pydantic words otherwise stays as it says it."""

from __future__ import annotations

from typing import Any

from ....message import N_, Message, msg, msgs, pmsg
from ....presentation.locale import field_label, label_fields

_PLAIN = {
    "missing": N_("Field required"),
    "extra_forbidden": N_("Extra inputs are not permitted"),
    "int_type": N_("Input should be a valid integer"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "string_type": N_("Input should be a valid string"),
    "bool_type": N_("Input should be a valid boolean"),
    "dict_type": N_("Input should be a valid dictionary"),
    "list_type": N_("Input should be a valid list"),
}


# The labels a page names a field by (presentation.locale.say of an Option on a page, `label` below), each an English
# msgid said in the reader's language (English pages show "max HP", French ones "PV max"): the engine names its
# options by the API's field names, which no extraction can read; presentation.locale holds them (label_fields).
FIELD_LABELS: dict[str, Message] = {
    "form": pmsg("field", "form"), "amount": pmsg("field", "amount"), "type": pmsg("field", "type"),
    "d20": pmsg("field", "d20"), "damage": pmsg("field", "Damage"), "duration": pmsg("field", "duration"),
    "hand": pmsg("field", "hand"), "healer": pmsg("field", "healer"), "hit_die": pmsg("field", "hit die"),
    "hit_dice": pmsg("field", "hit dice"), "max_hp": pmsg("field", "max HP"), "hp": pmsg("field", "HP"),
    "name": pmsg("field", "name"), "notes": pmsg("field", "notes"), "part": pmsg("field", "part"),
    "seed": pmsg("field", "seed"), "side": pmsg("field", "side"), "site": pmsg("field", "site"),
    "spell": pmsg("field", "spell"), "system": pmsg("field", "system"), "total": pmsg("field", "total"),
    "value": pmsg("field", "value"), "option": pmsg("field", "option"), "range": pmsg("field", "range"),
    "sense": pmsg("field", "sense"), "save": pmsg("field", "save"), "roll": pmsg("field", "roll"),
    "rolls": pmsg("field", "rolls"), "check": pmsg("field", "check"),
    "cl_check": pmsg("field", "caster level check"), "cl": pmsg("field", "caster level"),
    "injury": pmsg("field", "injury"), "injury_type": pmsg("field", "injury type"),
    "wait": pmsg("field", "wait"), "bonus": pmsg("field", "bonus"),
    "types": pmsg("field", "types"), "compare": pmsg("field", "compare"), "skill": pmsg("field", "skill"),
    "character": pmsg("field", "character"), "affliction": pmsg("field", "affliction"),
    "proficiencies": pmsg("field", "proficiencies"), "abilities": pmsg("field", "abilities"),
    "saves": pmsg("field", "saves"), "skills": pmsg("field", "skills"), "npc": pmsg("field", "NPC"),
    "critical_failure": pmsg("field", "a critical failure"), "care": pmsg("field", "care"),
    "reset": pmsg("field", "reset"), "wounds": pmsg("field", "wounds"),
    "injuries": pmsg("field", "injuries"), "kind": pmsg("field", "kind"), "pending": pmsg("field", "pending"),
    "magic": pmsg("field", "magic"), "how": pmsg("field", "how"), "campaign": pmsg("field", "campaign"),
    "db": pmsg("field", "db"),
}
label_fields(FIELD_LABELS)


def said(error: dict[str, Any]) -> Message | str:
    """One pydantic error (an item of `.errors()`) as a Message of the catalog, or pydantic's own words."""
    kind, ctx = error.get("type", ""), error.get("ctx") or {}
    if kind in _PLAIN:
        return msg(_PLAIN[kind])
    if kind == "string_too_short":
        return msgs("String should have at least {n} character", "String should have at least {n} characters",
                    int(ctx["min_length"]))
    if kind == "string_too_long":
        return msg("String should have at most {n} characters", n=ctx["max_length"])
    if kind == "string_pattern_mismatch":
        pattern = "'" + str(ctx["pattern"]) + "'"  # (as pydantic quotes it)
        return msg("String should match pattern {pattern}", pattern=pattern)
    if kind == "greater_than_equal":
        return msg("Input should be greater than or equal to {n}", n=ctx["ge"])
    if kind == "less_than_equal":
        return msg("Input should be less than or equal to {n}", n=ctx["le"])
    if kind in ("literal_error", "enum"):
        return msg("Input should be {choices}", choices=ctx["expected"])
    if kind == "value_error":
        cause = ctx.get("error")
        text = cause.args[0] if cause is not None and cause.args else str(error.get("msg", ""))
        return msg("Value error, {message_text}", message_text=text)
    return str(error.get("msg", "invalid request"))


def place(loc: Any) -> str:
    """Where an error is, as the API names it: body.parts[0].amount."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def label(loc: Any) -> str:
    """The field at `loc` as a form labels it (its last name, said as a field: parts.0.amount is "amount")."""
    names = [str(p) for p in loc if isinstance(p, str)]
    return field_label(names[-1] if names else "form")


def first(errors: list[dict[str, Any]]) -> tuple[Message | str, str]:
    """The first of a request's errors (and how many more), and where it is."""
    if not errors:
        return msg("invalid request"), ""
    where = place(errors[0].get("loc", ()))
    message: Message | str = said(errors[0])
    if len(errors) > 1:
        message = msg("{message} (and {n} more)", message=message, n=len(errors) - 1)
    return (msg("{where}: {message}", where=where, message=message) if where else message), where


def form_lines(errors: list[dict[str, Any]]) -> list[Message]:
    """A form's errors as the form reads: each names the field by its label ("amount: …", not "parts.0.amount: …")."""
    return [msg("{where}: {message}", where=label(e["loc"]), message=said(e)) for e in errors[:5]]
