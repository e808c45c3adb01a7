"""The SQLite watcher's poll (adapters/notify.py) reads each watched campaign's head with one seek of the
events' key, whatever the length of its log: it runs every `poll_interval` on the event loop for every
watched campaign (hub.py), so its work must not grow with the campaigns' histories. Counted in SQLite's own
virtual machine steps (a progress handler), never timed."""

from __future__ import annotations

import sqlite3

from sawbones.adapters.backends import open_store
from sawbones.adapters.notify import SqliteWatcher
from sawbones.application.service import Service


def _steps_of_a_poll(path: str, ids: list[int]) -> tuple[int, dict]:
    watcher = SqliteWatcher(path)
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0  # (go on)

    watcher.conn.set_progress_handler(count, 10)
    try:
        moved = watcher.poll({}, set(ids))
    finally:
        watcher.close()
    return steps[0], moved


def _lengthen(path: str, ids: list[int], more: int) -> None:
    """Each campaign's log made `more` events longer (copies of its last event: the poll reads only heads)."""
    conn = sqlite3.connect(path)
    columns = [row[1] for row in conn.execute("PRAGMA table_info(events)")]
    select = ", ".join("version + ?" if c == "version" else "action + ?" if c == "action" else c for c in columns)
    with conn:
        for cid in ids:
            head = conn.execute("SELECT MAX(version) FROM events WHERE campaign_id = ?", (cid,)).fetchone()[0]
            for n in range(1, more + 1):
                conn.execute(f"INSERT INTO events ({', '.join(columns)}) SELECT {select} FROM events "
                             "WHERE campaign_id = ? AND version = ?", (n, n, cid, head))
    conn.close()


def test_polling_the_heads_costs_the_same_whatever_the_length_of_the_logs(tmp_path):
    path = str(tmp_path / "watched.db")
    service = Service(open_store(path), snapshot_every=0)
    names = [f"table {n}" for n in range(20)]
    for name in names:
        service.create_campaign(name, "dnd5e", 1)
    ids = [service.store.campaign_id(name) for name in names]
    heads = {cid: service.store.head(cid) for cid in ids}
    service.close()

    short, moved = _steps_of_a_poll(path, ids)
    assert {cid: seen[0] for cid, seen in moved.items()} == heads
    _lengthen(path, ids, 300)
    long, moved = _steps_of_a_poll(path, ids)
    assert {cid: seen[0] for cid, seen in moved.items()} == {cid: head + 300 for cid, head in heads.items()}
    assert long < short * 1.5, (short, long)  # (reading every event of every campaign: 30 times more)


def test_a_poll_behind_another_programs_lock_gives_up_at_once_and_misses_nothing(tmp_path):
    """Another program holds the whole file (an exclusive lock: a tool's long write on a file in rollback
    mode, a VACUUM). The poll runs on the event loop, so it must not wait for it: it says Busy (the hub looks
    again next turn) instead of holding every request of the worker for a busy timeout; once the lock is let
    go, the next poll reads the heads it could not, the campaigns just watched included. (The file here is
    only the tables the poll reads, in rollback mode: a WAL file's readers are not held up by writers.)"""
    import pytest

    from sawbones.adapters.notify import Busy

    path = str(tmp_path / "held.db")
    made = sqlite3.connect(path, isolation_level=None)
    made.executescript("CREATE TABLE campaigns (id INTEGER PRIMARY KEY, name TEXT);"
                       "CREATE TABLE events (campaign_id INTEGER, version INTEGER, PRIMARY KEY (campaign_id, version));"
                       "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);"
                       "INSERT INTO campaigns VALUES (1, 'table 1'), (2, 'table 2');"
                       "INSERT INTO events VALUES (1, 1), (1, 2), (2, 1);")
    made.close()
    watcher = SqliteWatcher(path)
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("INSERT INTO events VALUES (2, 2)")
        with pytest.raises(Busy):
            watcher.poll({}, {1, 2})
        holder.execute("COMMIT")
    finally:
        holder.close()
    try:
        moved = watcher.poll({}, {1, 2})
    finally:
        watcher.close()
    assert {cid: seen[0] for cid, seen in moved.items()} == {1: 2, 2: 2}
