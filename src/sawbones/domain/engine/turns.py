"""Triggers that fire on moments of play the GM announces: a turn, a Dash, an action in combat.

Which triggers exist is content (trigger effects with on: turn_start, turn_end, dash,
action_in_combat, standard_action); this runs them: the save (typed, or rolled with what the roll
query says applies: the sheet, modifiers and conditions, advantage/disadvantage, automatic failure;
saves.py), then the outcome on a failure, or at once when there is no save.
"""

from __future__ import annotations

from typing import Any

from ...content.models import dump
from ...errors import RuleViolation, UsageError
from . import saves as save_rolls
from .campaign import find_character
from .conditions import gained
from .damage import dying_check, is_standing, lose_hp
from .effects import triggers_on
from .evolve import fold
from .state import MINUTE
from .context import Context

Event = dict[str, Any]
MOMENTS = {"turn": ("turn_start", "turn_end"), "dash": ("dash",), "action": ("action_in_combat", "standard_action")}


def _dc(ctx: Context, active: Any) -> int:
    dc: int | str = active.effect.save.dc
    if isinstance(dc, str):  # "affliction" (schema: an int or that word): the affliction's own DC
        affliction_dc: int = ctx.rules.afflictions[active.content_id].dc
        return affliction_dc
    return dc


def run_moment(ctx: Context, name: str, moment: str, saves: list[int]) -> list[Event]:
    if moment not in MOMENTS:
        raise UsageError(f"unknown moment {moment!r} (turn, dash, action)")
    character = find_character(ctx.state, name)
    if character.dead:
        raise RuleViolation(f"{character.name} is dead")
    typed = list(saves)
    results: list[dict[str, Any]] = []
    events: list[Event] = []
    state = ctx.state
    if moment == "turn":  # a dying character's check comes first (the hit point model of the system)
        check, events = dying_check(ctx, character, typed[0] if typed else None)
        if check is not None:
            typed = typed[1:]
            results.append(check)
            state = fold(events, state)
    for on in MOMENTS[moment] if not find_character(state, character.id).dead else ():
        for active in triggers_on(find_character(state, character.id), ctx.rules, ctx.options, on):
            effect = active.effect
            current = find_character(state, character.id)
            if "standing" in effect.while_ and not is_standing(current, ctx.rules, ctx.options):
                continue
            result: dict[str, Any] = {"on": on, "source": active.source("en"), "outcome": dump(effect.outcome)}
            failed = True
            if effect.save is not None:
                dc = _dc(ctx, active)
                reading = save_rolls.read(current, ctx.rules, ctx.options, ctx.state.system, effect.save.save)
                save = save_rolls.roll(ctx.roller, ctx.state.system, reading, dc,
                                       f"{active.content_id}: {effect.save.save} save", typed.pop(0) if typed else None)
                failed = not save.pop("succeeded")
                save.pop("typed")
                result.update({**save, "failed": failed})
            if effect.chance is not None:
                d100 = ctx.roller.roll("1d100", f"{active.content_id}: {effect.chance}% chance")
                failed = failed and d100 <= effect.chance
                result["d100"] = d100
            result["applies"] = failed
            results.append(result)
            if failed and effect.outcome.condition and not effect.outcome.permanent:
                minutes = effect.outcome.condition_minutes  # on the clock (conditions.py); else while the source lasts
                until = state.clock + minutes * MINUTE if minutes else None
                new = [gained(current, effect.outcome.condition, until, active)]
                events += new
                state = fold(new, state)
            if failed and effect.outcome.hp_loss:
                loss = ctx.roller.roll(effect.outcome.hp_loss, f"{active.content_id}: hit point loss")
                new = lose_hp(ctx, current, loss, active.content_id, state, at_most=effect.outcome.hp_at_most,
                              injury=active.kind == "injury", stable=effect.outcome.stable)
                events += new
                state = fold(new, state)
    if typed:
        raise UsageError(f"{len(typed)} --save value(s) left over: {character.name} has fewer saves to make")
    note = {"type": "noted", "data": {"character": character.id, "moment": moment, "results": results,
                                      "rolls": list(ctx.roller.made)}}
    return [note] + events
