"""One reading of a roll's bonus for every screen: the sheet's value plus what the effects add, with its parts
("sheet +4, Sickened -2"), as the prompt of a pending save says it (domain/engine/saves.py: the sheet's value and
the roll query's total). The roll query (domain/engine/roll_query.py) answers for the effects alone; here the sheet
joins it: a save's value (or its ability's modifier), an ability check's modifier, a skill's value (or its
ability's modifier), initiative's Dexterity modifier. An attack or a damage roll has no number on the sheet: its
bonus is the effects' alone, said on top of the attack bonus the player knows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..message import N_
from .locale import _

if TYPE_CHECKING:
    from ..content.rules import Rules

# The rolls a player makes most, as the player's page names them (api/player_view.py) and `mods` reads them back
# (wounds.roll_context: "Strength check", « Attaque (main gauche) »); the saves of the campaign's system join them.
COMMON_ROLLS: dict[str, tuple[str, dict[str, Any]]] = {
    "attack_left": (N_("Attack (left hand)"), {"kind": "attack", "hand": "left"}),
    "attack_right": (N_("Attack (right hand)"), {"kind": "attack", "hand": "right"}),
    "attack_ranged": (N_("Ranged attack"), {"kind": "attack", "range": "ranged"}),
    "perception": (N_("Perception"), {"kind": "skill", "skill": "perception"}),
    "check_dex": (N_("Dexterity check"), {"kind": "check", "ability": "dex"}),
    "check_str": (N_("Strength check"), {"kind": "check", "ability": "str"}),
    "initiative": (N_("Initiative"), {"kind": "initiative"}),
}
ABILITY_CHECK = N_("{ability} check")  # any ability's check, as typed: "Wisdom check", « test de Sagesse »


def sheet_value(character: Any, rules: Rules, system: str, roll: dict[str, Any]) -> int | None:
    """The sheet's number for a roll (the roll query's `roll` document), or None when the sheet holds none."""
    from ..domain.engine.saves import sheet_bonus

    modifiers = dict(character.abilities_mod())
    if roll.get("kind") == "save" and roll.get("save"):
        return sheet_bonus(character, rules, system, roll["save"])
    if roll.get("kind") == "skill" and roll.get("skill"):
        skills: dict[str, int] = dict(character.skills)
        skill = rules.skills.get(roll["skill"])
        if roll["skill"] in skills:
            return skills[roll["skill"]]
        ability = roll.get("ability") or (skill.ability if skill is not None else None)
        return modifiers.get(ability) if ability else None
    if roll.get("kind") == "check" and roll.get("ability"):
        return modifiers.get(roll["ability"])
    if roll.get("kind") == "initiative":
        return modifiers.get("dex")
    return None


def applies(doc: dict[str, Any]) -> bool:
    """Whether anything but the sheet bears on the roll (a modifier, advantage, automatic failure, a line that
    depends on the roll's details, a restriction): a roll nothing touches is not worth a row of +0."""
    return any(doc.get(key) for key in ("modifiers", "advantage", "disadvantage", "auto_fails", "conditional",
                                        "restrictions", "triggers"))


def parts(doc: dict[str, Any], sheet: int | None) -> str:
    """What makes the bonus, in a line: "sheet +4, Sickened -2" (the prompt's words), advantage and the rest after."""
    said = [_("sheet {bonus}", bonus=f"{sheet:+d}")] if sheet is not None else []
    said += [f"{line['source']['name']} {line['value']:+d}" for line in doc.get("modifiers") or ()
             if line.get("stacks", True) and line.get("value") is not None]
    for key, words in (("advantage", N_("{source}: advantage")), ("disadvantage", N_("{source}: disadvantage")),
                       ("auto_fails", N_("{source}: automatic failure"))):
        said += [_(words, source=line["source"]["name"]) for line in doc.get(key) or ()]
    return ", ".join(said)


def with_sheet(doc: dict[str, Any], character: Any, rules: Rules, system: str) -> dict[str, Any]:
    """The roll query's document (roll_answer.answer_doc) with the sheet: `sheet` (None: the sheet holds no number
    for this roll), `bonus` (sheet + the effects' `modifier`, None without a sheet's number), `parts` in words,
    `applies` (anything but the sheet)."""
    sheet = sheet_value(character, rules, system, doc["roll"])
    return {**doc, "sheet": sheet, "bonus": None if sheet is None else sheet + doc["modifier"],
            "parts": parts(doc, sheet), "applies": applies(doc)}
