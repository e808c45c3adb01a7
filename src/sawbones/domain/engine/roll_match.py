"""Reading a roll in the campaign's system, and matching effects' roll selectors against it.

The roll vocabulary (RollKind in content/schema.py) and how each system reads it:

| roll          | dnd5e also counts as | pf1e also counts as | ability when not given           |
|---------------|----------------------|---------------------|----------------------------------|
| attack        |                      |                     | melee: str, ranged: dex          |
| damage        |                      |                     | melee: str, ranged: dex (5e)     |
| check         | skill (with a skill) | skill (with a skill)| the skill's                      |
| skill         | check                |                     | the skill's                      |
| save          |                      |                     | the save's (fortitude: con ...)  |
| initiative    | check (Dex)          | check (Dex)         | dex                              |
| ac            |                      |                     | dex                              |
| concentration | save (Con)           |                     | con (5e)                         |
| spell_dc, caster_level | —           | —                   | given (casting ability)          |

Skills and saves are translated to the campaign's system through `maps_to` (skills_pf1e.yaml,
vocabulary.yaml), with the sense a skill relies on (skill_senses.yaml): a 3.5 Spot penalty reads
in 5e as a penalty on Perception checks that rely on sight.

A match is YES, NO, or MAYBE with what it depends on (the hand, the range, the sense, the ability,
metal armour...): a detail the GM did not give is never guessed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, get_args

from ...frozen import frozen
from ...content import schema as s
from ...errors import UsageError
from .effects import ActiveEffect
from .state import ABILITIES
from ...message import Option, msg

if TYPE_CHECKING:
    from ...content.rules import Rules


KINDS: tuple[str, ...] = get_args(s.RollKind)
HANDS = ("left", "right", "both")
RANGES = ("ranged", "melee")
SENSES = ("sight", "hearing")
YES, MAYBE, NO = "yes", "maybe", "no"
Need = tuple[str, Any]  # what a conditional effect depends on: ("hand", "left"), ("ability", ("str",)) ...


@frozen
class RollContext:
    """The roll the GM asks about. Only `kind` is required; what is left out is not guessed."""

    kind: str
    ability: str | None = None
    skill: str | None = None
    save: str | None = None
    hand: str | None = None  # left | right | both (a weapon held in two hands)
    range: str | None = None  # ranged | melee
    sense: str | None = None  # sight | hearing
    armor: str | None = None  # "metal", "none", or an armour id (option metal_armor lists the metal ones)
    standing: bool | None = None
    in_combat: bool | None = None
    fear_source_in_sight: bool | None = None  # 5e frightened: the source of its fear is within line of sight
    weapon: bool | None = None  # made with a weapon (PF1 sickened: weapon damage only)


@frozen
class ReadRoll:
    """A RollContext read in the campaign's system: every kind it counts as, skill and save translated."""

    kind: str
    kinds: frozenset[str]
    ability: str | None
    skill: str | None  # in the campaign's system
    skill_typed: str | None  # as the GM gave it
    save: str | None  # 5e: an ability id; pf1e: fortitude / reflex / will
    senses: tuple[str, ...]  # the senses it may rely on: one = known, several = the GM did not say
    sense_given: bool
    hand: str | None
    range: str | None
    metal: bool | None
    standing: bool | None
    in_combat: bool | None
    fear_source_in_sight: bool | None = None
    weapon: bool | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "counts_as": sorted(self.kinds), "ability": self.ability, "skill": self.skill,
                "skill_given": self.skill_typed, "save": self.save,
                "sense": self.senses[0] if len(self.senses) == 1 else None, "hand": self.hand, "range": self.range,
                "metal_armor": self.metal, "standing": self.standing, "in_combat": self.in_combat,
                "fear_source_in_sight": self.fear_source_in_sight, "weapon": self.weapon}


# ---------------------------------------------------------------- reading the roll


def resolve_skill(rules: Rules, system: str, text: str) -> tuple[str, str]:
    """(skill id in the campaign's system, skill id as given) from an id or a name of either system."""
    key = text.strip().casefold()
    skills = rules.skills
    found = skills.get(key)
    if found is None:
        named = [k for k in skills.values() if key in (k.name.fr.casefold(), k.name.en.casefold())]
        named.sort(key=lambda k: k.system != system)
        found = named[0] if named else None
    if found is None:
        raise UsageError(msg("unknown skill {text} (try one of: {skills})", text=repr(text), skills=", ".join(sorted(skills))))
    if found.system == system:
        return found.id, found.id
    if system == "dnd5e":
        return found.maps_to.get("dnd5e", found.id), found.id
    if f"pf_{found.id}" in skills:
        return f"pf_{found.id}", found.id
    into = [k.id for k in skills.values() if k.system == system and k.maps_to.get(found.system) == found.id]
    if len(into) == 1:
        return into[0], found.id
    raise UsageError(msg("{skill} is a {skill_system} skill; in this {system} campaign say which: {choices}",
                         skill=found.name, skill_system=found.system, system=system,
                         choices=", ".join(into) if into else msg("none maps to it")))


