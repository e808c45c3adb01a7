"""Localized wounds (seed 003) as every interface shows them: a wound's document, the wounds section of a
character's document and its status lines; the roll query's words (what a roll is, in the reader's words)."""

from __future__ import annotations

from typing import Any

import click

from ..i18n import Words
from ..interfaces import save_words, views
from ..interfaces.typeset import listed

# ---------------------------------------------------------------- read models


def _fr(lang: str, fr: str, en: str) -> str:
    return fr if lang == "fr" else en


def heals_by(w: Any, options: dict[str, Any], lang: str, first_aid: str | None = None) -> list[str]:
    """How a wound can heal, in words (LOC-6); `first_aid`: its words in the campaign's system (wounds/words.py)."""
    if w.superficial:
        day = (_fr(lang, "une journée de repos complet (24 h)", "a day of complete rest (24 h)")
               if options.get("day_of_rest") != "normal_day"
               else _fr(lang, "une journée normale (automatique)", "a normal day (automatic)"))
        return [first_aid or _fr(lang, "Premiers secours DD 15", "first aid (Heal) DC 15"),
                _fr(lang, "1 PV de soins magiques", "1 HP of magical healing"), day]
    left = w.damage - w.recovered
    mode = options.get("nonsuperficial_heal", "hp_recovered")
    if mode == "hp_recovered":
        return [_fr(lang, f"récupérer les {left} PV qu'elle a coûtés (magie ou repos)",
                    f"recovering the {left} HP it cost (magic or rest)")]
    if mode == "magic_only":
        return [_fr(lang, f"{left} PV de soins magiques", f"{left} HP of magical healing")]
    return [_fr(lang, "quand le MJ le décide", "when the GM says so")]


def wound_doc(w: Any, rules: Any, options: dict[str, Any], lang: str, system: str | None = None) -> dict[str, Any]:
    """A wound, what it affects said in the campaign's `system` (domain/wounds/words.py)."""
    from ..domain.wounds.rules import wound_name
    from ..domain.wounds.words import affects, first_aid_words

    part = rules.body_parts.get(w.part)
    doc: dict[str, Any] = {
        "id": w.id, "part": w.part, "side": w.side, "name": wound_name(part, w.side)(lang) if part else w.part,
        "damage": w.damage, "superficial": w.superficial, "superficial_by": w.superficial_by,
        "received_at": w.received_at, "cause": w.cause, "penalty": part.penalty if part else None,
        "affects": affects(part, rules, system, lang) if part else "", "suppressed": w.suppressed,
        "suppressed_until": w.suppressed_until, "recovered": w.recovered,
        "heals_by": heals_by(w, options, lang, first_aid_words(rules, system, lang)),
    }
    if w.fort_dc is not None:
        doc["fort"] = {"dc": w.fort_dc, "total": w.fort_total, "success": w.fort_total >= w.fort_dc}
    if w.first_aid_failures:
        doc["first_aid_failures"] = w.first_aid_failures
    return doc


def wounds_section(character: Any, state: Any, rules: Any, lang: str) -> dict[str, Any]:
    """The character view's wounds: each wound (with its id), and the both-sides conditions."""
    from ..domain.engine.options import effective_options
    from ..domain.wounds.effects import both_sides

    options = effective_options(rules, state.option_overrides())
    conditions = [{"condition": part.both_sides_condition,
                   "name": rules.conditions[part.both_sides_condition].name(lang), "part": part.id,
                   "wounds": sorted(w.id for w in wounds)}
                  for part, wounds in both_sides(character, rules, options)]
    return {"wounds": [wound_doc(w, rules, options, lang, state.system) for w in character.wounds],
            "wound_conditions": conditions}


def render_wound_lines(c: dict[str, Any], lang: str, con: Any) -> None:
    """The wounds of one character in the status view."""
    from rich.markup import escape

    from ..domain.engine.clock import describe

    for w in c.get("wounds", ()):
        kind = _fr(lang, "superficielle", "superficial") if w["superficial"] else _fr(lang, "grave", "severe")
        penalty = f"{w['penalty']}" if w["penalty"] is not None else "?"
        if w["suppressed"]:
            until = (describe(w["suppressed_until"], lang) if w["suppressed_until"] is not None
                     else _fr(lang, "guérison", "healed"))
            penalty = f"[dim]{penalty}[/] ({_fr(lang, 'ignoré (Vigueur) jusqu’à', 'ignored (Fortitude) until')} {until})"
        con.print(f"  [magenta]{w['id']} {escape(w['name'])}[/] · {w['damage']} {_fr(lang, 'dégâts', 'damage')} · "
                  f"{kind} · {penalty}")
        con.print(f"     {escape(w['affects'])}")
        con.print("     " + _fr(lang, "guérit par : ", "heals by: ") + listed(w["heals_by"], lang))
    for cond in c.get("wound_conditions", ()):
        con.print(f"  [bold magenta]{escape(cond['name'])}[/] ({', '.join(cond['wounds'])})")


