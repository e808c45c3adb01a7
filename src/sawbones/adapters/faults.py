"""Faults of the machine around the database, told in one line: no room to write, a replaced WAL file."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..message import Message, msg


def space_problem(path: str | os.PathLike[str]) -> Message | str:
    """Why a write under `path` may have failed for want of room ('' if neither the disk nor a limit says so)."""
    import shutil

    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
        if soft != resource.RLIM_INFINITY:
            return msg("a file reached this process's file-size limit ({size} bytes, ulimit -f)", size=soft)
    except (ImportError, ValueError, OSError):  # pragma: no cover (not POSIX)
        pass
    folder = Path(path)
    while not folder.is_dir() and folder != folder.parent:
        folder = folder.parent
    try:
        if shutil.disk_usage(folder).free < 1 << 20:
            return msg("the disk is full ({folder})", folder=str(folder))
    except OSError:
        pass
    return ""


def wal_replaced(path: str, info: dict[str, Any]) -> Message | str:
    """Why a SQLite connection must not write: the write-ahead log it holds is no longer the file on disk.

    A connection keeps its `-wal` file open from its first transaction on; if the file was deleted
    or replaced meanwhile (by hand, by a restore under a running app), what it writes would vanish
    with it. `info` is the connection's own dict, where the WAL's identity is kept. '' when all is well."""
    if path in ("", ":memory:"):
        return ""
    try:
        st = os.stat(f"{path}-wal")
        found: tuple[int, int] | None = (st.st_dev, st.st_ino)
    except OSError:
        found = None
    known = info.get("sawbones_wal")
    if known is None:
        info["sawbones_wal"] = found
        return ""
    if known == found:
        return ""
    return msg("the database's write-ahead log ({wal}) was deleted or replaced while this sawbones had it open; it "
               "writes nothing more. Stop every sawbones using this database, then restore the last backup; never "
               "delete or move the -wal and -shm files of a live database (see docs/deployment.md)",
               wal=f"{os.path.basename(path)}-wal")
