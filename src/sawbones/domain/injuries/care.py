"""Healing lingering injuries: treatment (INJ-T1/T2), rests (INJ-9/10), magic (INJ-11), by the rules' flags."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...frozen import frozen
from ...content import schema as s
from ...errors import NotFound, RuleViolation, UsageError
from . import rules as injuries
from .rules import find_injury
from ..engine.acting import refuse_if_forbidden
from ..engine import player_rolls
from ..engine.campaign import find_character, spell_of_system
from ..engine.abilities import effective_abilities
from ..engine.damage import heal_hp, magic_healing
from ..engine.evolve import fold
from ..engine.state import HOUR, UNIT_SECONDS, Character, Injury, id_number, with_fields
from ..engine.timeline import advance_folded
from ..engine.context import Context
from ...message import Listed, Message, PerAudience, msg, msgs

if TYPE_CHECKING:
    from ...content.rules import Rules


Event = dict[str, Any]


# the treatment check's total is missing: worded for each interface
_NO_CHECK = msg("{said}", said=PerAudience(
    cli=msg("give the check total with --check, or name a --healer whose bonus is rolled"),
    api=msg("give the check total in check, or name a healer whose bonus is rolled"),
    page=msg("give the check total, or choose a healer whose bonus is rolled")))

def _healed(ctx: Context, character: Character, injury: Injury, how: str, **extra: Any) -> list[Event]:
    data: dict[str, Any] = {"character": character.id, "injury": injury.id, "how": how, **extra}
    if injury.max_hp_lost and ctx.options.get("restore_maxhp_on_heal", True):
        data["max_hp"] = character.max_hp + injury.max_hp_lost
    return [{"type": "injury_healed", "data": data}]


def _treatment_seconds(ctx: Context, severity: Any) -> int:
    time = severity.treatment.time
    formula = ctx.options.get(time.from_option) if time.from_option else time.amount
    amount = ctx.roller.roll(str(formula), f"treatment time ({severity.id}, {time.unit}s)")
    return amount * UNIT_SECONDS[time.unit]


def _check_healer(ctx: Context, patient: Character, healer_name: str | None) -> Character | None:
    if healer_name is None:
        return None  # the GM vouches for Medicine proficiency and the herbalism kit
    healer = find_character(ctx.state, healer_name)
    missing = [p for p in ("medicine", "herbalism_kit") if p not in healer.proficiencies]
    if missing:
        raise RuleViolation(msg("{healer} cannot treat injuries: needs {missing} ({fix})", healer=healer.name,
                                missing=Listed(missing, "and"), fix=PerAudience(
            cli=msg("add with `character edit {healer} --prof medicine,herbalism_kit`", healer=healer.name),
            api=msg("add them to {healer}'s proficiencies: PATCH …/characters/{healer}", healer=healer.name),
            page=msg("add them in {healer}'s Edit form", healer=healer.name))))
    if healer.id == patient.id and ctx.options.get("self_treatment") == "forbidden":
        raise RuleViolation(msg("self-treatment is forbidden in this campaign (option self_treatment)"))
    if healer.dead:
        raise RuleViolation(msg("{healer} is in no state to treat anyone", healer=healer.name))
    refuse_if_forbidden(healer, ctx.rules, ctx.options, ctx.state.system, "action")  # unconscious, stunned... (issue 40)
    return healer


def _treatment_check(ctx: Context, healer: Character, patient: Character) -> Any:
    """The healer's check as the roll query reads it (saves.read_check): Wisdom (Medicine), or an Intelligence
    check with the herbalism kit (option treatment_check); self-treatment adds its disadvantage."""
    from ..engine import saves
    from ..engine.roll_match import RollContext

    skills = dict(healer.skills)
    medicine = (RollContext("skill", skill="medicine"), skills.get("medicine", (healer.ability("wis") - 10) // 2))
    kit = (RollContext("check", ability="int"), skills.get("herbalism_kit", (healer.ability("int") - 10) // 2))
    rule = ctx.options.get("treatment_check")
    # either: the healer's choice, read as the better of the two bonuses on the sheet
    roll, sheet = kit if rule == "int_herbalism_kit" or (rule == "either" and kit[1] > medicine[1]) else medicine
    self_treat = healer.id == patient.id and ctx.options.get("self_treatment") == "disadvantage"
    source = {"kind": "option", "id": "self_treatment", "name": "self-treatment"} if self_treat else None
    return saves.read_check(healer, ctx.rules, ctx.options, ctx.state.system, roll, sheet, source)


def treat(ctx: Context, name: str, injury_key: str, check: int | None = None, healer_name: str | None = None,
          rolls: str | None = None, check_d20: int | None = None) -> list[Event]:
    """Spend the treatment time on the clock, then the check: success heals, failure raises the DC by 2.
    `rolls`: who rolls a healer's check when no total is given (player_rolls: a player character healer's
    player; the treatment then waits for their die); `check_d20`: the healer's natural d20."""
    if check is None and check_d20 is None and healer_name is not None:
        patient, injury, _, healer = _parties(ctx, name, injury_key, healer_name)
        waiting = player_rolls.defer(ctx, healer, player_rolls.TREATMENT, "medicine", injury.dc,
                                     {"patient": patient.id, "injury": injury.id}, rolls)
        if waiting:
            return waiting
    spent = spend_treatment_time(ctx, name, injury_key, check if check_d20 is None else check_d20, healer_name)
    return list(spent.events) + treatment_check(ctx, spent, check, check_d20)


