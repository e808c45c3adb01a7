"""The two backends of the event store, and opening one from a path or URL (store.py holds the contract).

- SQLite, the embedded default: a file (or ``sqlite:///path``), WAL journal, ``synchronous=FULL``
  (a write the GM was told about survives a crash of the process and of the machine), writes
  under ``BEGIN IMMEDIATE`` so that two writers queue instead of deadlocking.
- PostgreSQL: ``postgresql+psycopg://user:password@host:port/dbname`` (``postgresql://`` is
  accepted and means the same), for several web workers on one database.

Both run the SQL of store.py on their DB-API driver (sqlite3, psycopg); what differs is here: connecting,
the writer's turn (a lock file, an advisory lock), NOTIFY, new campaign ids, check and backup.
"""

from __future__ import annotations

import os
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, Iterator


from ..errors import StoreError, StorePlaceError, UsageError
from ..message import msg
from . import integrity, locks
from .faults import wal_replaced
from .group_commit import Batch
from .engines import (Conn, Database, _guarded, _message, _shared, _sqlite_key, _store_error, db_errors, pg_connect,
                      sqlite_connect)
from .store import EventStore, SqlEventStore


# ---------------------------------------------------------------- SQLite


class SqliteEventStore(SqlEventStore):
    backend = "sqlite"
    local = True

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(_shared(("sqlite",) + _sqlite_key(path), lambda: _sqlite_database(path)))

    @contextmanager
    def _write(self, wait: bool = True) -> Iterator[Conn | None]:
        """Writers queue (this process's threads in turn, then an OS file lock: locks.database_lock, bounded)
        before BEGIN IMMEDIATE.

        SQLite's own busy handler sleeps and polls (up to 100 ms a turn), so under many concurrent
        writers from several worker processes a write could wait far longer than the writes before it
        took. wait=False: yields None at once when another writer holds the lock (snapshots: a read
        never waits on the writer). In a group commit (group_commit.py) the first write takes the lock for the
        whole batch and each write is a SAVEPOINT of its transaction."""
        batch = self.db.batches.current()
        if batch is not None:  # every write of a batch, a snapshot's too: under the batch's lock, stamped at its end
            with self._batched_write(batch, wait) as conn:
                yield conn
            return
        deadline = time.monotonic() + locks.lock_wait()
        with locks.database_lock(self.path, self.db.real_path, deadline, wait=wait) as held:
            if not held:
                yield None
                return
            if wait:  # (a snapshot, the one write that does not wait, is only a cache: it may be made again)
                locks.wrote()  # no later lock of this piece of work is given up: it could not be run again
            damaged = integrity.before_write(self)  # the whole file checked first if it changed behind our back
            with super()._write() as conn:
                self._check_wal(conn)
                integrity.mark(conn, damaged)
                yield conn
            integrity.after_write(self, damaged)

    @contextmanager
    def _batched_write(self, batch: Batch, wait: bool) -> Iterator[Conn | None]:
        first, damaged = batch.conn is None, {}
        if first:  # the batch's first write: the write lock, kept until the batch's COMMIT (wait=False: if free)
            deadline = time.monotonic() + locks.lock_wait()
            if not batch.held.enter_context(locks.database_lock(self.path, self.db.real_path, deadline, wait=wait)):
                yield None
                return
            damaged = integrity.before_write(self)
            batch.committed.append(lambda: integrity.after_write(self, damaged))
        if wait:
            locks.wrote()
        with super()._write() as conn:
            if first:
                self._check_wal(conn)
                integrity.mark(conn, damaged)
            yield conn

    def _check_wal(self, conn: Conn) -> None:
        if self.db.stopped:
            raise StoreError(self.db.stopped, self.where)
        stopped = wal_replaced(self.path, conn.info)
        if stopped:
            self.db.stopped = stopped
            raise StoreError(stopped, self.where)

    @contextmanager
    def writer_turn(self, campaign_id: int, deadline: float) -> Iterator[None]:
        """Hold the writer's turn on one campaign across load, decide and append: this process's threads first
        come, first served, then the campaign's lock shared with every other process (both bounded by deadline).
        Other campaigns do not wait; each append still takes the whole file for its transaction (`_write`).

        In a group commit the turn is kept until the batch's COMMIT, and a piece of work that wrote nothing yet
        never waits for a turn that another writer holds: it commits what the batch wrote first, which gives
        back every lock the batch held (group_commit.py)."""
        batch = self.db.batches.current()
        if batch is None:
            with self._turn(campaign_id, deadline):
                yield
            return
        taken = batch.may_flush() and batch.held.enter_context(self._turn(campaign_id, time.monotonic(), wait=False))
        if not taken:
            if batch.may_flush():  # another writer holds the turn, and may wait for a lock this batch holds
                self.db.batches.flush(self.db)
            batch.held.enter_context(self._turn(campaign_id, deadline))
        batch.piece_turns += 1
        yield  # (the turn kept until the batch's COMMIT)

    @contextmanager
    def _turn(self, campaign_id: int, deadline: float, wait: bool = True) -> Iterator[bool]:
        """The campaign's turn (see writer_turn): yields True holding it; wait=False: False at once, holding
        nothing, when another thread or process holds it."""
        with ExitStack() as held:
            try:
                outermost = held.enter_context(locks.turns(("sqlite", self.db.real_path, campaign_id))
                                               .turn(deadline, self.where))
            except locks.Busy:
                if wait:
                    raise
                outermost = None  # another thread's turn
            yield outermost is not None and (not outermost or held.enter_context(
                locks.campaign_lock(self.path, self.db.real_path, campaign_id, deadline, wait=wait)))

    def _new_campaign_id(self, conn: Conn) -> int:
        """Never reuse the id of a deleted campaign (caches are keyed by id)."""
        highest = conn.value("SELECT MAX(id) FROM campaigns") or 0
        seq = conn.value("SELECT value FROM meta WHERE key = 'campaign_id_seq'")
        cid = max(int(highest), int(seq or 0)) + 1
        self._upsert_meta(conn, "campaign_id_seq", str(cid))
        return cid

    @_guarded
    def check(self) -> list[str]:
        with self._read() as conn:
            result = [r[0] for r in conn.execute("PRAGMA integrity_check").fetchall()]
            problems = [] if result == ["ok"] else result
            problems += [f"foreign key: {tuple(r)}" for r in conn.execute("PRAGMA foreign_key_check").fetchall()]
            problems += self._log_gaps(conn)
        return problems + self._damaged_events()

    def backup_to(self, dest: str | Path) -> None:
        """A consistent copy of the whole database while it is in use (SQLite online backup).

        sqlite3.Error (a full disk, a file-size limit) reaches the caller, which cleans up."""
        import sqlite3

        with self.db.connection() as conn:
            target = sqlite3.connect(str(dest))
            try:
                conn.raw.backup(target)
            finally:
                target.close()


