"""The event store: one contract (EventStore), two backends through SQLAlchemy 2 Core.

- SQLite, the embedded default: a file (or ``sqlite:///path``), WAL journal, ``synchronous=FULL``
  (a write the GM was told about survives a crash of the process and of the machine), writes
  under ``BEGIN IMMEDIATE`` so that two writers queue instead of deadlocking.
- PostgreSQL: ``postgresql+psycopg://user:password@host:port/dbname`` (``postgresql://`` is
  accepted and means the same), for several web workers on one database.

The log is append-only, keyed by (campaign, version). Optimistic concurrency: ``append`` names the
version it read; if the campaign moved on meanwhile, nothing is written and ConflictError is
raised. One action's events are written all or nothing.

Snapshots are a cache of folded states (see application/service.py): the store keeps them as
opaque JSON text, keyed by (campaign, version, code version), never as a source of truth.

SQLAlchemy is imported here, never by the CLI at start: open_store() is called on first use.
"""

from __future__ import annotations

import functools
import json
import os
import threading
import time
from abc import ABC, abstractmethod
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy import exc as sa_exc

from ..errors import ConflictError, NotFound, SawbonesError, StoreError, UsageError
from . import locks
from .faults import space_problem, wal_replaced
from . import tables as t
from .records import Damaged, SnapshotInfo, StoredEvent, checksum, damaged_message, read_events, undo_pairs
from . import upcast as _upcasting

UNDO = "action_undone"  # an undo marker: {"action": N} reverts every event of action N on replay
CREATED = "campaign_created"


def dump_data(data: dict[str, Any]) -> str:
    """The one JSON form event data is stored in (export/import rely on it to stay byte-exact)."""
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


