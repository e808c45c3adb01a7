"""What a moment's pending roll is for, in words (issue 12): a trigger's save in a turn, a Dash or an action
("Nausea, start of the turn"), or a dying character's check ("dying: stabilize", a Constitution check). Read
by the GM's list of pending saves (`sawbones pending`, the dashboard) and the player's prompt."""

from __future__ import annotations

from typing import Any

from ..i18n import Words
from .save_words import save_name

W = Words("moment_words", {
    "moment_roll": ("{source}: {on}", "{source} : {on}"),
    "on_turn_start": ("start of the turn", "début du tour"),
    "on_turn_end": ("end of the turn", "fin du tour"),
    "on_dash": ("Dash", "Foncer"),
    "on_action_in_combat": ("an action in combat", "une action en combat"),
    "on_standard_action": ("a standard action", "une action simple"),
    "dying_roll": ("dying: stabilize", "mourant : se stabiliser"),
    "check": ("{ability} check", "test de {ability}"),
})
KINDS = ("moment", "dying")


def about(rules: Any, pending: Any, lang: str, secret: str | None = None) -> str | None:
    """What a moment's pending roll is for (None for the other kinds); `secret`: said instead of the source's
    name when the source is an affliction the player does not know."""
    from .sentences import named

    if pending.kind == "dying":
        return W.say("dying_roll", lang)
    if pending.kind != "moment":
        return None
    phase = dict(pending.args).get("phase", "")
    source = secret if secret is not None else named(rules, pending.content, lang)
    on = W.say(f"on_{phase}", lang) if f"on_{phase}" in W else phase
    return W.say("moment_roll", lang, source=source, on=on)


def roll_name(rules: Any, pending: Any, system: str | None, lang: str) -> str:
    """The roll a pending save waits for, as the system names it: a save, a skill's check, a dying check."""
    if pending.kind == "dying":
        ability = rules.abilities[pending.save].name(lang) if pending.save in rules.abilities else pending.save
        return W.say("check", lang, ability=ability)
    if pending.save in rules.skills:
        name: str = rules.skills[pending.save].name(lang)
        return name
    return save_name(rules, pending.save, system, lang)
