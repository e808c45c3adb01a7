"""Export a campaign to one JSON document and import it back, losslessly, into any backend; backups.

The document holds the log exactly as stored: every event's version, action, type, data, schema
version, content version and timestamp. Nothing is upcast or re-folded on the way out, so an export
of an import is the same document (bar `exported_at`), whatever the two backends were.

    {"format": "sawbones-campaign", "format_version": 1, "campaign": "Old Road",
     "exported_at": "2025-01-01T12:00:00+00:00", "sawbones_version": "0.1.0",
     "events": [{"version": 1, "action": 1, "type": "campaign_created", "data": {...},
                 "schema_version": 1, "content_version": "ab12...", "created_at": 1735732800.123}, ...]}
"""

from __future__ import annotations

import datetime as dt
import errno as _errno
import json
import math
import os
import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any, Callable, Sequence

from ..domain.engine.names import check_name
from ..errors import SawbonesError, StoreError, UsageError
from ..message import Listed, Message, msg
from .faults import space_problem
from .records import check_sequence
from .store import CREATED, EventStore, StoredEvent
from .upcast import upcast

FORMAT = "sawbones-campaign"
FORMAT_VERSION = 1
_FIELDS = ("version", "action", "type", "data", "schema_version", "content_version", "created_at")
MAX_NESTING = 64  # JSON depth an export may reach (the deepest event sawbones writes is far shallower)
MAX_NUMBER = 2**31 - 1  # versions, actions and schema versions fit every backend's INTEGER


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("sawbones")
    except PackageNotFoundError:  # pragma: no cover
        return "unknown"


def export_doc(store: EventStore, name: str, upto: int | None = None) -> dict[str, Any]:
    """The campaign's log (up to event `upto`: the intact part of a damaged log) as one document."""
    cid = store.campaign_id(name)
    events = store.events(cid, upcast=False, upto=upto)
    return {
        "format": FORMAT, "format_version": FORMAT_VERSION, "campaign": name,
        "exported_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "sawbones_version": _version(),
        "events": [{f: getattr(e, f) for f in _FIELDS} for e in events],
    }


def read_doc(path: str | Path) -> dict[str, Any]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(msg("cannot read {path}: {reason}", path=str(path), reason=exc.strerror or str(exc))) from None
    except UnicodeDecodeError as exc:
        raise UsageError(msg("not a sawbones export: not UTF-8 text (byte {byte})", byte=exc.start), str(path)) from None
    return loads_doc(text, str(path))


def loads_doc(text: str, where: str = "") -> Any:
    """JSON text of an export, nested at most MAX_NESTING deep; UsageError (one line) otherwise."""
    try:
        doc = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except json.JSONDecodeError as exc:
        raise UsageError(msg("not a sawbones export: invalid JSON at line {line} ({problem})", line=exc.lineno,
                             problem=exc.msg), where) from None
    except RecursionError:
        raise UsageError(msg("not a sawbones export: JSON nested more than {MAX_NESTING} deep",
                             MAX_NESTING=MAX_NESTING), where) from None
    except ValueError as exc:
        raise UsageError(msg("not a sawbones export: {problem}", problem=getattr(exc, "text", None) or str(exc)),
                         where) from None
    check_nesting(doc, where)
    return doc


class _NotANumber(ValueError):
    """A number JSON does not allow (NaN, Infinity, 1e999): `text` says it for people."""

    def __init__(self, text: Message) -> None:
        super().__init__(str(text))
        self.text = text


def _no_constant(name: str) -> Any:
    raise _NotANumber(msg("{name} is not a number JSON allows", name=name))


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotANumber(msg("{number} is too large a number", number=text[:20]))
    return value


def check_nesting(doc: Any, where: str = "") -> None:
    """UsageError if a JSON value (dicts and lists) is nested more than MAX_NESTING deep."""
    stack = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_NESTING:
            raise UsageError(msg("not a sawbones export: JSON nested more than {MAX_NESTING} deep",
                                 MAX_NESTING=MAX_NESTING), where)
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)


