"""Character sheets from other tools: Foundry VTT actor exports (dnd5e and pf1 systems) and a plain
party file (YAML or CSV). Each file becomes a list of `Entry` (a name, a sheet as `character add`
takes it, external references); nothing is written here. A file that is not one of these formats,
or that is malformed, raises one UsageError naming the file and what is wrong.

The fields read from each format are listed in docs/integrations.md ("Import"); the keys other
tools use for skills, saves and tools are data (sheet_formats.yaml).
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from ..errors import UsageError
from ..message import N_, Listed, Message, msg
from ..numbers import parse_int

ABILITIES = ("str", "dex", "con", "int", "wis", "cha")
MAX_FILE = 2_000_000  # bytes: an actor export with its items is far smaller
MAX_NUMBER = 10_000  # any number read from a sheet: the API's bound on hit points (the rules check the rest)
MAX_LEVELS = 40  # class levels of one character: as many as the API's hit dice
MAX_NODES = 200_000  # values in a file, every YAML alias counted each time it is used
MAX_DEPTH = 64  # nesting of a file's mappings and lists


@dataclass
class Entry:
    name: str
    sheet: dict[str, Any] = field(default_factory=dict)
    external: list[str] = field(default_factory=list)
    source: str = ""  # the file it came from


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


def read_files(paths: list[str | Path]) -> list[Entry]:
    out: list[Entry] = []
    for path in paths:
        try:
            raw = Path(path).read_bytes()
        except OSError as exc:
            raise UsageError(msg("cannot read it ({reason})", reason=exc.strerror or str(exc)), str(path)) from None
        out += parse(Path(path).name, raw)
    return out


def parse(filename: str, raw: bytes | str) -> list[Entry]:
    """The characters of one file (Foundry actor JSON, party YAML/JSON or party CSV), by content and name."""
    if len(raw) > MAX_FILE:
        raise UsageError(msg("the file is larger than {MAX_FILE} MB: not a character sheet",
                             MAX_FILE=MAX_FILE // 1_000_000), filename)
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise UsageError(msg("not a text file (UTF-8)"), filename) from None
    try:
        if filename.lower().endswith(".csv"):
            entries = _party(_csv_rows(text), filename)
        else:
            doc = _load(text, filename)
            _check_size(doc)
            entries = _structured(doc, filename)
    except UsageError as exc:
        raise UsageError(exc.text, exc.where or filename) from None
    except (KeyError, TypeError, ValueError, AttributeError, ArithmeticError) as exc:
        raise UsageError(msg("malformed sheet ({kind}: {problem})", kind=type(exc).__name__, problem=str(exc)),
                         filename) from None
    except RecursionError:
        raise UsageError(msg("the file nests values more than {MAX_DEPTH} deep", MAX_DEPTH=MAX_DEPTH), filename) \
            from None
    for entry in entries:
        entry.source = filename
    return entries


def _load(text: str, filename: str) -> Any:
    if filename.lower().endswith(".json"):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise UsageError(msg("invalid JSON at line {line} ({problem})", line=exc.lineno, problem=exc.msg),
                             filename) from None
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        said = msg("invalid YAML at line {line}", line=mark.line + 1) if mark else msg("invalid YAML")
        raise UsageError(said, filename) from None


def _check_size(doc: Any) -> None:
    """A file's values, aliases expanded, are few and shallow: a 1 KB YAML file of nested aliases once stood
    for a 25 MB text (`&a [*b, *b, ...]`). Each use of an alias counts as the values it stands for."""
    stack, seen, chars = [(doc, 1)], 0, 0
    while stack:
        value, depth = stack.pop()
        seen += 1
        if depth > MAX_DEPTH:
            raise UsageError(msg("the file nests values more than {MAX_DEPTH} deep", MAX_DEPTH=MAX_DEPTH))
        if isinstance(value, str):
            chars += len(value)
        elif isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
            seen += len(value)
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
        if seen > MAX_NODES or chars > MAX_FILE:
            raise UsageError(msg("the file stands for more than it holds (YAML aliases expanded): not a character "
                                 "sheet"))


def _structured(doc: Any, filename: str) -> list[Entry]:
    if isinstance(doc, dict) and isinstance(doc.get("characters"), list):
        return _party(doc["characters"], filename)
    if isinstance(doc, dict) and doc.get("type") in ("character", "npc") and isinstance(doc.get("items", []), list) \
            and isinstance(doc.get("system", doc.get("data")), dict):
        system = _foundry_system(doc)
        return [_foundry_dnd5e(doc) if system == "dnd5e" else _foundry_pf1(doc)]
    raise UsageError(msg("not a Foundry VTT actor export (dnd5e or pf1) nor a party file (a `characters:` list)"),
                     filename)


# ------------------------------------------------------------------ Foundry VTT


def _foundry_system(doc: dict[str, Any]) -> str:
    declared = ((doc.get("_stats") or {}).get("systemId") or (doc.get("flags") or {}).get("exportSource", {})
                .get("system") or "")
    if declared in ("dnd5e", "pf1"):
        return declared
    attributes = _data(doc).get("attributes", {})
    if "savingThrows" in attributes or any(i.get("type") == "class" and "hd" in _data(i) for i in doc.get("items", [])):
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


def _int(value: Any, what: str | Message, low: int = -MAX_NUMBER, high: int = MAX_NUMBER,
         index: int | None = None) -> int:
    """A whole number of a sheet, within [low, high] (every number read from a file is bounded); `index`: the
    party file's character it belongs to."""
    said = {"what": what, "index": index, "low": low, "high": high, "value": _shown(value)}
    if isinstance(value, bool) or value is None:
        raise UsageError(Message(N_("character {index}: {what} is missing or not a number") if index else
                                 N_("{what} is missing or not a number"), said))
    number: int | None = None
    if isinstance(value, str):
        number = parse_int(value, signed=True)
    elif isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        number = int(value)
    if number is None:
        raise UsageError(Message(N_("character {index}: {what} is not a whole number ({value})") if index else
                                 N_("{what} is not a whole number ({value})"), said))
    if not low <= number <= high:
        raise UsageError(Message(N_("character {index}: {what} is out of range ({low} to {high}): {value}") if index
                                 else N_("{what} is out of range ({low} to {high}): {value}"), said))
    return number


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


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
        sheet["hit_die"] = _die(_data(main).get("hitDice", "d8"))
        used = sum(_int(_data(c).get("hitDiceUsed", 0) or 0, "hitDiceUsed") for c in classes)
        sheet["hit_dice_max"], sheet["hit_dice"] = levels, max(0, levels - used)
    hp = (data.get("attributes") or {}).get("hp") or {}
    max_hp = hp.get("max")
    sheet["max_hp"] = _int(max_hp, "attributes.hp.max") if max_hp not in (None, "") else \
        _dnd5e_max_hp(classes, data, abilities)
    if hp.get("value") not in (None, ""):
        sheet["hp"] = min(_int(hp["value"], "attributes.hp.value"), sheet["max_hp"])
    _speed(sheet, (data.get("attributes") or {}).get("movement") or {}, "walk", "attributes.movement.walk")
    return Entry(_name(doc), sheet, _external(doc))


