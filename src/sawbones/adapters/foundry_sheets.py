"""Foundry VTT actor exports (dnd5e and pf1 systems) as `Entry`: the fields docs/integrations.md ("Import")
lists, derived as the systems derive them when the export holds only their source (dnd5e 5.x: a null
`hp.max`, the class's `hd`; pf1: the HP `offset`), and taken as they are when the Foundry module sent the
live actor's derived HP with it (`flags.sawbones.live.hp`). The keys other tools use for skills, saves and
tools are data (sheet_formats.yaml)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from ..errors import UsageError
from ..message import msg
from ..numbers import parse_int
from .sheet_values import Entry
from .sheet_values import die as _die
from .sheet_values import number as _int
from .sheet_values import shown as _shown

ABILITIES = ("str", "dex", "con", "int", "wis", "cha")
MAX_LEVELS = 40  # class levels of one character: as many as the API's hit dice


class _Dnd5e(BaseModel):
    model_config = ConfigDict(extra="forbid")
    skills: dict[str, tuple[str, str]]
    tools: dict[str, str]
    tool_names: dict[str, str]


class _Pf1(BaseModel):
    model_config = ConfigDict(extra="forbid")
    skills: dict[str, tuple[str, str]]
    saves: dict[str, tuple[str, str]]


class Formats(BaseModel):
    model_config = ConfigDict(extra="forbid")
    foundry_dnd5e: _Dnd5e
    foundry_pf1: _Pf1


@lru_cache(maxsize=1)
def formats() -> Formats:
    import yaml

    return Formats.model_validate(yaml.safe_load((Path(__file__).parent / "sheet_formats.yaml").read_text("utf-8")))


def system_of(doc: dict[str, Any]) -> str:
    declared = ((doc.get("_stats") or {}).get("systemId") or (doc.get("flags") or {}).get("exportSource", {})
                .get("system") or "")
    if declared in ("dnd5e", "pf1"):
        return declared
    attributes = _data(doc).get("attributes", {})
    # pf1's class holds its hit die as a number (hd: 10); a dnd5e 5.x class as a mapping (hd.denomination)
    if "savingThrows" in attributes or any(i.get("type") == "class" and isinstance(_data(i).get("hd"), (int, float, str))
                                           for i in doc.get("items", []) if isinstance(i, dict)):
        return "pf1"
    if isinstance(_data(doc).get("abilities", {}).get("str"), dict):
        return "dnd5e"
    if not declared:
        raise UsageError(msg("an actor of the unknown system: only dnd5e and pf1 actors are read"))
    raise UsageError(msg("an actor of the {declared} system: only dnd5e and pf1 actors are read", declared=declared))


def _data(doc: dict[str, Any]) -> dict[str, Any]:
    """`system` (Foundry v10 and later) or `data` (earlier exports)."""
    value = doc.get("system", doc.get("data"))
    return value if isinstance(value, dict) else {}


def _rank(value: Any) -> float:
    """A proficiency multiplier (0, 0.5, 1, 2): any other number counts as none."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 2:
        return float(value)
    if isinstance(value, str) and value.strip() in ("0.5", "1", "2"):
        return float(value)
    return 0.0


def _levels(classes: list[dict[str, Any]], key: str) -> list[int]:
    """Each class's levels (`levels` in dnd5e, `level` in pf1): together at most MAX_LEVELS."""
    counts = [_int(_data(c).get(key, 1), f"class {_shown(c.get('name'))} {key}", 0, MAX_LEVELS) for c in classes]
    if sum(counts) > MAX_LEVELS:
        raise UsageError(msg("the classes add up to {n} levels (at most {MAX_LEVELS})", n=sum(counts),
                             MAX_LEVELS=MAX_LEVELS))
    return counts


def _abilities(data: dict[str, Any]) -> dict[str, int]:
    raw = data.get("abilities") or {}
    return {a: _int((raw.get(a) or {}).get("value", 10), f"abilities.{a}.value") for a in ABILITIES}


def _mod(score: int) -> int:
    return (score - 10) // 2


def _external(doc: dict[str, Any]) -> list[str]:
    uuid = doc.get("uuid") or (f"Actor.{doc['_id']}" if isinstance(doc.get("_id"), str) and doc["_id"] else None)
    return [f"foundry:{uuid}"] if uuid else []


