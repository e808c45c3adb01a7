"""The event store: one contract (EventStore), implemented once in SQL on the DB-API drivers (SqlEventStore);
the two backends (SQLite, PostgreSQL: their few differences) and open_store() are in backends.py, the
connections, the pool and the errors in engines.py.

The log is append-only, keyed by (campaign, version). Optimistic concurrency: ``append`` names the
version it read; if the campaign moved on meanwhile, nothing is written and ConflictError is
raised. One action's events are written all or nothing.

Snapshots are a cache of folded states (see application/service.py): the store keeps them as
opaque JSON text, keyed by (campaign, version, code version), never as a source of truth.

No SQLAlchemy here: a command that opens a current database and appends imports only sqlite3 (or psycopg).
"""

from __future__ import annotations

import json
import time
from abc import ABC, abstractmethod
from contextlib import contextmanager, nullcontext
from typing import Any, Callable, Iterable, Iterator, Sequence

from ..errors import ConflictError, NotFound, UsageError
from ..message import msg
from . import integrity
from .group_commit import after_commit
from .campaign_ids import CampaignIds
from .event_reads import EventReads
from .meta_records import MetaRecords
from .records import Damaged, SnapshotInfo, StoredEvent, check_sequence, event_row, snapshot_infos, undo_pairs
from . import upcast as _upcasting
from .engines import Conn, Database, _forget, _guarded, _message, db_errors, is_integrity_error

UNDO = "action_undone"  # an undo marker: {"action": N} reverts every event of action N on replay
CREATED = "campaign_created"


def dump_data(data: dict[str, Any]) -> str:
    """The one JSON form event data is stored in (export/import rely on it to stay byte-exact)."""
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


class EventStore(ABC):
    """What the application needs from storage. Both backends pass tests/test_store_contract.py."""

    backend: str  # "sqlite" | "postgresql"
    where: str  # a path or a URL without its password, for messages
    # True: reading and writing are file I/O on this machine, and a wait for a writer's lock can be cut short
    # (locks.waiting_briefly); the web app's live hub reads it on its event loop (web/live/hub.py)
    local: bool = False

    # campaigns
    @abstractmethod
    def create_campaign(self, name: str, events: Sequence[dict[str, Any]] = (), content_version: str = "") -> int:
        """A new campaign (UsageError if the name is taken), with its first events, atomically."""

    @abstractmethod
    def campaign_id(self, name: str) -> int:
        """NotFound (naming the known campaigns) if there is none."""

    @abstractmethod
    def campaign_names(self) -> list[str]: ...

    @abstractmethod
    def delete_campaign(self, name: str) -> None: ...

    @abstractmethod
    def get_meta(self, key: str) -> str | None: ...

    @abstractmethod
    def set_meta(self, key: str, value: str | None) -> None: ...

    @abstractmethod
    def swap_meta(self, key: str, expected: str | None, value: str) -> bool:
        """Set `key` to `value` only if it still holds `expected` (None: absent); False when it moved."""

    # events
    @abstractmethod
    def append(self, campaign_id: int, expected_version: int, action: int, events: Iterable[dict[str, Any]],
               content_version: str) -> int:
        """Append one action's events after expected_version, all or nothing; the new head.

        ConflictError (nothing written) if the head is no longer expected_version."""

    @abstractmethod
    def head(self, campaign_id: int) -> int: ...

    @abstractmethod
    def events(self, campaign_id: int, after: int = 0, *, upcast: bool = True,
               upto: int | None = None, character: str | None = None) -> list[StoredEvent]:
        """Events with after < version (<= upto), in order; upcast to the current shapes unless upcast=False;
        `character`: only those whose data names that character (`"character": id`).

        Every event is checked against its checksum: Damaged (one line: campaign, event, how to recover)."""

    @abstractmethod
    def undo_markers(self, campaign_id: int, after: int = 0, upto: int | None = None) -> list[tuple[int, int]]:
        """(version, undone action) of every undo marker after `after` (and at or before `upto`)."""

    @abstractmethod
    def actions(self, campaign_id: int, upto: int | None = None) -> list[tuple[int, str]]:
        """(action, type of its first event) for every action (begun at or before version `upto`), in order."""

    @abstractmethod
    def import_campaign(self, name: str, events: Sequence[StoredEvent]) -> int:
        """A new campaign holding exactly these stored events (versions, schema versions, times)."""

    # snapshots (a cache)
    @abstractmethod
    def save_snapshot(self, campaign_id: int, info: SnapshotInfo, state: str, keep: int = 3) -> bool:
        """Store a snapshot (False: skipped, the writer lock was taken; a read never waits); keep the `keep` newest for this code version, drop those of other code."""

    @abstractmethod
    def snapshots(self, campaign_id: int, code_version: str) -> list[SnapshotInfo]:
        """Snapshot descriptions, newest first."""

    @abstractmethod
    def snapshot_state(self, campaign_id: int, version: int, code_version: str) -> str | None: ...

    # maintenance
    @abstractmethod
    def check(self) -> list[str]:
        """Problems found (empty: healthy): the engine's integrity check, gaps in any log, damaged events."""

    def batch(self) -> Any:
        """A context in which this thread's writes share one transaction and one COMMIT (SqlEventStore)."""
        return nullcontext()

    def names_read_once(self) -> Any:
        """A context in which a campaign's id is read once by its name (SqlEventStore: campaign_ids.py)."""
        return nullcontext()

    @abstractmethod
    def close(self) -> None: ...


