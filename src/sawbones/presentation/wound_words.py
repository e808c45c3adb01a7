"""What a wounded body part affects, in the campaign's own system (issue 39, item 7): the seed's "Affecte" cell
names D&D 3.5's skills (Open Lock, Use Rope...), which a 3.5 / Pathfinder table reads as written; in a 5e
campaign the same selectors (body_parts.yaml `rolls`) are read as the engine reads them (roll_match: each skill
through its `maps_to`, a save through its ability) and said with 5e's names, the skills 5e has no word for left out,
as the engine leaves them. Said in the reader's language (presentation.locale)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..domain.engine.roll_match import saves_in, skills_in
from ..message import N_
from .locale import _, name, pgettext

if TYPE_CHECKING:
    from ..content import schema as s
    from ..content.rules import Rules

NATIVE = "pf1e"  # the system the seed's text is written for (3.5 skills, which the pf1e vocabulary keeps)
KINDS = {  # a selector's kind of roll, in words
    "attack": N_("attack rolls"), "damage": N_("damage rolls"), "check": N_("ability checks"),
    "skill": N_("skill checks"), "save": N_("saving throws"), "initiative": N_("initiative"),
    "ac": N_("armour class"), "concentration": N_("concentration"), "spell_dc": N_("spell save DC"),
    "caster_level": N_("caster level"),
}
RANGE = {"ranged": N_("ranged"), "melee": N_("melee")}
FIRST_AID_DC = 15  # LOC-6 (a)


def affects(part: s.BodyPart, rules: Rules, system: str | None) -> str:
    """The rolls a wound to `part` affects, in `system`'s words (the seed's text in its own system)."""
    if system in (None, NATIVE):
        return name(part.affects)
    groups: dict[str, list[str]] = {}  # a kind of roll (and its range) -> the names it is narrowed to, merged
    for sel in part.rolls:
        for kind in sel.kinds:
            words = _(KINDS[kind]) if kind in KINDS else kind
            if sel.range:
                words = _("{range} {rolls}", range=_(RANGE[sel.range]), rolls=words)
            named = _named(sel, rules, system or NATIVE)
            if sel.skills + sel.abilities + sel.saves and not named:
                continue  # skills this system has no word for: the engine leaves them out too
            names = groups.setdefault(words, [])
            names += [n for n in named if n not in names]
    text = pgettext("list", "; ").join(
        f"{words} ({pgettext('list', ', ').join(names)})" if names else words for words, names in groups.items())
    return text[:1].upper() + text[1:]


def _named(sel: s.Rolls, rules: Rules, system: str) -> list[str]:
    """The skills, abilities and saves a selector names, each as `system` reads it, by name."""
    names: list[str] = []
    for skill in sel.skills:
        for sid in sorted(skills_in(rules, system, skill)):
            entry = rules.skills.get(sid)
            if entry is not None and entry.system == system:
                names.append(name(entry.name))
    for ability in sel.abilities:
        if ability in rules.abilities:
            names.append(name(rules.abilities[ability].name))
    for save in sel.saves:
        key = saves_in(rules, system, save)
        found: Any = rules.saves.get(key) or rules.abilities.get(key)
        if found is not None:
            names.append(name(found.name))
    return list(dict.fromkeys(names))


def first_aid_words(rules: Rules, system: str | None) -> str:
    """LOC-6 (a)'s first aid, named with the system's skill: "first aid (Heal) DC 15" in Pathfinder / 3.5,
    "first aid (Medicine) DC 15" in 5e; "Premiers secours DD 15" where the skill is itself named first aid."""
    skill = next(iter(sorted(skills_in(rules, system or NATIVE, "heal"))), "heal")
    entry = rules.skills.get(skill)
    said = name(entry.name) if entry is not None else skill
    if said.casefold() == _("first aid").casefold():  # (French: the Heal skill is « Premiers secours »)
        return _("First aid DC {dc}", dc=FIRST_AID_DC)
    return _("first aid ({skill}) DC {dc}", skill=said, dc=FIRST_AID_DC)