def _name(doc: dict[str, Any]) -> str:
    name = doc.get("name")
    if not isinstance(name, str) or not name.strip():
        raise UsageError(msg("the actor has no name"))
    return name.strip()


def _foundry_dnd5e(doc: dict[str, Any]) -> Entry:
    data, fmt = _data(doc), formats().foundry_dnd5e
    abilities = _abilities(data)
    classes = [i for i in doc.get("items", []) if isinstance(i, dict) and i.get("type") == "class"]
    levels = sum(_levels(classes, "levels"))
    prof = 2 + (max(levels, 1) - 1) // 4
    sheet: dict[str, Any] = {"abilities": abilities, "npc": doc.get("type") == "npc"}
    sheet["saves"] = {a: _mod(abilities[a]) + (prof if (data.get("abilities", {}).get(a) or {}).get("proficient")
                                               else 0) for a in ABILITIES}
    skills, proficiencies = {}, []
    for key, value in (data.get("skills") or {}).items():
        if key not in fmt.skills or not isinstance(value, dict):
            continue
        skill, ability = fmt.skills[key]
        rank = _rank(value.get("value") or 0)
        skills[skill] = _mod(abilities[value.get("ability") or ability]) + int(rank * prof)
        if rank >= 1:
            proficiencies.append(skill)
    for key, value in (data.get("tools") or {}).items():
        if key in fmt.tools and isinstance(value, dict) and _rank(value.get("value") or 0) >= 1:
            proficiencies.append(fmt.tools[key])
    for item in doc.get("items", []):
        if isinstance(item, dict) and item.get("type") == "tool" and _rank(_data(item).get("proficient") or 0) >= 1:
            tool = fmt.tools.get(_data(item).get("baseItem") or "") or fmt.tool_names.get(item.get("name", ""))
            if tool:
                proficiencies.append(tool)
    sheet["skills"], sheet["proficiencies"] = skills, list(dict.fromkeys(proficiencies))
    if classes:
        counts = _levels(classes, "levels")
        main = classes[counts.index(max(counts))]
        sheet["hit_die"] = _die(_class_die(main))
        used = sum(_int(_class_spent(c), "hd.spent") for c in classes)
        sheet["hit_dice_max"], sheet["hit_dice"] = levels, max(0, levels - used)
    hp = (data.get("attributes") or {}).get("hp") or {}
    max_hp = hp.get("max")
    if not _live_hp(doc, sheet):
        sheet["max_hp"] = _int(max_hp, "attributes.hp.max") if max_hp not in (None, "") else \
            _dnd5e_max_hp(classes, data, abilities)
        if hp.get("value") not in (None, ""):
            sheet["hp"] = min(_int(hp["value"], "attributes.hp.value"), sheet["max_hp"])
    _speed(sheet, (data.get("attributes") or {}).get("movement") or {}, "walk", "attributes.movement.walk")
    return Entry(_name(doc), sheet, _external(doc))


def _speed(sheet: dict[str, Any], where: dict[str, Any], key: str, path: str) -> None:  # base walking speed, feet
    if isinstance(where, dict) and where.get(key) not in (None, ""):  # a sheet in metres: 1.5 m is 5 ft
        sheet["speed"] = _int(round(float(where[key]) / 0.3) if where.get("units") == "m" else where[key], path)


def _live_hp(doc: dict[str, Any], sheet: dict[str, Any]) -> bool:
    """The HP the system derived on the live actor, sent by the Foundry module with the export
    (flags.sawbones.live.hp), taken as they are (True); the importer derives them only without these."""
    live = (((doc.get("flags") or {}).get("sawbones") or {}).get("live") or {}).get("hp")
    if not isinstance(live, dict) or live.get("max") in (None, ""):
        return False
    sheet["max_hp"] = _int(live["max"], "flags.sawbones.live.hp.max", 1)
    if live.get("value") not in (None, ""):
        sheet["hp"] = min(_int(live["value"], "flags.sawbones.live.hp.value"), sheet["max_hp"])
    return True


def _class_die(cls: dict[str, Any]) -> Any:
    """A dnd5e class's hit die: `hd.denomination` since dnd5e 4 (ClassData migrates the older `hitDice`);
    the field's initial value, d6, when neither is there."""
    hd = _data(cls).get("hd")
    if isinstance(hd, dict) and hd.get("denomination"):
        return hd["denomination"]
    return _data(cls).get("hitDice") or "d6"


