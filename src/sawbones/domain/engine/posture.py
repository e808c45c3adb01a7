"""Prone (« à terre ») and an action or reaction lost until the start of the character's next turn.

Prone is state on the character: a trigger's `fall_prone` outcome sets it (Leg Injury's failed Dash save, a lost
foot after the Dash action: seed 000 « tomber », « vous tombez »), and so does the GM (`prone`, `stand`, `turn
--prone`). While prone the character has the condition Prone (its reading in the campaign's system: the roll query,
`mods`, `status`) and is not standing: a rule that works « tant que vous êtes debout » stops (Puncture Wound's hit
point, turns.py). Standing up is a moment a state may forbid (a restriction's `forbids: [stand]`: Alité « ne peut
pas se tenir debout seul », Immobile, unconscious...).

A trigger whose failure loses the action or the reactions (Nausea « passer son action à vomir », Broken Ribs
« perdre votre action et votre réaction jusqu'au début du prochain tour », Befuddled) records the loss; it holds
until the character's next `turn` begins, or a round later on the clock (`advance`: its next turn has come). Meanwhile an action or a Dash is refused with the reason (acting.py), and
the loss shows as restrictions (`action_lost`, `reaction_lost`) in `status` and `mods`, sourced.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Iterable

from ...content import schema as s
from ...errors import RuleViolation
from ...message import msg
from .acting import LOST_KIND, refuse_if_forbidden
from .campaign import find_character
from .context import Context
from .effects import ActiveEffect, provider, stored_names
from .evolve import handles
from .state import ROUND, Campaign, Character, Lost, with_fields
from .timeline import scheduler

if TYPE_CHECKING:
    from ...content.rules import Rules


Event = dict[str, Any]
PRONE = "prone"  # the condition (condition_readings.yaml) the state stands for
ACTION_LOST, REACTION_LOST = "action_lost", "reaction_lost"  # the restrictions a loss shows as


def prone_event(character: Character, prone: bool, cause: Any = None) -> Event:
    """`character` falls prone (True) or stands up (False); `cause`: what made it fall (a source's name), if a rule."""
    data: dict[str, Any] = {"character": character.id, "prone": prone}
    if cause is not None:
        data["cause"] = stored_names(cause)
    return {"type": "prone_changed", "data": data}


def lost_event(character: Character, action: bool, reaction: bool, source: ActiveEffect | None = None,
               at: int = 0, why: str = "turn", next_turn: bool = False, names: dict[str, str] | None = None) -> Event:
    """The action and/or reaction lost until the start of the next turn, at `at` on the clock; `next_turn`: lost at
    the end of a turn, it is the next turn's (both False: back, `why`: a new turn, or a round gone by)."""
    data: dict[str, Any] = {"character": character.id, "action": action, "reaction": reaction}
    if action or reaction:
        data["at"] = at
    else:
        data["why"] = why
    if next_turn:
        data["next_turn"] = True
    if source is not None:
        data["source"] = {"kind": source.kind, "id": source.source_id, "content_id": source.content_id,
                          "name": stored_names(source.name)}
    elif names is not None:
        data["source"] = {"name": names}
    return {"type": "actions_lost", "data": data}


def set_prone(ctx: Context, name: str, prone: bool) -> list[Event]:
    """The GM's word: `name` is prone (`prone`) or stands up (`stand`, refused when its state forbids it)."""
    character = find_character(ctx.state, name)
    if character.dead:
        raise RuleViolation(msg("{character} is dead", character=character.name))
    if character.prone == prone:
        raise RuleViolation(msg("{character} is already prone", character=character.name) if prone else
                            msg("{character} is already standing", character=character.name))
    if not prone:
        refuse_if_forbidden(character, ctx.rules, ctx.options, ctx.state.system, "stand")
    return [prone_event(character, prone)]


@handles("prone_changed")
def _prone_changed(state: Campaign, d: dict[str, Any]) -> Campaign:
    character = next(c for c in state.characters if c.id == d["character"])
    return state.with_character(with_fields(character, prone=bool(d["prone"])))


@handles("actions_lost")
def _actions_lost(state: Campaign, d: dict[str, Any]) -> Campaign:
    character = next(c for c in state.characters if c.id == d["character"])
    action, reaction = bool(d.get("action")), bool(d.get("reaction"))
    if not (action or reaction):
        return state.with_character(with_fields(character, lost=None))
    before = character.lost
    names = (d.get("source") or {}).get("name") or {}
    lost = Lost(action=action or bool(before and before.action), reaction=reaction or bool(before and before.reaction),
                name_en=names.get("en", ""), name_fr=names.get("fr", names.get("en", "")), at=int(d.get("at") or 0),
                next_turn=bool(d.get("next_turn")))
    return state.with_character(with_fields(character, lost=lost))


def next_turn_begins(character: Character, at: int, why: str = "turn") -> list[Event]:
    """A new turn of the character: what was lost until then comes back; what was lost for it (`next_turn`) is
    lost now, until the turn after."""
    lost = character.lost
    if lost is None:
        return []
    if lost.next_turn:
        return [lost_event(character, lost.action, lost.reaction, at=at, names={"en": lost.name_en, "fr": lost.name_fr})]
    return [lost_event(character, False, False, why=why)]


def _back(character_id: str, ctx: Context) -> list[Event]:
    character = next(c for c in ctx.state.characters if c.id == character_id)
    return next_turn_begins(character, ctx.state.clock, "round")


@scheduler
def _next_turn(ctx: Context) -> Iterable[tuple[int, str, Any]]:
    """A round after the loss the character's next turn has begun, whether or not the GM played it (`advance`)."""
    for character in ctx.state.characters:
        if character.lost is not None:
            yield character.lost.at + ROUND, f"lost:{character.id}", partial(_back, character.id)


@provider
def _posture(character: Character, rules: Rules, options: dict[str, Any]) -> Iterable[ActiveEffect]:
    known = rules.conditions.get(PRONE)
    if character.prone and not character.dead and known is not None:
        yield ActiveEffect(s.ConditionEffect(type="condition", condition=PRONE), "posture", PRONE, PRONE,
                           msg("the character's posture"))  # ("Prone (from the character's posture)", not "from Prone")
    lost = character.lost
    if lost is not None and not lost.next_turn:  # (the next turn's loss is not in force yet)
        name = s.Text(fr=lost.name_fr or lost.name_en, en=lost.name_en)
        for flag, restriction in ((lost.action, ACTION_LOST), (lost.reaction, REACTION_LOST)):
            if flag and restriction in rules.restrictions:
                yield ActiveEffect(s.Restriction(type="restriction", restriction=restriction), LOST_KIND, restriction,
                                   restriction, name)
