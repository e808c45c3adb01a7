"""What the player knows of their afflictions: known (name, DC, ladder, cure) or only its symptoms.

Each affliction instance is known to its player or not: the option `afflictions_known` gives the default,
the GM's toggle (`reveal`, event `affliction_known`) overrides it, and with `check_reveals_affliction` a
successful Heal (5e: Medicine) check against the affliction's DC (`diagnose`) reveals it. The state keeps
the toggles (`Campaign.known`); the interfaces ask `is_known`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...errors import RuleViolation
from ...message import msg
from ..engine.acting import refuse_if_forbidden
from ..engine.campaign import find_character
from ..engine.evolve import handles
from ..engine.state import Campaign, with_fields

if TYPE_CHECKING:
    from ..engine.context import Context

Event = dict[str, Any]


def is_known(state: Campaign, options: dict[str, Any], character_id: str, affliction_id: str) -> bool:
    """Whether the character's player knows this affliction (the GM's word, else the option's default)."""
    for character, affliction, known in state.known:
        if character == character_id and affliction == affliction_id:
            return known
    return bool(options.get("afflictions_known", True))


def reveal(ctx: Context, name: str, affliction_key: str, known: bool = True) -> list[Event]:
    """The GM shows an affliction to the character's player (its name, DC, ladder, cure), or hides it."""
    from .decide import find_affliction

    character = find_character(ctx.state, name)
    a = find_affliction(character, affliction_key, ctx.rules)
    return [{"type": "affliction_known", "data": {"character": character.id, "affliction": a.id,
                                                  "content": a.affliction, "known": known, "why": "gm"}}]


def diagnose(ctx: Context, name: str, affliction_key: str, healer_name: str | None = None, total: int | None = None,
             d20: int | None = None) -> list[Event]:
    """A Heal (5e: Medicine) check against the affliction's DC: with `check_reveals_affliction`, a success makes
    the affliction known to the player. The check is typed (a total or a d20) or rolled for the healer."""
    from ..engine import saves
    from .decide import find_affliction
    from ..engine.roll_match import RollContext
    from ..engine.abilities import heal_bonus

    state = ctx.state
    character = find_character(state, name)
    a = find_affliction(character, affliction_key, ctx.rules)
    healer = find_character(state, healer_name) if healer_name else character
    if healer.dead:
        raise RuleViolation(msg("{character_name} is dead", character_name=healer.name))
    if healer_name or (total is None and d20 is None):  # the healer's check: not one who cannot act (issue 40)
        refuse_if_forbidden(healer, ctx.rules, ctx.options, state.system, "action")
    reading = saves.read_check(healer, ctx.rules, ctx.options, state.system, RollContext("skill", skill="heal"),
                               heal_bonus(healer, ctx.rules))
    mark = len(ctx.roller.made)
    check = saves.roll(ctx.roller, state.system, reading, a.dc, f"{a.affliction}: Heal check ({a.id})", total, d20,
                       kind="check")
    revealed = bool(check["succeeded"] and ctx.options.get("check_reveals_affliction")
                    and not is_known(state, ctx.options, character.id, a.id))
    events: list[Event] = [{"type": "affliction_diagnosed", "data": {
        "character": character.id, "affliction": a.id, "content": a.affliction, "healer": healer.id, **check,
        "revealed": revealed, "rolls": list(ctx.roller.made[mark:])}}]
    if revealed:
        events.append({"type": "affliction_known", "data": {"character": character.id, "affliction": a.id,
                                                            "content": a.affliction, "known": True, "why": "check"}})
    return events


@handles("affliction_known")
def _affliction_known(state: Campaign, d: dict[str, Any]) -> Campaign:
    kept = tuple(k for k in state.known if (k[0], k[1]) != (d["character"], d["affliction"]))
    return with_fields(state, known=kept + ((d["character"], d["affliction"], bool(d["known"])),))


@handles("affliction_diagnosed")
def _affliction_diagnosed(state: Campaign, d: dict[str, Any]) -> Campaign:
    return state  # the record of the check; what it reveals comes in the event that follows
