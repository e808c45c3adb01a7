"""A GM's action on SQLite runs on the web app's event loop, and never makes that loop wait for a lock.

The GM's steps: a campaign is open in the browser while another writer (the CLI, another worker, a
suspended process) holds a lock the action needs. The action must still be applied, once, when the
lock is free; meanwhile the app goes on answering everyone else. Without another writer, the action
costs no hand-over to a thread.
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
from sawbones.application.service import Service
from sawbones.interfaces.web import create_app
from sawbones.interfaces.web.http import deps
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
def threads_used(monkeypatch):
    """How many pieces of work the app handed to a worker thread (deps.run_in_threadpool)."""
    count = {"n": 0}
    handed = deps.run_in_threadpool

    async def counted(*args, **kwargs):
        count["n"] += 1
        return await handed(*args, **kwargs)

    monkeypatch.setattr(deps, "run_in_threadpool", counted)
    return count


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


def test_without_another_writer_an_action_takes_no_thread(db, threads_used):
    client = _table(db)
    try:
        threads_used["n"] = 0
        for _ in range(3):
            done = client.post("/api/campaigns/Alpha/damage", json={"character": "Aria", "parts": [
                {"amount": 2, "type": "fire"}]})
            assert done.status_code == 200, done.text
        assert threads_used["n"] == 0
        assert _hp(client) == 34
    finally:
        client.__exit__(None, None, None)


def test_a_store_that_is_not_local_acts_in_a_thread(db, threads_used, monkeypatch):
    monkeypatch.setattr(SqliteEventStore, "local", False)  # as PostgreSQL: every statement a round trip
    client = _table(db)
    try:
        threads_used["n"] = 0
        done = client.post("/api/campaigns/Alpha/damage", json={"character": "Aria", "parts": [
            {"amount": 2, "type": "fire"}]})
        assert done.status_code == 200, done.text
        assert threads_used["n"] == 1
    finally:
        client.__exit__(None, None, None)


@pytest.mark.parametrize("holder", ["campaign turn", "whole database"])
def test_an_action_behind_another_writer_waits_in_a_thread_and_applies_once(db, threads_used, holder):
    client = _table(db)
    before = _hp(client)
    script, args = ((TURN_HOLDER, [db, "Alpha"]) if holder == "campaign turn" else (FILE_HOLDER, [locks.lock_path(db)]))
    other = subprocess.Popen([sys.executable, "-c", script, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True)
    answers: list = []
    try:
        assert other.stdout.readline().strip() == "held"
        acting = threading.Thread(target=lambda: answers.append(client.post(
            "/api/campaigns/Alpha/damage", json={"character": "Aria", "parts": [{"amount": 5, "type": "fire"}]})))
        acting.start()
        time.sleep(0.5)
        # the action waits for the other writer, the app does not: it answers meanwhile (a blocked event loop
        # would answer nothing until the lock is free)
        assert client.get("/api/tables").status_code == 200
        assert acting.is_alive() and not answers
        other.stdin.write("\n")
        other.stdin.flush()
        assert other.wait(timeout=30) == 0
        acting.join(timeout=30)
        assert not acting.is_alive()
        assert answers[0].status_code == 200, answers[0].text
        assert threads_used["n"] >= 1  # it went on in a thread
        assert _hp(client) == before - 5  # applied once: the try on the loop wrote nothing
        assert [e["type"] for e in client.get("/api/campaigns/Alpha/log").json()["events"]].count("damage_taken") == 1
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