def _parties(ctx: Context, name: str, injury_key: str, healer_name: str | None) -> tuple[Character, Injury, Any,
                                                                                   Character | None]:
    """Who treats what, or the refusal: (patient, injury, its content, healer)."""
    patient = find_character(ctx.state, name)
    injury = find_injury(patient, injury_key)
    definition = ctx.rules.injuries[injury.injury]
    if injury.magic_only:
        raise RuleViolation(msg("{injury} requires magic: mundane treatment has no effect ({fix})",
                                injury=definition.name, fix=PerAudience(
            cli=msg("use `heal {patient} --spell SPELL --injury {id}`", patient=patient.name, id=injury.id),
            api=msg("use the heal action with a spell and injury {id}", id=injury.id),
            page=msg("use Heal (magic) on {id}", id=injury.id))))
    if patient.dead:
        raise RuleViolation(msg("{character} is dead", character=patient.name))
    return patient, injury, definition, _check_healer(ctx, patient, healer_name)


@frozen
class TreatmentSpent:
    """The first half of `treat`: the treatment time spent on the clock (its events, the state after them)."""

    events: tuple[Event, ...]
    state: Any
    patient: str  # id
    injury: str  # id
    healer: Character | None  # as the treatment started
    definition: Any


def spend_treatment_time(ctx: Context, name: str, injury_key: str, check: int | None = None,
                         healer_name: str | None = None) -> TreatmentSpent:
    """`treat` up to the check: who treats what (refusals), the treatment time rolled and spent on the clock
    (whatever falls due meanwhile runs). The odds share it between a check made and a check missed."""
    patient, injury, definition, healer = _parties(ctx, name, injury_key, healer_name)
    if check is None and healer is None:
        raise UsageError(_NO_CHECK)
    severity = ctx.rules.severities[injury.severity]
    # INJ-T2, AMB-0-10 (the option first: by default no retry is free, whatever the failures so far)
    retry_now = not ctx.options.get("retry_requires_time", True) and injury.failures > 0
    seconds = 0 if retry_now else _treatment_seconds(ctx, severity)
    start = {"type": "treatment_started", "data": {
        "character": patient.id, "injury": injury.id, "healer": healer.id if healer else None, "seconds": seconds,
        "bed_rest": severity.treatment.time.bed_rest, "rolls": list(ctx.roller.made)}}
    state = fold([start], ctx.state)
    ctx.roller.made.clear()
    spent, state = advance_folded(with_fields(ctx, state=state), seconds, auto=True)
    return TreatmentSpent((start, *spent), state, patient.id, injury.id, healer, definition)


