"""Localized wounds (D&D 3.5 DMG variant "Damage to Specific Areas", seed 001; RULES-NOTES 3.2 LOC-*).

A wound is damage to one body part: -2 on the rolls that part makes (the part's `rolls` in body_parts.yaml),
wounds to the same part never stack, both eyes blind and both ears deafen. Decisions here return events; the
evolve handlers below fold them; the effects provider tells the roll query and the status view what each wound
does; the scheduler heals superficial wounds after a normal day (option day_of_rest) and ends timed Fortitude
suppressions.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from ...frozen import frozen
from ...content import schema as s
from ...errors import NotFound, RuleViolation, UsageError, joined
from ...message import Listed, Message, Option, PerAudience, msg
from ..engine.acting import refuse_if_forbidden
from ..engine import player_rolls
from ..engine.abilities import heal_bonus
from ..engine.campaign import find_character
from ..engine.context import Context
from ..engine.damage import on_magic_healing
from ..engine.evolve import Event, _character, handles
from ..engine.state import DAY, HOUR, MINUTE, Campaign, Character, id_number
from ..engine.timeline import Due, scheduler

if TYPE_CHECKING:
    from ...content.rules import Rules

FIRST_AID_DC = 15  # LOC-6 (a): a DC 15 Heal (Premiers secours) check
FORT_BASE_DC = 10  # LOC-7: Fortitude DC 10 + the damage of the wound
# How many of a part the body has (Character.body), to know when "both" are wounded.
ANATOMY = {"eye": "eyes", "ear": "ears", "hand": "hands", "foot_leg": "feet"}
SUPPRESSION = {"1_minute": MINUTE, "10_minutes": 10 * MINUTE, "1_hour": HOUR, "8_hours": 8 * HOUR, "1_day": DAY}
HEAL_ROUTES = ("first_aid", "magic", "rest", "gm")


@frozen
class Wound:
    """One localized wound on a character (LOC data model, RULES-NOTES 3.2.1)."""

    id: str
    part: str  # body part id (hand, arm, head, eye, ear, foot_leg)
    side: str | None  # left / right; None for the head
    damage: int
    superficial: bool
    received_at: int  # game clock, seconds
    superficial_by: str = "gm"  # "gm" (said so) or "threshold" (damage <= superficial_threshold)
    cause: str = ""
    fort_dc: int | None = None  # the optional Fortitude save (LOC-7), when one was made
    fort_total: int | None = None
    suppressed: bool = False  # the save succeeded: the -2 is ignored ...
    suppressed_until: int | None = None  # ... until this moment (None: until the wound heals)
    recovered: int = 0  # hit points recovered toward a non-superficial wound (nonsuperficial_heal)
    first_aid_failures: int = 0


def wound_name(part: s.BodyPart, side: str | None) -> s.Text:
    """A wound's name: its part, and its side as the content says it ("Hand (left)", "Main (côté gauche)")."""
    if not side:
        return part.name
    said = part.side_names.get(side)  # type: ignore[call-overload]
    return s.Text.compose("{} ({})", part.name, said if said is not None else s.Text.compose(side))


def find_wound(character: Character, key: str) -> Wound:
    wound: Wound | None = next((w for w in character.wounds if w.id == key), None)
    if wound is None:
        if not character.wounds:
            raise NotFound(msg("{character_name} has no wound {key} (no wounds at all)", character_name=character.name,
                               key=repr(key)))
        raise NotFound(msg("{character_name} has no wound {key} (wounds: {known})", character_name=character.name,
                           key=repr(key), known=Listed((w.id for w in character.wounds), "")))
    return wound


def resolve_part(rules: Rules, text: str) -> s.BodyPart:
    """A body part by id or by its French or English name ('main', 'Hand', 'pied', 'leg', 'œil', 'oeil'):
    content/rules.py `Rules.resolve`, as every content name."""
    part: s.BodyPart = rules.body_parts[rules.resolve("body_parts", text)]
    return part


