"""pydantic's errors (a request body, a form, a query parameter) in the catalog's words: each error's type and
values become a Message said in the reader's language; a message pydantic words otherwise stays as it says it."""

from __future__ import annotations

from typing import Any

from ....message import N_, Message, msg, msgs, pmsg
from ....presentation.locale import pgettext

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


# The labels a page names a field by (presentation.locale.say of an Option, `label` below), marked here for the catalog:
# the engine names its options by their ids, which no extraction can read.
FIELD_LABELS = (
    pmsg("field", "form"), pmsg("field", "amount"), pmsg("field", "type"), pmsg("field", "d20"),
    pmsg("field", "damage"), pmsg("field", "duration"), pmsg("field", "hand"), pmsg("field", "healer"),
    pmsg("field", "hit_die"), pmsg("field", "hit_dice"), pmsg("field", "max_hp"), pmsg("field", "hp"),
    pmsg("field", "name"), pmsg("field", "notes"), pmsg("field", "part"), pmsg("field", "seed"),
    pmsg("field", "side"), pmsg("field", "site"), pmsg("field", "spell"), pmsg("field", "system"),
    pmsg("field", "total"), pmsg("field", "value"), pmsg("field", "option"), pmsg("field", "range"),
    pmsg("field", "sense"), pmsg("field", "save"), pmsg("field", "roll"), pmsg("field", "rolls"),
    pmsg("field", "check"), pmsg("field", "cl_check"), pmsg("field", "cl"), pmsg("field", "injury"),
    pmsg("field", "injury_type"), pmsg("field", "wait"), pmsg("field", "bonus"), pmsg("field", "types"),
    pmsg("field", "compare"), pmsg("field", "skill"), pmsg("field", "character"), pmsg("field", "affliction"),
    pmsg("field", "proficiencies"), pmsg("field", "abilities"), pmsg("field", "saves"), pmsg("field", "skills"),
    pmsg("field", "npc"), pmsg("field", "critical_failure"), pmsg("field", "care"), pmsg("field", "reset"),
    pmsg("field", "wounds"), pmsg("field", "injuries"), pmsg("field", "kind"), pmsg("field", "pending"),
    pmsg("field", "magic"), pmsg("field", "how"), pmsg("field", "campaign"),
    pmsg("field", "db"),
)

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
    if not names:
        return pgettext("field", "form")
    return pgettext("field", names[-1]).replace("_", " ")


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
