"""What a wounded body part affects, in the campaign's own system (issue 39, item 7): the seed's "Affecte" cell
names D&D 3.5's skills (Open Lock, Use Rope...), which a 3.5 / Pathfinder table reads as written; in a 5e
campaign the same selectors (body_parts.yaml `rolls`) are read as the engine reads them (roll_match: each skill
through its `maps_to`, a save through its ability) and said with 5e's names, the skills 5e has no word for left out,
as the engine leaves them."""

from __future__ import annotations

from typing import Any

from ..engine.roll_match import _saves_in, _skills_in

NATIVE = "pf1e"  # the system the seed's text is written for (3.5 skills, which the pf1e vocabulary keeps)
KINDS = {  # a selector's kind of roll: (English, French)
    "attack": ("attack rolls", "jets d'attaque"), "damage": ("damage rolls", "jets de dégâts"),
    "check": ("ability checks", "tests de caractéristique"), "skill": ("skill checks", "tests de compétence"),
    "save": ("saving throws", "jets de sauvegarde"), "initiative": ("initiative", "initiative"),
    "ac": ("armour class", "classe d'armure"), "concentration": ("concentration", "concentration"),
    "spell_dc": ("spell save DC", "DD des sorts"), "caster_level": ("caster level", "niveau de lanceur de sorts"),
}
RANGE = {"ranged": ("ranged", "à distance"), "melee": ("melee", "au corps à corps")}


def affects(part: Any, rules: Any, system: str | None, lang: str) -> str:
    """The rolls a wound to `part` affects, in `system`'s words (the seed's text in its own system)."""
    if system in (None, NATIVE):
        return str(part.affects(lang))
    fr = lang == "fr"
    groups: dict[str, list[str]] = {}  # a kind of roll (and its range) -> the names it is narrowed to, merged
    for sel in part.rolls:
        for kind in sel.kinds:
            words = KINDS.get(kind, (kind, kind))[1 if fr else 0]
            if sel.range:
                ranged = RANGE[sel.range][1 if fr else 0]
                words = f"{words} {ranged}" if fr else f"{ranged} {words}"
            named = _named(sel, kind, rules, system, lang)
            if sel.skills + sel.abilities + sel.saves and not named:
                continue  # skills this system has no word for: the engine leaves them out too
            names = groups.setdefault(words, [])
            names += [n for n in named if n not in names]
    text = (" ; " if fr else "; ").join(f"{words} ({', '.join(names)})" if names else words for words, names in groups.items())
    return text[:1].upper() + text[1:]


def _named(sel: Any, kind: str, rules: Any, system: str, lang: str) -> list[str]:
    """The skills, abilities and saves a selector names, each as `system` reads it, by name."""
    names: list[str] = []
    for skill in sel.skills:
        for sid in sorted(_skills_in(rules, system, skill)):
            entry = rules.skills.get(sid)
            if entry is not None and entry.system == system:
                names.append(entry.name(lang))
    for ability in sel.abilities:
        if ability in rules.abilities:
            names.append(rules.abilities[ability].name(lang))
    for save in sel.saves:
        key = _saves_in(rules, system, save)
        entry = rules.saves.get(key) or rules.abilities.get(key)
        if entry is not None:
            names.append(entry.name(lang))
    return list(dict.fromkeys(names))


def first_aid_words(rules: Any, system: str | None, lang: str) -> str:
    """LOC-6 (a)'s first aid, named with the system's skill: "first aid (Heal) DC 15" in Pathfinder / 3.5,
    "first aid (Medicine) DC 15" in 5e; "Premiers secours DD 15", "premiers secours (Médecine) DD 15"."""
    skill = next(iter(sorted(_skills_in(rules, system or NATIVE, "heal"))), "heal")
    entry = rules.skills.get(skill)
    name = entry.name(lang) if entry is not None else skill
    if lang == "fr":
        return "Premiers secours DD 15" if name == "Premiers secours" else f"premiers secours ({name}) DD 15"
    return f"first aid ({name}) DC 15"