def _record_total(ctx: Context, why: str, total: int) -> int:
    """A check the GM typed (any value: the bonus is the table's business), recorded with the action's rolls."""
    ctx.roller.made.append({"why": why, "formula": "total", "total": total, "faces": [], "typed": True})
    return total


# ---------------------------------------------------------------- decisions


def wound(ctx: Context, key: str, part_text: str, damage: int, side: str | None = None,
          superficial: bool | None = None, fort_total: int | None = None, cause: str = "", rolls: str | None = None,
          fort_d20: int | None = None) -> list[Event]:
    """A wound to one body part (LOC-1), with the optional Fortitude save to ignore it (LOC-7); `rolls`: who
    rolls that save when no total is given (player_rolls: the wound then waits for the player's die)."""
    state: Campaign = ctx.state
    character = find_character(state, key)
    part = resolve_part(ctx.rules, part_text)
    options = ctx.options
    if character.dead:
        raise RuleViolation(msg("{character_name} is dead", character_name=character.name))
    if damage < 1:
        raise UsageError(PerAudience(cli=msg("a wound needs at least 1 point of damage (--damage N)"),
                                     api=msg("a wound needs at least 1 point of damage (damage)"),
                                     page=msg("a wound needs at least 1 point of damage (Damage)")))
    minimum = options.get("min_damage_for_wound", 1)
    if damage < minimum:
        raise RuleViolation(msg("{damage} damage is below min_damage_for_wound ({minimum}): no wound", damage=damage,
                                minimum=minimum))
    named = part.name.lower()
    if part.sides and side is None:
        sides = Listed(part.sides, "or")
        raise UsageError(PerAudience(cli=msg("a {part} wound needs a side: --side {sides}", part=named, sides=sides),
                                     api=msg("a {part} wound needs a side: side {sides}", part=named, sides=sides),
                                     page=msg("a {part} wound needs a side: choose it in side", part=named)))
    if not part.sides and side is not None:
        raise UsageError(PerAudience(cli=msg("the {part} has no sides: leave out --side", part=named),
                                     api=msg("the {part} has no sides: leave out side", part=named),
                                     page=msg("the {part} has no sides: leave side empty", part=named)))
    if side is not None and side not in part.sides:
        raise UsageError(msg("side {side} is not one of {sides}", side=repr(side), sides=Listed(part.sides, "")))
    body_field = ANATOMY.get(part.id)
    if body_field and getattr(character.body, body_field, 1) <= 0:
        raise RuleViolation(msg("{character_name} has no {body_field} left to wound", character_name=character.name,
                                body_field=body_field))
    asked = {"part": part.id, "damage": damage, "side": side, "superficial": superficial, "cause": cause}
    by = "gm"
    if superficial is None:
        superficial, by = damage <= options.get("superficial_threshold", 5), "threshold"
    wound_id = f"w{state.counter + 1}"
    data: dict[str, Any] = {
        "character": character.id, "id": wound_id, "part": part.id, "side": side, "damage": damage,
        "superficial": superficial, "superficial_by": by, "at": state.clock, "cause": cause,
    }
    if fort_total is not None and not options.get("allow_fort_ignore", False):
        raise RuleViolation(msg("the Fortitude save to ignore a wound is an optional rule that is off in this "
                                "campaign (sawbones campaign set allow_fort_ignore true)"))
    if options.get("allow_fort_ignore", False):
        from ..engine import saves

        dc = FORT_BASE_DC + damage
        waiting = None if fort_total is not None or fort_d20 is not None else player_rolls.defer(
            ctx, character, player_rolls.WOUND_FORT, "fortitude", dc, asked, rolls)
        if waiting:
            return waiting
        reading = saves.read(character, ctx.rules, options, state.system, "fortitude")
        save = saves.roll(ctx.roller, state.system, reading, dc, f"Fortitude save DC {dc} to ignore the wound",
                          total=fort_total, d20=fort_d20)
        total, success = save["total"], save["succeeded"]
        lasts = options.get("fort_ignore_duration", "until_healed")
        until = state.clock + SUPPRESSION[lasts] if success and lasts in SUPPRESSION else None
        data["fort"] = {"dc": dc, "total": total, "success": success, "until": until}
    if ctx.roller.made:
        data["rolls"] = list(ctx.roller.made)
    return [{"type": "wound_received", "data": data}]


