"""The embedded event store: SQLite in WAL mode, an append-only log keyed by (campaign, version).

The primary key gives optimistic concurrency: two writers that read the same version cannot both
append the next one; the second gets a ConflictError and nothing of its action is written.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from ..errors import ConflictError, NotFound, StoreError, UsageError

SCHEMA_VERSION = 1
EVENT_SCHEMA_VERSION = 1

_DDL = """
CREATE TABLE IF NOT EXISTS campaigns (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id),
    version INTEGER NOT NULL,
    action INTEGER NOT NULL,
    type TEXT NOT NULL,
    schema_version INTEGER NOT NULL,
    content_version TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (campaign_id, version)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class StoredEvent:
    version: int
    action: int
    type: str
    data: dict[str, Any]
    schema_version: int
    content_version: str
    created_at: float

    def as_event(self) -> dict[str, Any]:
        return {"type": self.type, "data": self.data}


class SqliteStore:
    """Campaigns and their event logs in one SQLite file."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            self.db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.executescript(_DDL)
            self._check_schema()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"not a sawbones database ({exc})", self.path) from None

    def _check_schema(self) -> None:
        row = self.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        if row is None:
            self.db.execute("INSERT INTO meta(key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        elif int(row[0]) > SCHEMA_VERSION:
            raise StoreError(f"database schema {row[0]} is newer than this sawbones ({SCHEMA_VERSION})", self.path)

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------ campaigns
    def create_campaign(self, name: str) -> int:
        try:
            cur = self.db.execute("INSERT INTO campaigns(name, created_at) VALUES (?, ?)", (name, time.time()))
        except sqlite3.IntegrityError:
            raise UsageError(f"a campaign named {name!r} already exists") from None
        return int(cur.lastrowid)

    def campaign_id(self, name: str) -> int:
        row = self.db.execute("SELECT id FROM campaigns WHERE name=?", (name,)).fetchone()
        if row is None:
            known = ", ".join(self.campaign_names()) or "none yet"
            raise NotFound(f"no campaign named {name!r} (campaigns: {known})")
        return int(row[0])

    def campaign_names(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT name FROM campaigns ORDER BY id")]

    def delete_campaign(self, name: str) -> None:
        cid = self.campaign_id(name)
        with self._transaction():
            self.db.execute("DELETE FROM events WHERE campaign_id=?", (cid,))
            self.db.execute("DELETE FROM campaigns WHERE id=?", (cid,))

    def get_meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else row[0]

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                        (key, value))

    # ------------------------------------------------------------ events
    def _transaction(self):
        store = self

        class _Tx:
            def __enter__(self_inner):
                store.db.execute("BEGIN IMMEDIATE")

            def __exit__(self_inner, exc_type, exc, tb):
                store.db.execute("ROLLBACK" if exc_type else "COMMIT")
                return False

        return _Tx()

    def append(self, campaign_id: int, expected_version: int, action: int, events: Iterable[dict[str, Any]],
               content_version: str) -> int:
        """Append one action's events after expected_version; all or nothing. Returns the new version."""
        rows = []
        version = expected_version
        now = time.time()
        for event in events:
            version += 1
            rows.append((campaign_id, version, action, event["type"], EVENT_SCHEMA_VERSION, content_version,
                         json.dumps(event["data"], separators=(",", ":"), sort_keys=True), now))
        if not rows:
            return expected_version
        try:
            with self._transaction():
                current = self.head(campaign_id)
                if current != expected_version:
                    raise ConflictError(
                        f"the campaign changed while you acted (version {current}, expected {expected_version}); "
                        "nothing was written, try again")
                self.db.executemany(
                    "INSERT INTO events(campaign_id, version, action, type, schema_version, content_version, data, "
                    "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
        except sqlite3.IntegrityError:
            raise ConflictError("another write reached the campaign first; nothing was written, try again") from None
        except sqlite3.OperationalError as exc:
            raise StoreError(f"could not write: {exc}", self.path) from None
        return version

    def head(self, campaign_id: int) -> int:
        row = self.db.execute("SELECT MAX(version) FROM events WHERE campaign_id=?", (campaign_id,)).fetchone()
        return int(row[0] or 0)

    def events(self, campaign_id: int, after: int = 0) -> list[StoredEvent]:
        cur = self.db.execute(
            "SELECT version, action, type, data, schema_version, content_version, created_at FROM events "
            "WHERE campaign_id=? AND version>? ORDER BY version", (campaign_id, after))
        return [StoredEvent(v, a, t, json.loads(d), sv, cv, ts) for v, a, t, d, sv, cv, ts in cur]