def treatment_check(ctx: Context, spent: TreatmentSpent, check: int | None = None, d20: int | None = None) -> list[Event]:
    """The second half of `treat` (`ctx`: the context it was asked in): the check, typed or rolled by the
    healer, after the time spent; its events (none when the patient died meanwhile or the injury changed)."""
    state, healer, definition = spent.state, spent.healer, spent.definition
    patient = find_character(state, spent.patient)
    current = patient.injury(spent.injury)
    if patient.dead or current is None:
        return []  # died during treatment, or the injury turned into another one
    self_treat = healer is not None and healer.id == patient.id and ctx.options.get("self_treatment") == "disadvantage"
    ctx.roller.made.clear()
    made: dict[str, Any] = {}
    if check is None:
        if healer is None:  # treat_time refuses this pair; a check asked later must bring its own total
            raise UsageError(_NO_CHECK)
        from ..engine import saves

        reading = _treatment_check(with_fields(ctx, state=state), find_character(state, healer.id), patient)
        made = saves.roll(ctx.roller, state.system, reading, current.dc, f"treatment check by {healer.name}",
                          d20=d20, kind="check")
        total = made["total"]
    else:
        total = check
    result = {"character": patient.id, "injury": current.id, "check": total, "dc": current.dc,
              "self_treatment_disadvantage": self_treat, "rolls": list(ctx.roller.made)}
    if made.get("breakdown"):
        result["breakdown"] = made["breakdown"]
    if made.get("auto_fail"):
        result["auto_fail"] = True
    if total is not None and total >= current.dc and not made.get("auto_fail"):
        return _healed(ctx, patient, current, "treatment", check=total, dc=current.dc,
                       rolls=list(ctx.roller.made), **({"breakdown": made["breakdown"]} if made else {}))
    events: list[Event] = [{"type": "treatment_failed", "data": result}]
    if current.deadline_passed:  # it turns worse now, after the treatment time: its own deadline starts now
        state = fold(events, state)
        events += injuries.escalate(with_fields(ctx, state=state), find_character(state, patient.id),
                                    find_injury(find_character(state, patient.id), current.id), definition)
    return events


def _heals_by_rest(ctx: Context, injury: Injury, kind: str) -> bool:
    if injury.no_natural_healing or injury.magic_only:
        return False
    severity = ctx.rules.severities[injury.severity]
    if kind in severity.rests:
        return True
    rule = str(ctx.options.get("unflagged_severe_natural_recovery", "none"))
    if kind == "long_rest" and rule.startswith("long_rests:") and not severity.rests:
        return injury.long_rests + 1 >= int(rule.split(":")[1])
    return False


