"""Conditions with a duration on the game clock: gained from a source, ended by the timeline.

One mechanism for every condition that lasts a span of game time rather than as long as its source:

- a trigger's outcome with `condition` and `condition_minutes` (seed 004, physical Impaired: "perdre
  l'action et gagner l'état Nauséeux pendant 1 minute"), applied by turns.py;
- a content condition effect with `duration_option` (the "temporary" conditions of lingering
  injuries, option temporary_condition_duration): when the option's value has a duration
  (options.yaml `durations`), the source's condition is replaced, from the moment it is gained, by
  a timed one that ends on the clock; the source itself (the injury) stays until it heals.

A timed condition is an active effect of its source (the roll query, `mods` and `status` show it
with its end); it ends at its time (a `condition_ended` event when the clock passes it) or with its
source (an injury healed, an affliction cured).
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, Iterable

from ...content import schema as s
from .clock import parse_duration
from .effects import ActiveEffect, option_matches, provider, stored_names
from .evolve import handles
from .state import Campaign, Character, TimedCondition
from .timeline import scheduler
from .context import Context
from ...durations import END_OF_COMBAT as END_OF_COMBAT  # an option's duration that lasts until combat ends

if TYPE_CHECKING:
    from ...content.rules import Rules


Event = dict[str, Any]


def gained(character: Character, condition: str, until: int | None, source: ActiveEffect,
           replaces: bool = False, until_combat_end: bool = False) -> Event:
    """The event of `character` gaining `condition` from `source` until the clock reads `until` (or, with
    `until_combat_end`, until the GM ends the combat)."""
    return {"type": "condition_gained", "data": {
        "character": character.id, "id": f"{source.source_id}:{condition}", "condition": condition, "until": until,
        "source": {"kind": source.kind, "id": source.source_id, "content_id": source.content_id,
                   "name": stored_names(source.name)},
        "replaces": replaces, **({"until_combat_end": True} if until_combat_end else {})}}


def option_duration(rules: Rules, options: dict[str, Any], option_id: str) -> int | str | None:
    """Seconds the option's current value gives (options.yaml `durations`), END_OF_COMBAT, or None: as long as
    the source."""
    declared = rules.options.get(option_id)
    text = declared.durations.get(str(options.get(option_id))) if declared is not None else None
    if text == END_OF_COMBAT:
        return END_OF_COMBAT
    return parse_duration(text) if text else None


def on_gain(ctx: Context, character: Character, effects: Iterable[ActiveEffect], now: int) -> list[Event]:
    """For a source just gained: its conditions whose duration option gives a span become timed ones."""
    out = []
    for active in effects:
        effect = active.effect
        option_id = getattr(effect, "duration_option", None)
        if isinstance(effect, s.ConditionEffect) and option_id and option_matches(effect, ctx.options):
            seconds = option_duration(ctx.rules, ctx.options, option_id)
            if seconds == END_OF_COMBAT:
                out.append(gained(character, effect.condition, None, active, replaces=True, until_combat_end=True))
            elif isinstance(seconds, int):  # else None: as long as the source
                out.append(gained(character, effect.condition, now + seconds, active, replaces=True))
    return out


def running(character: Character) -> list[TimedCondition]:
    """The timed conditions in force: not ended, their source still there."""
    return [t for t in character.conditions if not t.ended and _source_alive(character, t)]


def _source_alive(character: Character, timed: TimedCondition) -> bool:
    if timed.source_kind == "injury":
        return character.injury(timed.source_id) is not None
    if timed.source_kind == "affliction":
        return any(a.id == timed.source_id for a in character.afflictions)
    if timed.source_kind == "wound":
        return any(w.id == timed.source_id for w in character.wounds)
    return True


@provider
def _timed_conditions(character: Character, rules: Rules, options: dict[str, Any]) -> Iterable[ActiveEffect]:
    for timed in running(character):
        effect = s.ConditionEffect(type="condition", condition=timed.condition)
        yield ActiveEffect(effect, timed.source_kind, timed.source_id, timed.content_id,
                           s.Text(fr=timed.name_fr, en=timed.name_en), {"until": timed.until})


def end_combat(ctx: Context) -> list[Event]:
    """The GM ends the combat: every timed condition that lasts until then ends (temporary_condition_duration)."""
    ended = [{"type": "condition_ended", "data": {"character": c.id, "id": t.id, "why": "combat_ended",
                                                  "at": ctx.state.clock}}
             for c in ctx.state.characters for t in running(c) if t.until_combat_end]
    return [{"type": "noted", "data": {"moment": "combat_end", "ended": len(ended)}}] + ended


def _expire(character_id: str, timed_id: str, ctx: Context) -> list[Event]:
    return [{"type": "condition_ended", "data": {"character": character_id, "id": timed_id, "why": "expired",
                                                 "at": ctx.state.clock}}]


@scheduler
def _due(ctx: Context) -> Iterable[tuple[int, str, Any]]:
    for character in ctx.state.characters:
        for timed in character.conditions:
            if not timed.ended and timed.until is not None:
                yield (timed.until, f"condition:{character.id}:{timed.id}", partial(_expire, character.id, timed.id))


def _character(state: Campaign, character_id: str) -> Character:
    return next(c for c in state.characters if c.id == character_id)


@handles("condition_gained")
def _condition_gained(state: Campaign, d: dict[str, Any]) -> Campaign:
    character = _character(state, d["character"])
    source = d["source"]
    timed = TimedCondition(id=d["id"], condition=d["condition"], until=d.get("until"), source_kind=source["kind"],
                           source_id=source["id"], content_id=source["content_id"], name_fr=source["name"]["fr"],
                           name_en=source["name"]["en"], replaces=bool(d.get("replaces")),
                           until_combat_end=bool(d.get("until_combat_end")))
    kept = tuple(t for t in character.conditions if t.id != timed.id)
    return state.with_character(replace(character, conditions=kept + (timed,)))


@handles("condition_ended")
def _condition_ended(state: Campaign, d: dict[str, Any]) -> Campaign:
    character = _character(state, d["character"])
    kept = tuple(replace(t, ended=True) if t.replaces else None for t in character.conditions if t.id == d["id"])
    others = tuple(t for t in character.conditions if t.id != d["id"])
    return state.with_character(replace(character, conditions=others + tuple(t for t in kept if t is not None)))
