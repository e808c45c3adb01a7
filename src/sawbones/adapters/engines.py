"""Databases on their DB-API drivers (the standard library's sqlite3, psycopg), shared per process: a small
connection pool, transactions, the SQL written once with `?` marks, and database errors said as StoreError:
one line naming the database, never a driver's traceback (the store and its backends use them).

Opening a database at the current schema reads its revision and its id (one short transaction) and imports
no SQLAlchemy: SQLAlchemy and Alembic are imported by migrate.py only when the schema must be created or
upgraded.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import sys
import threading
import time
from collections import OrderedDict
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from ..errors import SawbonesError, StoreError
from ..message import Message, msg
from . import integrity, locks
from .group_commit import Batch, Batches
from .faults import space_problem
from .records import HEAD


# ---------------------------------------------------------------- errors


def db_errors() -> tuple[type[BaseException], ...]:
    """The exception classes of the drivers (and of SQLAlchemy, when a migration loaded it)."""
    found: tuple[type[BaseException], ...] = (sqlite3.Error,)
    if "psycopg" in sys.modules:
        found += (sys.modules["psycopg"].Error,)
    if "sqlalchemy.exc" in sys.modules:
        found += (sys.modules["sqlalchemy.exc"].SQLAlchemyError,)
    return found


def is_integrity_error(exc: BaseException) -> bool:
    """A unique key or a foreign key refused the write."""
    orig = getattr(exc, "orig", None) or exc
    if isinstance(orig, sqlite3.IntegrityError):
        return True
    psycopg = sys.modules.get("psycopg")
    return psycopg is not None and isinstance(orig, psycopg.IntegrityError)


def _message(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None) or exc
    text = str(orig).strip().splitlines()[0] if str(orig).strip() else type(orig).__name__
    return text


def _store_error(exc: BaseException, where: str) -> StoreError:
    said = _message(exc)
    low = said.lower()
    if "file is not a database" in low or "not a database" in low:
        return StoreError(msg("not a sawbones database ({problem})", problem=said), where)
    if "malformed" in low or "corrupt" in low:
        return StoreError(msg("the database file is damaged ({first}{more}): restore it from a backup (see "
                              "docs/deployment.md)", first=said, more=""), where)
    if "database is locked" in low or "database is busy" in low:
        return locks.Busy(locks.busy_message(locks.lock_wait()), where)
    if "unable to open database" in low:
        return StoreError(msg("cannot open the database ({problem})", problem=said), where)
    if "disk is full" in low or "disk i/o error" in low:
        room = space_problem(where)
        if room:
            return StoreError(msg("{room}: nothing was written; make room and try again ({problem})", room=room,
                                  problem=said), where)
    orig = getattr(exc, "orig", None) or exc
    psycopg = sys.modules.get("psycopg")
    if psycopg is not None and isinstance(orig, (psycopg.OperationalError, psycopg.InterfaceError)):
        return StoreError(msg("database unavailable ({problem})", problem=said), where)
    return StoreError(msg("database error ({problem})", problem=said), where)


def _guarded(fn):
    """Every public method: database errors become StoreError with one clear line."""

    @functools.wraps(fn)
    def wrapper(self, *args, **kwargs):
        try:
            return fn(self, *args, **kwargs)
        except SawbonesError:
            raise
        except db_errors() as exc:
            raise _store_error(exc, self.where) from None

    return wrapper


# ---------------------------------------------------------------- connections and the pool


class Conn:
    """One DB-API connection: statements written with `?` marks (PostgreSQL's driver gets `%s`); `info` is
    this connection's own dict (the integrity marks, the identity of its write-ahead log)."""

    __slots__ = ("raw", "pg", "info", "used")

    def __init__(self, raw: Any, pg: bool) -> None:
        self.raw, self.pg, self.info, self.used = raw, pg, {}, time.monotonic()

    def execute(self, sql: str, params: Any = ()) -> Any:
        return self.raw.execute(sql.replace("?", "%s") if self.pg else sql, params)

    def executemany(self, sql: str, rows: list[Any]) -> None:
        if self.pg:
            with self.raw.cursor() as cur:
                cur.executemany(sql.replace("?", "%s"), rows)
        else:
            self.raw.executemany(sql, rows)

    def value(self, sql: str, params: Any = ()) -> Any:
        """The first column of the first row, or None."""
        row = self.execute(sql, params).fetchone()
        return row[0] if row else None


class _Pool:
    """Connections kept for reuse, at most `limit` open at once: a thread past it waits up to Database.WAIT
    seconds. PostgreSQL: every connection that comes back healthy is kept, and past Database.KEEP idle ones,
    those unused for Database.IDLE seconds are closed when another comes back (closing what came back past
    KEEP made a busy worker open a new connection for most requests, each a new server process). SQLite: at
    most KEEP are kept (each holds its own page cache in this process, up to 2 MB; a new one is a file
    opened)."""

    def __init__(self, db: "Database", limit: int) -> None:
        self.db, self.limit = db, limit
        self.keep = limit if db.backend == "postgresql" else db.KEEP  # idle connections kept at most
        self.idle: list[Conn] = []
        self.open = 0
        self.generation = 0
        self.cond = threading.Condition(threading.Lock())

    def checkout(self) -> Conn:
        db = self.db
        deadline = time.monotonic() + db.WAIT
        with self.cond:
            while not self.idle and self.open >= self.limit:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise StoreError(msg("all {limit} database connections stayed busy for {wait} s; nothing was "
                                         "written, try again", limit=self.limit, wait=db.WAIT), db.where)
                self.cond.wait(left)
            conn = self.idle.pop() if self.idle else None
            self.open += conn is None
            generation = self.generation
        if conn is not None and _usable(conn):
            return conn
        if conn is not None:
            self.discard(conn)
            with self.cond:
                self.open += 1
        try:
            conn = Conn(db.connect(), db.backend == "postgresql")
        except BaseException:
            with self.cond:
                self.open -= 1
                self.cond.notify()
            raise
        conn.info["generation"] = generation
        return conn

    def checkin(self, conn: Conn, healthy: bool) -> None:
        conn.used = now = time.monotonic()
        stale: list[Conn] = []
        with self.cond:
            if healthy and conn.info.get("generation") == self.generation and len(self.idle) < self.keep:
                self.idle.append(conn)  # (taken from the end: the first ones are the longest unused)
                self.cond.notify()
                while len(self.idle) > self.db.KEEP and now - self.idle[0].used > self.db.IDLE:
                    stale.append(self.idle.pop(0))
            else:
                stale.append(conn)
        for old in stale:
            self.discard(old)

    def discard(self, conn: Conn) -> None:
        try:
            conn.raw.close()
        except Exception:  # noqa: BLE001 - closing a broken connection
            pass
        with self.cond:
            self.open -= 1
            self.cond.notify()

    def dispose(self) -> None:
        with self.cond:
            idle, self.idle = self.idle, []
            self.generation += 1
        for conn in idle:
            self.discard(conn)


def _usable(conn: Conn) -> bool:
    """PostgreSQL: a connection known to be closed is not handed out (one the server closed unseen is found by
    the BEGIN of the next transaction, which then starts again on a new connection)."""
    return not conn.pg or not (conn.raw.closed or conn.raw.broken)


class Database:
    """One database for this process: pooled connections (threads take turns on each) and transactions.

    SQLite: WAL journal, synchronous=FULL, foreign keys on, writes under BEGIN IMMEDIATE. PostgreSQL:
    autocommit connections on which the store issues BEGIN/COMMIT itself, the same as on SQLite."""

    KEEP = 5  # idle connections kept however long they stay unused
    IDLE = 60.0  # seconds: past KEEP, an idle connection unused this long is closed
    LIMIT = 15  # connections open at once; a thread past it waits up to WAIT seconds
    HELD = 5  # of which held across an action (PostgreSQL: the writer's turn of a campaign)
    WAIT = 30.0

    def __init__(self, backend: str, where: str, connect: Callable[[], Any], *, path: str = "", url: str = "") -> None:
        self.backend, self.where, self.path, self.url = backend, where, path, url
        self.real_path = os.path.realpath(path) if path else path  # (the writer's turn is keyed by it)
        self.connect = connect
        self.database_id = ""
        self.stopped: Message | str = ""  # why this process no longer writes to this database (SQLite: its WAL was replaced)
        held = self.HELD if backend == "postgresql" else 0
        self._pool = _Pool(self, 1 if path == ":memory:" else self.LIMIT - held)
        self._held = _Pool(self, max(held, 1))  # a thread waiting for one of these holds no other connection
        self.batches = Batches()  # each thread's group commit, when it runs one (SQLite: group_commit.py)

    def dispose(self) -> None:
        """Close the idle connections; those in use close when they come back. A later use reconnects."""
        self._pool.dispose()
        self._held.dispose()

    @contextmanager
    def connection(self, held: bool = False) -> Iterator[Conn]:
        """A connection out of the pool, without a transaction (PostgreSQL: autocommit).

        held=True: one held while its thread takes others (the writer's turn on PostgreSQL), out of a pool of
        its own: threads holding one each and waiting for another never deadlock, since the other pool's
        connections are never held across a wait."""
        pool = self._held if held else self._pool
        conn = pool.checkout()
        try:
            yield conn
        except BaseException:
            pool.checkin(conn, self._rollback(conn))
            raise
        pool.checkin(conn, True)

    # -------------------------------------------------------- transactions
    @contextmanager
    def transaction(self, write: bool = False, held: bool = False, then: str = "") -> Iterator[Conn]:
        """BEGIN (SQLite writes: BEGIN IMMEDIATE) ... COMMIT; ROLLBACK on any error. `then` (PostgreSQL):
        statements sent with the BEGIN, in the same round trip (no parameters: their values are written in)."""
        pool = self._held if held else self._pool
        batch = self.batches.current()
        if batch is not None and (write or batch.conn is not None):  # a write of a group commit: a SAVEPOINT
            if batch.conn is None:
                batch.pool, batch.conn = pool, self._begin(pool, "BEGIN IMMEDIATE")
            with self.batches.savepoint(batch, write) as conn:
                yield conn
            return
        begin = "BEGIN IMMEDIATE" if write and self.backend == "sqlite" else "BEGIN"
        conn = self._begin(pool, f"{begin}; {then}" if then else begin)
        try:
            yield conn
            conn.raw.execute("COMMIT")
        except BaseException:
            pool.checkin(conn, self._rollback(conn))
            raise
        pool.checkin(conn, True)

    @contextmanager
    def batch(self) -> Iterator[Batch | None]:
        """The thread's writes within, in one transaction and one COMMIT (group_commit.py); SQLite only (on
        PostgreSQL each write stays its own transaction: yields None)."""
        if self.backend != "sqlite":
            yield None
            return
        with self.batches.batch(self) as batch:
            yield batch

    def _begin(self, pool: _Pool, begin: str) -> Conn:
        """A connection in a new transaction (see `_first`)."""
        return self._first(pool, lambda conn: conn.raw.execute(begin))[0]

    def read(self, sql: str, params: Any = ()) -> list[Any]:
        """The rows of one read statement, outside any transaction: a statement is its own snapshot, so it
        needs no BEGIN and COMMIT around it (on PostgreSQL one round trip instead of three). Reads of several
        statements that must agree take `transaction()`. In a group commit that wrote, on its connection."""
        writing = self.batches.writing()
        if writing is not None:
            return writing.execute(sql, params).fetchall()
        conn, rows = self._first(self._pool, lambda conn: conn.execute(sql, params).fetchall())
        self._pool.checkin(conn, True)
        return rows

    def _first(self, pool: _Pool, statement: Callable[[Conn], Any]) -> tuple[Conn, Any]:
        """A pooled connection and what its first statement gave (the caller checks the connection in).
        PostgreSQL: a pooled connection the server closed meanwhile (a restart, an idle timeout) fails at its
        first statement, before anything was done: the statement runs again, once, on a new connection, the
        pool's other idle ones closed with it."""
        for retry in (False, True):
            conn = pool.checkout()
            try:
                return conn, statement(conn)
            except BaseException:
                healthy = self._rollback(conn)
                pool.checkin(conn, healthy)
                if healthy or retry or not conn.pg:
                    raise
                pool.dispose()  # the other idle connections went the same way
        raise AssertionError("unreachable")  # pragma: no cover

    @staticmethod
    def _rollback(conn: Conn) -> bool:
        """Roll back what is open; False when the connection is no longer usable."""
        try:
            if conn.pg:
                if conn.raw.closed or conn.raw.broken:
                    return False
                if conn.raw.info.transaction_status != 0:  # not IDLE
                    conn.raw.execute("ROLLBACK")
            elif conn.raw.in_transaction:
                conn.raw.execute("ROLLBACK")
            return True
        except Exception:  # noqa: BLE001
            return False


def sqlite_connect(path: str) -> sqlite3.Connection:
    raw = sqlite3.connect(path, timeout=locks.lock_wait(), check_same_thread=False, isolation_level=None)
    try:
        raw.execute("PRAGMA journal_mode=WAL")
        raw.execute("PRAGMA synchronous=FULL")
        raw.execute("PRAGMA foreign_keys=ON")
    except BaseException:
        raw.close()
        raise
    return raw


def pg_connect(url: str) -> Any:
    import psycopg

    return psycopg.connect(url, autocommit=True, connect_timeout=10, application_name="sawbones")


# ---------------------------------------------------------------- databases, shared per process
# The web app opens a Service per request: the pool, the schema check and the database's id are made
# once per process and database, and reused.

_ENGINES: "OrderedDict[tuple[Any, ...], Database]" = OrderedDict()
_ENGINES_LOCK = threading.Lock()
MAX_ENGINES = 8  # a process rarely uses more than one database; tests use many, one after the other


def _sqlite_key(path: str) -> tuple[Any, ...]:
    """The file itself: a database file replaced under the same name gets a new pool (and id)."""
    if path == ":memory:":
        return (path,)
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except OSError:
        return (real, None)
    return (real, st.st_dev, st.st_ino)


def _shared(key: tuple[Any, ...], make: Callable[[], Database]) -> Database:
    key = key + (os.getpid(),)  # never share pooled connections across a fork
    with _ENGINES_LOCK:
        found = _ENGINES.get(key)
        if found is not None:
            _ENGINES.move_to_end(key)
            return found
    db = make()
    if db.backend == "sqlite":
        integrity.close_at_exit(dispose_all)
    try:
        if not _current(db):
            from .migrate import ensure_schema

            ensure_schema(db)
        db.database_id = _database_id(db)
    except db_errors() as exc:
        db.dispose()
        raise _store_error(exc, db.where) from None
    except BaseException:
        db.dispose()
        raise
    with _ENGINES_LOCK:
        if key in _ENGINES:  # another thread opened it meanwhile
            db.dispose()
            return _ENGINES[key]
        _ENGINES[key] = db
        while len(_ENGINES) > MAX_ENGINES:
            _, old = _ENGINES.popitem(last=False)
            integrity.dispose(old)
    return db


def _current(db: Database) -> bool:
    """Whether the database is at the head revision (then no migration code is imported)."""
    try:
        with db.transaction() as conn:
            return conn.value("SELECT version_num FROM alembic_version") == HEAD
    except db_errors() as exc:
        low = _message(exc).lower()
        if "no such table" in low or ("alembic_version" in low and "does not exist" in low):
            return False
        raise


def _database_id(db: Database) -> str:
    import uuid

    with db.transaction() as conn:
        found = conn.value("SELECT value FROM meta WHERE key = 'database_id'")
    if found:
        return str(found)
    with db.transaction(write=True) as conn:
        found = conn.value("SELECT value FROM meta WHERE key = 'database_id'")
        if not found:
            found = uuid.uuid4().hex
            conn.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("database_id", found))
    return str(found)


def _forget(db: Database) -> None:
    with _ENGINES_LOCK:
        for key, shared in list(_ENGINES.items()):
            if shared is db:
                del _ENGINES[key]
    integrity.dispose(db)


def dispose_all() -> None:
    """Close every pooled connection of this process (tests; before replacing a database file)."""
    with _ENGINES_LOCK:
        found = list(_ENGINES.values())
        _ENGINES.clear()
    for db in found:
        integrity.dispose(db)  # a clean close: stamped as it left the files