def _sqlite_database(path: str) -> Database:
    if path != ":memory:" and Path(path).is_dir():
        raise StorePlaceError(msg("cannot open the database: this is a directory"), path)
    return Database("sqlite", path, lambda: sqlite_connect(path), path=path)


# ---------------------------------------------------------------- PostgreSQL


_PG_TURN_SPACE = 0x5A3B  # first key of the advisory locks that hold a campaign's writer turn


class PostgresEventStore(SqlEventStore):
    backend = "postgresql"

    FOR_UPDATE = " FOR UPDATE"
    CHARACTER = "(data::jsonb ->> 'character')"

    def __init__(self, url: str, where: str) -> None:
        self.url = url  # for libpq, password included (the live watcher connects with it)
        super().__init__(_shared(("postgresql", url),
                                 lambda: Database("postgresql", where, lambda: pg_connect(url), url=url)))

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
                left_ms = max(1, int((deadline - time.monotonic()) * 1000))
                lock = (f"SET LOCAL lock_timeout = {left_ms}; "  # (one round trip with the BEGIN: ints written in)
                        f"SELECT pg_advisory_xact_lock({int(_PG_TURN_SPACE)}, {int(campaign_id)})")
                with self.db.transaction(held=True, then=lock):  # held while the action reads and appends
                    yield
            except db_errors() as exc:
                if "lock timeout" in _message(exc).lower():
                    raise locks.Busy(locks.busy_message(locks.lock_wait()), self.where) from None
                raise _store_error(exc, self.where) from None

    def _notify(self, conn: Conn, cid: int, after: int, rows: list[tuple[Any, ...]]) -> None:
        from .notify import append_payload, pg_notify

        pg_notify(conn, append_payload(cid, after, rows, self.database_id))

    @_guarded
    def notify(self, payload: str) -> None:
        """NOTIFY the live watchers on its own (a change of who may watch), committed at once."""
        from .notify import pg_notify

        with self.db.connection() as conn:
            pg_notify(conn, payload)

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
    scheme, _, rest = target.partition("://")
    backend, _, driver = scheme.lower().partition("+")
    if backend == "sqlite":
        if driver not in ("", "pysqlite"):
            raise UsageError(msg("unsupported SQLite driver {driver} (use sqlite:///path)", driver=repr(driver)))
        path = rest.partition("/")[2].partition("?")[0]  # sqlite:///relative.db, sqlite:////absolute.db
        if not path:
            raise UsageError(msg("a SQLite URL needs a path: sqlite:///campaigns.db"))
        return SqliteEventStore(path)
    if backend in ("postgresql", "postgres"):
        if driver not in ("", "psycopg"):
            raise UsageError(msg("unsupported PostgreSQL driver {driver} (use postgresql+psycopg://...)",
                                 driver=repr(driver)))
        user, host, port = _parts(target)
        if port is not None and not 0 < port < 65536:
            raise UsageError(msg("the database URL {url} has port {port}: a port is 1 to 65535", url=repr(_hide(target)),
                                 port=port))
        return PostgresEventStore(f"postgresql://{rest}", _hide(target, "postgresql+psycopg"))
    raise UsageError(msg("unsupported database URL {target}: use a file path, sqlite:///path or "
                         "postgresql+psycopg://user:password@host/dbname", target=repr(_hide(target))))


def _parts(target: str) -> tuple[str, str, int | None]:
    """(user info, host, port) of a URL; UsageError (one line, no password) when it cannot be read."""
    netloc = target.partition("://")[2].partition("/")[0].partition("?")[0]
    user, _, host = netloc.rpartition("@")
    port_text = ""
    if host.startswith("["):
        inside, bracket, after = host[1:].partition("]")
        if not bracket or (after and not after.startswith(":")):
            raise _unreadable(target)
        host, port_text = inside, after[1:]
    elif ":" in host:
        host, _, port_text = host.partition(":")
    if port_text and not port_text.isdigit() or ("[" in host or "]" in host):
        raise _unreadable(target)
    return user, host, int(port_text) if port_text else None


def _unreadable(target: str) -> UsageError:
    return UsageError(msg("cannot read the database URL {target} (expected "
                          "postgresql+psycopg://user:password@host:port/dbname, the port a number)",
                          target=repr(_hide(target))))


def _hide(target: str, scheme: str = "") -> str:
    """The URL with its password as ***."""
    old_scheme, _, rest = target.partition("://")
    netloc, slash, tail = rest.partition("/")
    user, at, host = netloc.rpartition("@")
    if at and ":" in user:
        user = user.partition(":")[0] + ":***"
    return f"{scheme or old_scheme}://{user}{at}{host}{slash}{tail}"
