"""Fast reads of an up-to-date SQLite database with the standard library; the full store for the rest.

A command that only reads (`status`, `log`, `clock`...) should not pay ~115 ms to import SQLAlchemy.
`open_fast(path)` returns a store whose read methods run plain SQL on a read-only sqlite3
connection, and whose every other method (writes, checks, backups) opens the SQLAlchemy store on
first use. Anything unexpected — an older schema, a damaged file, an error on a read — sends the
call to the full store, which migrates, or says what is wrong.
"""

from __future__ import annotations

import os
import sqlite3
from typing import Any
from urllib.parse import quote

from ..errors import NotFound
from .records import HEAD, SnapshotInfo, StoredEvent, read_events, undo_pairs

UNDO = "action_undone"


class FastSqliteStore:
    backend = "sqlite"

    def __init__(self, path: str, conn: sqlite3.Connection, database_id: str) -> None:
        self.path = path
        self.where = path
        self.database_id = database_id
        self._conn = conn
        self._store: Any = None

    # -------------------------------------------------------- the full store, on first need
    def full(self) -> Any:
        if self._store is None:
            from .backends import SqliteEventStore

            self._store = SqliteEventStore(self.path)
        return self._store

    def __getattr__(self, name: str) -> Any:
        return getattr(self.full(), name)

    def _rows(self, sql: str, params: tuple) -> list[tuple] | None:
        """The rows, or None when this connection cannot answer (the caller asks the full store)."""
        try:
            return self._conn.execute(sql, params).fetchall()
        except sqlite3.Error:
            return None

    def close(self) -> None:
        self._conn.close()
        if self._store is not None:
            self._store.close()

    # -------------------------------------------------------- reads
    def get_meta(self, key: str) -> str | None:
        rows = self._rows("SELECT value FROM meta WHERE key = ?", (key,))
        if rows is None:
            return self.full().get_meta(key)
        return rows[0][0] if rows else None

    def campaign_names(self) -> list[str]:
        rows = self._rows("SELECT name FROM campaigns ORDER BY id", ())
        return self.full().campaign_names() if rows is None else [r[0] for r in rows]

    def campaign_id(self, name: str) -> int:
        rows = self._rows("SELECT id FROM campaigns WHERE name = ?", (name,))
        if rows is None:
            return self.full().campaign_id(name)
        if not rows:
            known = ", ".join(self.campaign_names()) or "none yet"
            raise NotFound(f"no campaign named {name!r} (campaigns: {known})")
        return int(rows[0][0])

    def head(self, campaign_id: int) -> int:
        rows = self._rows("SELECT MAX(version) FROM events WHERE campaign_id = ?", (campaign_id,))
        return self.full().head(campaign_id) if rows is None else int(rows[0][0] or 0)

    def events(self, campaign_id: int, after: int = 0, *, upcast: bool = True,
               upto: int | None = None) -> list[StoredEvent]:
        sql = ("SELECT version, action, type, data, schema_version, content_version, created_at, checksum "
               "FROM events WHERE campaign_id = ? AND version > ?")
        params: tuple = (campaign_id, after)
        if upto is not None:
            sql, params = sql + " AND version <= ?", params + (upto,)
        rows = self._rows(sql + " ORDER BY version", params)
        if rows is None:
            return self.full().events(campaign_id, after, upcast=upcast, upto=upto)
        return read_events(rows, after, _upcast if upcast else None, lambda: self._name(campaign_id), self.where)

    def _name(self, campaign_id: int) -> str:
        rows = self._rows("SELECT name FROM campaigns WHERE id = ?", (campaign_id,))
        return str(rows[0][0]) if rows else f"#{campaign_id}"

    def undo_markers(self, campaign_id: int, after: int = 0, upto: int | None = None) -> list[tuple[int, int]]:
        sql = "SELECT version, data FROM events WHERE campaign_id = ? AND type = ? AND version > ?"
        params: tuple = (campaign_id, UNDO, after)
        if upto is not None:
            sql, params = sql + " AND version <= ?", params + (upto,)
        rows = self._rows(sql + " ORDER BY version", params)
        if rows is None:
            return self.full().undo_markers(campaign_id, after, upto)
        return undo_pairs(rows, lambda: self._name(campaign_id), self.where)

    def actions(self, campaign_id: int, upto: int | None = None) -> list[tuple[int, str]]:
        limit = "" if upto is None else " AND version <= ?"
        params: tuple = (campaign_id,) + (() if upto is None else (upto,)) + (campaign_id,)
        rows = self._rows("SELECT e.action, e.type FROM events e JOIN (SELECT action, MIN(version) AS v "
                          f"FROM events WHERE campaign_id = ?{limit} GROUP BY action) f ON e.version = f.v "
                          "WHERE e.campaign_id = ? ORDER BY e.action", params)
        if rows is None:
            return self.full().actions(campaign_id, upto)
        return [(int(a), str(t)) for a, t in rows]

    def snapshots(self, campaign_id: int, code_version: str) -> list[SnapshotInfo]:
        rows = self._rows("SELECT version, action, code_version, content_version, created_at FROM snapshots "
                          "WHERE campaign_id = ? AND code_version = ? ORDER BY version DESC", (campaign_id, code_version))
        return self.full().snapshots(campaign_id, code_version) if rows is None else [SnapshotInfo(*r) for r in rows]

    def snapshot_state(self, campaign_id: int, version: int, code_version: str) -> str | None:
        rows = self._rows("SELECT state FROM snapshots WHERE campaign_id = ? AND version = ? "
                          "AND code_version = ?", (campaign_id, version, code_version))
        if rows is None:
            return self.full().snapshot_state(campaign_id, version, code_version)
        return rows[0][0] if rows else None


def _upcast(etype: str, schema_version: int, data: dict[str, Any]) -> tuple[str, int, dict[str, Any]]:
    from .store import _upcast as upcast  # only for an older event shape: SQLAlchemy stays unimported

    return upcast(etype, schema_version, data)


def open_fast(path: str) -> FastSqliteStore | None:
    """The fast store for a SQLite file at the current schema, or None (then use the full store)."""
    if not os.path.isfile(path):
        return None
    conn = None
    try:
        conn = sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True, timeout=30,
                               check_same_thread=False)
        revision = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        found = conn.execute("SELECT value FROM meta WHERE key = 'database_id'").fetchone()
        if revision is None or revision[0] != HEAD or found is None:
            conn.close()
            return None
        return FastSqliteStore(path, conn, found[0])
    except sqlite3.Error:
        if conn is not None:
            conn.close()
        return None