# ---------------------------------------------------------------- the SQL implementation

# Called in the writer's thread once an append to a campaign committed: (database_id, campaign id, the version it
# followed, its rows as written: the columns of _INSERT_EVENT). The live hub hands a worker's own writes to its
# streams without reading them back (web/live/hub.py); a listener must be quick and must not write.
Appended = Callable[[str, int, int, "list[tuple[Any, ...]]"], None]
APPENDED: list[Appended] = []

_HEAD = "SELECT MAX(version) FROM events WHERE campaign_id = ?"
_INSERT_EVENT = ("INSERT INTO events (campaign_id, version, action, type, data, schema_version, content_version, "
                 "created_at, checksum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")


class SqlEventStore(CampaignIds, EventReads, MetaRecords, EventStore):
    """The contract in SQL written once; the backends differ in connecting, locking and a few statements."""

    backend = "sql"
    FOR_UPDATE = ""  # PostgreSQL: lock the campaign's row for the append

    def __init__(self, db: Database) -> None:
        self.db = db
        self.where = db.where
        self.database_id = db.database_id  # random id of this database: process caches are keyed by it

    # -------------------------------------------------------- transactions
    @contextmanager
    def _read(self) -> Iterator[Conn]:
        """A read of several statements that must agree (one transaction); one statement: `_rows`, `_value`."""
        with self.db.transaction() as conn:
            yield conn

    def _rows(self, sql: str, params: Any = ()) -> list[Any]:
        """The rows of one read statement (its own snapshot: no transaction around it, Database.read)."""
        return self.db.read(sql, params)

    def _value(self, sql: str, params: Any = ()) -> Any:
        """The first column of the first row of one read statement, or None."""
        rows = self._rows(sql, params)
        return rows[0][0] if rows else None

    @contextmanager
    def _write(self, wait: bool = True) -> Iterator[Conn | None]:
        with self.db.transaction(write=True) as conn:  # SQLite: BEGIN IMMEDIATE
            yield conn

    def _new_campaign_id(self, conn: Conn) -> int | None:
        return None  # the database's own sequence

    # -------------------------------------------------------- campaigns
    @_guarded
    def create_campaign(self, name: str, events: Sequence[dict[str, Any]] = (), content_version: str = "") -> int:
        now = time.time()
        try:
            with self._write() as conn:
                cid = self._insert_campaign(conn, name, now)
                if events:
                    self._insert_events(conn, cid, 0, 1, events, content_version, now)
        except db_errors() as exc:
            if is_integrity_error(exc):
                raise UsageError(msg("a campaign named {name} already exists", name=repr(name))) from None
            raise
        return cid

    def _insert_campaign(self, conn: Conn, name: str, now: float) -> int:
        if conn.value("SELECT id FROM campaigns WHERE name = ?", (name,)) is not None:
            raise UsageError(msg("a campaign named {name} already exists", name=repr(name)))
        cid = self._new_campaign_id(conn)
        if cid is None:
            return int(conn.value("INSERT INTO campaigns (name, created_at) VALUES (?, ?) RETURNING id", (name, now)))
        conn.execute("INSERT INTO campaigns (id, name, created_at) VALUES (?, ?, ?)", (cid, name, now))
        return cid

    @_guarded
    def delete_campaign(self, name: str) -> None:
        cid = self.campaign_id(name)
        self._forget_names()
        with self._write() as conn:
            for table in ("snapshots", "events"):
                conn.execute(f"DELETE FROM {table} WHERE campaign_id = ?", (cid,))
            conn.execute("DELETE FROM campaigns WHERE id = ?", (cid,))

    @_guarded
    def rename_campaign(self, campaign_id: int, expected_version: int, action: int, event: dict[str, Any],
                        content_version: str) -> None:
        """The campaign's row takes event["data"]["name"] and the event is appended, in one transaction."""
        name = event["data"]["name"]
        self._forget_names()
        try:
            with self._write() as conn:
                if conn.value("SELECT id FROM campaigns WHERE name = ?", (name,)) is not None:
                    raise UsageError(msg("a campaign named {name} already exists", name=repr(name)))
                integrity.refuse_damaged(conn, campaign_id, self.where)
                conn.execute("UPDATE campaigns SET name = ? WHERE id = ?", (name, campaign_id))
                if self._head(conn, campaign_id) != expected_version:
                    raise ConflictError(msg("the campaign changed while you renamed it; nothing was written, try again"))
                rows = self._insert_events(conn, campaign_id, expected_version, action, [event], content_version,
                                           time.time())
        except db_errors() as exc:
            if is_integrity_error(exc):
                raise UsageError(msg("a campaign named {name} already exists", name=repr(name))) from None
            raise
        after_commit(self.db, lambda: self._told(campaign_id, expected_version, rows))

    # -------------------------------------------------------- events
    def _insert_events(self, conn: Conn, cid: int, expected_version: int, action: int,
                       events: Iterable[dict[str, Any]], content_version: str, now: float) -> list[tuple[Any, ...]]:
        """The events written after version `expected_version`: their rows (the columns of _INSERT_EVENT)."""
        rows = []
        version = expected_version
        for ev in events:
            version += 1
            rows.append(event_row(cid, version, action, ev["type"], dump_data(ev["data"]),
                             _upcasting.EVENT_SCHEMA_VERSION, content_version, now))
        if rows:
            conn.executemany(_INSERT_EVENT, rows)
            self._notify(conn, cid, expected_version, rows)
        return rows

    def _told(self, cid: int, after: int, rows: list[tuple[Any, ...]]) -> None:
        """(once the append committed) This process's listeners hear what it wrote (APPENDED); a listener's
        failure is its own: the write is done."""
        for listener in list(APPENDED):
            try:
                listener(self.database_id, cid, after, rows)
            except Exception:
                __import__("logging").getLogger("sawbones").exception("a listener of appended events failed")

    def _notify(self, conn: Conn, cid: int, after: int, rows: list[tuple[Any, ...]]) -> None:
        """Tell live watchers the campaign moved (PostgreSQL: NOTIFY in the same transaction; SQLite is polled)."""

    @_guarded
    def append(self, campaign_id: int, expected_version: int, action: int, events: Iterable[dict[str, Any]],
               content_version: str) -> int:
        events = list(events)
        if not events:
            return expected_version
        try:
            with self._write() as conn:
                # lock the campaign row: concurrent appenders to one campaign queue here (PostgreSQL)
                if conn.value(f"SELECT id FROM campaigns WHERE id = ?{self.FOR_UPDATE}", (campaign_id,)) is None:
                    raise NotFound(msg("the campaign was deleted meanwhile; nothing was written"))
                integrity.refuse_damaged(conn, campaign_id, self.where)
                current = self._head(conn, campaign_id)
                if current != expected_version:
                    raise ConflictError(msg(
                        "the campaign changed while you acted (version {current}, you read {expected_version}); "
                        "nothing was written, try again", current=current, expected_version=expected_version))
                rows = self._insert_events(conn, campaign_id, expected_version, action, events, content_version,
                                           time.time())
        except db_errors() as exc:
            if is_integrity_error(exc):
                raise ConflictError(msg("another write reached the campaign first; nothing was written, try again")) from None
            raise
        after_commit(self.db, lambda: self._told(campaign_id, expected_version, rows))
        return expected_version + len(rows)

    @staticmethod
    def _head(conn: Conn, cid: int) -> int:
        return int(conn.value(_HEAD, (cid,)) or 0)

    @_guarded
    def head(self, campaign_id: int) -> int:
        return int(self._value(_HEAD, (campaign_id,)) or 0)

    @_guarded
    def undo_markers(self, campaign_id: int, after: int = 0, upto: int | None = None) -> list[tuple[int, int]]:
        sql = "SELECT version, data FROM events WHERE campaign_id = ? AND type = ? AND version > ?"
        params: tuple[Any, ...] = (campaign_id, UNDO, after)
        if upto is not None:
            sql, params = sql + " AND version <= ?", params + (upto,)
        rows = self._rows(sql + " ORDER BY version", params)
        return undo_pairs(rows, lambda: self._name(campaign_id), self.where)

    @_guarded
    def actions(self, campaign_id: int, upto: int | None = None) -> list[tuple[int, str]]:
        limit = "" if upto is None else " AND version <= ?"
        params: tuple[Any, ...] = (campaign_id,) + (() if upto is None else (upto,)) + (campaign_id,)
        rows = self._rows("SELECT e.action, e.type FROM events e JOIN (SELECT action, MIN(version) AS v "
                          f"FROM events WHERE campaign_id = ?{limit} GROUP BY action) f ON e.version = f.v "
                          "WHERE e.campaign_id = ? ORDER BY e.action", params)
        return [(int(a), str(ty)) for a, ty in rows]

    @_guarded
    def import_campaign(self, name: str, events: Sequence[StoredEvent]) -> int:
        check_sequence(events)
        try:
            with self._write() as conn:
                cid = self._insert_campaign(conn, name, events[0].created_at if events else time.time())
                rows = [event_row(cid, ev.version, ev.action, ev.type, dump_data(ev.data), ev.schema_version,
                             ev.content_version, ev.created_at) for ev in events]
                for start in range(0, len(rows), 5000):
                    conn.executemany(_INSERT_EVENT, rows[start:start + 5000])
        except db_errors() as exc:
            low = _message(exc).lower()
            if is_integrity_error(exc) and ("unique" in low or "duplicate" in low):
                raise UsageError(msg("a campaign named {name} already exists", name=repr(name))) from None
            raise
        return cid

    # -------------------------------------------------------- snapshots
    @_guarded
    def save_snapshot(self, campaign_id: int, info: SnapshotInfo, state: str, keep: int = 3) -> bool:
        with self._write(wait=False) as conn:
            if conn is None:
                return False  # another writer holds the lock: a cache is not worth a wait
            # a damaged snapshot at this version is replaced
            conn.execute("INSERT INTO snapshots (campaign_id, version, code_version, content_version, action, state, "
                         "created_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (campaign_id, version, code_version) "
                         "DO UPDATE SET state = excluded.state, created_at = excluded.created_at",
                         (campaign_id, info.version, info.code_version, info.content_version, info.action, state,
                          info.created_at or time.time()))
            conn.execute("DELETE FROM snapshots WHERE campaign_id = ? AND code_version != ?",
                         (campaign_id, info.code_version))
            conn.execute("DELETE FROM snapshots WHERE campaign_id = ? AND code_version = ? AND version NOT IN "
                         "(SELECT version FROM snapshots WHERE campaign_id = ? AND code_version = ? "
                         "ORDER BY version DESC LIMIT ?)",
                         (campaign_id, info.code_version, campaign_id, info.code_version, keep))
        return True

    @_guarded
    def snapshots(self, campaign_id: int, code_version: str) -> list[SnapshotInfo]:
        rows = self._rows("SELECT version, action, code_version, content_version, created_at FROM snapshots "
                          "WHERE campaign_id = ? AND code_version = ? ORDER BY version DESC", (campaign_id, code_version))
        return snapshot_infos(rows)  # (a row of the wrong types is no snapshot: the log is folded instead)

    @_guarded
    def snapshot_state(self, campaign_id: int, version: int, code_version: str) -> str | None:
        return self._value("SELECT state FROM snapshots WHERE campaign_id = ? AND version = ? AND code_version = ?",
                           (campaign_id, version, code_version))

    # -------------------------------------------------------- maintenance
    def _damaged_events(self) -> list[str]:
        """The first damaged event of every campaign (checksums, text, JSON)."""
        return list(self.damaged_campaigns().values())

    def damaged_campaigns(self) -> dict[int, str]:
        """{campaign id: the line that names its first damaged event}."""
        problems = {}
        ids = [r[0] for r in self._rows("SELECT id FROM campaigns ORDER BY id")]
        for cid in ids:
            try:
                self.events(cid, upcast=False)
            except Damaged as exc:
                problems[cid] = exc.message
        return problems

    @staticmethod
    def _log_gaps(conn: Conn) -> list[str]:
        rows = conn.execute("SELECT c.name, COUNT(*), MAX(e.version) FROM events e JOIN campaigns c "
                            "ON c.id = e.campaign_id GROUP BY c.name").fetchall()
        return [f"campaign {name!r}: {n} events but head {head} (a gap in the log)" for name, n, head in rows
                if n != head]

    def batch(self) -> Any:
        return self.db.batch()

    def close(self) -> None:
        """Nothing to release: the connection pool is shared by this process's stores."""

    def dispose(self) -> None:
        """Close this database's pooled connections (tests, shutdown); a later use reconnects."""
        _forget(self.db)
