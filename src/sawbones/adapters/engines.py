"""Database engines, shared per process and database (SQLite and PostgreSQL), and database errors said as
StoreError: one line naming the database, never a driver's traceback (the store and its backends use them)."""

from __future__ import annotations

import functools
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy import exc as sa_exc

from ..errors import SawbonesError, StoreError
from . import integrity, locks
from .faults import space_problem
from . import tables as t


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
    integrity.close_at_exit(dispose_all)

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
            integrity.dispose(old.engine, old.where)
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
    where = ""
    with _ENGINES_LOCK:
        for key, shared in list(_ENGINES.items()):
            if shared.engine is engine:
                del _ENGINES[key]
                where = shared.where
    integrity.dispose(engine, where)


def dispose_all() -> None:
    """Close every pooled connection of this process (tests; before replacing a database file)."""
    with _ENGINES_LOCK:
        engines = [(s.engine, s.where) for s in _ENGINES.values()]
        _ENGINES.clear()
    for engine, where in engines:
        integrity.dispose(engine, where)  # a clean close: stamped as it left the files