class EventStore(ABC):
    """What the application needs from storage. Both backends pass tests/test_store_contract.py."""

    backend: str  # "sqlite" | "postgresql"
    where: str  # a path or a URL without its password, for messages

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
    def set_meta(self, key: str, value: str) -> None: ...

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
               upto: int | None = None) -> list[StoredEvent]:
        """Events with after < version (<= upto), in order; upcast to the current shapes unless upcast=False.

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

    @abstractmethod
    def close(self) -> None: ...


# ---------------------------------------------------------------- errors


def _message(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None) or exc
    text = str(orig).strip().splitlines()[0] if str(orig).strip() else type(orig).__name__
    return text


def _store_error(exc: sa_exc.SQLAlchemyError, where: str) -> StoreError:
    msg = _message(exc)
    low = msg.lower()
    if "file is not a database" in low or "not a database" in low:
        return StoreError(f"not a sawbones database ({msg})", where)
    if "malformed" in low or "corrupt" in low:
        return StoreError(f"the database file is damaged ({msg}): restore it from a backup (see docs/deployment.md)",
                          where)
    if "database is locked" in low or "database is busy" in low:
        return locks.Busy(locks.busy_message(locks.lock_wait()), where)
    if "unable to open database" in low:
        return StoreError(f"cannot open the database ({msg})", where)
    if "disk is full" in low or "disk i/o error" in low:
        room = space_problem(where)
        if room:
            return StoreError(f"{room}: nothing was written; make room and try again ({msg})", where)
    orig = getattr(exc, "orig", None)
    if isinstance(exc, (sa_exc.OperationalError, sa_exc.InterfaceError)) and \
            type(orig).__module__.split(".")[0] == "psycopg":
        return StoreError(f"database unavailable ({msg})", where)
    return StoreError(f"database error ({msg})", where)


def _guarded(fn):
    """Every public method: database errors become StoreError with one clear line."""

    @functools.wraps(fn)
    def wrapper(self, *args, **kwargs):
        try:
            return fn(self, *args, **kwargs)
        except SawbonesError:
            raise
        except sa_exc.SQLAlchemyError as exc:
            raise _store_error(exc, self.where) from None

    return wrapper


# ---------------------------------------------------------------- the SQL implementation


class SqlEventStore(EventStore):
    """The contract on SQLAlchemy Core; the backends differ only in engine set-up and a few statements."""

    backend = "sql"

    def __init__(self, shared: "_Shared") -> None:
        self.engine = shared.engine
        self.shared = shared
        self.where = shared.where
        self.database_id = shared.database_id  # random id of this database: process caches are keyed by it

    # -------------------------------------------------------- transactions
    @contextmanager
    def _read(self) -> Iterator[sa.Connection]:
        with self.engine.connect() as conn:
            with conn.begin():
                yield conn

    @contextmanager
    def _write(self, wait: bool = True) -> Iterator[sa.Connection | None]:
        with self.engine.connect() as conn:
            conn.execution_options(sawbones_write=True)  # SQLite: BEGIN IMMEDIATE
            with conn.begin():
                yield conn

    def _upsert_meta(self, conn: sa.Connection, key: str, value: str) -> None:
        raise NotImplementedError

    def _new_campaign_id(self, conn: sa.Connection) -> int | None:
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
        except sa_exc.IntegrityError:
            raise UsageError(f"a campaign named {name!r} already exists") from None
        return cid

    def _insert_campaign(self, conn: sa.Connection, name: str, now: float) -> int:
        exists = conn.execute(sa.select(t.campaigns.c.id).where(t.campaigns.c.name == name)).first()
        if exists is not None:
            raise UsageError(f"a campaign named {name!r} already exists")
        values: dict[str, Any] = {"name": name, "created_at": now}
        cid = self._new_campaign_id(conn)
        if cid is not None:
            values["id"] = cid
        result = conn.execute(sa.insert(t.campaigns).values(**values).returning(t.campaigns.c.id))
        return int(result.scalar_one())

    @_guarded
    def campaign_id(self, name: str) -> int:
        with self._read() as conn:
            cid = conn.execute(sa.select(t.campaigns.c.id).where(t.campaigns.c.name == name)).scalar()
        if cid is None:
            known = ", ".join(self.campaign_names()) or "none yet"
            raise NotFound(f"no campaign named {name!r} (campaigns: {known})")
        return int(cid)

    @_guarded
    def campaign_names(self) -> list[str]:
        with self._read() as conn:
            return list(conn.execute(sa.select(t.campaigns.c.name).order_by(t.campaigns.c.id)).scalars())

    @_guarded
    def delete_campaign(self, name: str) -> None:
        cid = self.campaign_id(name)
        with self._write() as conn:
            conn.execute(sa.delete(t.snapshots).where(t.snapshots.c.campaign_id == cid))
            conn.execute(sa.delete(t.events).where(t.events.c.campaign_id == cid))
            conn.execute(sa.delete(t.campaigns).where(t.campaigns.c.id == cid))

    @_guarded
    def rename_campaign(self, campaign_id: int, expected_version: int, action: int, event: dict[str, Any],
                        content_version: str) -> None:
        """The campaign's row takes event["data"]["name"] and the event is appended, in one transaction."""
        name = event["data"]["name"]
        try:
            with self._write() as conn:
                if conn.execute(sa.select(t.campaigns.c.id).where(t.campaigns.c.name == name)).first() is not None:
                    raise UsageError(f"a campaign named {name!r} already exists")
                conn.execute(sa.update(t.campaigns).where(t.campaigns.c.id == campaign_id).values(name=name))
                if self._head(conn, campaign_id) != expected_version:
                    raise ConflictError("the campaign changed while you renamed it; nothing was written, try again")
                self._insert_events(conn, campaign_id, expected_version, action, [event], content_version, time.time())
        except sa_exc.IntegrityError:
            raise UsageError(f"a campaign named {name!r} already exists") from None

    @_guarded
    def get_meta(self, key: str) -> str | None:
        with self._read() as conn:
            return conn.execute(sa.select(t.meta.c.value).where(t.meta.c.key == key)).scalar()

    @_guarded
    def set_meta(self, key: str, value: str) -> None:
        with self._write() as conn:
            self._upsert_meta(conn, key, value)

    # -------------------------------------------------------- events
    def _insert_events(self, conn: sa.Connection, cid: int, expected_version: int, action: int,
                       events: Iterable[dict[str, Any]], content_version: str, now: float) -> int:
        rows = []
        version = expected_version
        for ev in events:
            version += 1
            rows.append(_row(cid, version, action, ev["type"], dump_data(ev["data"]),
                             _upcasting.EVENT_SCHEMA_VERSION, content_version, now))
        if rows:
            conn.execute(sa.insert(t.events), rows)
            self._notify(conn, cid, version)
        return version

    def _notify(self, conn: sa.Connection, cid: int, version: int) -> None:
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
                found = conn.execute(sa.select(t.campaigns.c.id).where(t.campaigns.c.id == campaign_id)
                                     .with_for_update()).first()
                if found is None:
                    raise NotFound("the campaign was deleted meanwhile; nothing was written")
                current = self._head(conn, campaign_id)
                if current != expected_version:
                    raise ConflictError(
                        f"the campaign changed while you acted (version {current}, you read {expected_version}); "
                        "nothing was written, try again")
                return self._insert_events(conn, campaign_id, expected_version, action, events, content_version,
                                           time.time())
        except sa_exc.IntegrityError:
            raise ConflictError("another write reached the campaign first; nothing was written, try again") from None

    @staticmethod
    def _head(conn: sa.Connection, cid: int) -> int:
        value = conn.execute(sa.select(sa.func.max(t.events.c.version)).where(t.events.c.campaign_id == cid)).scalar()
        return int(value or 0)

    @_guarded
    def head(self, campaign_id: int) -> int:
        with self._read() as conn:
            return self._head(conn, campaign_id)

    @_guarded
    def events(self, campaign_id: int, after: int = 0, *, upcast: bool = True,
               upto: int | None = None) -> list[StoredEvent]:
        e = t.events.c
        query = (sa.select(e.version, e.action, e.type, e.data, e.schema_version, e.content_version, e.created_at,
                           e.checksum)
                 .where(e.campaign_id == campaign_id, e.version > after).order_by(e.version))
        if upto is not None:
            query = query.where(e.version <= upto)
        with self._read() as conn:
            try:
                rows = conn.execute(query).all()
            except sa_exc.OperationalError as exc:
                if "decode" not in _message(exc).lower():
                    raise
                rows = None
            if rows is None:  # SQLite text that is not UTF-8: find the event
                self._undecodable(conn, campaign_id, after)
        return read_events(rows, after, _upcast if upcast else None, lambda: self._name(campaign_id), self.where)

    def _name(self, campaign_id: int) -> str:
        with self._read() as conn:
            name = conn.execute(sa.select(t.campaigns.c.name).where(t.campaigns.c.id == campaign_id)).scalar()
        return str(name) if name is not None else f"#{campaign_id}"

    def _undecodable(self, conn: sa.Connection, campaign_id: int, after: int) -> None:
        """Damaged for the first event of the campaign (after `after`) whose text is not UTF-8."""
        rows = conn.exec_driver_sql(
            "SELECT version, CAST(type AS BLOB), CAST(data AS BLOB), CAST(content_version AS BLOB) FROM events "
            "WHERE campaign_id = ? AND version > ? ORDER BY version", (campaign_id, after))
        for version, *texts in rows:
            try:
                for text in texts:
                    bytes(text or b"").decode("utf-8")
            except UnicodeDecodeError:
                raise Damaged(damaged_message(self._name(campaign_id), int(version), "its text is not UTF-8"),
                              self.where) from None
        raise Damaged(f"campaign {self._name(campaign_id)!r}: an event is damaged (its text is not UTF-8); nothing "
                      "was written. Restore your last backup, see docs/deployment.md", self.where)

    @_guarded
    def undo_markers(self, campaign_id: int, after: int = 0, upto: int | None = None) -> list[tuple[int, int]]:
        e = t.events.c
        query = (sa.select(e.version, e.data).where(e.campaign_id == campaign_id, e.type == UNDO, e.version > after)
                 .order_by(e.version))
        if upto is not None:
            query = query.where(e.version <= upto)
        with self._read() as conn:
            rows = conn.execute(query).all()
        return undo_pairs(rows, lambda: self._name(campaign_id), self.where)

    @_guarded
    def actions(self, campaign_id: int, upto: int | None = None) -> list[tuple[int, str]]:
        e = t.events.c
        first = sa.select(e.action, sa.func.min(e.version).label("v")).where(e.campaign_id == campaign_id)
        if upto is not None:
            first = first.where(e.version <= upto)
        first = first.group_by(e.action).subquery()
        query = (sa.select(e.action, e.type).join(first, sa.and_(e.version == first.c.v))
                 .where(e.campaign_id == campaign_id).order_by(e.action))
        with self._read() as conn:
            return [(int(a), str(ty)) for a, ty in conn.execute(query)]

    @_guarded
    def import_campaign(self, name: str, events: Sequence[StoredEvent]) -> int:
        check_sequence(events)
        try:
            with self._write() as conn:
                cid = self._insert_campaign(conn, name, events[0].created_at if events else time.time())
                rows = [_row(cid, ev.version, ev.action, ev.type, dump_data(ev.data), ev.schema_version,
                             ev.content_version, ev.created_at) for ev in events]
                for start in range(0, len(rows), 5000):
                    conn.execute(sa.insert(t.events), rows[start:start + 5000])
        except sa_exc.IntegrityError as exc:
            if "unique" in _message(exc).lower() or "duplicate" in _message(exc).lower():
                raise UsageError(f"a campaign named {name!r} already exists") from None
            raise
        return cid

    # -------------------------------------------------------- snapshots
    @_guarded
    def save_snapshot(self, campaign_id: int, info: SnapshotInfo, state: str, keep: int = 3) -> bool:
        s = t.snapshots.c
        with self._write(wait=False) as conn:
            if conn is None:
                return False  # another writer holds the lock: a cache is not worth a wait
            self._upsert_snapshot(conn, {
                "campaign_id": campaign_id, "version": info.version, "code_version": info.code_version,
                "content_version": info.content_version, "action": info.action, "state": state,
                "created_at": info.created_at or time.time()})
            conn.execute(sa.delete(t.snapshots).where(s.campaign_id == campaign_id,
                                                      s.code_version != info.code_version))
            newest = (sa.select(s.version).where(s.campaign_id == campaign_id, s.code_version == info.code_version)
                      .order_by(s.version.desc()).limit(keep))
            conn.execute(sa.delete(t.snapshots).where(s.campaign_id == campaign_id,
                                                      s.code_version == info.code_version,
                                                      s.version.not_in(newest.scalar_subquery())))
        return True

    def _upsert_snapshot(self, conn: sa.Connection, row: dict[str, Any]) -> None:
        raise NotImplementedError

    @_guarded
    def snapshots(self, campaign_id: int, code_version: str) -> list[SnapshotInfo]:
        s = t.snapshots.c
        query = (sa.select(s.version, s.action, s.code_version, s.content_version, s.created_at)
                 .where(s.campaign_id == campaign_id, s.code_version == code_version).order_by(s.version.desc()))
        with self._read() as conn:
            return [SnapshotInfo(*row) for row in conn.execute(query)]

    @_guarded
    def snapshot_state(self, campaign_id: int, version: int, code_version: str) -> str | None:
        s = t.snapshots.c
        with self._read() as conn:
            return conn.execute(sa.select(s.state).where(s.campaign_id == campaign_id, s.version == version,
                                                         s.code_version == code_version)).scalar()

    # -------------------------------------------------------- maintenance
    def _damaged_events(self) -> list[str]:
        """The first damaged event of every campaign (checksums, text, JSON)."""
        problems = []
        with self._read() as conn:
            ids = list(conn.execute(sa.select(t.campaigns.c.id).order_by(t.campaigns.c.id)).scalars())
        for cid in ids:
            try:
                self.events(cid, upcast=False)
            except Damaged as exc:
                problems.append(exc.message)
        return problems

    def _log_gaps(self, conn: sa.Connection) -> list[str]:
        e = t.events.c
        query = (sa.select(t.campaigns.c.name, sa.func.count(), sa.func.max(e.version))
                 .join(t.campaigns, t.campaigns.c.id == e.campaign_id).group_by(t.campaigns.c.name))
        return [f"campaign {name!r}: {n} events but head {head} (a gap in the log)"
                for name, n, head in conn.execute(query) if n != head]

    def close(self) -> None:
        """Nothing to release: the engine (and its connection pool) is shared by this process's stores."""

    def dispose(self) -> None:
        """Close this database's pooled connections (tests, shutdown); a later use reconnects."""
        _forget_engine(self.engine)


