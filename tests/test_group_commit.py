"""Group commit on SQLite: the GM actions queued in a writers' lane thread are written in one transaction and
made durable by one COMMIT. What a GM relies on, whatever the batching: an action is acknowledged only once it
is durable, an action that fails takes none of the others with it, an action sees what the one before it
wrote, and nothing is told to the live streams before it is written for good."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import contextmanager

import pytest

from sawbones.adapters.backends import open_store
from sawbones.adapters.store import APPENDED
from sawbones.application.service import Service
from sawbones.errors import ConflictError
from sawbones.interfaces.web.http.writers_lane import LaneThread


def note(tag: str, n: int = 0):
    return lambda ctx: [{"type": "noted", "data": {"by": tag, "n": n}}]


def noted(service: Service, name: str) -> list[tuple[str, int]]:
    return [(e.data["by"], e.data["n"]) for e in service.log(name) if e.type == "noted"]


def heads(path, *names: str) -> dict[str, int]:
    """The campaigns' heads as another program reading the file sees them."""
    with sqlite3.connect(path) as conn:
        return {name: conn.execute("SELECT COALESCE(MAX(e.version), 0) FROM events e JOIN campaigns c ON "
                                   "c.id = e.campaign_id WHERE c.name = ?", (name,)).fetchone()[0] for name in names}


@pytest.fixture
def table(tmp_path):
    path = tmp_path / "group.db"
    service = Service.open(str(path))
    for name in ("Alpha", "Beta", "Gamma"):
        service.create_campaign(name, "dnd5e", 1)
    return path, service


def test_a_batch_is_seen_by_others_only_once_committed_and_all_of_it(table):
    path, service = table
    before = heads(path, "Alpha", "Beta")
    with service.group_commit():
        service.act("Alpha", note("alpha"))
        service.act("Beta", note("beta"))
        assert heads(path, "Alpha", "Beta") == before  # not durable yet: nobody else sees it
    after = heads(path, "Alpha", "Beta")
    assert after == {"Alpha": before["Alpha"] + 1, "Beta": before["Beta"] + 1}
    assert noted(Service.open(str(path)), "Alpha") == [("alpha", 0)]


def test_an_action_that_fails_is_rolled_back_alone(table):
    path, service = table
    with service.group_commit():
        service.act("Alpha", note("alpha"))
        head = service.store.head(service.store.campaign_id("Beta"))
        with pytest.raises(ConflictError):  # a stale version: refused, nothing of it written
            service.store.append(service.store.campaign_id("Beta"), head - 1, 99, [{"type": "noted", "data": {
                "by": "stale", "n": 0}}], "")
        service.act("Gamma", note("gamma"))
    fresh = Service.open(str(path))
    assert noted(fresh, "Alpha") == [("alpha", 0)]
    assert noted(fresh, "Beta") == []
    assert noted(fresh, "Gamma") == [("gamma", 0)]
    assert fresh.store.check() == []


def test_an_action_sees_what_the_one_before_it_wrote(table):
    """Two actions on one campaign in one batch: the second loads the first's events (no conflict, in order)."""
    path, service = table
    with service.group_commit():
        for n in range(3):
            service.act("Alpha", note("gm", n))
    assert noted(Service.open(str(path)), "Alpha") == [("gm", 0), ("gm", 1), ("gm", 2)]


def test_the_files_are_stamped_as_a_batch_left_them(table, monkeypatch):
    """Every write of a batch is under its lock, a snapshot's (the write that does not wait) first among them: the
    files are stamped once the batch committed, so the next write does not check the whole file again."""
    from sawbones.adapters import integrity
    from sawbones.adapters.store import SqlEventStore

    path, _ = table
    whole_file_checks = []
    real = SqlEventStore.damaged_campaigns
    monkeypatch.setattr(SqlEventStore, "damaged_campaigns",
                        lambda self: whole_file_checks.append(1) or real(self))
    service = Service(open_store(str(path)), snapshot_every=1)  # a snapshot saved at each load: the first write
    for n in range(3):
        with service.group_commit():
            service.act("Alpha", note("alpha", n))
            service.act("Beta", note("beta", n))
        assert integrity._recorded(str(path))["stamp"] == integrity.stamp(str(path))
    service.act("Gamma", note("gamma"))
    assert whole_file_checks == []
    assert noted(Service.open(str(path)), "Alpha") == [("alpha", 0), ("alpha", 1), ("alpha", 2)]


def test_the_live_streams_hear_of_a_write_only_once_it_is_durable(table):
    path, service = table
    heard: list[int] = []
    listener = lambda database_id, cid, after, rows: heard.append(cid)  # noqa: E731
    APPENDED.append(listener)
    try:
        with service.group_commit():
            service.act("Alpha", note("alpha"))
            service.act("Beta", note("beta"))
            assert heard == []
        assert len(heard) == 2
        with pytest.raises(RuntimeError):
            with service.group_commit():
                service.act("Gamma", note("gamma"))
                raise RuntimeError("the COMMIT never came")
        assert len(heard) == 2  # a batch rolled back tells nothing
        assert noted(Service.open(str(path)), "Gamma") == []
    finally:
        APPENDED.remove(listener)


def test_the_lane_answers_no_action_before_its_batch_is_committed_and_a_failed_commit_fails_them_all(table):
    path, service = table
    before = heads(path, "Alpha", "Beta", "Gamma")
    failing = {"now": False}

    @contextmanager
    def group_commit():
        with Service.open(str(path)).group_commit():
            yield
            if failing["now"]:
                raise OSError("disk I/O error")  # as a COMMIT that cannot reach the disk

    lane = LaneThread("test-lane", group_commit)
    gate, started = threading.Event(), threading.Event()
    blocker = lane.submit(lambda: (started.set(), gate.wait(10)))  # holds the thread while the others queue
    assert started.wait(10)
    futures = []

    def act(name: str, watch: list):
        def work():
            for other in watch:  # the actions before it in the batch are not answered yet
                assert not other.done()
            return Service.open(str(path)).act(name, note(name.lower()))[0].version
        return work

    for name in ("Alpha", "Beta", "Gamma"):
        futures.append(lane.submit(act(name, list(futures))))
    gate.set()
    assert blocker.result(10)
    versions = [f.result(10) for f in futures]
    assert versions == [before[n] + 1 for n in ("Alpha", "Beta", "Gamma")]

    failing["now"] = True
    started.clear()
    gate.clear()
    blocker = lane.submit(lambda: (started.set(), gate.wait(10)))
    assert started.wait(10)
    futures = [lane.submit(act(name, [])) for name in ("Alpha", "Beta", "Gamma")]
    gate.set()
    blocker.exception(10)
    for future in futures:
        with pytest.raises(OSError, match="disk I/O error"):
            future.result(10)
    assert heads(path, "Alpha", "Beta", "Gamma") == {n: before[n] + 1 for n in ("Alpha", "Beta", "Gamma")}
    assert Service.open(str(path)).store.check() == []


def test_postgresql_writes_stay_one_transaction_each(store_url):
    """On PostgreSQL the batch is no batch (each write its own transaction): what it wrote is seen at once."""
    if not store_url.startswith("postgresql"):
        pytest.skip("PostgreSQL only")
    service = Service.open(store_url)
    service.create_campaign("Solo", "dnd5e", 1)
    with service.group_commit():
        service.act("Solo", note("solo"))
        assert noted(Service(open_store(store_url)), "Solo") == [("solo", 0)]
