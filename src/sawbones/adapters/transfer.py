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
import json
import re
from pathlib import Path
from typing import Any, Callable, Sequence

from ..domain.names import check_name
from ..errors import SawbonesError, UsageError
from .store import CREATED, EventStore, StoredEvent, check_sequence
from .upcast import upcast

FORMAT = "sawbones-campaign"
FORMAT_VERSION = 1
_FIELDS = ("version", "action", "type", "data", "schema_version", "content_version", "created_at")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("sawbones")
    except PackageNotFoundError:  # pragma: no cover
        return "unknown"


def export_doc(store: EventStore, name: str) -> dict[str, Any]:
    cid = store.campaign_id(name)
    events = store.events(cid, upcast=False)
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
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"not a sawbones export: invalid JSON at line {exc.lineno} ({exc.msg})", str(path)) from None
    return doc


def parse_events(doc: Any, where: str = "") -> list[StoredEvent]:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise UsageError(f"not a sawbones export (expected \"format\": \"{FORMAT}\")", where)
    if doc.get("format_version") != FORMAT_VERSION:
        raise UsageError(f"export format version {doc.get('format_version')!r} is not supported "
                         f"(this sawbones reads {FORMAT_VERSION})", where)
    raw = doc.get("events")
    if not isinstance(raw, list) or not raw:
        raise UsageError("the export holds no events", where)
    out = []
    for i, item in enumerate(raw):
        if not isinstance(item, dict) or set(_FIELDS) - set(item):
            missing = sorted(set(_FIELDS) - set(item)) if isinstance(item, dict) else list(_FIELDS)
            raise UsageError(f"events[{i}] lacks {', '.join(missing)}", where)
        ok = (isinstance(item["version"], int) and isinstance(item["action"], int) and isinstance(item["type"], str)
              and isinstance(item["data"], dict) and isinstance(item["schema_version"], int)
              and isinstance(item["content_version"], str) and isinstance(item["created_at"], (int, float)))
        if not ok:
            raise UsageError(f"events[{i}] has a field of the wrong type", where)
        out.append(StoredEvent(item["version"], item["action"], item["type"], item["data"], item["schema_version"],
                               item["content_version"], float(item["created_at"])))
    if out[0].type != CREATED:
        raise UsageError(f"the first event must be {CREATED}, not {out[0].type}", where)
    try:
        check_sequence(out)
    except UsageError as exc:
        raise UsageError(exc.message, where) from None
    return out


def import_doc(store: EventStore, doc: dict[str, Any], as_name: str | None = None,
               check: Callable[[list[StoredEvent]], Any] | None = None, where: str = "") -> str:
    """Write the exported log as a new campaign (named as_name, or as in the export); its name."""
    events = parse_events(doc, where)
    name = as_name or doc.get("campaign") or events[0].data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise UsageError("the export names no campaign: pass --as NAME", where)
    try:
        name = check_name(name, "campaign")
        for e in events:  # the characters' names follow the same rule as when typed
            typed = e.data.get("name") if e.type == "character_added" else (e.data.get("changes") or {}).get("name")
            if e.type in ("character_added", "character_edited") and typed is not None:
                check_name(typed, "character")
    except UsageError as exc:
        raise UsageError(exc.message, where) from None
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
        except SawbonesError:
            raise
        except Exception as exc:  # a log that does not fold is not imported
            raise UsageError(f"the export does not replay ({type(exc).__name__}: {exc})", where) from None
    if name in store.campaign_names():
        raise UsageError(f"a campaign named {name!r} already exists: import it under another name with --as NAME",
                         where)
    store.import_campaign(name, events)
    return name


def write_json(doc: dict[str, Any], path: str | Path) -> None:
    """Write atomically: a crash leaves the old file or the new one, never half of one."""
    import os
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
    """Every campaign as its own export file in a new timestamped folder (+ a SQLite copy for SQLite)."""
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    root = Path(directory)
    target = root / f"sawbones-backup-{stamp}"
    n = 2
    while target.exists():
        target, n = root / f"sawbones-backup-{stamp}-{n}", n + 1
    try:
        target.mkdir(parents=True)
    except OSError as exc:
        raise UsageError(f"cannot create {target}: {exc.strerror or exc}") from None
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
        backup_to(db_copy)
        out["database_copy"] = str(db_copy)
    return out


def events_equal(a: Sequence[StoredEvent], b: Sequence[StoredEvent]) -> bool:
    return [tuple(getattr(e, f) for f in _FIELDS) for e in a] == [tuple(getattr(e, f) for f in _FIELDS) for e in b]
