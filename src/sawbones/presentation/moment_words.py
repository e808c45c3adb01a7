"""What a moment's pending roll is for, in words (issue 12): a trigger's save in a turn, a Dash or an action
("Nausea, start of the turn"), or a dying character's check ("dying: stabilize", a Constitution check). Read
by the GM's list of pending saves (`sawbones pending`, the dashboard) and the player's prompt."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .locale import _, name
from .save_words import save_name

if TYPE_CHECKING:
    from ..content.rules import Rules

ON: dict[str, Callable[[], str]] = {  # when in a turn a trigger's save is rolled
    "turn_start": lambda: _("start of the turn"),
    "turn_end": lambda: _("end of the turn"),
    "dash": lambda: _("Dash"),
    "action_in_combat": lambda: _("an action in combat"),
    "standard_action": lambda: _("a standard action"),
}
KINDS = ("moment", "dying")


def about(rules: "Rules", pending: Any, secret: str | None = None) -> str | None:
    """What a moment's pending roll is for (None for the other kinds); `secret`: said instead of the source's
    name when the source is an affliction the player does not know."""
    from .sentences import named

    if pending.kind == "dying":
        return _("dying: stabilize")
    if pending.kind != "moment":
        return None
    phase = dict(pending.args).get("phase", "")
    source = secret if secret is not None else named(rules, pending.content)
    on = ON[phase]() if phase in ON else phase
    return _("{source}: {on}", source=source, on=on)


def roll_name(rules: "Rules", pending: Any, system: str | None) -> str:
    """The roll a pending save waits for, as the system names it: a save, a skill's check, a dying check."""
    if pending.kind == "dying":
        ability = name(rules.abilities[pending.save].name) if pending.save in rules.abilities else pending.save
        return _("{ability} check", ability=ability)
    if pending.save in rules.skills:
        return name(rules.skills[pending.save].name)
    return save_name(rules, pending.save, system)
