"""Care for afflictions: spells (TRK-9, TRK-10, TRK-S2..S8) and rest recovery from poisons (TRK-8).

`spell_effect` is pure (what a spell that landed does to one affliction); `cast` adds the caster
level check and the events. Conditions a track imposes are symptoms: spells that merely remove
conditions (lesser restoration removing fatigue, ...) do nothing to them (TRK-11).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...errors import RuleViolation, UsageError, joined
from ...message import N_, Listed, Message, PerAudience, msg
from .rules import (ACTIVE, CURED, ELIMINATED, END_STATE, AfflictionState, eliminate, floor_index,
                    recede_stages, status, to_dict)
from ..engine.campaign import find_character
from .decide import find_affliction
from .lasting import holding_floors, once_gone, restore_running
from ..engine.effects import option_matches
from ..engine.state import DAY, HOUR, UNIT_SECONDS
from ..engine.context import Context

if TYPE_CHECKING:
    from ...content.rules import Rules

Event = dict[str, Any]
CL_CHECK_SPELLS = ("neutralize_poison", "remove_disease", "remove_curse")
END_STATE_SPELLS = ("miracle", "wish")
ABILITY_DAMAGE_SPELLS = ("restoration", "greater_restoration", "heal")
NIGHT = 8 * HOUR


def spell_name(rules: Rules, spell: str) -> Any:
    """A spell by its name as the tracks' books (Pathfinder's) give it: a content name, or its id if unknown."""
    found = rules.spells.get(spell)
    return found.title("pf1e") if found is not None else spell


def _heal_cures(defn: Any, options: dict[str, Any]) -> bool:
    cure = defn.cure
    return cure.heal_cures or bool(cure.heal_cures_if_option and all(
        options.get(k) == v for k, v in cure.heal_cures_if_option.items()))


def _gone(a: AfflictionState) -> bool:
    """The affliction no longer runs: cured, or (a poison) out of the system."""
    return a.status == CURED or (a.kind == "poison" and a.status == ELIMINATED)


def _to_healthy(a: AfflictionState, rules: Rules, options: dict[str, Any], now: int, why: str,
                spell: str | None) -> tuple[AfflictionState, list[dict[str, Any]]]:
    """End the affliction and move it back toward healthy, as far as its recovery floors allow."""
    facts: list[dict[str, Any]] = []
    new = a
    if new.status == ACTIVE:
        new, facts = eliminate(new, why, now)
    if new.status != CURED:
        new, more = recede_stages(new, max(new.stages), rules, options, ignore_floor_of=spell)
        facts += more
    return new, facts


def spell_effect(a: AfflictionState, spell: str, rules: Rules, options: dict[str, Any], now: int,
                 ability_heal: int = 0) -> tuple[AfflictionState, list[dict[str, Any]]]:
    """What a spell that landed (caster level check passed) does to one affliction. Raises RuleViolation
    when it does nothing. `ability_heal`: the 1d4 a lesser restoration cures."""
    defn = rules.afflictions[a.affliction]
    cure = defn.cure
    affliction, spell_said = defn.name, spell_name(rules, spell)  # messages name things (issue 40)
    if a.status == END_STATE:
        raise RuleViolation(msg("{affliction} ({a_id}) has reached its end state: only Miracle or Wish remove its "
                                "effects (TRK-10)", affliction=affliction, a_id=a.id))
    new = a
    facts: list[dict[str, Any]] = []
    live = a.status in (ACTIVE, ELIMINATED)
    irreversible = cure.magic_only and options.get("irreversible_when_no_cure", True)
    if spell in ("neutralize_poison", "remove_disease", "remove_curse") and live:
        wanted = {"neutralize_poison": "poison", "remove_disease": "disease"}.get(spell)
        if wanted == "poison" and a.kind != wanted:
            raise RuleViolation(msg("{spell} acts on poisons only; {affliction} is a disease", spell=spell_said,
                                    affliction=affliction))
        if wanted == "disease" and a.kind != wanted:
            raise RuleViolation(msg("{spell} acts on diseases only; {affliction} is a poison", spell=spell_said,
                                    affliction=affliction))
        if len(cure.spells) > 1 and spell in cure.spells:
            window = cure.within.amount * UNIT_SECONDS[cure.within.unit] if cure.within else None
            landed = tuple(p for p in a.spells if p[0] != spell and (window is None or now - p[1] <= window))
            landed += ((spell, now),)
            new = replace(new, spells=landed)
            facts.append({"what": "spell_landed", "spell": spell,
                          "missing": [x for x in cure.spells if x not in {p[0] for p in landed}]})
            if set(cure.spells) <= {p[0] for p in landed}:
                new, more = _to_healthy(replace(new, spells=()), rules, options, now, "cure", spell)
                facts += more
            elif spell == "remove_disease" and irreversible and new.status == ACTIVE:
                new, more = eliminate(new, "halted", now)  # TRK-12: it only stops getting worse
                facts += more
        elif spell == "remove_curse":
            raise RuleViolation(msg("{spell} does nothing to {affliction}", spell=spell_said, affliction=affliction))
        elif irreversible:
            if a.status == ACTIVE:
                new, facts = eliminate(new, "halted", now)  # TRK-12: no further deterioration, no recovery
            else:
                remedies = Listed([spell_name(rules, f.lifted_by[0]) for f in defn.recovery_floors]
                                  or [spell_name(rules, "heal")], "or")
                raise RuleViolation(msg("{affliction} ({a_id}) is already halted; its stage improves only with "
                                        "{remedies}", affliction=affliction, a_id=a.id, remedies=remedies))
        else:
            new, facts = _to_healthy(new, rules, options, now, "cure", spell)
    elif spell == "heal" and live and _heal_cures(defn, options):
        new, facts = _to_healthy(new, rules, options, now, "cure", spell)
    elif live and any(spell in f.lifted_by and option_matches(f, options) for f in defn.recovery_floors):
        holding = holding_floors(a, defn, rules, options, spell)
        if a.status == ACTIVE and holding and all(f.lifted_while_running for f in holding):
            new, facts = restore_running(new, rules)  # Cendres d'ungol: the permanence lifted, the poison runs on
        elif a.status == ACTIVE:
            first = spell_name(rules, "neutralize_poison" if a.kind == "poison" else "remove_disease")
            raise RuleViolation(msg("{spell} restores {affliction}'s stage only once it no longer runs ({first} first)",
                                    spell=spell_said, affliction=affliction, first=first))
        else:
            new, facts = _to_healthy(new, rules, options, now, "cure", spell)
    # leftovers: permanent conditions (once the affliction is gone, or while it runs where the entry says so) and
    # ability damage
    lifted = [p for p in new.permanent if spell in p.removed_by
              and (_gone(new) or not once_gone(defn, p.condition, options))]
    if lifted:
        for p in lifted:
            facts.append({"what": "permanent_removed", "condition": p.condition})
        new = replace(new, permanent=tuple(p for p in new.permanent if p not in lifted))
    elif any(spell in p.removed_by for p in new.permanent):
        raise RuleViolation(msg("{spell} can lift {affliction}'s permanent effects only once the affliction is gone "
                                "(TRK-S2)", spell=spell_said, affliction=affliction))
    if new.ability_damage and (spell in ABILITY_DAMAGE_SPELLS or (spell == "lesser_restoration" and ability_heal)):
        damage = dict(new.ability_damage)
        if spell == "lesser_restoration":
            worst = max(damage, key=lambda k: (damage[k], k))
            damage[worst] = max(0, damage[worst] - ability_heal)
            damage = {k: v for k, v in damage.items() if v}
        else:
            damage = {}
        facts.append({"what": "ability_damage_healed", "left": damage})
        new = replace(new, ability_damage=tuple(sorted(damage.items())))
    if new == a and not facts:
        said = {"spell": spell_said, "affliction": affliction, "a_id": a.id, "status": status(a)}
        if spell in ("lesser_restoration", "restoration", "greater_restoration", "remove_blindness_deafness",
                     "regenerate", "heal"):
            raise RuleViolation(msg("{spell} has no effect on {affliction} ({a_id}, {status}). Conditions imposed by a "
                                    "track are symptoms: condition removers do not apply (TRK-11).", **said))
        raise RuleViolation(msg("{spell} has no effect on {affliction} ({a_id}, {status}).", **said))
    return new, facts


def cast(ctx: Context, name: str, key: str, spell: str, cl_check: int | None = None, cl: int | None = None,
         ) -> list[Event]:
    """A spell on one affliction of a character, with the caster level check where the rules ask for it."""
    character = find_character(ctx.state, name)
    a = find_affliction(character, key, ctx.rules)
    spell = ctx.rules.resolve("spells", spell)  # (the tracks are Pathfinder's: their spells in any campaign)
    now = ctx.state.clock
    base = {"character": character.id, "affliction": a.id, "content": a.affliction, "spell": spell, "at": now}
    if spell in END_STATE_SPELLS:
        if character.dead:
            raise RuleViolation(msg("{character_name} is dead: bring them back to life first "
                                    "(with raise_cures_affliction, coming back ends the affliction)",
                                    character_name=character.name))
        return [{"type": "affliction_spell", "data": {**base, "facts": [{"what": "removed"}]}},
                {"type": "affliction_removed", "data": {"character": character.id, "affliction": a.id}}]
    if a.status == END_STATE:
        spell_effect(a, spell, ctx.rules, ctx.options, now)  # raises: TRK-10
    mark = len(ctx.roller.made)
    if spell in CL_CHECK_SPELLS and ctx.options.get("require_cl_check", True):
        check: dict[str, Any]
        if cl_check is not None:
            check = {"total": cl_check, "typed": True}
        elif cl is None:
            named = spell_name(ctx.rules, spell)
            raise UsageError(PerAudience(
                cli=msg("{spell} needs a caster level check against DC {dc}: give --cl-check TOTAL or --cl N (caster "
                        "level) to roll it", spell=named, dc=a.dc),
                api=msg("{spell} needs a caster level check against DC {dc}: give cl_check (its total) or cl (the "
                        "caster level) to roll it", spell=named, dc=a.dc),
                page=msg("{spell} needs a caster level check against DC {dc}: give the caster level check's total",
                         spell=named, dc=a.dc)))
        else:
            d20 = ctx.roller.roll("1d20", f"{spell}: caster level check")
            check = {"d20": d20, "cl": cl, "total": d20 + cl, "typed": False}
        check |= {"dc": a.dc, "succeeded": check["total"] >= a.dc}
        base["cl_check"] = check
        if not check["succeeded"]:
            return [{"type": "affliction_spell", "data": {**base, "facts": [{"what": "cl_check_failed"}],
                                                          "rolls": list(ctx.roller.made[mark:])}}]
    heal = 0
    if spell == "lesser_restoration" and a.ability_damage:
        heal = ctx.roller.roll("1d4", "lesser restoration: ability damage cured")
    new, facts = spell_effect(a, spell, ctx.rules, ctx.options, now, heal)
    return [{"type": "affliction_spell", "data": {**base, "facts": facts, "state": to_dict(new),
                                                  "rolls": list(ctx.roller.made[mark:])}}]


def recover(ctx: Context, name: str, bed_rest: bool, care: bool = False) -> list[Event]:
    """A full day of bed rest, or a night of normal rest, for every poison out of a character's system (TRK-8).

    One step per bed-rest day or per 2 nights; doubled with long-term care (heal_check_doubles);
    recovery_multiplier makes a tenacious poison slower. A day needs 24 h of game time since the poison
    left the system (or the last rest counted), a night 8 h after it left the system and a day after the last rest
    counted: « 2 nuits de repos normal » are two nights, never two rests of one night. Partial days don't count.
    """
    character = find_character(ctx.state, name)
    if character.dead:
        raise RuleViolation(msg("{character_name} is dead", character_name=character.name))
    now = ctx.state.clock
    gap = DAY if bed_rest else NIGHT
    units = (2 if bed_rest else 1) * (2 if care and ctx.options.get("heal_check_doubles", True) else 1)
    multipliers = ctx.options.get("recovery_multiplier") or {}
    events: list[Event] = []
    reasons: list[str | Message] = []
    for a in character.afflictions:
        affliction = ctx.rules.afflictions[a.affliction].name
        if a.kind != "poison":
            reasons.append(msg("{id} {affliction}: a disease does not recover by rest", id=a.id, affliction=affliction))
            continue
        if a.status != ELIMINATED:
            why = {ACTIVE: N_("{id} {affliction}: still in the system (recovery starts once it is out)"),
                   END_STATE: N_("{id} {affliction}: at its end state (no recovery)"),
                   CURED: N_("{id} {affliction}: already healthy")}[a.status]
            reasons.append(msg(why, id=a.id, affliction=affliction))
            continue
        if now - a.rest_at < (DAY if a.rested else gap):
            since = (N_("{id} {affliction}: only {hours} h of game time since the last rest; advance the clock first")
                     if a.rest else
                     N_("{id} {affliction}: only {hours} h of game time since it left the system; advance the clock "
                        "first"))
            reasons.append(msg(since, id=a.id, affliction=affliction, hours=(now - a.rest_at) // HOUR))
            continue
        try:
            per_step = 2 * max(1, int(multipliers.get(a.affliction, 1)))
        except (TypeError, ValueError):
            raise UsageError(msg("recovery_multiplier for {affliction} must be a whole number",
                                 affliction=affliction)) from None
        steps, rest = divmod(a.rest + units, per_step)
        new, facts = recede_stages(replace(a, rest=rest, rest_at=now, rested=True), steps, ctx.rules, ctx.options)
        if steps and new.stages == a.stages:
            floor = [floor_index(a, ctx.rules.afflictions[a.affliction], ctx.rules, ctx.options, i)
                     for i in range(len(a.stages))]
            facts.append({"what": "floor", "stages": floor})
            new = replace(new, rest=0)
        events.append({"type": "affliction_recovered", "data": {
            "character": character.id, "affliction": a.id, "content": a.affliction, "at": now,
            "rest": "bed_rest" if bed_rest else "night", "care": care, "units": units, "steps": steps,
            "facts": facts, "state": to_dict(new)}})
    if not events and not reasons:
        raise RuleViolation(msg("nothing for {character_name} to recover from by rest (no afflictions)",
                                character_name=character.name))
    if not events:
        raise RuleViolation(msg("nothing for {character_name} to recover from by rest: {reasons}",
                                character_name=character.name, reasons=joined(reasons)))
    return events