def parse_events(doc: Any, where: str = "") -> list[StoredEvent]:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise UsageError(msg("not a sawbones export (expected \"format\": \"{FORMAT}\")", FORMAT=FORMAT), where)
    if doc.get("format_version") != FORMAT_VERSION:
        raise UsageError(msg("export format version {version} is not supported (this sawbones reads {FORMAT_VERSION})",
                             version=repr(doc.get("format_version")), FORMAT_VERSION=FORMAT_VERSION), where)
    raw = doc.get("events")
    if not isinstance(raw, list) or not raw:
        raise UsageError(msg("the export holds no events"), where)
    check_nesting(doc, where)
    out = []
    for i, item in enumerate(raw):
        if not isinstance(item, dict) or set(_FIELDS) - set(item):
            missing = sorted(set(_FIELDS) - set(item)) if isinstance(item, dict) else list(_FIELDS)
            raise UsageError(msg("events[{i}] lacks {missing}", i=i, missing=Listed(missing, "")), where)
        ok = (_count(item["version"]) and _count(item["action"]) and isinstance(item["type"], str)
              and isinstance(item["data"], dict) and _count(item["schema_version"])
              and isinstance(item["content_version"], str) and isinstance(item["created_at"], (int, float))
              and not isinstance(item["created_at"], bool))
        if not ok:
            raise UsageError(msg("events[{i}] has a field of the wrong type", i=i), where)
        for field in ("version", "action", "schema_version"):
            if not 0 <= item[field] <= MAX_NUMBER:
                raise UsageError(msg("events[{i}].{field} is out of range (0 to {MAX_NUMBER})", i=i, field=field,
                                     MAX_NUMBER=MAX_NUMBER), where)
        if not (math.isfinite(item["created_at"]) and 0 <= item["created_at"] < 1e11):
            raise UsageError(msg("events[{i}].created_at is not a time (seconds since 1970): {value}", i=i,
                                 value=repr(item["created_at"])), where)
        out.append(StoredEvent(item["version"], item["action"], item["type"], item["data"], item["schema_version"],
                               item["content_version"], float(item["created_at"])))
    if out[0].type != CREATED:
        raise UsageError(msg("the first event must be {CREATED}, not {type}", CREATED=CREATED, type=out[0].type), where)
    try:
        check_sequence(out)
    except UsageError as exc:
        raise UsageError(exc.text, where) from None
    return out


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def import_doc(store: EventStore, doc: dict[str, Any], as_name: str | None = None,
               check: Callable[[list[StoredEvent]], Any] | None = None, where: str = "") -> str:
    """Write the exported log as a new campaign (named as_name, or as in the export); its name."""
    events = parse_events(doc, where)
    name = as_name or doc.get("campaign") or events[0].data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise UsageError(msg("the export names no campaign: pass --as NAME"), where)
    try:
        name = check_name(name, "campaign")
        for e in events:  # the characters' names follow the same rule as when typed
            typed = e.data.get("name") if e.type == "character_added" else (e.data.get("changes") or {}).get("name")
            if e.type in ("character_added", "character_edited") and typed is not None:
                check_name(typed, "character")
    except UsageError as exc:
        raise UsageError(exc.text, where) from None
    if as_name and events[0].data.get("name") != as_name:
        # the campaign's own name lives in its first event: an import under another name renames it there
        first = events[0]
        events[0] = StoredEvent(first.version, first.action, first.type, {**first.data, "name": as_name},
                                first.schema_version, first.content_version, first.created_at)
    if check is not None:
        readable = []
        for e in events:
            etype, sv, data = upcast(e.type, e.schema_version, e.data)
            readable.append(StoredEvent(e.version, e.action, etype, data, sv, e.content_version, e.created_at))
        try:
            check(readable)
        except StoreError as exc:  # an event type this sawbones does not know, ...
            raise UsageError(msg("the export does not replay ({message})", message=exc.text), where) from None
        except SawbonesError:
            raise
        except Exception as exc:  # a log that does not fold is not imported
            raise UsageError(msg("the export does not replay ({kind}: {problem})", kind=type(exc).__name__,
                                 problem=str(exc)), where) from None
    if name in store.campaign_names():
        raise UsageError(msg("a campaign named {name} already exists: import it under another name with --as NAME",
                             name=repr(name)), where)
    store.import_campaign(name, events)
    return name


def write_json(doc: dict[str, Any], path: str | Path) -> None:
    """Write atomically: a crash leaves the old file or the new one, never half of one."""
    import tempfile

    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=str(path.parent or "."))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(doc, out, ensure_ascii=False, indent=1)
            out.write("\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def safe_filename(name: str, taken: set[str]) -> str:
    base = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "campaign"
    candidate, n = base, 2
    while candidate.lower() in taken:
        candidate, n = f"{base}_{n}", n + 1
    taken.add(candidate.lower())
    return candidate


def backup(store: EventStore, directory: str | Path) -> dict[str, Any]:
    """Every campaign as its own export file in a new timestamped folder (+ a SQLite copy for SQLite).

    All or nothing: each file is written under a temporary name, checked, then renamed; on any
    failure (a full disk, a file-size limit) the new folder is removed and one line says why."""
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    root = Path(directory)
    target = root / f"sawbones-backup-{stamp}"
    n = 2
    while target.exists():
        target, n = root / f"sawbones-backup-{stamp}-{n}", n + 1
    try:
        target.mkdir(parents=True)
    except OSError as exc:
        raise UsageError(msg("cannot create {target}: {reason}", target=str(target), reason=exc.strerror or str(exc))) \
            from None
    try:
        return _backup_into(store, target)
    except BaseException as exc:
        shutil.rmtree(target, ignore_errors=True)
        if isinstance(exc, (OSError, sqlite3.Error)):
            raise StoreError(_failed_backup(exc, target), str(root)) from None
        raise


def _backup_into(store: EventStore, target: Path) -> dict[str, Any]:
    taken: set[str] = set()
    files: list[dict[str, Any]] = []
    for name in store.campaign_names():
        doc = export_doc(store, name)
        path = target / f"{safe_filename(name, taken)}.json"
        write_json(doc, path)
        files.append({"campaign": name, "file": str(path), "events": len(doc["events"])})
    out: dict[str, Any] = {"directory": str(target), "campaigns": files}
    backup_to = getattr(store, "backup_to", None)
    if backup_to is not None:
        db_copy = target / "sawbones.db"
        partial = target / ".sawbones.db.partial"
        backup_to(partial)
        check = sqlite3.connect(partial)
        try:
            verdict = check.execute("PRAGMA quick_check").fetchone()
        finally:
            check.close()
        if verdict is None or verdict[0] != "ok":
            raise sqlite3.DatabaseError(f"the copy does not check out ({verdict[0] if verdict else 'empty'})")
        os.replace(partial, db_copy)
        out["database_copy"] = str(db_copy)
    return out


def _failed_backup(exc: BaseException, target: Path) -> Message:
    errno_ = getattr(exc, "errno", None)
    why = (space_problem(target.parent) if errno_ in (None, _errno.ENOSPC, _errno.EFBIG) else "") or \
        (getattr(exc, "strerror", None) or str(exc))
    return msg("the backup failed ({why}); nothing was kept of it, the database is untouched", why=why)


def events_equal(a: Sequence[StoredEvent], b: Sequence[StoredEvent]) -> bool:
    return [tuple(getattr(e, f) for f in _FIELDS) for e in a] == [tuple(getattr(e, f) for f in _FIELDS) for e in b]
