"""Every wait on a writer lock has a bound and one clear line; writers queue instead of refusing each other."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from sawbones.adapters import locks
from sawbones.adapters.engines import dispose_all
from sawbones.adapters.backends import open_store
from sawbones.application.service import Service
from sawbones.errors import StoreError

HOLDER = textwrap.dedent("""
    import fcntl, sys, time
    with open(sys.argv[1], "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)   # a writer suspended mid-write (Ctrl+Z), a stuck worker
        print("held", flush=True)
        time.sleep(600)
""")


def note(tag: str, n: int):
    return lambda ctx: [{"type": "noted", "data": {"by": tag, "n": n}}]


@pytest.fixture
def held_lock(tmp_path):
    """Another process holds the database's writer lock and never lets go."""
    db = str(tmp_path / "c.db")
    service = Service(open_store(db), snapshot_every=0)
    service.create_campaign("Held", "dnd5e", 1)
    for n in range(120):  # past the snapshot interval: the next load wants to save a snapshot
        service.act("Held", note("gm", n))
    dispose_all()
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, locks.lock_path(db)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    yield db
    holder.kill()
    holder.wait()


def _sawbones(db: str, *args: str, wait: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, SAWBONES_LOCK_WAIT=wait)
    # a hang is the fault these tests rule out: the subprocess timeout turns it into a failure
    return subprocess.run([sys.executable, "-m", "sawbones", "--db", db, "-c", "Held", *args], env=env,
                          capture_output=True, text=True, timeout=120)


def test_a_write_behind_a_held_lock_gives_up_with_one_line(held_lock):
    done = _sawbones(held_lock, "character", "add", "Aria", "--max-hp", "10", wait="0.5")
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "another writer held the database for more than 0.5 s" in done.stderr
    assert "nothing was written" in done.stderr
    assert "Aria" not in [c.name for c in Service.open(held_lock).load("Held").state.characters]


def test_a_read_with_a_snapshot_due_never_waits_for_the_writer(held_lock):
    """`status` 120 events after the last snapshot wants to save one; with the lock held it skips it."""
    service = Service(open_store(held_lock))
    cid = service.store.campaign_id("Held")
    from sawbones.application.service import code_version

    assert service.store.snapshots(cid, code_version()) == []
    dispose_all()
    done = _sawbones(held_lock, "--json", "status", wait="600")  # would wait 10 minutes if reads waited
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)
    assert service.store.snapshots(cid, code_version()) == [], "skipped, to be saved by a later load"


def test_the_bound_and_its_message_in_process(tmp_path, monkeypatch):
    db = str(tmp_path / "c.db")
    Service.open(db).create_campaign("Held", "dnd5e", 1)
    monkeypatch.setenv("SAWBONES_LOCK_WAIT", "0.2")
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, locks.lock_path(db)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(locks.Busy, match="more than 0.2 s.*nothing was written"):
            Service(open_store(db)).act("Held", note("gm", 1))
        with pytest.raises(locks.Busy):
            open_store(db).set_meta("k", "v")
    finally:
        holder.kill()
        holder.wait()
    Service(open_store(db)).act("Held", note("gm", 2))  # the lock is free again: the write goes through


def test_postgresql_turn_is_bounded(pg_url, monkeypatch):
    import sqlalchemy as sa

    from sawbones.adapters.backends import _PG_TURN_SPACE

    service = Service(open_store(pg_url))
    service.create_campaign("Held", "dnd5e", 1)
    cid = service.store.campaign_id("Held")
    monkeypatch.setenv("SAWBONES_LOCK_WAIT", "0.3")
    engine = sa.create_engine(pg_url)
    try:
        with engine.connect() as conn, conn.begin():  # another worker stuck in its turn
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:s, :c)"), {"s": _PG_TURN_SPACE, "c": cid})
            with pytest.raises(locks.Busy, match="more than 0.3 s"):
                Service(open_store(pg_url)).act("Held", note("gm", 1))
            other = Service(open_store(pg_url))
            other.create_campaign("Free", "dnd5e", 1)
            other.act("Free", note("gm", 1))  # another campaign does not wait
    finally:
        engine.dispose()
    Service(open_store(pg_url)).act("Held", note("gm", 2))
    assert [e.data["n"] for e in service.log("Held") if e.type == "noted"] == [2]


def test_the_lock_file_takes_the_databases_group_and_mode(tmp_path):
    db = tmp_path / "shared.db"
    Service.open(str(db)).create_campaign("Shared", "dnd5e", 1)
    dispose_all()
    os.chmod(db, 0o660)
    os.chown(db, -1, 100)  # a group shared by the GM and the service account
    lock = locks.lock_path(str(db))
    os.unlink(lock)
    old = os.umask(0o077)
    try:
        Service(open_store(str(db))).act("Shared", note("gm", 1))
    finally:
        os.umask(old)
    st = os.stat(lock)
    assert stat.S_IMODE(st.st_mode) == 0o660 and st.st_gid == 100