def _row(cid: int, version: int, action: int, etype: str, data: str, schema_version: int, content_version: str,
         created_at: float) -> dict[str, Any]:
    """An events row as written, with its checksum."""
    return {"campaign_id": cid, "version": version, "action": action, "type": etype, "data": data,
            "schema_version": schema_version, "content_version": content_version, "created_at": created_at,
            "checksum": checksum(version, action, etype, data, schema_version, content_version, created_at)}


def _upcast(etype: str, schema_version: int, data: dict[str, Any]) -> tuple[str, int, dict[str, Any]]:
    return _upcasting.upcast(etype, schema_version, data)


def check_sequence(events: Sequence[StoredEvent]) -> None:
    """A log as import writes it: versions 1, 2, 3 ... and actions that never go down."""
    last_action = 0
    for i, ev in enumerate(events, start=1):
        if ev.version != i:
            raise UsageError(f"event versions must run 1, 2, 3 ... without gaps (found {ev.version} at position {i})")
        if ev.action < last_action or ev.action < 1:
            raise UsageError(f"event {ev.version}: action numbers must never go down (found {ev.action})")
        last_action = ev.action


# ---------------------------------------------------------------- SQLite


class SqliteEventStore(SqlEventStore):
    backend = "sqlite"

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(_shared(("sqlite",) + _sqlite_key(path), lambda: _sqlite_engine(path), path))

    @contextmanager
    def _write(self, wait: bool = True) -> Iterator[sa.Connection | None]:
        """Writers queue on an OS file lock (locks.file_lock, bounded) before BEGIN IMMEDIATE.

        SQLite's own busy handler sleeps and polls (up to 100 ms a turn), so under many concurrent
        writers from several worker processes a write could wait far longer than the writes before it
        took. wait=False: yields None at once when another writer holds the lock (snapshots: a read
        never waits on the writer)."""
        with locks.file_lock(self.path, time.monotonic() + locks.lock_wait(), wait=wait) as held:
            if not held:
                yield None
                return
            with super()._write() as conn:
                self._check_wal(conn)
                yield conn

    def _check_wal(self, conn: sa.Connection) -> None:
        if self.shared.stopped:
            raise StoreError(self.shared.stopped, self.where)
        stopped = wal_replaced(self.path, conn.connection.info)
        if stopped:
            self.shared.stopped = stopped
            raise StoreError(stopped, self.where)

    @contextmanager
    def writer_turn(self, campaign_id: int, deadline: float) -> Iterator[None]:
        """Hold the writer's turn across load, decide and append: this process's threads first come,
        first served, then the file lock shared with every other process (both bounded by deadline)."""
        with locks.turns(("sqlite", os.path.realpath(self.path))).turn(deadline, self.where):
            with locks.file_lock(self.path, deadline):
                yield

    def _upsert_meta(self, conn: sa.Connection, key: str, value: str) -> None:
        from sqlalchemy.dialects.sqlite import insert

        stmt = insert(t.meta).values(key=key, value=value)
        conn.execute(stmt.on_conflict_do_update(index_elements=[t.meta.c.key], set_={"value": value}))

    def _upsert_snapshot(self, conn: sa.Connection, row: dict[str, Any]) -> None:
        from sqlalchemy.dialects.sqlite import insert

        stmt = insert(t.snapshots).values(**row)  # a damaged snapshot at this version is replaced
        conn.execute(stmt.on_conflict_do_update(index_elements=["campaign_id", "version", "code_version"],
                                                set_={k: stmt.excluded[k] for k in ("state", "created_at")}))

    def _new_campaign_id(self, conn: sa.Connection) -> int:
        """Never reuse the id of a deleted campaign (caches are keyed by id)."""
        highest = conn.execute(sa.select(sa.func.max(t.campaigns.c.id))).scalar() or 0
        seq = conn.execute(sa.select(t.meta.c.value).where(t.meta.c.key == "campaign_id_seq")).scalar()
        cid = max(int(highest), int(seq or 0)) + 1
        self._upsert_meta(conn, "campaign_id_seq", str(cid))
        return cid

    @_guarded
    def check(self) -> list[str]:
        with self._read() as conn:
            result = [r[0] for r in conn.exec_driver_sql("PRAGMA integrity_check")]
            problems = [] if result == ["ok"] else result
            problems += [f"foreign key: {tuple(r)}" for r in conn.exec_driver_sql("PRAGMA foreign_key_check")]
            problems += self._log_gaps(conn)
        return problems + self._damaged_events()

    @_guarded
    def backup_to(self, dest: str | Path) -> None:
        """A consistent copy of the whole database while it is in use (SQLite online backup).

        sqlite3.Error (a full disk, a file-size limit) reaches the caller, which cleans up."""
        import sqlite3

        raw = self.engine.raw_connection()
        try:
            target = sqlite3.connect(str(dest))
            try:
                raw.driver_connection.backup(target)
            finally:
                target.close()
        finally:
            raw.close()


