"""Group commit beside other writers (another worker process, the CLI): a batch keeps the write lock from its
first write to its COMMIT, so what it does with the campaigns' writer turns decides whether two processes
writing one database wait for each other. What a GM with two workers relies on: another process never
decides on a campaign as it was before a write of the batch (and then conflicts), and a batch never waits
for a turn held by a writer that waits for the batch's lock (each would wait for the other until a deadline,
and the action given up)."""

from __future__ import annotations

import select
import subprocess
import sys
import textwrap

import pytest

from sawbones.adapters import locks
from sawbones.application.service import Service

OTHER_WRITER = textwrap.dedent("""
    import sys
    from sawbones.application.service import Service

    path, campaign = sys.argv[1], sys.argv[2]

    def decide(ctx):  # says what it decides on, each time it is called
        print("deciding", flush=True)
        return [{"type": "noted", "data": {"by": "other", "n": 0}}]

    service = Service.open(path)
    service.act(campaign, decide)
    print("done", flush=True)
""")


def note(tag: str):
    return lambda ctx: [{"type": "noted", "data": {"by": tag, "n": 0}}]


def noted(path, name: str) -> list[str]:
    return [e.data["by"] for e in Service.open(str(path)).log(name) if e.type == "noted"]


def other_writer(path, campaign: str) -> subprocess.Popen:
    """Another program writing to the same file: one action on `campaign`."""
    return subprocess.Popen([sys.executable, "-c", OTHER_WRITER, str(path), campaign], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def said_within(process: subprocess.Popen, seconds: float) -> str | None:
    """The next line the process prints, if it prints one within `seconds`."""
    ready, _, _ = select.select([process.stdout], [], [], seconds)
    return process.stdout.readline().strip() if ready else None


@pytest.fixture
def table(tmp_path, monkeypatch):
    monkeypatch.setenv("SAWBONES_LOCK_WAIT", "20")
    path = tmp_path / "writers.db"
    service = Service.open(str(path))
    for name in ("Alpha", "Beta"):
        service.create_campaign(name, "dnd5e", 1)
    return path, service


def test_another_process_decides_on_a_campaign_only_once_the_batch_that_wrote_it_committed(table):
    path, service = table
    with service.group_commit() as batch:
        batch.begin_piece()
        service.act("Alpha", note("batch"))
        other = other_writer(path, "Alpha")
        # the batch's write to Alpha is not durable yet: the other program waits for Alpha's turn, it does not
        # decide on Alpha as it was before that write
        assert said_within(other, 1.0) is None
    assert said_within(other, 20) == "deciding"  # once, on Alpha as the batch left it: no conflict, no retry
    assert said_within(other, 20) == "done"
    assert other.wait(20) == 0, other.stderr.read()
    assert noted(path, "Alpha") == ["batch", "other"]


def test_a_batch_never_waits_for_a_turn_held_by_a_writer_that_waits_for_the_batch(table):
    path, service = table
    with service.group_commit() as batch:
        batch.begin_piece()
        service.act("Alpha", note("batch"))  # the batch holds the file's write lock from here
        other = other_writer(path, "Beta")
        assert said_within(other, 20) == "deciding"  # it holds Beta's turn, and waits for the write lock
        batch.begin_piece()
        with locks.waiting_briefly(0.05):  # as in the writers' lane: a lock held longer is given up
            service.act("Beta", note("batch"))  # commits Alpha's write first, then waits its turn on Beta
        assert batch.commits == 1
        assert said_within(other, 20) == "done"
    assert other.wait(20) == 0, other.stderr.read()
    assert noted(path, "Alpha") == ["batch"]
    assert noted(path, "Beta") == ["other", "batch"]


class _CommitFails:
    """A connection whose next COMMIT fails, as one that cannot reach the disk (then it is itself again)."""

    def __init__(self, conn) -> None:
        self.conn, self.raw = conn, conn.raw

    def execute(self, sql: str, *args):
        if sql == "COMMIT":
            self.conn.raw = self.raw
            raise OSError("disk I/O error")
        return self.raw.execute(sql, *args)

    def __getattr__(self, name: str):
        return getattr(self.raw, name)


def test_the_lane_answers_the_actions_a_flush_committed_at_once_and_fails_those_a_failed_flush_lost(table):
    import threading

    from sawbones.interfaces.web.http.writers_lane import LaneThread

    path, service = table
    db = Service.open(str(path)).store.db  # (the database the lane's services share)
    lane = LaneThread("test-lane", lambda: Service.open(str(path)).group_commit())

    queued: list = []

    def batch_of(*works):
        gate, started = threading.Event(), threading.Event()
        blocker = lane.submit(lambda: (started.set(), gate.wait(10)))  # holds the thread while the others queue
        assert started.wait(10)
        queued[:] = [lane.submit(work) for work in works]
        gate.set()
        blocker.result(10)
        return list(queued)

    def act(name: str):
        return lambda: Service.open(str(path)).act(name, note("lane"))[0].version

    def flush(fail: bool):
        def work():
            batch = db.batches.current()
            if fail:
                batch.conn.raw = _CommitFails(batch.conn)
            db.batches.flush(db)  # as writer_turn does when another writer holds a turn
        return work

    def then_act(name: str, seen: list):
        def work():
            seen.append(queued[0].done())  # the first piece is answered by then
            return act(name)()
        return work

    seen: list[bool] = []
    first, middle, last = batch_of(act("Alpha"), flush(False), then_act("Beta", seen))
    assert first.result(10) and last.result(10) and middle.exception(10) is None
    assert seen == [True]  # answered once the flush committed, not at the batch's end
    assert noted(path, "Alpha") == ["lane"] and noted(path, "Beta") == ["lane"]

    seen.clear()
    first, middle, last = batch_of(act("Alpha"), flush(True), then_act("Beta", seen))
    for future in (first, middle):  # the flush's COMMIT failed: Alpha's action was not written
        with pytest.raises(OSError, match="disk I/O error"):
            future.result(10)
    assert last.result(10) and seen == [True]  # the batch went on in a new transaction
    assert noted(path, "Alpha") == ["lane"] and noted(path, "Beta") == ["lane", "lane"]
    assert Service.open(str(path)).store.check() == []


def test_a_piece_that_holds_a_turn_is_never_flushed_from_under_it(table):
    """A flush gives back every lock the batch holds: a piece that took a turn (and may take another) would lose
    it while it still decides; only a piece that holds none and wrote nothing may flush the batch."""
    import time

    path, service = table
    store = Service.open(str(path)).store
    alpha = store.campaign_id("Alpha")
    with store.batch() as batch:
        batch.begin_piece()
        assert batch.may_flush()
        with store.writer_turn(alpha, time.monotonic() + 5):
            assert not batch.may_flush()
        batch.begin_piece()
        assert batch.may_flush()
