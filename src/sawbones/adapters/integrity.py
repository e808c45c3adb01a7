"""Damage anywhere in a SQLite file found before the next write, without reading the log at every write
(issue 20, item 3).

Every event carries a checksum (records.py), but a write reads only the events after the campaign's newest
snapshot: an older event changed behind sawbones' back would go unnoticed until a full read (log, export,
backup, check). A chain of checksums (each covering the one before) would not find it either: the flipped
byte is in the data, and every stored checksum, the head's included, stays as it was; only reading the data
again tells. So sawbones leaves a stamp of the files when it last wrote or closed them cleanly: the identity,
size and modification times of the database and of its write-ahead log, kept in the writer-lock file (which
only the holder of the lock writes). A writer that finds the files no longer as stamped (another program, a
restore, a copy, a hand edit, a disk fault that reached the file) first checks the whole file (`PRAGMA
quick_check`, then every event of every campaign against its checksum), then stamps it with what it found:
appends to a damaged campaign are refused, with the one line that names the event, until the file changes
again (a restore); the other campaigns, and the import that rescues the intact part, still write.

Not covered: a change that leaves every size and time as they were (a fault below the file system, a file
system whose times are coarser than two writes): `sawbones check`, `log`, `export` and `backup` read it all.
"""

from __future__ import annotations

import json
import os
from typing import Any

from ..errors import StoreError
from ..message import msg, msgs
from . import locks
from .records import Damaged

_KEY = "sawbones_damaged"  # in a connection's info: the damaged campaigns its write may not append to


def stamp(path: str) -> str:
    """The database and its write-ahead log as they are now: device, inode, size and modification time (an
    empty log is no log: a reader may leave one; not the change time, which SQLite itself moves when it
    gives the log the database's owner)."""
    parts = []
    for name in (path, f"{path}-wal"):
        try:
            st = os.stat(name)
        except FileNotFoundError:
            st = None
        if st is None or (name != path and st.st_size == 0):
            parts.append("-")
        else:
            parts.append(f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}")  # not ctime: SQLite chowns
    return " ".join(parts)


def _recorded(path: str) -> dict[str, Any]:
    try:
        with open(locks.lock_path(path), encoding="utf-8") as f:
            found = json.loads(f.read() or "{}")
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _record(path: str, damaged: dict[str, str]) -> None:
    """Stamp the files as they are now (the caller holds the writer lock). An unwritable lock file stamps
    nothing: every write then checks the whole file."""
    text = json.dumps({"stamp": stamp(path), "damaged": damaged}).encode()
    try:
        fd = os.open(locks.lock_path(path), os.O_WRONLY)
    except OSError:
        return
    try:  # over what was there, padded with spaces (JSON ignores them): a truncation costs the file system more
        os.pwrite(fd, text.ljust(os.fstat(fd).st_size), 0)
    except OSError:
        pass
    finally:
        os.close(fd)


def before_write(store: Any) -> dict[str, str]:
    """Called by a writer holding the lock, before it writes: {campaign id: the line that says why it is
    damaged}. When the files are not as stamped, the whole file is checked first (StoreError when SQLite
    finds it damaged: no write at all) and the finding stamped."""
    path = store.path
    if path in ("", ":memory:"):
        return {}
    known = _recorded(path)
    if known.get("stamp") == stamp(path) and isinstance(known.get("damaged"), dict):
        return known["damaged"]
    with store.db.connection() as conn:
        check_intact(conn.execute("PRAGMA quick_check"), store.where)
    damaged = {str(cid): why for cid, why in store.damaged_campaigns().items()}
    _record(path, damaged)
    return damaged


def after_write(store: Any, damaged: dict[str, str]) -> None:
    """Stamp the files as this write left them (the caller still holds the lock)."""
    if store.path not in ("", ":memory:"):
        _record(store.path, damaged)


def refuse_damaged(conn: Any, campaign_id: int, where: str) -> None:
    """Damaged when this write's campaign was found damaged (`before_write`): nothing is appended to it."""
    why = conn.info.get(_KEY, {}).get(str(campaign_id))
    if why:
        raise Damaged(why, where)


def mark(conn: Any, damaged: dict[str, str]) -> None:
    conn.info[_KEY] = damaged


_AT_EXIT: list[Any] = []


def close_at_exit(close_all: Any) -> None:
    """Close this process's databases cleanly when it ends (`dispose`), once."""
    if not _AT_EXIT:
        import atexit

        _AT_EXIT.append(close_all)
        atexit.register(close_all)


def dispose(db: Any) -> None:
    """Close the database's pooled connections (the last one to close folds the write-ahead log into the file);
    when the files were as stamped before, stamp them as the close left them, so that the next write need not
    check the whole file again."""
    path = db.path
    if db.backend != "sqlite" or path in ("", ":memory:"):
        db.dispose()
        return
    import time

    try:
        with locks.file_lock(path, time.monotonic(), wait=False) as held:
            known = _recorded(path) if held else {}
            clean = held and known.get("stamp") == stamp(path) and isinstance(known.get("damaged"), dict)
            db.dispose()
            if clean:
                _record(path, known["damaged"])
    except Exception:  # a lock that cannot be used: close all the same, stamp nothing
        db.dispose()


def check_intact(rows: Any, where: str) -> None:
    """StoreError (one line: the first problem, how many more) unless `PRAGMA quick_check` answered ok."""
    result = [line for r in rows for line in str(r[0]).splitlines()]
    if result != ["ok"]:
        first = next((line for line in result if not line.startswith("***")), result[0]).strip()
        more = msgs(", and {n} more problem", ", and {n} more problems", len(result) - 2) if len(result) > 2 else ""
        raise StoreError(msg("the database file is damaged ({first}{more}): restore it from a backup (see "
                             "docs/deployment.md)", first=first, more=more), where)