def first_aid(ctx: Context, key: str, wound_id: str, total: int | None = None, healer_name: str | None = None) -> list[Event]:
    """A DC 15 first-aid (Heal) check on a superficial wound (LOC-6 a); success heals it now.

    The check is the total the GM typed, or rolled with the healer's Heal (5e: Medicine) bonus and what the
    roll query says applies to the healer's Heal check (a wounded hand: -2; 5e poisoned: disadvantage...).
    """
    state: Campaign = ctx.state
    character = find_character(state, key)
    target = find_wound(character, wound_id)
    if not target.superficial:
        raise RuleViolation(msg("{target_id} is not superficial: first aid heals only superficial wounds (LOC-6); "
                                "heal it by magic or rest", target_id=target.id))
    if total is None and healer_name is None:
        raise UsageError(PerAudience(
            cli=msg("give the check total with --check, or name a --healer whose Heal bonus is rolled"),
            api=msg("give the check total in check, or name a healer whose Heal bonus is rolled"),
            page=msg("give the check total, or choose a healer whose Heal bonus is rolled")))
    why = f"first aid (Heal) DC {FIRST_AID_DC}"
    made: dict[str, Any] = {}
    if total is not None:
        result = _record_total(ctx, why, total)
        success = result >= FIRST_AID_DC
    else:
        from ..engine import saves
        from ..engine.roll_match import RollContext

        healer = find_character(state, healer_name or "")
        if healer.dead:
            raise RuleViolation(msg("{character_name} is dead", character_name=healer.name))
        refuse_if_forbidden(healer, ctx.rules, ctx.options, state.system, "action")  # issue 40
        reading = saves.read_check(healer, ctx.rules, ctx.options, state.system, RollContext("skill", skill="heal"),
                                   heal_bonus(healer, ctx.rules))
        made = saves.roll(ctx.roller, state.system, reading, FIRST_AID_DC, why, kind="check")
        result, success = made["total"], made["succeeded"]
    data = {"character": character.id, "wound": target.id, "dc": FIRST_AID_DC, "total": result, "success": success,
            "at": state.clock, "rolls": list(ctx.roller.made)}
    for key in ("breakdown", "mode", "auto_fail", "d20"):
        if key in made:
            data[key] = made[key]
    events = [{"type": "wound_first_aid", "data": data}]
    if success:
        events.append(_healed(character, target, "first_aid", state.clock))
    return events


@on_magic_healing
def heal_wounds_by_magic(ctx: Context, character_id: str, hp: int, wound_ids: Iterable[str] | None = None) -> list[Event]:
    """Events for `hp` points of magical healing (LOC-6 b): the `heal` command calls this with the HP restored.

    Any magical healing of 1 HP or more heals every superficial wound. Non-superficial wounds follow
    the option nonsuperficial_heal: hp_recovered and magic_only credit the HP to them, oldest first,
    and a wound heals once the HP it cost are back; gm leaves them to the GM.
    """
    state: Campaign = ctx.state
    character = find_character(state, character_id)
    if hp < 1:
        return []
    targets = _targets(character, wound_ids)
    events = [_healed(character, w, "magic", state.clock) for w in targets if w.superficial]
    if ctx.options.get("nonsuperficial_heal", "hp_recovered") in ("hp_recovered", "magic_only"):
        events += _credit(character, [w for w in targets if not w.superficial], hp, "magic", state.clock)
    return events


