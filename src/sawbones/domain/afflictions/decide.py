"""Decisions on diseases and poisons: exposure, periodic saves (scheduled on the clock), pending saves.

Each decision returns events; every die is inside them. The per-save transition itself is
`rules.step`; this module rolls around it (the save, poison damage, ability damage).
Spells and rest are in care.py. Rules: seed 004, docs/rules.md "Progression tracks (PF1)" (RULES-NOTES
TRK-1, TRK-3, TRK-15, TRK-16).
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, Iterator

from ...content import schema as s
from ...errors import RuleViolation, UsageError
from ...message import Listed, msg
from ..engine import hit_points, player_rolls, saves
from .rules import (ACTIVE, CURED, END_STATE, AfflictionState, advance_stages, eliminate, interval, land_onset,
                    new_id, poison_damage, save_triggers, stage_index, status, step, to_dict)
from ..engine.campaign import find_character
from ..engine.damage import injury_if_dropped
from ..engine.evolve import fold
from ..engine.state import UNIT_SECONDS, Campaign, Character, id_number
from ..engine.player_rolls import PENDING_EVENT
from ..engine.timeline import Due, advance_to, scheduler
from ..engine.context import Context

if TYPE_CHECKING:
    from ...content.rules import Rules

Event = dict[str, Any]
POISON_DAMAGE = "poison damage"  # the cause a track's poison damage gives its hit points (seed 004)


# ---------------------------------------------------------------- lookups


def find_affliction(character: Character, key: str, rules: Rules | None = None) -> AfflictionState:
    """An affliction of a character by instance id (d3, t4, or a2 from before) or content id (filth_fever)."""
    mine: tuple[AfflictionState, ...] = character.afflictions  # the engine's state holds them untyped
    for a in mine:
        if a.id == key:
            return a
    matches = [a for a in mine if a.affliction == key]
    if not matches:  # by its name as the screens show it, in either language (content/rules.py `resolve`)
        from ...content.rules import fold

        folded = fold(key).replace("-", " ").replace("_", " ")
        matches = [a for a in mine if rules is not None and a.affliction in rules.afflictions
                   and folded in {fold(n) for n in (*rules.afflictions[a.affliction].name.by_language().values(),
                                                     a.affliction.replace("_", " "))}]
        if rules is None:
            matches = [a for a in mine if fold(a.affliction.replace("_", " ")) == folded]
    live = [a for a in matches if a.status != CURED]
    if live or matches:
        return (live or matches)[-1]
    if not character.afflictions:
        raise UsageError(msg("{character_name} has no affliction {key} (no afflictions at all)",
                             character_name=character.name, key=repr(key)))
    known = Listed((f"{a.id} {a.affliction}" for a in character.afflictions), "")
    raise UsageError(msg("{character_name} has no affliction {key} (afflictions: {known})",
                         character_name=character.name, key=repr(key), known=known))


def save_key(ctx: Context, save: str) -> tuple[str, str]:
    """(the key on the character's sheet, the ability behind it) for a named save in this campaign's system.

    In a dnd5e campaign Fortitude is the Con save (vocabulary `maps_to`).
    """
    return saves.sheet_key(ctx.rules, ctx.state.system, save)


def read_save(ctx: Context, character: Character, save: str) -> saves.SaveReading:
    """What applies to this character's save: the sheet, and the roll query's answer (conditions included)."""
    return saves.read(character, ctx.rules, ctx.options, ctx.state.system, save)


def save_bonus(ctx: Context, character: Character, save: str) -> int:
    """The character's flat bonus to this save: the sheet's value (or the ability modifier), plus what the roll
    query adds (modifiers, conditions through their readings, ability changes)."""
    return read_save(ctx, character, save).bonus


def roll_save(ctx: Context, character: Character, save: str, dc: int, why: str, total: int | None = None,
              d20: int | None = None) -> dict[str, Any]:
    """A save: the typed total, or the typed d20 plus the bonus, or a rolled d20 plus the bonus (saves.roll:
    advantage/disadvantage in 5e, automatic failure, pf1e's natural 1 and 20); the breakdown goes with it."""
    return saves.roll(ctx.roller, ctx.state.system, read_save(ctx, character, save), dc, why, total, d20)


def _hp_events(ctx: Context, character: Character, hp: int, loss: int, why: str, at_most: int | None = None,
               ) -> tuple[int, list[Event]]:
    """HP after a track's damage or HP loss, under the system's hit point model (pf1e: below 0, dead at -Con)."""
    before = replace(character, hp=hp)
    result = hit_points.lower(before, loss, ctx.rules, ctx.options, ctx.state.system, at_most=at_most)
    data: dict[str, Any] = {"character": character.id, "hp": result.hp, "why": why}
    if hit_points.falls_prone(before, result, ctx.rules, ctx.state.system):
        data["prone"] = True
    return result.hp, [{"type": "hp_changed", "data": data}] + hit_points.death_event(character, result)


def _fire(ctx: Context, character: Character, a: AfflictionState, triggers: list[s.Trigger], hp: int,
          ) -> tuple[AfflictionState, int, list[Event], list[dict[str, Any]]]:
    """Outcomes of `affliction_save` triggers: poison damage, hit point loss, ability damage (rolled)."""
    events: list[Event] = []
    done: list[dict[str, Any]] = []
    for trigger in triggers:
        outcome = trigger.outcome
        if outcome.poison_damage:
            loss = poison_damage(a.dc, ctx.options)
            if loss:
                hp, more = _hp_events(ctx, character, hp, loss, f"{a.affliction}: {POISON_DAMAGE}")
                events += more
            done.append({"what": "poison_damage", "hp": loss})
        if outcome.hp_loss:
            loss = ctx.roller.roll(outcome.hp_loss, f"{a.affliction}: hit point loss")
            before = hp
            hp, more = _hp_events(ctx, character, hp, loss, f"{a.affliction}: hit point loss", outcome.hp_at_most)
            events += more
            done.append({"what": "hp_loss", "hp": before - hp})
        if outcome.ability_loss:
            damage = dict(a.ability_damage)
            for ability, formula in outcome.ability_loss.items():
                amount = ctx.roller.roll(formula, f"{a.affliction}: {ability} damage")
                damage[ability] = damage.get(ability, 0) + amount
                done.append({"what": "ability_damage", "ability": ability, "amount": amount})
            a = replace(a, ability_damage=tuple(sorted(damage.items())))
        if outcome.note is not None and not (outcome.poison_damage or outcome.hp_loss or outcome.ability_loss):
            done.append({"what": "note", **outcome.note.by_language()})
    return a, hp, events, done


def _death(character: Character, a: AfflictionState, facts: list[dict[str, Any]]) -> list[Event]:
    if any(f["what"] == "death" for f in facts) and not character.dead:
        return [{"type": "character_died", "data": {"character": character.id, "cause": a.affliction}}]
    return []


def _one_death(events: list[Event]) -> list[Event]:
    """A character dies once: the first cause (hit points or the track's end) is the one recorded."""
    dead: set[str] = set()
    out = []
    for e in events:
        if e["type"] == "character_died":
            if e["data"]["character"] in dead:
                continue
            dead.add(e["data"]["character"])
        out.append(e)
    return out


def _poison_injury(ctx: Context, character: Character, events: list[Event]) -> list[Event]:
    """5e: poison damage that drops the character to 0 HP gives a lingering injury from the Poison table, as any
    damage does (option poison_damage_injury; its hit point loss, not damage, gives none)."""
    if not ctx.options.get("poison_damage_injury", True) or "poison" not in ctx.rules.damage_tables:
        return []
    return injury_if_dropped(ctx, character, events, "poison", POISON_DAMAGE)


def _rolls(ctx: Context, start: int) -> list[dict[str, Any]]:
    return list(ctx.roller.made[start:])


# ---------------------------------------------------------------- exposure


def start_stages(ctx: Context, defn: s.Affliction, deadly: str | None) -> tuple[int, ...]:
    """Where a failed initial save puts the victim on each track (TRK-1, TRK-3 deadly start)."""
    stage = deadly or (ctx.options.get("deadly_start") or {}).get(defn.id) or defn.start_stage
    out = []
    for track_id in defn.tracks:
        track = ctx.rules.tracks[track_id]
        if stage is None:
            out.append(1)
            continue
        index = stage_index(track, stage)
        if index is None:
            raise UsageError(msg("{affliction}: no stage {stage} on the {track} (stages: {names})", affliction=defn.name,
                                 stage=repr(stage), track=track.name, names=Listed((st.id for st in track.stages[1:]), "")))
        if index == 0:
            raise UsageError(msg("{affliction}: a deadly start cannot be {stage}", affliction=defn.name, stage=repr(stage)))
        out.append(index)
    return tuple(out)


def _new_state(ctx: Context, defn: s.Affliction, character: Character, deadly: str | None,
               ) -> tuple[AfflictionState, tuple[int, ...]]:
    now = ctx.state.clock
    stages = start_stages(ctx, defn, deadly)
    onset = defn.onset.amount * UNIT_SECONDS[defn.onset.unit] if defn.onset else None
    saves_left = None
    if defn.kind == "poison":
        first = now + (onset if onset is not None else interval(defn))
        if defn.frequency.count is not None:
            saves_left = defn.frequency.count - (1 if ctx.options.get("initial_save_counts_toward_duration") else 0)
    else:
        delay = onset if (onset is not None and ctx.options.get("disease_onset") == "delay_first_save_by_core_onset") \
            else interval(defn)
        first = now + delay
    a = AfflictionState(id=new_id(ctx.state, defn.kind), affliction=defn.id, kind=defn.kind, dc=defn.dc,
                        tracks=tuple(defn.tracks), stages=tuple(0 for _ in defn.tracks), contracted_at=now,
                        next_save_at=first, saves_left=saves_left, rest_at=now)
    return a, stages


def expose(ctx: Context, name: str, affliction_id: str, total: int | None = None, d20: int | None = None,
           deadly: str | None = None, rolls: str | None = None) -> list[Event]:
    """Exposure to a disease or poison (TRK-1, TRK-15, TRK-16): the initial save and what follows."""
    state: Campaign = ctx.state
    character = find_character(state, name)
    if character.dead:
        raise RuleViolation(msg("{character_name} is dead", character_name=character.name))
    defn = ctx.rules.get("afflictions", affliction_id)
    affliction_id = defn.id
    existing: AfflictionState | None = next(
        (a for a in character.afflictions if a.affliction == defn.id and a.status != CURED), None)
    if existing is not None and defn.kind == "disease":
        raise RuleViolation(msg("{character_name} already has {affliction} ({existing_id}): a new exposure to the same "
                                "disease has no effect", character_name=character.name, affliction=defn.name,
                                existing_id=existing.id))
    if existing is not None and existing.status == END_STATE:
        raise RuleViolation(msg("{affliction} ({existing_id}) has reached its end state on {character_name}: no further "
                                "effects (only Miracle or Wish remove it)", affliction=defn.name, existing_id=existing.id,
                                character_name=character.name))
    dose = "initial" if existing is None else ("extra" if existing.status == ACTIVE else "renewed")
    if total is None and d20 is None:
        to = player_rolls.routed_to(player_rolls.route(ctx.options, rolls), character)
        if to == player_rolls.PLAYER:  # the player rolls the initial save: it waits for their die
            if dose == "initial":
                start_stages(ctx, defn, deadly)  # a wrong --deadly is refused now, not at the answer
            return [{"type": PENDING_EVENT, "data": {
                "id": f"p{state.counter + 1}", "character": character.id, "affliction": existing.id if existing
                else "", "at": state.clock, "dc": defn.dc, "target": state.clock, "save": defn.save, "to": to,
                "kind": player_rolls.EXPOSURE, "route": player_rolls.GM, "content": defn.id, "deadly": deadly}}]
    mark = len(ctx.roller.made)
    save = roll_save(ctx, character, defn.save, defn.dc, f"{defn.id}: initial {defn.save} save", total, d20)
    events: list[Event] = []
    hp = character.hp
    damage = 0
    if dose != "extra" or ctx.options.get("extra_dose_damage"):
        damage = poison_damage(defn.dc, ctx.options) if defn.kind == "poison" else 0
    facts: list[dict[str, Any]] = []
    after: AfflictionState | None = None
    fired: list[dict[str, Any]] = []
    more: list[Event] = []
    damage_events: list[Event] = []
    if damage:
        hp, damage_events = _hp_events(ctx, character, hp, damage, f"{defn.id}: {POISON_DAMAGE}")
    if dose == "extra":
        assert existing is not None  # dose: "initial" only without one
        # a save against an extra dose is a save against the poison: Con Weakened damage fires (AMB-4-29)
        a, _, more, fired = _fire(ctx, character, existing, save_triggers(existing, save["succeeded"], ctx.rules,
                                                                          ctx.options), hp)
        if not save["succeeded"]:
            a, facts = step(a, False, ctx.rules, ctx.options, periodic=False)
            if a.status == ACTIVE and a.saves_left is not None:
                extra = (defn.frequency.count or 0) // 2
                a = replace(a, saves_left=a.saves_left + extra)
                facts.append({"what": "duration", "saves_added": extra})
        after = a if (a != existing) else None
    elif not save["succeeded"]:
        if dose == "initial":
            fresh, stages = _new_state(ctx, defn, character, deadly)
        else:  # the poison was out of the system: a new exposure, full duration, one step further (TRK-16)
            assert existing is not None  # dose: "initial" only without one
            fresh, _ = _new_state(ctx, defn, character, None)
            fresh = replace(existing, status=ACTIVE, next_save_at=fresh.next_save_at, saves_left=fresh.saves_left,
                            streak=0, failures=0, rest=0, contracted_at=ctx.state.clock)
            stages = tuple(i + 1 for i in existing.stages)
        if ctx.options.get("first_step_timing") == "after_onset" and defn.kind == "poison" and defn.onset \
                and dose == "initial":
            after = replace(fresh, onset_stages=stages)
        else:
            after, facts = advance_stages(fresh, stages, ctx.rules, ctx.options)
        if after.status == ACTIVE and after.saves_left == 0:
            after, more_facts = eliminate(after, "duration", ctx.state.clock)
            facts += more_facts
    record = {"character": character.id, "affliction": defn.id, "instance": existing.id if existing else None,
              "dose": dose, "at": state.clock, **save, "damage": damage, "facts": facts, "triggered": fired,
              "contracted": (not save["succeeded"]) and dose != "extra"}
    events.append({"type": "affliction_exposed", "data": {**record, "rolls": _rolls(ctx, mark)}})
    events += damage_events + more
    if after is not None:
        kind = "affliction_contracted" if dose == "initial" else "affliction_changed"
        events.append({"type": kind, "data": {"character": character.id, "state": to_dict(after), "facts": facts}})
        events += _death(character, after, facts)
    events = _one_death(events)
    return events + _poison_injury(ctx, character, events)


# ---------------------------------------------------------------- periodic saves


def resolve_save(ctx: Context, character_id: str, affliction_key: str, total: int | None = None,
                 d20: int | None = None) -> list[Event]:
    """One periodic save (rolled, or typed): the triggers it sets off, then `step`."""
    character = find_character(ctx.state, character_id)
    a = find_affliction(character, affliction_key, ctx.rules)
    if a.status != ACTIVE:
        raise RuleViolation(msg("{affliction} ({a_id}) on {character_name} is {status}: no save is due",
                                affliction=ctx.rules.afflictions[a.affliction].name, a_id=a.id,
                                character_name=character.name, status=status(a)))
    defn = ctx.rules.afflictions[a.affliction]
    mark = len(ctx.roller.made)
    at = a.next_save_at if a.next_save_at is not None else ctx.state.clock
    pre_facts: list[dict[str, Any]] = []
    if a.onset_stages:  # the first step lands as the onset ends, before this save (first_step_timing)
        a, pre_facts = land_onset(a, ctx.rules, ctx.options)
        if a.status != ACTIVE:
            return [{"type": "affliction_changed", "data": {"character": character.id, "state": to_dict(a),
                                                            "facts": pre_facts}}] + _death(character, a, pre_facts)
        # the save is made on the stage just reached
        character = replace(character, afflictions=tuple(a if x.id == a.id else x for x in character.afflictions))
    why = f"{a.affliction}: {defn.save} save ({a.id})"
    save = roll_save(ctx, character, defn.save, a.dc, why, total, d20)
    a2, hp, hp_events, fired = _fire(ctx, character, a, save_triggers(a, save["succeeded"], ctx.rules, ctx.options),
                                     character.hp)
    new, facts = step(a2, save["succeeded"], ctx.rules, ctx.options)
    facts = pre_facts + facts
    data = {"character": character.id, "affliction": a.id, "content": a.affliction, "at": at, **save,
            "facts": facts, "triggered": fired, "state": to_dict(new), "rolls": _rolls(ctx, mark)}
    events = _one_death([{"type": "affliction_saved", "data": data}] + hp_events + _death(character, new, facts))
    return events + _poison_injury(ctx, character, events)


def _due_save(character_id: str, affliction_id: str, ctx: Context) -> list[Event]:
    """A save falls due on the clock: roll it (auto), or stop the advance for a die (the GM's or the player's)."""
    rolls = getattr(ctx, "rolls", player_rolls.GM)
    if getattr(ctx, "auto", True) and rolls == player_rolls.GM:
        return resolve_save(ctx, character_id, affliction_id)
    character = find_character(ctx.state, character_id)
    to = player_rolls.routed_to(rolls, character)
    if to == player_rolls.GM and getattr(ctx, "auto", True):
        return resolve_save(ctx, character_id, affliction_id)
    a = find_affliction(character, affliction_id, ctx.rules)
    defn = ctx.rules.afflictions[a.affliction]
    if a.onset_stages:  # the onset's first step is no die: apply it, and ask for the save next time round
        new, facts = land_onset(a, ctx.rules, ctx.options)
        return [{"type": "affliction_changed", "data": {"character": character.id, "state": to_dict(new),
                                                        "facts": facts}}] + _death(character, new, facts)
    data = {"id": f"p{ctx.state.counter + 1}", "character": character_id, "affliction": affliction_id,
            "at": a.next_save_at, "dc": a.dc, "target": getattr(ctx, "target", ctx.state.clock),
            "save": defn.save, "to": to, "kind": player_rolls.PERIODIC, "route": rolls}
    return [{"type": PENDING_EVENT, "data": data}]


@scheduler
def _affliction_saves(ctx: Context) -> Iterator[Due]:
    waiting = {(p.character, p.affliction) for p in ctx.state.pending}  # queued: due, but not again
    for index, character in enumerate(ctx.state.characters):
        if character.dead:
            continue
        for a in character.afflictions:
            if a.status == ACTIVE and a.next_save_at is not None and (character.id, a.id) not in waiting:
                key = f"affliction:{index:06d}:{id_number(a.id):08d}"
                yield a.next_save_at, key, partial(_due_save, character.id, a.id)


def _settle(ctx: Context, state: Campaign, pending: Any, total: int | None = None, d20: int | None = None,
            answered: dict[str, Any] | None = None) -> tuple[list[Event], Campaign]:
    """Clear a pending roll and make it (typed, or rolled) if it is still due as it was queued; `answered`: who
    answered and how (player_rolls), kept on the `pending_cleared` event."""
    events: list[Event] = [{"type": "pending_cleared", "data": {"id": pending.id, "character": pending.character,
                                                                **(answered or {})}}]
    state = fold(events, state)
    character = state.character(pending.character)
    if pending.kind != player_rolls.PERIODIC:  # an action that waited for the die: made now, with it
        if character is not None and not character.dead:
            new = player_rolls.DEFERRED[pending.kind](replace(ctx, state=state), pending, total, d20)
            events += new
            state = fold(new, state)
        return events, state
    a = next((x for x in character.afflictions if x.id == pending.affliction), None) if character else None
    if character is not None and not character.dead and a is not None and a.status == ACTIVE \
            and a.next_save_at == pending.at:
        new = resolve_save(replace(ctx, state=state), character.id, a.id, total, d20)
        events += new
        state = fold(new, state)
    return events, state


@player_rolls.deferred(player_rolls.EXPOSURE)
def _exposure(ctx: Context, pending: Any, total: int | None, d20: int | None) -> list[Event]:
    """An exposure whose initial save the player rolled."""
    return expose(ctx, pending.character, pending.content, total, d20, pending.deadly, rolls=player_rolls.GM)


@player_rolls.resumes
def settle_and_resume(ctx: Context, pending: Any, total: int | None, d20: int | None, auto: bool,
                      answered: dict[str, Any]) -> list[Event]:
    """Settle one pending roll; once none waits any more, the interrupted advance resumes up to its target
    (what else is due at this moment first); `auto` rolls the other saves queued with it as well."""
    events, state = _settle(ctx, ctx.state, pending, total, d20, answered)
    while auto and state.pending:
        more, state = _settle(ctx, state, state.pending[0], answered={"by": player_rolls.GM, "how": "rolled"})
        events += more
    if not state.pending and pending.target >= state.clock:
        events += advance_to(replace(ctx, state=state), pending.target, auto, pending.route)
    return events


def answer(ctx: Context, pending_id: str, total: int | None = None, d20: int | None = None,
           auto: bool = False, **how: Any) -> list[Event]:
    """A die for a pending save (player_rolls.answer: who answers, how, the GM's confirmation)."""
    return player_rolls.answer(ctx, pending_id, total, d20, auto, **how)
