"""The two backends of the event store, and opening one from a path or URL (store.py holds the contract).

- SQLite, the embedded default: a file (or ``sqlite:///path``), WAL journal, ``synchronous=FULL``
  (a write the GM was told about survives a crash of the process and of the machine), writes
  under ``BEGIN IMMEDIATE`` so that two writers queue instead of deadlocking.
- PostgreSQL: ``postgresql+psycopg://user:password@host:port/dbname`` (``postgresql://`` is
  accepted and means the same), for several web workers on one database.
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc

from ..errors import StoreError, UsageError
from . import integrity, locks
from .faults import wal_replaced
from . import tables as t
from .engines import _guarded, _message, _pg_engine, _shared, _sqlite_engine, _sqlite_key, _store_error
from .store import EventStore, SqlEventStore


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
            damaged = integrity.before_write(self)  # the whole file checked first if it changed behind our back
            with super()._write() as conn:
                self._check_wal(conn)
                integrity.mark(conn, damaged)
                yield conn
            integrity.after_write(self, damaged)

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

    def _insert(self, table: sa.Table) -> Any:
        from sqlalchemy.dialects.sqlite import insert

        return insert(table)

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

    def _insert(self, table: sa.Table) -> Any:
        from sqlalchemy.dialects.postgresql import insert

        return insert(table)

    @_guarded
    def check(self) -> list[str]:
        with self._read() as conn:
            problems = self._log_gaps(conn)
        return problems + self._damaged_events()


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
