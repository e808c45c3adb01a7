"""The dashboard's forms read for the page. Its lists with no safe default (a spell, a damage type, a disease or poison, a character...): each
starts on "— choose —" (templates/_macros.html `choose`), since its first item would be a guess that changes with
the page's language (Acid damage; Cure Wounds in English, Heal in French). A form sent without a choice is
refused here, before anything is decided, with what to choose."""

from __future__ import annotations

from typing import Any

from ....message import N_
from ....presentation.locale import _

MUST_CHOOSE = {  # a form field -> what the page asks for
    "character": N_("Choose a character."),
    "characters": N_("Choose a character."),
    "parts.0.type": N_("Choose a damage type."),
    "type": N_("Choose a damage type."),
    "spell": N_("Choose a spell."),
    "affliction": N_("Choose a disease or poison."),
    "part": N_("Choose a body part."),
    "how": N_("Choose how the character rests: a day of bed rest or a night's rest."),
    "option": N_("Choose an option."),
}


def unchosen(form: Any) -> list[str]:
    """What the form left on "— choose —", said in the page's language (empty: every list was chosen)."""
    out: list[str] = []
    for field, asked in MUST_CHOOSE.items():
        value = form.get(field)
        if not isinstance(value, str) or value.strip() or (field == "characters" and form.get("kind") != "short"):
            continue  # (a long rest's blank "who" means everyone)
        if _(asked) not in out:
            out.append(_(asked))
    return out


def labelled_fields(action: Any, form: Any) -> dict[str, Any]:
    """The form as the action's body (api/actions.py `form_to_body`); a field it refuses ("parts[0].amount: a whole
    number, not 'x'") named by its label on the page ("amount: …"), not by the API's path."""
    import re

    from ....errors import UsageError
    from ....presentation.locale import field_label, say
    from ..api.actions import form_to_body

    try:
        return form_to_body(action, form)
    except UsageError as exc:
        where = exc.where or ""
        said = say(exc.text)
        field = re.split(r"[\[\].]+", where.rstrip("]"))[-1] if where else ""
        if not field or not said.startswith(where):
            raise
        raise UsageError(field_label(field) + said[len(where):], field) from None