# ---------------------------------------------------------------- PostgreSQL


_PG_TURN_SPACE = 0x5A3B  # first key of the advisory locks that hold a campaign's writer turn


class PostgresEventStore(SqlEventStore):
    backend = "postgresql"

    def __init__(self, url: Any) -> None:
        where = url.render_as_string(hide_password=True)
        super().__init__(_shared(("postgresql", url.render_as_string(hide_password=False)), lambda: _pg_engine(url),
                                 where))

    @contextmanager
    def writer_turn(self, campaign_id: int, deadline: float) -> Iterator[None]:
        """Hold the writer's turn on one campaign across load, decide and append: this process's
        threads first come, first served, then an advisory lock that PostgreSQL grants in order of
        request (lock_timeout bounds the wait). Other campaigns do not wait."""
        with locks.turns((self.database_id, campaign_id)).turn(deadline, self.where) as outermost:
            if not outermost:
                yield
                return
            try:
                with self.engine.connect() as conn, conn.begin():
                    left_ms = max(1, int((deadline - time.monotonic()) * 1000))
                    conn.exec_driver_sql(f"SET LOCAL lock_timeout = {left_ms}")
                    conn.execute(sa.text("SELECT pg_advisory_xact_lock(:space, :cid)"),
                                 {"space": _PG_TURN_SPACE, "cid": campaign_id})
                    yield
            except sa_exc.OperationalError as exc:
                if "lock timeout" in _message(exc).lower():
                    raise locks.Busy(locks.busy_message(locks.lock_wait()), self.where) from None
                raise _store_error(exc, self.where) from None

    def _notify(self, conn: sa.Connection, cid: int, version: int) -> None:
        from .notify import pg_notify

        pg_notify(conn, f"e:{cid}:{version}")

    def _upsert_meta(self, conn: sa.Connection, key: str, value: str) -> None:
        from sqlalchemy.dialects.postgresql import insert

        stmt = insert(t.meta).values(key=key, value=value)
        conn.execute(stmt.on_conflict_do_update(index_elements=[t.meta.c.key], set_={"value": value}))

    def _upsert_snapshot(self, conn: sa.Connection, row: dict[str, Any]) -> None:
        from sqlalchemy.dialects.postgresql import insert

        stmt = insert(t.snapshots).values(**row)  # a damaged snapshot at this version is replaced
        conn.execute(stmt.on_conflict_do_update(index_elements=["campaign_id", "version", "code_version"],
                                                set_={k: stmt.excluded[k] for k in ("state", "created_at")}))

    @_guarded
    def check(self) -> list[str]:
        with self._read() as conn:
            problems = self._log_gaps(conn)
        return problems + self._damaged_events()