def _speed(sheet: dict[str, Any], where: dict[str, Any], key: str, path: str) -> None:  # base walking speed, feet
    if isinstance(where, dict) and where.get(key) not in (None, ""):  # a sheet in metres: 1.5 m is 5 ft
        sheet["speed"] = _int(round(float(where[key]) / 0.3) if where.get("units") == "m" else where[key], path)


def _die(text: Any) -> int:
    value = parse_int(str(text).lower().lstrip("d")[:20], 1, 100)
    if value is None:
        raise UsageError(msg("hit dice {dice} is not a die like d8", dice=_shown(text)))
    return value


def _dnd5e_max_hp(classes: list[dict[str, Any]], data: dict[str, Any], abilities: dict[str, int]) -> int:
    """The dnd5e system's own derivation when `max` is empty: each class level's hit points (the class's
    HitPoints advancement: "max", "avg" or the rolled value; without it, the first level of the first
    class at the die's maximum and the others at its average), plus the Con modifier per level."""
    if not classes:
        raise UsageError(msg("attributes.hp.max is empty and the actor has no class to derive it from"))
    original = (data.get("details") or {}).get("originalClass")
    total, levels = 0, 0
    for index, (cls, count) in enumerate(zip(classes, _levels(classes, "levels"))):
        cdata = _data(cls)
        die = _die(cdata.get("hitDice", "d8"))
        first_class = cls.get("_id") == original if original else index == 0
        advancement = next((a for a in cdata.get("advancement", []) or []
                            if isinstance(a, dict) and a.get("type") == "HitPoints"), None)
        values = (advancement or {}).get("value") or {}
        for level in range(1, count + 1):
            chosen = values.get(str(level))
            if chosen == "max" or (chosen is None and level == 1 and first_class):
                total += die
            elif isinstance(chosen, (int, float)) and not isinstance(chosen, bool):
                total += _int(chosen, msg("hit points of level {level}", level=level), 0, die)
            else:
                total += die // 2 + 1
        levels += count
    return max(1, total + _mod(abilities["con"]) * levels)


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
    if hp.get("max") not in (None, ""):
        sheet["max_hp"] = _int(hp["max"], "attributes.hp.max")
    elif classes:
        levels = sum(_levels(classes, "level"))
        rolled = sum(_int(_data(c).get("hp", 0) or 0, "hp") for c in classes)
        sheet["max_hp"] = max(1, rolled + _mod(abilities["con"]) * levels)
    else:
        raise UsageError(msg("attributes.hp.max is empty and the actor has no class to derive it from"))
    if hp.get("value") not in (None, ""):
        sheet["hp"] = min(_int(hp["value"], "attributes.hp.value"), sheet["max_hp"])
    if classes:
        counts = _levels(classes, "level")
        main = classes[counts.index(max(counts))]
        sheet["hit_die"] = _int(_data(main).get("hd", 8), "hd")
    _speed(sheet, ((data.get("attributes") or {}).get("speed") or {}).get("land") or {}, "base",
           "attributes.speed.land.base")
    return Entry(_name(doc), sheet, _external(doc))