def test_an_unusable_lock_file_is_one_line(tmp_path, capsys):
    from sawbones.interfaces.cli import main

    db = str(tmp_path / "c.db")
    Service.open(db).create_campaign("Odd", "dnd5e", 1)
    dispose_all()
    os.unlink(locks.lock_path(db))
    os.mkdir(locks.lock_path(db))  # stands in for any lock file this account cannot open
    capsys.readouterr()
    code = main(["--db", db, "-c", "Odd", "character", "add", "Aria", "--max-hp", "10"])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert f"cannot use the writer lock {locks.lock_path(db)}" in err


def test_turns_are_first_come_first_served():
    turns = locks.Turns()
    order: list[int] = []
    threads = []
    with turns.turn(time.monotonic() + 60):
        for n in range(6):
            th = threading.Thread(target=lambda n=n: _take(turns, order, n))
            th.start()
            threads.append(th)
            while len(turns._queue) < n + 1:  # wait until this one is in the queue before the next arrives
                time.sleep(0.001)
    for th in threads:
        th.join()
    assert order == list(range(6))


def test_a_turn_ends_by_handing_it_to_the_next_waiter_alone():
    """Ending a turn gives it to the first in the queue at once (it wakes owning it); the others sleep on: a
    release wakes one thread, not every waiter (32 waking GMs cost a worker most of its time)."""
    turns = locks.Turns()
    order: list[int] = []
    hold = threading.Event()

    def first() -> None:
        with turns.turn(time.monotonic() + 60):
            order.append(0)
            hold.wait(60)

    threads = []
    with turns.turn(time.monotonic() + 60):
        for n, target in enumerate((first, lambda: _take(turns, order, 1), lambda: _take(turns, order, 2))):
            threads.append(threading.Thread(target=target))
            threads[-1].start()
            while len(turns._queue) < n + 1:
                time.sleep(0.001)
        waiters = list(turns._queue)
    assert turns._owner == threads[0].ident  # handed over as the turn ended, before thread 0 ran again
    assert [t for t, _ in turns._queue] == [threads[1].ident, threads[2].ident]
    assert all(not lock.acquire(blocking=False) for _, lock in waiters[1:])  # the others still asleep
    hold.set()
    for th in threads:
        th.join()
    assert order == [0, 1, 2] and turns._owner is None and not turns._queue


def _take(turns: locks.Turns, order: list[int], n: int) -> None:
    with turns.turn(time.monotonic() + 60):
        order.append(n)


def test_a_turn_that_does_not_come_in_time_leaves_the_queue():
    turns = locks.Turns()
    with turns.turn(time.monotonic() + 60):
        failed = []
        th = threading.Thread(target=lambda: _late(turns, failed))
        th.start()
        th.join()
        assert failed and isinstance(failed[0], locks.Busy)
        assert len(turns._queue) == 0
    with turns.turn(time.monotonic()):  # free: taken at once, even with no time left
        pass


def _late(turns: locks.Turns, failed: list) -> None:
    try:
        with turns.turn(time.monotonic() + 0.05):
            pass
    except StoreError as exc:
        failed.append(exc)


def test_32_writers_at_once_none_refused(store_url):
    """32 GMs (web worker threads, one service each) act on one campaign at once, no retry allowed:
    every action is written, because writers queue for their turn instead of colliding."""
    Service.open(store_url).create_campaign("Rush", "dnd5e", 1)
    barrier = threading.Barrier(32)
    refused: list[Exception] = []

    def gm(tag: str) -> None:
        service = Service(open_store(store_url), retries=0)
        barrier.wait()
        for n in range(4):
            try:
                service.act("Rush", note(tag, n))
            except Exception as exc:  # noqa: BLE001
                refused.append(exc)

    threads = [threading.Thread(target=gm, args=(f"gm{i}",)) for i in range(32)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert refused == []
    service = Service.open(store_url)
    got = [(e.data["by"], e.data["n"]) for e in service.log("Rush") if e.type == "noted"]
    assert sorted(got) == sorted((f"gm{i}", n) for i in range(32) for n in range(4))
    assert service.store.check() == []


WORKER = textwrap.dedent("""
    import sys
    from sawbones.adapters.backends import open_store
    from sawbones.application.service import Service

    url, tag = sys.argv[1], sys.argv[2]
    service = Service(open_store(url), retries=0)   # no retry: only taking turns can keep this at 0 refused
    sys.stdin.readline()                             # start together
    for n in range(5):
        service.act("Procs", lambda ctx, n=n: [{"type": "noted", "data": {"by": tag, "n": n}}])
""")


def test_writer_processes_take_turns_none_refused(store_url):
    Service.open(store_url).create_campaign("Procs", "dnd5e", 1)
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, store_url, f"p{i}"], stdin=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for i in range(6)]
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    errs = [p.communicate(timeout=180)[1] for p in procs]
    assert [p.returncode for p in procs] == [0] * 6, errs
    got = [e.data["by"] for e in Service.open(store_url).log("Procs") if e.type == "noted"]
    assert len(got) == 30