def long_rest(ctx: Context, names: list[str]) -> list[Event]:
    """8 hours pass; then each listed character (default: the party) heals what a long rest heals.

    With long_rest_requires_hp (5e), a character below 1 HP when the rest starts gains none of its
    benefits (no HP, Hit Dice or healed injury); the log says so.
    """
    characters = [find_character(ctx.state, n) for n in names] if names else \
        [c for c in ctx.state.characters if not c.dead]
    events, state = advance_folded(ctx, 8 * HOUR, auto=True)
    for character in characters:
        current = state.character(character.id)
        if current is None or current.dead:
            continue
        mine: list[Event] = []
        if ctx.options.get("daily_tick") == "long_rest":
            mine += injuries.daily_ticks_on_long_rest(replace(ctx, state=state), current)
            current = find_character(fold(mine, state), character.id)
        if character.hp < 1 and ctx.options.get("long_rest_requires_hp", True):
            mine.append({"type": "noted", "data": {"character": character.id, "moment": "long_rest",
                                                   "no_benefit": "hp_below_1", "hp": character.hp}})
            state = fold(mine, state)
            events += mine
            continue
        for injury in current.injuries:
            if _heals_by_rest(ctx, injury, "long_rest"):
                mine += _healed(ctx, find_character(fold(mine, state), character.id), injury, "long_rest")
            else:
                mine.append({"type": "injury_changed", "data": {"character": character.id, "injury": injury.id,
                                                                "changes": {"long_rests": injury.long_rests + 1}}})
        after = find_character(fold(mine, state), character.id)
        regained = min(after.hit_dice_max - after.hit_dice, max(1, after.hit_dice_max // 2))
        mine.append({"type": "hp_changed", "data": {"character": character.id, "hp": after.max_hp, "stable": False,
                                                    "hit_dice": after.hit_dice + regained, "cause": "long_rest"}})
        state = fold(mine, state)
        events += mine
    return events


def short_rest(ctx: Context, name: str, hit_dice: int, injury_keys: list[str], rolls: list[int]) -> list[Event]:
    """1 hour passes; each Hit Die spent heals one minor injury (INJ-10) and HP as usual."""
    character = find_character(ctx.state, name)
    if hit_dice > character.hit_dice:
        raise RuleViolation(msgs("{character} has only {n} Hit Die left", "{character} has only {n} Hit Dice left",
                                 character.hit_dice, character=character.name))
    chosen = [find_injury(character, k) for k in injury_keys]
    for injury in chosen:
        if not _heals_by_rest(ctx, injury, "hit_die"):
            injury_name = ctx.rules.injuries[injury.injury].name
            if injury.no_natural_healing or injury.magic_only:
                raise RuleViolation(msg("{id} ({injury}) does not heal with a Hit Die (no natural healing)",
                                        id=injury.id, injury=injury_name))
            raise RuleViolation(msg("{id} ({injury}) does not heal with a Hit Die ({severity})", id=injury.id,
                                    injury=injury_name, severity=ctx.rules.severities[injury.severity].name))
    events, state = advance_folded(ctx, HOUR, auto=True)
    current = find_character(state, character.id)
    eligible = [i for i in current.injuries if _heals_by_rest(ctx, i, "hit_die") and i.id not in {c.id for c in chosen}]
    targets = [i for i in chosen if current.injury(i.id)] + eligible
    con_mod = (effective_abilities(current, ctx.rules, ctx.options)["con"] - 10) // 2
    hp = current.hp
    ctx.roller.made.clear()
    healed: list[Event] = []
    for n in range(hit_dice):
        if ctx.options.get("hd_also_restores_hp", True):
            given = rolls[n] if n < len(rolls) else None
            hp = min(current.max_hp, hp + max(0, ctx.roller.roll(f"1d{current.hit_die}", "Hit Die", given) + con_mod))
        if n < len(targets):
            healed += _healed(ctx, current, targets[n], "hit_die")
    events.append({"type": "hp_changed", "data": {"character": current.id, "hp": hp,
                                                  "hit_dice": current.hit_dice - hit_dice, "cause": "short_rest",
                                                  "rolls": list(ctx.roller.made)}})
    return events + healed


# ---------------------------------------------------------------- magic


def _tier_rank(ctx: Context, tier: str) -> int:
    rank: int = ctx.rules.magic_tiers[tier].rank
    return rank


def magic_tiers(rules: Rules, options: dict[str, Any], injury: Injury) -> tuple[str, ...]:
    """The magic tiers that heal this injury: its severity's, as the severity's option picks them (critical:
    critical_magic, heal / regenerate / either: « Guérison ou Régénération (choix du DM) », lost eyes, hands and feet
    included); its own (a lost part: regenerate) only under lost_part_magic=regenerate."""
    definition = rules.injuries[injury.injury]
    if definition.magic_tier and options.get("lost_part_magic", "critical_magic") == "regenerate":
        return (definition.magic_tier,)
    severity = rules.severities[injury.severity]
    choice = severity.magic_tier_choice
    if choice is not None:
        return tuple(choice.tiers.get(str(options.get(choice.option)), (severity.magic_tier,)))
    return (severity.magic_tier,)


def spell_heals(ctx: Context, spell: Any, character: Character, injury: Injury) -> bool:
    """Does this casting reach this injury's severity (or is it a relevant remedy)?

    A spell heals with one of the tiers the injury needs, or with a tier ranked above all of them
    (greater restoration heals a moderate injury; heal and regenerate share the top rank).
    """
    remedies = ctx.options.get("relevant_remedies") or {}
    listed = remedies.get(injury.injury, [])
    if spell.id in (listed if isinstance(listed, list) else [listed]):
        return True
    if spell.injury_tier is None:
        return False
    if spell.injury_tier == "healing" and ctx.options.get("minor_magic_requires_stable", True):
        if character.hp <= 0 and not character.stable:
            return False
    needed = magic_tiers(ctx.rules, ctx.options, injury)
    return spell.injury_tier in needed or \
        _tier_rank(ctx, spell.injury_tier) > max(_tier_rank(ctx, tier) for tier in needed)


def heal(ctx: Context, name: str, spell_id: str, injury_key: str | None = None, hp: int | None = None) -> list[Event]:
    """One casting heals one injury whose severity its tier reaches (magic_heals_per_effect: that many, the most
    severe first; the --injury given first); it may also restore HP."""
    character = find_character(ctx.state, name)
    spell = spell_of_system(ctx, spell_id)
    if character.dead:
        raise RuleViolation(msg("{character} is dead: raise them first", character=character.name))
    if hp is not None and hp < 0:
        raise UsageError(msg("healing cannot be negative"))
    events: list[Event] = []
    able = [i for i in character.injuries if spell_heals(ctx, spell, character, i)]
    rank = {sid: sev.rank for sid, sev in ctx.rules.severities.items()}
    able.sort(key=lambda i: (rank[i.severity], -id_number(i.id)), reverse=True)  # the most severe first
    targets = able[:max(1, int(ctx.options.get("magic_heals_per_effect", 1)))]  # INJ-11, AMB-0-8
    if injury_key is not None:
        injury = find_injury(character, injury_key)
        if not spell_heals(ctx, spell, character, injury):
            raise RuleViolation(_why_not(ctx, spell, character, injury))
        targets = [injury] + [i for i in targets if i.id != injury.id][:len(targets) - 1]
    elif not targets and not hp:
        if not character.injuries:
            raise RuleViolation(msg("{spell} heals no injury of {character}: no injuries at all", spell=spell.name,
                                    character=character.name))
        reasons = [_why_not(ctx, spell, character, i) for i in character.injuries]
        why = reasons[0]
        for reason in reasons[1:]:
            why = msg("{one}; {other}", one=why, other=reason)
        raise RuleViolation(msg("{spell} heals no injury of {character}: {why}", spell=spell.name,
                                character=character.name, why=why))
    if hp:
        events.append({"type": "hp_changed", "data": {**heal_hp(character, hp), "cause": spell.id}})
        events += magic_healing(ctx, character.id, hp)  # 1 HP of magic heals superficial wounds (wounds, LOC-6 b)
    for target in targets:
        current = find_character(fold(events, ctx.state), character.id)
        events += _healed(ctx, current, target, "magic", spell=spell.id)
        definition = ctx.rules.injuries[target.injury]
        for effect in definition.effects:
            if isinstance(effect, s.LosePart):
                part = {"eye": "eyes", "hand": "hands", "foot": "feet"}.get(effect.part) or \
                    ("hands" if target.site == "hand" else "feet")
                events.append({"type": "body_changed", "data": {"character": character.id, "part": part, "change": 1}})
    return events


def _why_not(ctx: Context, spell: Any, character: Character, injury: Injury) -> Message:
    definition = ctx.rules.injuries[injury.injury]
    severity = ctx.rules.severities[injury.severity]
    tiers = Listed((ctx.rules.magic_tiers[t].name for t in magic_tiers(ctx.rules, ctx.options, injury)), "or")
    if spell.injury_tier == "healing" and character.hp <= 0 and not character.stable:
        return msg("{id} ({injury}): magical healing heals a minor injury only once stable", id=injury.id,
                   injury=definition.name)
    return msg("{id} ({injury}, {severity}) needs {tiers}", id=injury.id, injury=definition.name,
               severity=severity.name, tiers=tiers)


def stabilize(ctx: Context, name: str) -> list[Event]:
    character = find_character(ctx.state, name)
    if character.hp > 0 or character.dead:
        raise RuleViolation(msg("{character} is not dying", character=character.name))
    return [{"type": "character_stabilized", "data": {"character": character.id}}]


@player_rolls.deferred(player_rolls.TREATMENT, reading=lambda ctx, healer, pending: _treatment_check(
    ctx, healer, ctx.state.character(dict(pending.args)["patient"]) or healer))
def _treatment_answered(ctx: Context, pending: Any, total: int | None, d20: int | None) -> list[Event]:
    """A treatment whose check the healer's player rolled (the healer is the pending roll's character)."""
    a = dict(pending.args)
    return treat(ctx, a["patient"], a["injury"], total, pending.character, rolls=player_rolls.GM, check_d20=d20)
