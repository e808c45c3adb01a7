"""A GM's action runs off the web app's event loop, on the writers' lane: a few threads of its own, so that
neither its work nor its wait for a lock ever holds up the loop, and writers never take the threads reads use.

The GM's steps: a campaign is open in the browser while another writer (the CLI, another worker, a
suspended process) holds a lock the action needs. The action must still be applied, once, when the
lock is free; meanwhile the app goes on answering everyone else, the campaign's own reads included. However
many GMs write at once, at most writers_lane.LANE actions run at a time.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sawbones.adapters import locks
from sawbones.adapters.backends import SqliteEventStore
from sawbones.adapters.store import APPENDED
from sawbones.application.service import Service
from sawbones.interfaces.web import create_app
from sawbones.interfaces.web.http import deps, writers_lane
from sawbones.interfaces.web.app import load_areas

load_areas()

# Another process holds the writer's turn on one campaign (as the CLI does while it acts), until told to stop.
TURN_HOLDER = textwrap.dedent("""
    import sys, time
    from sawbones.adapters.backends import open_store
    store = open_store(sys.argv[1])
    with store.writer_turn(store.campaign_id(sys.argv[2]), time.monotonic() + 60):
        print("held", flush=True)
        sys.stdin.readline()
""")
# Another process holds the whole database's writer lock (a write in progress, a long import).
FILE_HOLDER = textwrap.dedent("""
    import fcntl, sys
    with open(sys.argv[1], "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        print("held", flush=True)
        sys.stdin.readline()
""")


@pytest.fixture
def writers():
    """The names of the threads every append committed in (store.APPENDED is told in the writer's thread)."""
    seen: list[str] = []

    def told(*_args) -> None:
        seen.append(threading.current_thread().name)

    APPENDED.append(told)
    yield seen
    APPENDED.remove(told)


def _table(db: str):
    client = TestClient(create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=3))
    client.__enter__()
    created = client.post("/api/campaigns", json={"name": "Alpha", "seed": 7})
    assert created.status_code == 201, created.text
    client.headers["Authorization"] = f"Bearer {created.json()['gm_secret']}"
    added = client.post("/api/campaigns/Alpha/characters", json={"name": "Aria", "max_hp": 40})
    assert added.status_code == 201, added.text
    return client


def _hp(client) -> int:
    found = client.get("/api/campaigns/Alpha/characters/Aria")
    assert found.status_code == 200, found.text
    return found.json()["hp"]


def _damage(client, amount: int = 2):
    return client.post("/api/campaigns/Alpha/damage", json={"character": "Aria", "parts": [
        {"amount": amount, "type": "fire"}]})


def _lane(names: list[str]) -> list[str]:
    return [name for name in names if name.startswith("sawbones-lane")]


@pytest.mark.parametrize("local", [True, False], ids=["sqlite", "a store that is not local (as PostgreSQL)"])
def test_an_action_runs_on_the_writers_lane_not_on_the_event_loop(db, writers, monkeypatch, local):
    monkeypatch.setattr(SqliteEventStore, "local", local)
    client = _table(db)
    try:
        writers.clear()
        for _ in range(3):
            done = _damage(client)
            assert done.status_code == 200, done.text
        assert len(writers) == 3 and _lane(writers) == writers, writers
        assert _hp(client) == 34
    finally:
        client.__exit__(None, None, None)


@pytest.mark.parametrize("holder", ["campaign turn", "whole database"])
def test_an_action_behind_another_program_waits_in_the_pool_and_applies_once(db, writers, holder):
    client = _table(db)
    before = _hp(client)
    writers.clear()
    script, args = ((TURN_HOLDER, [db, "Alpha"]) if holder == "campaign turn" else (FILE_HOLDER, [locks.lock_path(db)]))
    other = subprocess.Popen([sys.executable, "-c", script, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True)
    answers: list = []
    try:
        assert other.stdout.readline().strip() == "held"
        acting = threading.Thread(target=lambda: answers.append(_damage(client, 5)))
        acting.start()
        time.sleep(0.5)
        # the action waits for the other program, the app does not: it answers meanwhile, the campaign's own
        # reads too (a blocked event loop would answer nothing until the lock is free)
        assert client.get("/api/tables").status_code == 200
        assert _hp(client) == before
        assert acting.is_alive() and not answers
        other.stdin.write("\n")
        other.stdin.flush()
        assert other.wait(timeout=30) == 0
        acting.join(timeout=30)
        assert not acting.is_alive()
        assert answers[0].status_code == 200, answers[0].text
        assert len(writers) == 1 and not _lane(writers), writers  # it waited in the pool: the lane stayed free
        assert _hp(client) == before - 5  # applied once: the try in the lane wrote nothing
        assert [e["type"] for e in client.get("/api/campaigns/Alpha/log").json()["events"]].count("damage_taken") == 1
    finally:
        if other.poll() is None:
            other.kill()
        other.wait()
        client.__exit__(None, None, None)


def test_a_campaign_whose_turn_another_program_holds_does_not_hold_up_the_others_in_its_lane_thread(db, writers):
    client = _table(db)
    client.app.state.sawbones.lane = writers_lane.WritersLane(1)  # one thread: Alpha's and Beta's actions share it
    made = client.post("/api/campaigns", json={"name": "Beta", "seed": 3})
    beta = {"Authorization": f"Bearer {made.json()['gm_secret']}"}
    assert client.post("/api/campaigns/Beta/characters", json={"name": "Bo", "max_hp": 40}, headers=beta).status_code == 201
    other = subprocess.Popen([sys.executable, "-c", TURN_HOLDER, db, "Alpha"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    answers: list = []
    try:
        assert other.stdout.readline().strip() == "held"
        acting = threading.Thread(target=lambda: answers.append(_damage(client, 5)))
        acting.start()
        time.sleep(0.3)
        started = time.monotonic()
        done = client.post("/api/campaigns/Beta/damage", json={"character": "Bo", "parts": [
            {"amount": 3, "type": "fire"}]}, headers=beta)
        assert done.status_code == 200, done.text
        assert time.monotonic() - started < 5  # not after Alpha's turn (held until told, up to the 10 s bound)
        assert acting.is_alive() and not answers
        other.stdin.write("\n")
        other.stdin.flush()
        acting.join(timeout=30)
        assert answers[0].status_code == 200, answers[0].text
    finally:
        if other.poll() is None:
            other.kill()
        other.wait()
        client.__exit__(None, None, None)


def test_many_writers_at_once_take_at_most_the_lane_and_reads_go_on(db, writers):
    """Twice as many GMs as the lane has threads act on one campaign while another process holds its turn: the
    lane keeps at most LANE threads, reads are answered meanwhile, and once the turn is free every action is
    applied, each once."""
    client = _table(db)
    before = _hp(client)
    writers.clear()
    other = subprocess.Popen([sys.executable, "-c", TURN_HOLDER, db, "Alpha"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    answers: list = []
    many = 2 * writers_lane.LANE
    try:
        assert other.stdout.readline().strip() == "held"
        acting = [threading.Thread(target=lambda: answers.append(_damage(client, 1))) for _ in range(many)]
        for thread in acting:
            thread.start()
        time.sleep(0.5)
        prefix = client.app.state.sawbones.lane.prefix  # (this app's lane: other tests' apps keep theirs)
        lane = [t for t in threading.enumerate() if t.name.startswith(prefix)]
        assert 0 < len(lane) <= writers_lane.LANE, [t.name for t in lane]
        assert _hp(client) == before and not answers
        other.stdin.write("\n")
        other.stdin.flush()
        assert other.wait(timeout=30) == 0
        for thread in acting:
            thread.join(timeout=30)
        assert [a.status_code for a in answers] == [200] * many
        assert _hp(client) == before - many
        assert len(writers) == many
    finally:
        if other.poll() is None:
            other.kill()
        other.wait()
        client.__exit__(None, None, None)


def test_waiting_briefly_a_lock_held_longer_is_given_up_and_nothing_else_changes(tmp_path):
    path = str(tmp_path / "w.db")
    turns = locks.Turns()
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with turns.turn(time.monotonic() + 10):
            held.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(5)
    try:
        with locks.waiting_briefly():
            started = time.monotonic()
            with pytest.raises(locks.WouldWait):
                with turns.turn(time.monotonic() + 10):
                    pass
            assert time.monotonic() - started < 1  # (a brief wait: locks.BRIEF, not the 10 s bound)
            with locks.file_lock(path, time.monotonic() + 10) as free:  # not taken: no refusal
                assert free
    finally:
        release.set()
        holder.join()
    with turns.turn(time.monotonic() + 1):  # the refused one left no place in the queue behind
        pass
    # a caller that asked not to wait (wait=False) still hears False, not an error
    other = subprocess.Popen([sys.executable, "-c", FILE_HOLDER, locks.lock_path(path)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout.readline().strip() == "held"
        with locks.waiting_briefly():
            with locks.file_lock(path, time.monotonic() + 10, wait=False) as free:
                assert not free
            with pytest.raises(locks.WouldWait):
                with locks.file_lock(path, time.monotonic() + 10):
                    pass
    finally:
        other.kill()
        other.wait()


def test_waiting_briefly_a_lock_let_go_within_the_wait_is_taken(tmp_path):
    path = str(tmp_path / "w.db")
    other = subprocess.Popen([sys.executable, "-c", FILE_HOLDER, locks.lock_path(path)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout.readline().strip() == "held"
        threading.Timer(0.2, lambda: (other.stdin.write("\n"), other.stdin.flush())).start()
        with locks.waiting_briefly(20.0):
            with locks.file_lock(path, time.monotonic() + 30) as free:
                assert free
    finally:
        if other.poll() is None:
            other.kill()
        other.wait()


def test_once_the_work_wrote_it_waits_for_a_lock_instead_of_giving_up(tmp_path):
    """Run again from the start, work that already wrote would write twice: after its first write, a lock
    held longer than the brief wait is waited for. Before it, the same wait is given up."""
    from sawbones.adapters.backends import open_store

    path = str(tmp_path / "w.db")
    store = open_store(path)
    other = subprocess.Popen([sys.executable, "-c", FILE_HOLDER, locks.lock_path(path)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout.readline().strip() == "held"
        with locks.waiting_briefly():
            with pytest.raises(locks.WouldWait):
                store.set_meta("first", "1")
        assert store.get_meta("first") is None  # given up: nothing written
        other.stdin.write("\n")
        other.stdin.flush()
        assert other.wait(timeout=30) == 0
        with locks.waiting_briefly():
            store.set_meta("first", "1")
            other = subprocess.Popen([sys.executable, "-c", FILE_HOLDER, locks.lock_path(path)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            assert other.stdout.readline().strip() == "held"
            threading.Timer(0.3, lambda: (other.stdin.write("\n"), other.stdin.flush())).start()
            store.set_meta("second", "2")  # waited for (0.3 s), not given up
        assert store.get_meta("second") == "2"
    finally:
        if other.poll() is None:
            other.kill()
        other.wait()
