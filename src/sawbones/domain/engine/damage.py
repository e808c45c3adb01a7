"""Damage, HP loss and healing under the hit point model; the 5e trigger: dropping from above 0 to 0 HP gives one
lingering injury (INJ-1 to INJ-3) through the rule registered with `injury_rule` (seed 000: injuries/rules.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, TypeVar

from ...errors import NotFound, RuleViolation, UsageError
from . import hit_points
from .abilities import effective_abilities
from .campaign import find_character
from .effects import _load_providers, conditions, stored_names, triggers_on
from .evolve import fold
from .state import Character
from .context import Context
from ...message import Option, PerAudience, msg

if TYPE_CHECKING:
    from ...content.rules import Rules


Event = dict[str, Any]
InjuryRule = Callable[..., list[Event]]
Rule = TypeVar("Rule", bound=Callable[..., list[Event]])
_INJURY_RULE: list[InjuryRule] = []  # the rule giving an injury on a drop to 0 HP (seed 000: injuries.rules.gain)
_MAGIC_HEALING: list[Callable[[Any, str, int], list[Event]]] = []  # rules healing with magic HP (seed 001 wounds)

_TYPE_OPTION = PerAudience(cli="--type", api="injury_type")  # the injury table a hit uses (CLI flag, API field)


def injury_rule(fn: Rule) -> Rule:
    """Register the rule that gives an injury when damage drops a character to 0 HP: fn(ctx, character, table,
    d20, site, state, cause=...) -> events (the lingering injuries register `gain`; INJ-1 to INJ-3)."""
    _INJURY_RULE[:] = [fn]
    return fn


def on_magic_healing(fn: Rule) -> Rule:
    """Register what magical healing of some HP also does, fn(ctx, character_id, hp) -> events (LOC-6 b)."""
    _MAGIC_HEALING.append(fn)
    return fn


def _gain_injury(ctx: Context, character: Character, table: str, d20: int | None = None, site: str | None = None,
                 state: Any = None, *, cause: str) -> list[Event]:
    _load_providers()  # the rule modules register their hooks on import
    return _INJURY_RULE[0](ctx, character, table, d20, site, state, cause=cause) if _INJURY_RULE else []


def magic_healing(ctx: Context, character_id: str, hp: int) -> list[Event]:
    """The events every registered rule adds for `hp` points of magical healing."""
    _load_providers()
    return [event for fn in _MAGIC_HEALING for event in fn(ctx, character_id, hp)]


def _check_types(ctx: Context, parts: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The parts with each damage type as its id (typed as a screen shows it, in either language: `Rules.resolve`)."""
    if not parts:
        raise UsageError(msg("give an amount and a damage type, e.g. `damage Aria 7 fire`"))
    for amount, _ in parts:
        if amount < 0 or amount > 100000:
            raise UsageError(msg("damage must be between 0 and 100000, not {amount}", amount=amount))
    try:
        return [(amount, ctx.rules.resolve("damage_tables", kind)) for amount, kind in parts]
    except NotFound as exc:  # a field of the action, not a thing looked up: a usage mistake (422 in the API)
        raise UsageError(exc.text) from None


def _injury_type(ctx: Context, parts: list[tuple[int, str]], chosen: str | None) -> str:
    """The type of the largest share, ties by option multi_type_tiebreak; or the last listed (multi_type_rule;
    INJ-3, AMB-0-12)."""
    if chosen is not None:
        if chosen not in {k for _, k in parts}:
            raise UsageError(msg("{option} {chosen} is not one of this hit's damage types", option=_TYPE_OPTION,
                                 chosen=chosen))
        return chosen
    if ctx.options.get("multi_type_rule") == "last_listed":  # « le dernier type de dégât subi », read literally
        return parts[-1][1]
    shares: dict[str, int] = {}
    for amount, kind in parts:
        shares[kind] = shares.get(kind, 0) + amount
    best = max(shares.values())
    tied = [k for k, v in shares.items() if v == best]
    if len(tied) == 1:
        return tied[0]
    rule = ctx.options.get("multi_type_tiebreak", "largest_then_random")
    if rule == "last_listed":
        return tied[-1]
    if rule == "gm_choice":
        raise UsageError(msg("the hit ties between {tied}: choose the injury table with {option}", tied=", ".join(tied),
                             option=_TYPE_OPTION))
    return ctx.roller.choice(tied, "injury table: tie between damage types")


def injury_eligible(ctx: Context, character: Character) -> bool:
    return not character.npc or bool(ctx.options.get("apply_to_npcs"))