# ---------------------------------------------------------------- engines, shared per process
# The web app opens a Service per request: the engine, its connection pool, the schema check and the
# database's id are made once per process and database, and reused.


@dataclass
class _Shared:
    engine: sa.Engine
    where: str
    database_id: str
    stopped: str = ""  # why this process no longer writes to this database (SQLite: its WAL was replaced)


_ENGINES: "OrderedDict[tuple[Any, ...], _Shared]" = OrderedDict()
_ENGINES_LOCK = threading.Lock()
MAX_ENGINES = 8  # a process rarely uses more than one database; tests use many, one after the other


def _sqlite_key(path: str) -> tuple[Any, ...]:
    """The file itself: a database file replaced under the same name gets a new engine (and id)."""
    if path == ":memory:":
        return (path,)
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except OSError:
        return (real, None)
    return (real, st.st_dev, st.st_ino)


def _sqlite_engine(path: str) -> sa.Engine:
    if path != ":memory:" and Path(path).is_dir():
        raise StoreError("cannot open the database: this is a directory", path)
    engine = sa.create_engine(sa.URL.create("sqlite+pysqlite", database=path),
                              connect_args={"timeout": locks.lock_wait(), "check_same_thread": False})

    @sa_event.listens_for(engine, "connect")
    def _connect(dbapi_conn, _record) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves (below)
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=FULL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @sa_event.listens_for(engine, "begin")
    def _begin(conn) -> None:
        write = conn.get_execution_options().get("sawbones_write")
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