def _class_spent(cls: dict[str, Any]) -> Any:
    """A dnd5e class's hit dice spent: `hd.spent`, formerly `hitDiceUsed`."""
    hd = _data(cls).get("hd")
    if isinstance(hd, dict) and hd.get("spent") is not None:
        return hd["spent"] or 0
    return _data(cls).get("hitDiceUsed", 0) or 0


def _dnd5e_max_hp(classes: list[dict[str, Any]], data: dict[str, Any], abilities: dict[str, int]) -> int:
    """The dnd5e system's own derivation when `max` is empty (null in a 5.x world): each class level's hit
    points (the class's HitPoints advancement: "max", "avg" or the rolled value; without it, the first
    level of the first class at the die's maximum and the others at its average) plus the Con modifier,
    at least 1 a level, then `hp.bonuses.level` times the level and `hp.bonuses.overall`."""
    if not classes:
        raise UsageError(msg("attributes.hp.max is empty and the actor has no class to derive it from"))
    original = (data.get("details") or {}).get("originalClass")
    con = _mod(abilities["con"])
    total, levels = 0, 0
    for index, (cls, count) in enumerate(zip(classes, _levels(classes, "levels"))):
        cdata = _data(cls)
        die = _die(_class_die(cls))
        first_class = cls.get("_id") == original if original else index == 0
        advancement = next((a for a in cdata.get("advancement", []) or []
                            if isinstance(a, dict) and a.get("type") == "HitPoints"), None)
        values = (advancement or {}).get("value") or {}
        for level in range(1, count + 1):
            chosen = values.get(str(level))
            if chosen == "max" or (chosen is None and level == 1 and first_class):
                rolled = die
            elif isinstance(chosen, (int, float)) and not isinstance(chosen, bool):
                rolled = _int(chosen, msg("hit points of level {level}", level=level), 0, die)
            else:
                rolled = die // 2 + 1
            total += max(1, rolled + con)
        levels += count
    bonuses = ((data.get("attributes") or {}).get("hp") or {}).get("bonuses") or {}
    roll_data = _dnd5e_roll_data(classes, levels, abilities)
    total += _bonus(bonuses.get("level"), roll_data, "attributes.hp.bonuses.level") * levels
    total += _bonus(bonuses.get("overall"), roll_data, "attributes.hp.bonuses.overall")
    return max(1, total)


def _dnd5e_roll_data(classes: list[dict[str, Any]], levels: int, abilities: dict[str, int]) -> dict[str, int]:
    """The few values of dnd5e's roll data an HP bonus formula names (@classes.<id>.levels, @details.level,
    @abilities.<a>.mod)."""
    data = {"details.level": levels, **{f"abilities.{a}.mod": _mod(v) for a, v in abilities.items()}}
    for cls, count in zip(classes, _levels(classes, "levels")):
        identifier = _data(cls).get("identifier") or str(cls.get("name") or "").strip().lower().replace(" ", "-")
        data[f"classes.{identifier}.levels"] = count
    return data


_TERM = re.compile(r"([+-]?)(@[\w.-]+|\d+)")
_FORMULA = re.compile(r"[+-]?(?:@[\w.-]+|\d+)(?:[+-](?:@[\w.-]+|\d+))*")


def _bonus(formula: Any, roll_data: dict[str, int], what: str) -> int:
    """A bonus formula of whole numbers and @references added and subtracted ("2", "@classes.sorcerer.levels",
    "1 + @abilities.con.mod"); empty is 0."""
    if isinstance(formula, (int, float)) and not isinstance(formula, bool):
        return _int(formula, what)
    text = str(formula or "").replace(" ", "")
    if not text:
        return 0
    total = 0
    for sign, term in _TERM.findall(text) if _FORMULA.fullmatch(text) else [("", "?")]:
        value = roll_data.get(term[1:]) if term.startswith("@") else parse_int(term)
        if value is None:
            raise UsageError(msg("{what} is a formula the importer cannot work out ({formula}): set the maximum HP on "
                                 "the sheet, or link the actor from Foundry", what=what, formula=_shown(formula)))
        total += -value if sign == "-" else value
    return _int(total, what)