def damage(ctx: Context, name: str, parts: list[tuple[int, str]], d20: int | None = None, site: str | None = None,
           injury_type: str | None = None) -> list[Event]:
    parts = _check_types(ctx, parts)
    if injury_type is not None:
        injury_type = ctx.rules.resolve("damage_tables", injury_type)
    character = find_character(ctx.state, name)
    if character.dead:
        raise RuleViolation(msg("{character} is dead", character=character.name))
    extra: list[dict[str, Any]] = []
    # option open_wound_type: the extra damage has the type of the hit (its largest share), no type, or slashing;
    # a typed extra counts toward the injury table if it drops the character to 0 (INJ-E5)
    extra_type = {"same": max(parts)[1], "untyped": None}.get(ctx.options.get("open_wound_type", "same"),
                                                              ctx.options.get("open_wound_type"))
    for active in triggers_on(character, ctx.rules, ctx.options, "damaged"):
        outcome = active.effect.outcome
        if outcome.extra_damage and active.content_id not in {e["source"] for e in extra}:
            amount = ctx.roller.roll(outcome.extra_damage, f"{active.content_id}: extra damage")
            extra.append({"source": active.content_id, "injury": active.source_id, "amount": amount,
                          "type": extra_type})
    total = sum(a for a, _ in parts) + sum(e["amount"] for e in extra)
    loss = hit_points.lower(character, total, ctx.rules, ctx.options, ctx.state.system, damage=True)
    hp = loss.hp
    data = {"character": character.id, "parts": [[a, k] for a, k in parts], "extra": extra, "total": total,
            "hp": hp, "rolls": list(ctx.roller.made)}
    if hit_points.falls_prone(character, loss, ctx.rules, ctx.state.system):
        data["prone"] = True  # unconscious, « tombe à terre »
    events: list[Event] = [{"type": "damage_taken", "data": data}]
    if loss.killed:  # killed outright: no lingering injury then (AMB-0-34)
        return events + hit_points.death_event(character, loss)
    dropped = character.hp > 0 and hp <= 0
    at_zero = character.hp <= 0 and ctx.options.get("injury_on_damage_at_zero")
    if (dropped or at_zero) and total > 0 and injury_eligible(ctx, character):
        ctx.roller.made.clear()
        table = _injury_type(ctx, parts + [(e["amount"], e["type"]) for e in extra if e.get("type")], injury_type)
        state = fold(events, ctx.state)
        events += _gain_injury(ctx, find_character(state, character.id), table, d20, site, state,
                                cause=f"dropped to 0 HP by {table} damage")
    elif d20 is not None or site is not None:  # a typed value no roll used is refused, like unused --dice
        typed = msg("{option} {value}", option=Option("d20"), value=d20) if d20 is not None else \
            msg("{option} {value}", option=Option("site"), value=site)
        if not injury_eligible(ctx, character):
            raise UsageError(msg("{typed} is not used: {character} is an NPC and gets no injury (option apply_to_npcs)",
                                 typed=typed, character=character.name))
        if character.hp <= 0:
            raise UsageError(msg("{typed} is not used: {character} is already at 0 HP, so no injury is rolled "
                                 "(option injury_on_damage_at_zero)", typed=typed, character=character.name))
        raise UsageError(msg("{typed} is not used: {character} stays above 0 HP, so no injury is rolled", typed=typed,
                             character=character.name))
    return events


def lose_hp(ctx: Context, character: Character, amount: int, source: str, state: Any = None, *,
            at_most: int | None = None, injury: bool = True, stable: bool | None = None) -> list[Event]:
    """HP loss that is not damage, under the system's hit point model (`at_most`: "1 or down to -1, whichever is
    worse"). `injury`: dropping to 0 HP gives the injury of option puncture_zero_hp_injury (Puncture Wound).
    `stable`: the character's stability after the loss (None: unchanged)."""
    state = state or ctx.state
    loss = hit_points.lower(character, amount, ctx.rules, ctx.options, state.system, at_most=at_most)
    hp = loss.hp
    data: dict[str, Any] = {"character": character.id, "hp": hp, "cause": source}
    if hit_points.falls_prone(character, loss, ctx.rules, state.system):
        data["prone"] = True
    if stable is not None:
        data["stable"] = stable
    events: list[Event] = [{"type": "hp_changed", "data": data}]
    if loss.killed:
        return events + hit_points.death_event(character, loss)
    table = ctx.options.get("puncture_zero_hp_injury", "piercing")
    if injury and character.hp > 0 and hp <= 0 and table != "none" and injury_eligible(ctx, character):
        after = fold(events, state)
        events += _gain_injury(ctx, find_character(after, character.id), table, state=after,
                                cause=f"dropped to 0 HP by {source}")
    return events


