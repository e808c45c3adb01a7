"""Character sheets from other tools: Foundry VTT actor exports (dnd5e and pf1 systems) and a plain
party file (YAML or CSV). Each file becomes a list of `Entry` (a name, a sheet as `character add`
takes it, external references); nothing is written here. A file that is not one of these formats,
or that is malformed, raises one UsageError naming the file and what is wrong.

The fields read from each format are listed in docs/integrations.md ("Import"); Foundry's actors are read
by foundry_sheets.py.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..message import Listed, msg
from .foundry_sheets import ABILITIES, actor_entry
from .sheet_values import Entry
from .sheet_values import die as _die
from .sheet_values import number as _int

MAX_FILE = 2_000_000  # bytes: an actor export with its items is far smaller
MAX_NODES = 200_000  # values in a file, every YAML alias counted each time it is used
MAX_DEPTH = 64  # nesting of a file's mappings and lists


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
        return [actor_entry(doc)]
    raise UsageError(msg("not a Foundry VTT actor export (dnd5e or pf1) nor a party file (a `characters:` list)"),
                     filename)


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