def resolve_save(rules: Rules, system: str, text: str) -> tuple[str, str]:
    """(save in the campaign's system, its ability) from 'reflex', 'dex', 'Réflexes'..."""
    key = text.strip().casefold()
    named = next((v for v in rules.saves.values() if key in (v.id, v.name.fr.casefold(), v.name.en.casefold())), None)
    ability = named.ability if named else next(
        (a.id for a in rules.abilities.values() if key in (a.id, a.name.fr.casefold(), a.name.en.casefold())), None)
    if ability is None:
        raise UsageError(msg("unknown save {text} (fortitude, reflex, will, or an ability: {abilities})", text=repr(text),
                             abilities=", ".join(ABILITIES)))
    if system == "dnd5e":
        save = named.maps_to.get("dnd5e", ability) if named else ability
        return save, save
    if named:
        return named.id, named.ability
    pf = next((v for v in rules.saves.values() if v.system == system and v.ability == ability), None)
    if pf is None:
        raise UsageError(msg("{system} has no {ability} save (fortitude, reflex or will)", system=system, ability=ability))
    return pf.id, pf.ability


def senses_of(rules: Rules, *skills: str | None) -> tuple[str, ...]:
    for skill in skills:
        entry = rules.skill_senses.get(skill) if skill else None
        if entry is not None:
            return tuple(entry.senses)
    return ()


def read_roll(roll: RollContext, rules: Rules, options: dict[str, Any], system: str) -> ReadRoll:
    kind = roll.kind
    if kind not in KINDS:
        raise UsageError(msg("unknown roll {kind} (one of: {kinds})", kind=repr(kind), kinds=", ".join(KINDS)))
    for value, allowed, what in ((roll.hand, HANDS, "hand"), (roll.range, RANGES, "range"),
                                 (roll.sense, SENSES, "sense")):
        if value is not None and value not in allowed:
            raise UsageError(msg("{what} must be one of {allowed}, not {value}", what=what, allowed=", ".join(allowed),
                                 value=repr(value)))
    ability = roll.ability
    if ability is not None and ability not in ABILITIES:
        raise UsageError(msg("unknown ability {ability} (one of: {abilities})", ability=repr(ability),
                         abilities=", ".join(ABILITIES)))
    skill = typed = save = None
    if roll.skill:
        if kind not in ("skill", "check"):
            raise UsageError(msg("{option} goes with a skill or check roll", option=Option("skill")))
        kind = "skill"
        skill, typed = resolve_skill(rules, system, roll.skill)
        ability = ability or rules.skills[skill].ability
    if kind == "save" and (roll.save or ability):
        save, ability = resolve_save(rules, system, roll.save or ability or "")
    elif roll.save:
        raise UsageError(msg("{option} goes with a save roll", option=Option("save")))
    if kind == "concentration" and system == "dnd5e":
        save, ability = "con", ability or "con"
    if ability is None:
        if kind in ("attack", "damage") and roll.range:
            ability = "str" if roll.range == "melee" else ("dex" if kind == "attack" or system == "dnd5e" else None)
        elif kind in ("initiative", "ac"):
            ability = "dex"
    kinds = {kind}
    if kind == "initiative" or (kind == "skill" and system == "dnd5e"):
        kinds.add("check")  # initiative is a Dex check; a 5e skill check is an ability check
    elif kind == "concentration" and system == "dnd5e":
        kinds.add("save")  # a Constitution saving throw
    senses = (roll.sense,) if roll.sense else senses_of(rules, typed, skill)
    metal = None
    if roll.armor is not None:
        metal = roll.armor == "metal" or roll.armor in (options.get("metal_armor") or ())
    return ReadRoll(kind, frozenset(kinds), ability, skill, typed, save, senses, roll.sense is not None, roll.hand,
                roll.range, metal, roll.standing, roll.in_combat, roll.fear_source_in_sight,
                roll.weapon)


# ---------------------------------------------------------------- matching


def _skills_in(rules: Rules, system: str, skill_id: str) -> set[str]:
    """A selector's skill, read in the campaign's system (maps_to, both ways)."""
    entry = rules.skills.get(skill_id)
    if entry is None or entry.system == system:
        return {skill_id}
    if system == "dnd5e":
        return {entry.maps_to.get("dnd5e", skill_id)}
    return {skill_id} | {k.id for k in rules.skills.values()
                         if k.system == system and k.maps_to.get(entry.system) == skill_id}