def _foundry_pf1(doc: dict[str, Any]) -> Entry:
    data, fmt = _data(doc), formats().foundry_pf1
    abilities = _abilities(data)
    classes = [i for i in doc.get("items", []) if isinstance(i, dict) and i.get("type") == "class"]
    sheet: dict[str, Any] = {"abilities": abilities, "npc": doc.get("type") == "npc"}
    saves = {}
    thrown = (data.get("attributes") or {}).get("savingThrows") or {}
    for key, (save, ability) in fmt.saves.items():
        given = (thrown.get(key) or {}).get("total")
        if given not in (None, ""):
            saves[save] = _int(given, f"attributes.savingThrows.{key}.total")
            continue
        base = 0
        for cls, level in zip(classes, _levels(classes, "level")):
            good = ((_data(cls).get("savingThrows") or {}).get(key) or {}).get("value") == "high"
            base += 2 + level // 2 if good else level // 3
        saves[save] = base + _int((thrown.get(key) or {}).get("base", 0) or 0, "base") + _mod(abilities[ability])
    sheet["saves"] = saves
    skills = {}
    for key, (skill, ability) in fmt.skills.items():
        raw = (data.get("skills") or {}).get(key) or {}
        rank = _int(raw.get("rank", 0) or 0, f"skills.{key}.rank")
        trained_class_skill = 3 if rank > 0 and any(
            ((_data(c).get("classSkills") or {}).get(key)) for c in classes) else 0
        skills[skill] = rank + _mod(abilities[raw.get("ability") or ability]) + trained_class_skill
    sheet["skills"] = skills
    hp = (data.get("attributes") or {}).get("hp") or {}
    if not _live_hp(doc, sheet):
        _pf1_hp(doc, hp, classes, abilities, sheet)
    if classes:
        counts = _levels(classes, "level")
        main = classes[counts.index(max(counts))]
        sheet["hit_die"] = _int(_data(main).get("hd", 8), "hd")
    _speed(sheet, ((data.get("attributes") or {}).get("speed") or {}).get("land") or {}, "base",
           "attributes.speed.land.base")
    return Entry(_name(doc), sheet, _external(doc))


def _pf1_hp(doc: dict[str, Any], hp: dict[str, Any], classes: list[dict[str, Any]], abilities: dict[str, int],
            sheet: dict[str, Any]) -> None:
    if hp.get("max") not in (None, ""):
        sheet["max_hp"] = _int(hp["max"], "attributes.hp.max")
    elif classes:
        sheet["max_hp"] = _pf1_max_hp(doc, classes, abilities)
    else:
        raise UsageError(msg("attributes.hp.max is empty and the actor has no class to derive it from"))
    if hp.get("value") not in (None, ""):
        sheet["hp"] = min(_int(hp["value"], "attributes.hp.value"), sheet["max_hp"])
    elif hp.get("offset") not in (None, ""):  # pf1 keeps the damage taken as an offset from the maximum
        sheet["hp"] = min(sheet["max_hp"] + _int(hp["offset"], "attributes.hp.offset"), sheet["max_hp"])


def _pf1_max_hp(doc: dict[str, Any], classes: list[dict[str, Any]], abilities: dict[str, int]) -> int:
    """pf1's maximum HP: each class's hit points, its favoured-class hit points (base and prestige classes),
    the Con modifier per level, and the items' changes to `mhp` that are plain numbers (a formula such as
    Toughness' is left out: the Foundry module sends the live maximum instead)."""
    levels = _levels(classes, "level")
    total = _mod(abilities["con"]) * sum(levels)
    for cls in classes:
        cdata = _data(cls)
        total += _int(cdata.get("hp", 0) or 0, "hp")
        if cdata.get("subType") in (None, "", "base", "prestige"):
            total += _int((((cdata.get("fc") or {}).get("hp") or {}).get("value") or 0), "fc.hp.value")
    for item in doc.get("items", []):
        if not isinstance(item, dict) or item.get("type") == "class":
            continue
        for change in _data(item).get("changes") or []:
            if isinstance(change, dict) and change.get("target") == "mhp":
                amount = parse_int(str(change.get("formula", "")).strip(), signed=True)
                total += _int(amount, "changes.formula") if amount is not None else 0
    return max(1, total)


def actor_entry(doc: dict[str, Any]) -> Entry:
    """The character of one Foundry actor export (its system told by `_stats.systemId`, or by its fields)."""
    return _foundry_dnd5e(doc) if system_of(doc) == "dnd5e" else _foundry_pf1(doc)
