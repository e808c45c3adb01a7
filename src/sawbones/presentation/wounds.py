"""Localized wounds (seed 003) as every interface shows them: a wound's document, the wounds section of a
character's document and its status lines; the roll query's words (what a roll is, in the reader's words)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import save_words, views
from ..errors import UsageError
from ..message import N_, Listed, msg
from .time_words import describe
from .typeset import listed
from .locale import _, languages, pgettext, speaking
from .locale import name as named

if TYPE_CHECKING:
    from ..content.rules import Rules

# ---------------------------------------------------------------- read models


def heals_by(w: Any, options: dict[str, Any], first_aid: str | None = None) -> list[str]:
    """How a wound can heal, in words (LOC-6); `first_aid`: its words in the campaign's system (presentation/wound_words.py)."""
    if w.superficial:
        day = (_("a day of complete rest (24 h)") if options.get("day_of_rest") != "normal_day"
               else _("a normal day (automatic)"))
        return [first_aid or _("first aid (Heal) DC 15"), _("1 HP of magical healing"), day]
    left = w.damage - w.recovered
    mode = options.get("nonsuperficial_heal", "hp_recovered")
    if mode == "hp_recovered":
        return [_("recovering the {left} HP it cost (magic or rest)", left=left)]
    if mode == "magic_only":
        return [_("{left} HP of magical healing", left=left)]
    return [_("when the GM says so")]


def wound_doc(w: Any, rules: Rules, options: dict[str, Any], system: str | None = None) -> dict[str, Any]:
    """A wound, what it affects said in the campaign's `system` (presentation/wound_words.py)."""
    from ..domain.wounds.rules import wound_name
    from .wound_words import affects, first_aid_words

    part = rules.body_parts.get(w.part)
    doc: dict[str, Any] = {
        "id": w.id, "part": w.part, "side": w.side, "name": named(wound_name(part, w.side)) if part else w.part,
        "damage": w.damage, "superficial": w.superficial, "superficial_by": w.superficial_by,
        "received_at": w.received_at, "cause": w.cause, "penalty": part.penalty if part else None,
        "affects": affects(part, rules, system) if part else "", "suppressed": w.suppressed,
        "suppressed_until": w.suppressed_until, "recovered": w.recovered,
        "heals_by": heals_by(w, options, first_aid_words(rules, system)),
    }
    if w.fort_dc is not None:
        doc["fort"] = {"dc": w.fort_dc, "total": w.fort_total, "success": w.fort_total >= w.fort_dc}
    if w.first_aid_failures:
        doc["first_aid_failures"] = w.first_aid_failures
    return doc


def wounds_section(character: Any, state: Any, rules: Rules) -> dict[str, Any]:
    """The character view's wounds: each wound (with its id), and the both-sides conditions."""
    from ..domain.engine.options import effective_options
    from ..domain.wounds.effects import both_sides

    options = effective_options(rules, state.option_overrides())
    conditions = [{"condition": part.both_sides_condition,
                   "name": named(rules.conditions[part.both_sides_condition].name), "part": part.id,
                   "wounds": sorted(w.id for w in wounds)}
                  for part, wounds in both_sides(character, rules, options) if part.both_sides_condition is not None]
    return {"wounds": [wound_doc(w, rules, options, state.system) for w in character.wounds],
            "wound_conditions": conditions}


def render_wound_lines(c: dict[str, Any], con: Any) -> None:
    """The wounds of one character in the status view."""
    from rich.markup import escape


    for w in c.get("wounds", ()):
        kind = _("superficial") if w["superficial"] else _("severe")
        penalty = f"{w['penalty']}" if w["penalty"] is not None else "?"
        if w["suppressed"]:
            until = (describe(w["suppressed_until"]) if w["suppressed_until"] is not None
                     else pgettext("until", "healed"))
            ignored = _("ignored (Fortitude) until")
            penalty = f"[dim]{penalty}[/] ({ignored} {until})"
        damage = _("damage")
        con.print(f"  [magenta]{w['id']} {escape(w['name'])}[/] · {w['damage']} {damage} · "
                  f"{kind} · {penalty}")
        con.print(f"     {escape(w['affects'])}")
        con.print("     " + _("heals by: ") + listed(w["heals_by"]))
    for cond in c.get("wound_conditions", ()):
        con.print(f"  [bold magenta]{escape(cond['name'])}[/] ({', '.join(cond['wounds'])})")


if wounds_section not in views.CHARACTER_SECTIONS:
    views.CHARACTER_SECTIONS.append(wounds_section)
    views.STATUS_RENDERERS.append(render_wound_lines)


# ---------------------------------------------------------------- the roll query