def rest(ctx: Context, key: str, wound_ids: Iterable[str] | None = None, hp: int | None = None) -> list[Event]:
    """The character has had a day of rest (LOC-6 c), ending now on the game clock.

    Superficial wounds at least a day old heal. Non-superficial wounds: under hp_recovered, the HP
    the rest gave back (`hp`) count toward them; magic_only and gm wounds do not heal by rest.
    """
    state: Campaign = ctx.state
    character = find_character(state, key)
    explicit = wound_ids is not None
    targets = _targets(character, wound_ids)
    if not targets:
        raise RuleViolation(msg("{character_name} has no wounds to rest off", character_name=character.name))
    mode = ctx.options.get("nonsuperficial_heal", "hp_recovered")
    events: list[Event] = []
    problems: list[str | Message] = []
    for w in targets:
        if not w.superficial:
            if mode == "magic_only":
                problems.append(msg("{wound_id} is not superficial and heals only by magic", wound_id=w.id))
            elif mode != "hp_recovered":
                problems.append(msg("{wound_id} is not superficial and heals when the GM says ({option})", wound_id=w.id,
                                    option=Option("gm")))
            elif hp is None:
                problems.append(msg("{wound_id} is not superficial: give the hit points the rest restored ({option} N)",
                                    wound_id=w.id, option=Option("hp")))
            continue
        if state.clock - w.received_at < DAY:
            problems.append(msg("{wound_id} was received less than a day ago on the game clock (advance the clock "
                                "first)", wound_id=w.id))
            continue
        events.append(_healed(character, w, "rest", state.clock))
    if mode == "hp_recovered" and hp:
        events += _credit(character, [w for w in targets if not w.superficial], hp, "rest", state.clock)
    if explicit and problems:
        raise RuleViolation(joined(problems))
    if not events:
        raise RuleViolation(msg("nothing heals: {detail}", detail=joined(problems) or msg("no wound qualifies")))
    return events


def gm_heal(ctx: Context, key: str, wound_id: str) -> list[Event]:
    """The GM declares a wound healed (option nonsuperficial_heal = gm, a severed part regrown...)."""
    character = find_character(ctx.state, key)
    return [_healed(character, find_wound(character, wound_id), "gm", ctx.state.clock)]


def _targets(character: Character, wound_ids: Iterable[str] | None) -> list[Wound]:
    if wound_ids is None:
        return list(character.wounds)
    return [find_wound(character, w) for w in wound_ids]


def _healed(character: Character, w: Wound, how: str, at: int) -> Event:
    return {"type": "wound_healed", "data": {"character": character.id, "wound": w.id, "how": how, "at": at}}


def _credit(character: Character, wounds: list[Wound], hp: int, how: str, at: int) -> list[Event]:
    """Recovered hit points go to non-superficial wounds, oldest first (LOC-6, AMB-1-3)."""
    events: list[Event] = []
    left = hp
    for w in sorted(wounds, key=lambda w: (w.received_at, w.id)):
        if left <= 0:
            break
        take = min(left, w.damage - w.recovered)
        left -= take
        if w.recovered + take >= w.damage:
            healed = _healed(character, w, how, at)
            healed["data"]["hp"] = take
            events.append(healed)
        else:
            events.append({"type": "wound_recovery", "data": {
                "character": character.id, "wound": w.id, "hp": take, "recovered": w.recovered + take, "how": how}})
    return events


# ---------------------------------------------------------------- time


@scheduler
def _due(ctx: Context) -> Iterator[Due]:
    """Timed suppressions end; under day_of_rest = normal_day, superficial wounds heal after a day."""
    normal_day = ctx.options.get("day_of_rest") == "normal_day"
    for character in ctx.state.characters:
        for w in character.wounds:
            if w.suppressed and w.suppressed_until is not None:
                yield (w.suppressed_until, f"wound:{character.id}:{w.id}:fort",
                       partial(_end_suppression, character.id, w.id))
            if normal_day and w.superficial:
                yield (w.received_at + DAY, f"wound:{character.id}:{w.id}:rest",
                       partial(_rest_heal, character.id, w.id))


def _end_suppression(character_id: str, wound_id: str, ctx: Context) -> list[Event]:
    return [{"type": "wound_suppression_ended",
             "data": {"character": character_id, "wound": wound_id, "at": ctx.state.clock}}]