def _saves_in(rules: Rules, system: str, save_id: str) -> str:
    entry = rules.saves.get(save_id)
    if entry is None or entry.system == system:
        return save_id
    mapped: str = entry.maps_to.get(system, entry.ability)
    return mapped


skills_in, saves_in = _skills_in, _saves_in  # public: presentation/wound_words.py says what they name


def _sense(required: str | None, r: ReadRoll) -> tuple[str, tuple[Need, ...]]:
    """Does the roll rely on this sense? Given by the GM, fixed by the skill, or unknown (a plain check)."""
    if required is None:
        return YES, ()
    if r.sense_given or (r.senses and len(r.senses) == 1):
        return (YES, ()) if r.senses[0] == required else (NO, ())
    if r.senses:
        return (MAYBE, (("sense", required),)) if required in r.senses else (NO, ())
    return (MAYBE, (("sense", required),)) if r.skill is None else (NO, ())


def _selector(sel: s.Rolls, r: ReadRoll, ae: ActiveEffect | None, rules: Rules,
              system: str) -> tuple[str, tuple[Need, ...]]:
    kinds = set(sel.kinds)
    if "check" in kinds and sel.skills:  # a 5e-style skill check selector reads as a skill check in pf1e
        kinds.add("skill")
    if not kinds & r.kinds:
        return NO, ()
    needs: list[Need] = []
    if sel.abilities:
        if r.ability is None:
            needs.append(("ability", tuple(sel.abilities)))
        elif r.ability not in sel.abilities:
            return NO, ()
    if sel.saves:
        wanted = {_saves_in(rules, system, v) for v in sel.saves}
        if r.save is None:
            needs.append(("save", tuple(sorted(wanted))))
        elif r.save not in wanted:
            return NO, ()
    if sel.range:
        if r.range is None:
            needs.append(("range", sel.range))
        elif r.range != sel.range:
            return NO, ()
    if sel.limb == "this":
        side = ae.detail.get("side") if ae else None
        if side:
            if r.hand is None:
                needs.append(("hand", side))
            elif r.hand not in (side, "both"):
                return NO, ()
    if sel.skills:
        if r.skill is None:
            needs.append(("skill", tuple(sel.skills)))
            status, more = _sense(sel.sense, r)
        else:
            best: tuple[str, tuple[Need, ...]] = (NO, ())
            for skill in sel.skills:
                if r.skill in _skills_in(rules, system, skill) or r.skill_typed == skill:
                    own = senses_of(rules, skill)
                    found = _sense(sel.sense or (own[0] if len(own) == 1 else None), r)
                    if found[0] == YES or best[0] == NO:
                        best = found
            status, more = best
    else:
        status, more = _sense(sel.sense, r)
    if status == NO:
        return NO, ()
    needs += more
    return (MAYBE, tuple(needs)) if needs else (YES, ())


def _guards(effect: Any, r: ReadRoll, ae: ActiveEffect | None) -> tuple[str, tuple[Need, ...]]:
    needs: list[Need] = []
    for flag in getattr(effect, "while_", ()) or ():
        if flag in ("site_hand", "site_foot"):  # resolved by the provider; checked again when it gives the site
            site = ae.detail.get("site") if ae else None
            if site is not None and site != flag[5:]:
                return NO, ()
            continue
        value = {"wearing_metal_armor": r.metal, "standing": r.standing, "in_combat": r.in_combat,
                 "fear_source_in_sight": r.fear_source_in_sight, "weapon": r.weapon}[flag]
        if value is None:
            needs.append((flag, True))
        elif not value:
            return NO, ()
    return (MAYBE, tuple(needs)) if needs else (YES, ())


def applies(effect: Any, rolls: tuple[s.Rolls, ...] | None, r: ReadRoll, ae: ActiveEffect | None, rules: Rules,
             system: str) -> tuple[str, tuple[tuple[Need, ...], ...]]:
    """YES / MAYBE (with the alternatives of what it depends on) / NO."""
    guard, guard_needs = _guards(effect, r, ae)
    if guard == NO:
        return NO, ()
    if rolls is None:
        return (guard, (guard_needs,) if guard_needs else ())
    found = [_selector(sel, r, ae, rules, system) for sel in rolls]
    if any(status == YES for status, _ in found):
        return (guard, (guard_needs,) if guard_needs else ())
    options = tuple(dict.fromkeys(needs + guard_needs for status, needs in found if status == MAYBE))
    return (MAYBE, options) if options else (NO, ())