def _pg_engine(url: Any) -> sa.Engine:
    return sa.create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=10,
                            connect_args={"connect_timeout": 10, "application_name": "sawbones"})


def _shared(key: tuple[Any, ...], make: Any, where: str) -> _Shared:
    key = key + (os.getpid(),)  # never share pooled connections across a fork
    with _ENGINES_LOCK:
        found = _ENGINES.get(key)
        if found is not None:
            _ENGINES.move_to_end(key)
            return found
    engine = make()
    try:
        from .migrate import ensure_schema

        ensure_schema(engine, where)
        database_id = _database_id(engine)
    except sa_exc.SQLAlchemyError as exc:
        engine.dispose()
        raise _store_error(exc, where) from None
    except BaseException:
        engine.dispose()
        raise
    shared = _Shared(engine, where, database_id)
    with _ENGINES_LOCK:
        if key in _ENGINES:  # another thread opened it meanwhile
            engine.dispose()
            return _ENGINES[key]
        _ENGINES[key] = shared
        while len(_ENGINES) > MAX_ENGINES:
            _, old = _ENGINES.popitem(last=False)
            old.engine.dispose()
    return shared


def _database_id(engine: sa.Engine) -> str:
    import uuid

    with engine.connect() as conn:
        found = conn.execute(sa.select(t.meta.c.value).where(t.meta.c.key == "database_id")).scalar()
        conn.rollback()
    if found:
        return found
    with engine.connect() as conn:
        conn.execution_options(sawbones_write=True)
        with conn.begin():
            found = conn.execute(sa.select(t.meta.c.value).where(t.meta.c.key == "database_id")).scalar()
            if not found:
                found = uuid.uuid4().hex
                conn.execute(sa.insert(t.meta).values(key="database_id", value=found))
    return found