def _rest_heal(character_id: str, wound_id: str, ctx: Context) -> list[Event]:
    character = _character(ctx.state, character_id)
    return [_healed(character, find_wound(character, wound_id), "rest", ctx.state.clock)]


# ---------------------------------------------------------------- evolve


def _with_wounds(state: Campaign, character_id: str, wounds: tuple[Wound, ...]) -> Campaign:
    return state.with_character(replace(_character(state, character_id), wounds=wounds))


def _change(state: Campaign, d: dict[str, Any], **changes: Any) -> Campaign:
    character = _character(state, d["character"])
    return _with_wounds(state, character.id, tuple(
        replace(w, **changes) if w.id == d["wound"] else w for w in character.wounds))


@handles("wound_received", mints="id")
def _wound_received(state: Campaign, d: dict[str, Any]) -> Campaign:
    fort = d.get("fort") or {}
    w = Wound(
        id=d["id"], part=d["part"], side=d.get("side"), damage=d["damage"], superficial=d["superficial"],
        received_at=d["at"], superficial_by=d.get("superficial_by", "gm"), cause=d.get("cause", ""),
        fort_dc=fort.get("dc"), fort_total=fort.get("total"), suppressed=bool(fort.get("success")),
        suppressed_until=fort.get("until"),
    )
    character = _character(state, d["character"])
    return replace(_with_wounds(state, character.id, character.wounds + (w,)),
                   counter=max(state.counter, id_number(d["id"])))


@handles("wound_first_aid")
def _wound_first_aid(state: Campaign, d: dict[str, Any]) -> Campaign:
    if d["success"]:
        return state
    w = find_wound(_character(state, d["character"]), d["wound"])
    return _change(state, d, first_aid_failures=w.first_aid_failures + 1)


@handles("wound_recovery")
def _wound_recovery(state: Campaign, d: dict[str, Any]) -> Campaign:
    return _change(state, d, recovered=d["recovered"])


@handles("wound_suppression_ended")
def _wound_suppression_ended(state: Campaign, d: dict[str, Any]) -> Campaign:
    return _change(state, d, suppressed=False, suppressed_until=None)


@handles("wound_healed")
def _wound_healed(state: Campaign, d: dict[str, Any]) -> Campaign:
    character = _character(state, d["character"])
    return _with_wounds(state, character.id, tuple(w for w in character.wounds if w.id != d["wound"]))


def heal_wounds(ctx: Context, name: str, wound_ids: list[str] | None = None, magic: int | None = None,
                rest_day: bool = False, hp: int | None = None, gm: bool = False) -> list[Event]:
    """`wound-heal`: exactly one of magic (HP), a day of rest (with the HP it gave back) or the GM's word."""
    if sum((magic is not None, rest_day, gm)) != 1:
        raise UsageError(msg("give exactly one of magic HP, rest or the GM's word"))
    if hp is not None and not rest_day:
        raise UsageError(msg("hit points given back go with a day of rest"))
    if gm and not wound_ids:
        raise UsageError(msg("the GM's word needs the wounds to heal"))
    ids = list(wound_ids) if wound_ids else None
    if magic is not None:
        return heal_wounds_by_magic(ctx, find_character(ctx.state, name).id, magic, ids)
    if rest_day:
        return rest(ctx, name, ids, hp)
    return [e for w in ids or () for e in gm_heal(ctx, name, w)]


@player_rolls.deferred(player_rolls.WOUND_FORT)
def _fortitude_answered(ctx: Context, pending: Any, total: int | None, d20: int | None) -> list[Event]:
    """A wound whose Fortitude save (to ignore it, LOC-7) the player rolled."""
    a = dict(pending.args)
    return wound(ctx, pending.character, a["part"], a["damage"], a.get("side"), a.get("superficial"), total,
                 a.get("cause", ""), rolls=player_rolls.GM, fort_d20=d20)