# ------------------------------------------------------------------ party files

PARTY_FIELDS = ("name", "max_hp", "hp", "npc", "abilities", "saves", "skills", "proficiencies", "hit_die",
                "hit_dice", "body", "notes", "external", "speed")


def _csv_rows(text: str) -> list[dict[str, Any]]:
    reader = csv.DictReader(io.StringIO(text))
    if not reader.fieldnames or "name" not in [f.strip() for f in reader.fieldnames]:
        raise UsageError(msg("a party CSV starts with a header line naming its columns, `name` among them"))
    rows = []
    for line, row in enumerate(reader, start=2):
        out: dict[str, Any] = {}
        for key, value in row.items():
            key, value = (key or "").strip(), (value or "").strip()
            if not value:
                continue
            if key in ABILITIES:
                out.setdefault("abilities", {})[key] = value
            elif key in ("saves", "skills", "body"):
                out[key] = dict(_pair(p, line, key) for p in value.split(",") if p.strip())
            elif key in ("proficiencies", "external"):
                out[key] = [p.strip() for p in value.replace(";", ",").split(",") if p.strip()]
            elif key == "npc":
                out[key] = value.lower() in ("1", "yes", "true", "npc", "oui")
            else:
                out[key] = value
        rows.append(out)
    return rows


def _pair(text: str, line: int, column: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep:
        raise UsageError(msg("line {line}, {column}: expected NAME=NUMBER pairs like con=5,wis=3, got {got}", line=line,
                             column=column, got=repr(text.strip())))
    return key.strip().lower(), value.strip()


def _party(rows: list[Any], filename: str) -> list[Entry]:
    out = []
    for index, row in enumerate(rows, start=1):
        if not isinstance(row, dict):
            raise UsageError(msg("character {index}: expected a mapping of sheet fields", index=index))
        unknown = sorted(set(row) - set(PARTY_FIELDS))
        if unknown:
            raise UsageError(msg("character {index}: unknown field {field} (fields: {fields})", index=index,
                                 field=repr(unknown[0]), fields=Listed(PARTY_FIELDS, "")))
        name = row.get("name")
        if not isinstance(name, str) or not name.strip():
            raise UsageError(msg("character {index}: a character needs a name", index=index))
        sheet: dict[str, Any] = {}
        for key in ("max_hp", "hp", "hit_dice", "speed"):
            if row.get(key) not in (None, ""):
                sheet[key] = _int(row[key], key, index=index)
        if row.get("hit_die") not in (None, ""):
            sheet["hit_die"] = _die(row["hit_die"])
        for key in ("abilities", "saves", "skills", "body"):
            if row.get(key) is not None:
                if not isinstance(row[key], dict):
                    raise UsageError(msg("character {index}: {key} is a mapping like {{con: 5}}", index=index, key=key))
                sheet[key] = {str(k).lower(): _int(v, f"{key}.{k}", index=index) for k, v in row[key].items()}
        for key in ("proficiencies", "external"):
            if row.get(key) is not None:
                if not isinstance(row[key], list):
                    raise UsageError(msg("character {index}: {key} is a list", index=index, key=key))
                sheet[key] = [str(p) for p in row[key]]
        if row.get("npc") is not None:
            sheet["npc"] = bool(row["npc"])
        if row.get("notes") is not None:
            sheet["notes"] = str(row["notes"])
        out.append(Entry(name.strip(), sheet, sheet.pop("external", [])))
    if not out:
        raise UsageError(msg("the party file lists no character"))
    return out