def roll_context(rules: Rules, roll: str, **given: Any) -> Any:
    """ROLL is a roll kind (its id, or its name in any language: attaque, jet de sauvegarde), or a shortcut: a
    skill (perception, Escalade), a save (reflex, Réflexes) or an ability (str, Force, Strength); else a UsageError
    (where: "roll") that lists the roll kinds."""
    from ..domain.engine.roll_match import KINDS, RollContext

    key = roll.strip().casefold()
    kind = next((k for k in KINDS if key == k or key in _in_every_language(ROLL[k])), None)
    if kind is not None:
        return RollContext(kind=kind, **given)
    shown = _shown_roll(rules, key)  # a label the player's page shows: "Strength check", « Attaque (main gauche) »
    if shown is not None:
        return RollContext(**(given | shown))
    if given.get("skill") is None and (key in rules.skills or any(
            key in (k.name.fr.casefold(), k.name.en.casefold()) for k in rules.skills.values())):
        return RollContext(kind="skill", **(given | {"skill": roll}))
    if given.get("save") is None and any(key in (v.id, v.name.fr.casefold(), v.name.en.casefold())
                                         for v in rules.saves.values()):
        return RollContext(kind="save", **(given | {"save": roll}))
    save = next((v for v in [*rules.saves, *rules.abilities] if key in _save_names(rules, v)), None)
    if given.get("save") is None and save is not None:  # "Constitution save", "jet de sauvegarde de Sagesse"
        return RollContext(kind="save", **(given | {"save": save}))
    ability = next((a.id for a in rules.abilities.values()
                    if key in (a.id, a.name.fr.casefold(), a.name.en.casefold())), None)
    if given.get("ability") is None and ability is not None:
        return RollContext(kind="check", **(given | {"ability": ability}))
    kinds = Listed([msg(ROLL[k]) for k in KINDS], "")
    raise UsageError(msg("{roll} is not a roll ({kinds}), a skill, a save or an ability", roll=repr(roll), kinds=kinds),
                     "roll")


def _shown_roll(rules: Rules, key: str) -> dict[str, Any] | None:
    """The roll a page's label names (roll_bonus.COMMON_ROLLS, or any ability's check), in any language."""
    from .roll_bonus import ABILITY_CHECK, COMMON_ROLLS

    found = next((fields for label, fields in COMMON_ROLLS.values() if key in _in_every_language(label)), None)
    if found is not None:
        return found
    for lang in languages():
        with speaking(lang):
            for ability in rules.abilities.values():
                if key == _(ABILITY_CHECK, ability=named(ability.name)).casefold():
                    return {"kind": "check", "ability": ability.id}
    return None


def _in_every_language(text: str) -> set[str]:
    """An English template as each language says it, folded for a comparison."""
    said = set()
    for lang in languages():
        with speaking(lang):
            said.add(_(text).casefold())
    return said


def _save_names(rules: Rules, save: str) -> set[str]:
    """A save's roll as sentences name it, in every language: "jet de Vigueur", "Constitution save"."""
    system = "pf1e" if save in rules.saves else "dnd5e"  # (a named save, or an ability's)
    said = set()
    for lang in languages():
        with speaking(lang):
            said.add(save_words.save_roll(rules, save, system).casefold())
    return said


def roll_words(rules: Rules, system: str) -> list[str]:
    """What a roll field offers, in the reader's language: the roll kinds' names, then the saves, abilities and skills of the
    campaign's game system (each one a ROLL `roll_context` reads)."""
    from ..domain.engine.roll_match import KINDS

    saves = [save_words.save_roll(rules, v, system) for v in save_words.system_saves(rules, system)]
    skills = sorted(named(k.name) for k in rules.skills.values() if k.system == system)
    return [roll_word(k) for k in KINDS] + saves + [named(a.name) for a in rules.abilities.values()] + skills


SIDES = {"left": N_("left"), "right": N_("right")}  # a body side as typed, in any language
ROLL = {  # a roll's words: its kind, its hand, its range, its sense (`roll_word`)
    "attack": N_("attack"), "damage": N_("damage"), "check": N_("check"), "skill": N_("skill check"),
    "save": N_("save"), "initiative": N_("initiative"), "ac": N_("armour class"),
    "concentration": N_("concentration"), "spell_dc": N_("spell save DC"), "caster_level": N_("caster level"),
    "left": N_("left hand"), "right": N_("right hand"), "both": N_("both hands"),
    "ranged": N_("ranged"), "melee": N_("melee"), "sight": N_("sight"), "hearing": N_("hearing"),
}


def roll_word(key: str) -> str:
    """One of a roll's words (ROLL), in the reader's language."""
    return _(ROLL[key])


def roll_title(rules: Rules, system: str, roll: dict[str, Any]) -> list[str]:
    """What the roll is, in the reader's words: ["Constitution save"], ["attaque", "main gauche", "à distance"]."""
    if roll.get("save"):
        head = [save_words.save_roll(rules, roll["save"], system)]
    elif roll.get("skill") in rules.skills:
        head = [named(rules.skills[roll["skill"]].name)]
    elif roll.get("skill"):
        head = [roll_word(roll["kind"]), str(roll["skill"])]
    else:
        head = [roll_word(roll["kind"])] if roll["kind"] in ROLL else [str(roll["kind"])]
        if roll.get("ability") in rules.abilities:
            head.append(named(rules.abilities[roll["ability"]].name))
    return head + [roll_word(str(roll[k])) if str(roll[k]) in ROLL else str(roll[k])
                   for k in ("range", "hand", "sense") if roll.get(k)]