@pytest.mark.parametrize("replaced", [False, True])
def test_a_deleted_or_replaced_wal_stops_the_writes(tmp_path, replaced):
    """Deleting `-wal` under a running server used to lose the acknowledged actions after it."""
    db = str(tmp_path / "live.db")
    service = Service(open_store(db))
    service.create_campaign("Live", "dnd5e", 1)
    service.act("Live", note("gm", 1))
    os.unlink(f"{db}-wal")
    if replaced:  # files copied back under the running app: another -wal file by the same name
        with open(f"{db}-wal", "wb"):
            pass
    for _ in range(2):  # and it stays stopped
        with pytest.raises(StoreError, match="write-ahead log \\(live.db-wal\\) was deleted or replaced.*never "
                                             "delete or move the -wal"):
            service.act("Live", note("gm", 2))
    dispose_all()


CAMPAIGN_HOLDER = textwrap.dedent("""
    import sys
    from sawbones.adapters.backends import open_store
    store = open_store(sys.argv[1])
    with store.writer_turn(store.campaign_id(sys.argv[2]), float("inf")):  # a GM's action that never ends
        print("held", flush=True)
        sys.stdin.read()
""")


def test_a_writers_turn_holds_its_campaign_only_across_processes(tmp_path):
    """SQLite: another process in the middle of an action on campaign A (its turn held) keeps other GMs off A,
    each given up after its bound with one line and nothing written, while campaign B is written at once."""
    db = str(tmp_path / "c.db")
    service = Service(open_store(db))
    for name in ("A", "B"):
        service.create_campaign(name, "dnd5e", 1)
    dispose_all()
    holder = subprocess.Popen([sys.executable, "-c", CAMPAIGN_HOLDER, db, "A"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    try:
        assert holder.stdout.readline().strip() == "held"
        done = _sawbones(db, "--campaign", "B", "character", "add", "Bo", "--max-hp", "10", wait="600")
        assert done.returncode == 0, done.stderr  # would wait 10 minutes if the turn held the whole file
        refused = _sawbones(db, "--campaign", "A", "character", "add", "Al", "--max-hp", "10", wait="0.5")
        assert refused.returncode == 1 and "nothing was written" in refused.stderr, refused.stderr
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
    after = Service.open(db)
    assert [c.name for c in after.load("B").state.characters] == ["Bo"]
    assert list(after.load("A").state.characters) == []
    assert _sawbones(db, "--campaign", "A", "character", "add", "Al", "--max-hp", "10", wait="5").returncode == 0


def test_threads_acting_on_other_campaigns_do_not_wait_for_a_turn_held(tmp_path, monkeypatch):
    """In one process (the web app's threads): a turn held on campaign A does not hold B's writers."""
    db = str(tmp_path / "c.db")
    service = Service(open_store(db))
    for name in ("A", "B"):
        service.create_campaign(name, "dnd5e", 1)
    monkeypatch.setenv("SAWBONES_LOCK_WAIT", "600")  # a wait would hang the test (its timeout), not pass
    holding, release = threading.Event(), threading.Event()

    def hold_a() -> None:
        store = open_store(db)
        with store.writer_turn(store.campaign_id("A"), time.monotonic() + 600):
            holding.set()
            release.wait(600)

    holder = threading.Thread(target=hold_a)
    holder.start()
    try:
        assert holding.wait(60)
        written: list[int] = []
        worker = threading.Thread(target=lambda: written.append(
            len(Service(open_store(db)).act("B", note("gm", 1))[1])))
        worker.start()
        worker.join(60)
        assert written == [1]
    finally:
        release.set()
        holder.join()


def test_without_campaign_locks_writers_of_several_campaigns_still_all_write(tmp_path, monkeypatch):
    """Where the per-campaign lock cannot be had (not Linux, a read-only lock file), a turn holds the whole
    database: threads acting on different campaigns at once, and writes outside any action (a secret made,
    an option...), then take turns; none waits on another until its bound."""
    import fcntl

    monkeypatch.delattr(fcntl, "F_OFD_SETLK")
    monkeypatch.setenv("SAWBONES_LOCK_WAIT", "5")
    db = str(tmp_path / "c.db")
    names = [f"C{n}" for n in range(6)]
    for name in names:
        Service(open_store(db)).create_campaign(name, "dnd5e", 1)
    barrier = threading.Barrier(len(names))
    refused: list[Exception] = []

    def gm(name: str) -> None:
        service = Service(open_store(db), retries=0)
        barrier.wait()
        for n in range(5):
            try:
                service.act(name, note(name, n))
                service.store.set_meta(f"seen:{name}", str(n))  # a write that takes no campaign's turn
            except StoreError as exc:
                refused.append(exc)

    threads = [threading.Thread(target=gm, args=(name,)) for name in names]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
    assert refused == []
    assert all(len(Service.open(db).log(name)) >= 5 for name in names)