def injury_if_dropped(ctx: Context, character: Character, events: list[Event], table: str, why: str) -> list[Event]:
    """The injury of a drop to 0 HP that `events` (one decision's, in order) made with damage of `table`'s type: the
    first of their `hp_changed` events whose cause ends with `why` that takes `character` from above 0 to 0 or below
    (seed 000: « Lorsqu'un joueur tombe à 0 point de vie, il reçoit désormais une blessure »; a track's poison
    damage, seed 004, is damage of the poison type). No injury if the character died or is not eligible."""
    hp = character.hp
    for event in events:
        data = event["data"]
        if event["type"] != "hp_changed" or data.get("character") != character.id:
            continue
        if hp > 0 and data["hp"] <= 0 and str(data.get("why") or data.get("cause") or "").endswith(why):
            after = fold(events, ctx.state)
            now = find_character(after, character.id)
            if now.dead or not injury_eligible(ctx, now):
                return []
            ctx.roller.made.clear()  # the events before have their rolls; the injury's are its own
            return _gain_injury(ctx, now, table, state=after, cause=f"dropped to 0 HP by {table} damage")
        hp = data["hp"]
    return []


def is_standing(character: Character, rules: Rules, options: dict[str, Any]) -> bool:
    """« Debout »: conscious, above 0 HP and not prone (posture.py: a fall, or the GM's `prone`)."""
    down = {"unconscious", "paralyzed", "stunned", "dead", "prone"}
    return character.hp > 0 and not character.dead and not character.prone and \
        not any(c in down for c, _ in conditions(character, rules, options))


def heal_hp(character: Character, amount: int) -> dict[str, Any]:
    return {"character": character.id, "hp": min(character.max_hp, character.hp + amount),
            "stable": False if character.hp + amount > 0 else character.stable}


def dying_check_due(ctx: Context, character: Character) -> bool:
    """A dying character makes the hit point model's check on its turn (pf1e); not in a system without one."""
    return hit_points.model(ctx.rules, ctx.state.system).dying_check is not None and \
        hit_points.dying(character, ctx.rules, ctx.state.system)


def dying_reading(ctx: Context, character: Character) -> Any:
    """The dying check as a roll (saves.SaveReading): the ability's modifier, minus the model's penalty per
    negative hit point (its source: the hit point model)."""
    from . import saves

    hp_model = hit_points.model(ctx.rules, ctx.state.system)
    check = hp_model.dying_check
    modifier = (effective_abilities(character, ctx.rules, ctx.options)[check.ability] - 10) // 2
    penalty = check.penalty_per_negative_hp * max(0, -character.hp)
    lines = [{"type": "modifier", "value": -penalty, "source": {
        "kind": "hit_points", "id": hp_model.id, "name": hp_model.name.en,
        "names": stored_names(hp_model.name)}}] if penalty else []
    return saves.SaveReading(check.ability, modifier, saves.SaveTerms(-penalty), {
        "sheet": modifier, "modifier": -penalty, "mode": saves.NORMAL, "auto_fail": False, "lines": lines})


def dying_check(ctx: Context, character: Character, typed: int | None = None, d20: int | None = None,
                ) -> tuple[dict[str, Any] | None, list[Event]]:
    """A dying character's check on its turn (pf1e: DC 10 Con, minus its negative HP): stable, or it loses HP.

    `typed`: the check's total as rolled at the table; `d20`: its natural die (the modifier is added). (None, [])
    when the system has no such check or the character is not dying.
    """
    if not dying_check_due(ctx, character):
        return None, []
    check = hit_points.model(ctx.rules, ctx.state.system).dying_check
    reading = dying_reading(ctx, character)
    if typed is None:
        d20 = ctx.roller.roll("1d20", f"dying: {check.ability} check to stabilize", given=d20)
        total = d20 + reading.bonus
    else:
        total = typed
    result = {"on": "dying", "check": check.ability, "dc": check.dc, "d20": d20, "modifier": reading.sheet,
              "penalty": reading.terms.modifier, "bonus": reading.bonus, "breakdown": reading.breakdown, "total": total,
              "succeeded": total >= check.dc}
    if result["succeeded"]:
        return result, [{"type": "character_stabilized", "data": {"character": character.id}}]
    loss = ctx.roller.roll(check.hp_loss, "dying: hit point loss")
    return result, lose_hp(ctx, character, loss, "dying", injury=False)