if wounds_section not in views.CHARACTER_SECTIONS:
    views.CHARACTER_SECTIONS.append(wounds_section)
    views.STATUS_RENDERERS.append(render_wound_lines)


# ---------------------------------------------------------------- the roll query


def roll_context(rules: Any, roll: str, lang: str = "en", **given: Any) -> Any:
    """ROLL is a roll kind (its id, or its name in either language: attaque, jet de sauvegarde), or a shortcut: a
    skill (perception, Escalade), a save (reflex, Réflexes) or an ability (str, Force, Strength). `lang`: the
    language of the error that lists the roll kinds."""
    from ..domain.engine.roll_query import KINDS, RollContext

    key = roll.strip().casefold()
    kind = next((k for k in KINDS if key in (k, ROLL.say(k, "en").casefold(), ROLL.say(k, "fr").casefold())), None)
    if kind is not None:
        return RollContext(kind=kind, **given)
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
    kinds = ", ".join(ROLL.say(k, lang) for k in KINDS)
    raise click.BadParameter(f"{roll!r} is not a roll ({kinds}), a skill, a save or an ability", param_hint="ROLL")


def _save_names(rules: Any, save: str) -> set[str]:
    """A save's roll as sentences name it, in both languages: "jet de Vigueur", "Constitution save"."""
    system = "pf1e" if save in rules.saves else "dnd5e"  # (a named save, or an ability's)
    return {save_words.save_roll(rules, save, system, lang).casefold() for lang in ("en", "fr")}


def roll_words(rules: Any, system: str, lang: str) -> list[str]:
    """What a roll field offers, in `lang`: the roll kinds' names, then the saves, abilities and skills of the
    campaign's game system (each one a ROLL `roll_context` reads)."""
    from ..domain.engine.roll_query import KINDS

    saves = [save_words.save_roll(rules, v, system, lang) for v in save_words.system_saves(rules, system)]
    skills = sorted(k.name(lang) for k in rules.skills.values() if k.system == system)
    return [ROLL.say(k, lang) for k in KINDS] + saves + [a.name(lang) for a in rules.abilities.values()] + skills


SIDES = {"left": ("left", "gauche"), "right": ("right", "droite")}  # a body side as typed, in either language
ROLL = Words("mods_roll", {
    "attack": ("attack", "attaque"), "damage": ("damage", "dégâts"), "check": ("check", "test"),
    "skill": ("skill check", "test de compétence"), "save": ("save", "jet de sauvegarde"),
    "initiative": ("initiative", "initiative"), "ac": ("armour class", "classe d'armure"),
    "concentration": ("concentration", "concentration"), "spell_dc": ("spell save DC", "DD des sorts"),
    "caster_level": ("caster level", "niveau de lanceur de sorts"),
    "left": ("left hand", "main gauche"), "right": ("right hand", "main droite"), "both": ("both hands", "deux mains"),
    "ranged": ("ranged", "à distance"), "melee": ("melee", "au corps à corps"),
    "sight": ("sight", "vue"), "hearing": ("hearing", "ouïe"),
})


def roll_title(rules: Any, system: str, roll: dict[str, Any], lang: str) -> list[str]:
    """What the roll is, in the reader's words: ["Constitution save"], ["attaque", "main gauche", "à distance"]."""
    if roll.get("save"):
        head = [save_words.save_roll(rules, roll["save"], system, lang)]
    elif roll.get("skill") in rules.skills:
        head = [rules.skills[roll["skill"]].name(lang)]
    elif roll.get("skill"):
        head = [ROLL.say(roll["kind"], lang), str(roll["skill"])]
    else:
        head = [ROLL.say(roll["kind"], lang)] if roll["kind"] in ROLL else [str(roll["kind"])]
        if roll.get("ability") in rules.abilities:
            head.append(rules.abilities[roll["ability"]].name(lang))
    return head + [ROLL.say(str(roll[k]), lang) if str(roll[k]) in ROLL else str(roll[k])
                   for k in ("range", "hand", "sense") if roll.get(k)]


