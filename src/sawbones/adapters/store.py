"""The event store: one contract (EventStore), implemented once on SQLAlchemy 2 Core (SqlEventStore); the two
backends (SQLite, PostgreSQL) and open_store() are in backends.py, engines and errors in engines.py.

The log is append-only, keyed by (campaign, version). Optimistic concurrency: ``append`` names the
version it read; if the campaign moved on meanwhile, nothing is written and ConflictError is
raised. One action's events are written all or nothing.

Snapshots are a cache of folded states (see application/service.py): the store keeps them as
opaque JSON text, keyed by (campaign, version, code version), never as a source of truth.

SQLAlchemy is imported here, never by the CLI at start: open_store() (backends.py) is called on first use.
"""

from __future__ import annotations

import json
import time
from abc import ABC, abstractmethod
from contextlib import contextmanager
from typing import Any, Iterable, Iterator, Sequence

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc

from ..errors import ConflictError, NotFound, UsageError
from . import integrity
from . import tables as t
from .records import (Damaged, SnapshotInfo, StoredEvent, check_sequence, checksum, damaged_message, read_events,
                      undo_pairs)
from . import upcast as _upcasting
from .engines import _forget_engine, _guarded, _message, _Shared

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


# ---------------------------------------------------------------- the SQL implementation


class SqlEventStore(EventStore):
    """The contract on SQLAlchemy Core; the backends differ only in engine set-up and a few statements."""

    backend = "sql"

    def __init__(self, shared: _Shared) -> None:
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

    def _insert(self, table: sa.Table) -> Any:  # the backend's INSERT ... ON CONFLICT (sqlalchemy.dialects)
        raise NotImplementedError

    def _upsert_meta(self, conn: sa.Connection, key: str, value: str) -> None:
        stmt = self._insert(t.meta).values(key=key, value=value)
        conn.execute(stmt.on_conflict_do_update(index_elements=[t.meta.c.key], set_={"value": value}))

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
                integrity.refuse_damaged(conn, campaign_id, self.where)
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
                integrity.refuse_damaged(conn, campaign_id, self.where)
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
        stmt = self._insert(t.snapshots).values(**row)  # a damaged snapshot at this version is replaced
        conn.execute(stmt.on_conflict_do_update(index_elements=["campaign_id", "version", "code_version"],
                                                set_={k: stmt.excluded[k] for k in ("state", "created_at")}))

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
        return list(self.damaged_campaigns().values())

    def damaged_campaigns(self) -> dict[int, str]:
        """{campaign id: the line that names its first damaged event}."""
        problems = {}
        with self._read() as conn:
            ids = list(conn.execute(sa.select(t.campaigns.c.id).order_by(t.campaigns.c.id)).scalars())
        for cid in ids:
            try:
                self.events(cid, upcast=False)
            except Damaged as exc:
                problems[cid] = exc.message
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