def _forget_engine(engine: sa.Engine) -> None:
    with _ENGINES_LOCK:
        for key, shared in list(_ENGINES.items()):
            if shared.engine is engine:
                del _ENGINES[key]
    engine.dispose()


def dispose_all() -> None:
    """Close every pooled connection of this process (tests; before replacing a database file)."""
    with _ENGINES_LOCK:
        engines = [s.engine for s in _ENGINES.values()]
        _ENGINES.clear()
    for engine in engines:
        engine.dispose()


# ---------------------------------------------------------------- opening


def open_store(target: str | os.PathLike[str]) -> EventStore:
    """A store for a path or URL: a file path or sqlite:///path -> SQLite; postgresql[+psycopg]://... -> PostgreSQL."""
    target = str(target)
    if "://" not in target:
        return SqliteEventStore(os.path.expanduser(target))
    try:
        url = sa.make_url(target)
        port = url.port
    except (sa_exc.ArgumentError, ValueError):
        raise UsageError(f"cannot read the database URL {_hide(target)!r} (expected "
                         "postgresql+psycopg://user:password@host:port/dbname, the port a number)") from None
    if port is not None and not 0 < port < 65536:
        raise UsageError(f"the database URL {_hide(target)!r} has port {port}: a port is 1 to 65535")
    backend, _, driver = url.drivername.partition("+")
    if backend == "sqlite":
        if driver not in ("", "pysqlite"):
            raise UsageError(f"unsupported SQLite driver {driver!r} (use sqlite:///path)")
        if not url.database:
            raise UsageError("a SQLite URL needs a path: sqlite:///campaigns.db")
        return SqliteEventStore(url.database)
    if backend in ("postgresql", "postgres"):
        if driver not in ("", "psycopg"):
            raise UsageError(f"unsupported PostgreSQL driver {driver!r} (use postgresql+psycopg://...)")
        return PostgresEventStore(url.set(drivername="postgresql+psycopg"))
    raise UsageError(f"unsupported database URL {_hide(target)!r}: use a file path, sqlite:///path "
                     "or postgresql+psycopg://user:password@host/dbname")


def _hide(target: str) -> str:
    try:
        return sa.make_url(target).render_as_string(hide_password=True)
    except (sa_exc.ArgumentError, ValueError):
        scheme, _, rest = target.partition("://")
        return f"{scheme}://***@{rest.split('@')[-1]}" if "@" in rest else target
