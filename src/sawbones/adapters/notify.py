"""Watching campaigns change, for the live layer: one watcher per process, whatever the number of streams.

- PostgreSQL: every append sends `NOTIFY sawbones_live, 'e:{campaign id}:{version}:{database id}:{after}:
  {rows}'` in its own transaction (store.py), so a listener hears it exactly when the events are visible;
  the rows as written (JSON) go with it when the payload stays under NOTIFY_LIMIT, and the hub then reads
  nothing (`PgWatcher.told`; a bigger one ends at the database id). The database id (a random id per
  schema) keeps apart the sawbones of several schemas on one PostgreSQL database: the channel is the
  database's. A change of who may watch (a player link revoked, the API secret or the GM sessions renewed)
  sends `'a:{campaign id}'`. `PgWatcher` holds one LISTEN connection and wakes when something is said.
- SQLite: no notifications; `SqliteWatcher` asks `PRAGMA data_version` (a counter that moves when another
  connection commits) every tick, and only when it moved reads the heads of the watched campaigns in one
  query. A change of access is a meta row `live_access:{campaign id}` that moves.

`wait(known, fresh, timeout)` is the whole interface: `known` maps each watched campaign id to the
(head, access stamp) last seen; it returns those that moved, and the `fresh` ones (just watched) always.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import time
from typing import Any, Iterable
from urllib.parse import quote

CHANNEL = "sawbones_live"
ACCESS = "live_access:{cid}"
Seen = tuple[int, str]  # (head version, access stamp)
CHUNK = 400  # campaign ids per query


NOTIFY_LIMIT = 7_900  # bytes of a payload (PostgreSQL refuses 8,000 or more)
Told = tuple[int, list[tuple[Any, ...]]]  # (the version a write followed, its rows as written)


def append_payload(cid: int, after: int, rows: list[tuple[Any, ...]], database_id: str) -> str:
    """The NOTIFY of an append: its campaign, new head and database, and the rows it wrote when they fit."""
    short = f"e:{cid}:{after + len(rows)}:{database_id}"
    whole = f"{short}:{after}:{json.dumps(rows, separators=(',', ':'))}"
    return whole if len(whole.encode()) < NOTIFY_LIMIT else short


def pg_notify(conn: Any, payload: str) -> None:
    """NOTIFY in the caller's transaction (the store's connection, engines.Conn): delivered when it commits."""
    conn.execute("SELECT pg_notify(?, ?)", (CHANNEL, payload))


def access_changed(store: Any, cid: int) -> None:
    """Streams of the campaign check again who they serve (their token may be revoked, the secret rotated)."""
    store.set_meta(ACCESS.format(cid=cid), secrets.token_hex(6))
    if getattr(store, "backend", "") == "postgresql":
        store.notify(f"a:{cid}")


def _chunks(ids: list[int]) -> Iterable[list[int]]:
    for start in range(0, len(ids), CHUNK):
        yield ids[start:start + CHUNK]


def _seen(conn: Any, ids: Iterable[int], mark: str) -> dict[int, Seen]:
    """Heads and access stamps of the campaigns, read in a few queries (`mark`: the driver's placeholder)."""
    out: dict[int, Seen] = {}
    for part in _chunks(sorted(set(ids))):
        marks = ", ".join([mark] * len(part))
        # (each head one seek of the events' key: MAX(version) ... GROUP BY campaign_id read every event of
        # every watched campaign, on every poll: 6 ms a poll at 500 campaigns, growing with their logs)
        heads = dict(conn.execute(f"SELECT id, (SELECT MAX(version) FROM events WHERE campaign_id = campaigns.id) "
                                  f"FROM campaigns WHERE id IN ({marks})", part).fetchall())
        keys = [ACCESS.format(cid=cid) for cid in part]
        stamps = dict(conn.execute(f"SELECT key, value FROM meta WHERE key IN ({marks})", keys).fetchall())
        for cid, key in zip(part, keys):
            out[cid] = (int(heads.get(cid) or 0), stamps.get(key) or "")
    return out


def _moved(known: dict[int, Seen], now: dict[int, Seen], fresh: set[int]) -> dict[int, Seen]:
    return {cid: seen for cid, seen in now.items() if cid in fresh or known.get(cid) != seen}


class Busy(Exception):
    """Another connection holds the file (SQLite's busy or locked): nothing was read, look again next turn."""


class SqliteWatcher:
    """The poll runs on the hub's event loop: it never waits for a lock more than BUSY seconds (WAL readers
    are not held up by writers; another program's exclusive lock, a VACUUM, would otherwise hold every request
    of the worker for the connection's whole busy timeout)."""

    reads_wait = False  # reading a campaign is Python's work (in-process): one at a time
    BUSY = 0.005

    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True, timeout=self.BUSY,
                                    check_same_thread=False, isolation_level=None)
        self.version: int | None = None

    def wait(self, known: dict[int, Seen], fresh: set[int], timeout: float) -> dict[int, Seen]:
        if not fresh:
            time.sleep(timeout)
        return self.poll(known, fresh)

    def poll(self, known: dict[int, Seen], fresh: set[int]) -> dict[int, Seen]:
        """`wait` without the wait (the hub's watcher on the event loop sleeps there itself); Busy when another
        connection holds the file (the version is taken only with the heads it goes with)."""
        try:
            version = self.conn.execute("PRAGMA data_version").fetchone()[0]
            if version == self.version and not fresh:
                return {}
            seen = _seen(self.conn, set(known) | fresh, "?")
        except sqlite3.OperationalError as exc:
            if getattr(exc, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                raise Busy(str(exc)) from exc
            raise
        self.version = version
        return _moved(known, seen, fresh)

    def close(self) -> None:
        self.conn.close()


class PgWatcher:
    """One LISTEN connection; on a lost connection it reconnects and reads every watched head again."""

    reads_wait = True  # reading a campaign waits on the server: several may be read at once

    def __init__(self, url: str, database_id: str = "") -> None:
        self.url, self.database_id = url, database_id
        self.conn: Any = None
        self.told: dict[int, Told] = {}  # what the last `wait` heard appended, with its rows (`_told`)

    def _connect(self) -> Any:
        import psycopg

        conn = psycopg.connect(self.url, autocommit=True, connect_timeout=10, application_name="sawbones-live")
        conn.execute(f"LISTEN {CHANNEL}")
        return conn

    def wait(self, known: dict[int, Seen], fresh: set[int], timeout: float) -> dict[int, Seen]:
        import psycopg

        self.told = {}
        try:
            if self.conn is None:
                self.conn = self._connect()
                fresh = fresh | set(known)  # anything may have happened while no one listened
            heard = list(self.conn.notifies(timeout=0 if fresh else timeout, stop_after=1))
            if heard:  # then whatever else is already there
                heard += list(self.conn.notifies(timeout=0.002))
            heads, read = _heard(heard, known, self.database_id)
            self.told = _told(heard, known, self.database_id)
            read |= fresh
            now = {cid: (head, known[cid][1]) for cid, head in heads.items() if cid not in read}
            if read:
                now |= _seen(self.conn.cursor(), read, "%s")
            return _moved(known, now, fresh)
        except psycopg.Error:
            self.close()
            time.sleep(min(timeout, 1.0))
            return {}

    def close(self) -> None:
        if self.conn is not None:
            try:
                self.conn.close()
            except Exception:  # pragma: no cover - closing a broken connection
                pass
            self.conn = None


def _heard(notes: list[Any], known: dict[int, Seen], database_id: str = "") -> tuple[dict[int, int], set[int]]:
    """What the notifications say of the watched campaigns: ({id: newest head announced}, {ids to read
    again}). An append's payload carries its version, so a burst of appends costs no query; a change of
    access (or a payload this version cannot read) is read from the database."""
    heads: dict[int, int] = {}
    read: set[int] = set()
    for note in notes:
        kind, _, rest = note.payload.partition(":")
        cid_text, _, version = rest.partition(":")
        version, _, more = version.partition(":")
        if more and database_id and more.partition(":")[0] != database_id:  # another schema's sawbones
            continue
        if not cid_text.isdigit() or int(cid_text) not in known:
            continue
        cid = int(cid_text)
        if kind == "e" and version.isdigit():
            heads[cid] = max(heads.get(cid, known[cid][0]), int(version))
        else:
            read.add(cid)
    return heads, read


def _told(notes: list[Any], known: dict[int, Seen], database_id: str) -> dict[int, Told]:
    """The rows the appends' notifications carried, per watched campaign of this database: one run of writes
    following each other (a campaign whose writes do not, or one without its rows, is left out: read)."""
    told: dict[int, Told] = {}
    broken: set[int] = set()
    for note in notes:
        kind, _, rest = note.payload.partition(":")
        parts = rest.split(":", 4)  # campaign, version, database, after, rows
        if kind != "e" or not parts[0].isdigit() or int(parts[0]) not in known:
            continue
        cid = int(parts[0])
        if len(parts) > 2 and parts[2] != database_id:  # (another schema's: `_heard` leaves it out too)
            continue
        try:
            after, rows = int(parts[3]), [tuple(row) for row in json.loads(parts[4])]
        except (IndexError, ValueError, TypeError):
            broken.add(cid)
            continue
        if cid in told and told[cid][0] + len(told[cid][1]) == after:
            told[cid] = (told[cid][0], told[cid][1] + rows)
        elif cid in told:
            broken.add(cid)
        else:
            told[cid] = (after, rows)
    return {cid: found for cid, found in told.items() if cid not in broken}


def open_watcher(store: Any) -> SqliteWatcher | PgWatcher:
    """The watcher for the database the store opened."""
    if getattr(store, "backend", "") == "postgresql":
        return PgWatcher(store.url, store.database_id)
    return SqliteWatcher(store.path)
