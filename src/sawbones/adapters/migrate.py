"""Bring a database to the current schema when a store opens (Alembic, run programmatically).

- a new, empty database is created at the head revision;
- a database made before Alembic (campaigns/events/meta tables, no alembic_version) is the
  baseline revision 0001: it is stamped, then upgraded, without touching its events;
- a database at an older revision is upgraded; at the head revision nothing is imported or run
  (opening stays cheap: one query);
- a revision this code does not know means a newer sawbones wrote it: StoreError;
- tables that are not sawbones' mean a foreign database: StoreError "not a sawbones database".

Upgrades hold the write lock (SQLite BEGIN IMMEDIATE, a PostgreSQL advisory lock), so that
several workers starting at once migrate once.

The store itself runs on the DB-API drivers (engines.py) and calls this module only when the revision it
read is not the head: SQLAlchemy and Alembic are imported here, for the migration, on an engine made for
it and closed after it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import inspect, text

from ..errors import StoreError
from ..message import Listed, msg
from .integrity import check_intact

from .records import HEAD, REVISIONS  # noqa: F401  (re-exported)
BASELINE = "0001"
_BASELINE_TABLES = {"campaigns", "events", "meta"}
_PG_LOCK_KEY = 0x5A3B0E5  # any constant: "sawbones migrations"


def _state(conn: Any, where: str) -> tuple[str, str | None]:
    """("current" | "upgrade" | "legacy" | "new", revision)."""
    tables = set(inspect(conn).get_table_names())
    if "alembic_version" in tables:
        rev = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        if rev == HEAD:
            return "current", rev
        _check_intact(conn, where)
        if rev in REVISIONS:
            return "upgrade", rev
        if rev is None:
            if tables & _BASELINE_TABLES:
                raise StoreError(msg("the database is damaged (its schema revision is missing): restore it from a "
                                     "backup (see docs/deployment.md)"), where)
            return "new", None
        raise StoreError(msg("the database schema (revision {rev}) is newer than this sawbones (revision {HEAD}): "
                             "upgrade sawbones", rev=rev, HEAD=HEAD), where)
    if not tables:
        return "new", None
    if _BASELINE_TABLES <= tables:
        _check_intact(conn, where)
        row = conn.execute(text("SELECT value FROM meta WHERE key='schema_version'")).scalar()
        if row is not None and row.isdigit() and int(row) > 1:
            raise StoreError(msg("the database schema ({row}) is newer than this sawbones: upgrade sawbones", row=row),
                             where)
        return "legacy", BASELINE
    shown = Listed([*sorted(tables)[:6], *(["..."] if len(tables) > 6 else [])], "")
    raise StoreError(msg("not a sawbones database (it holds other tables: {shown})", shown=shown), where)


def _check_intact(conn: Any, where: str) -> None:
    """Before migrating a SQLite file, make sure it is not damaged (a damaged one could look older)."""
    if conn.dialect.name == "sqlite":
        check_intact(conn.exec_driver_sql("PRAGMA quick_check"), where)


def ensure_schema(db: Any) -> None:
    """Create or upgrade the schema of the database `db` (engines.Database) opens."""
    engine = _engine(db)
    try:
        _ensure(engine, db.where)
    finally:
        engine.dispose()


def _engine(db: Any) -> Any:
    import sqlalchemy as sa

    if db.backend == "postgresql":
        return sa.create_engine(db.url.replace("postgresql://", "postgresql+psycopg://", 1), poolclass=sa.NullPool,
                                connect_args={"connect_timeout": 10, "application_name": "sawbones"})
    from . import locks

    engine = sa.create_engine(sa.URL.create("sqlite+pysqlite", database=db.path), poolclass=sa.NullPool,
                              connect_args={"timeout": locks.lock_wait(), "check_same_thread": False})

    @sa.event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves (below)
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON"):
            dbapi_conn.execute(f"PRAGMA {pragma}")

    @sa.event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        write = conn.get_execution_options().get("sawbones_write")
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


def _ensure(engine: Any, where: str) -> None:
    with engine.connect() as conn:
        state, _ = _state(conn, where)
        conn.rollback()
    if state == "current":
        return
    with engine.connect() as conn:
        conn.execution_options(sawbones_write=True)
        with conn.begin():
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_LOCK_KEY})
            state, _ = _state(conn, where)  # another process may have migrated meanwhile
            if state != "current":
                _upgrade(conn, stamp_baseline=state == "legacy")


def _upgrade(conn: Any, stamp_baseline: bool) -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    cfg.attributes["connection"] = conn
    if stamp_baseline:
        command.stamp(cfg, BASELINE)
    command.upgrade(cfg, "head")
