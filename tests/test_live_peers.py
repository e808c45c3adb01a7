"""The workers of one machine tell each other what they wrote (SQLite, adapters/peers.py): another worker's
streams hear of a write without its watcher looking, and nothing a socket says is trusted beyond what a read of
the log would be (checksums, versions following). Two hubs in one process stand for two workers: the second
hears nothing of this process's appends except through its socket. No timing is asserted (a watchdog ends a
hang)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from sawbones.adapters import peers as peers_module
from sawbones.adapters.peers import Peers
from sawbones.interfaces.web.live.hub import Hub
from test_live_handover import Gate, _campaign, _frames, _heads, _setting, _until
from test_web_access import TestClient, bearer
from test_web_live import FIRE


@pytest.fixture(autouse=True)
def private_temp(monkeypatch):
    """The workers' directories under this test's own temporary directory (a short path: a socket's path
    holds at most 107 bytes, and pytest's own directories are longer)."""
    place = Path(tempfile.mkdtemp(prefix="sbp", dir="/tmp"))
    monkeypatch.setattr(peers_module.tempfile, "tempdir", str(place))
    yield place
    shutil.rmtree(place, ignore_errors=True)


def _two_workers(db, act):
    """Alpha with Nia, watched by worker A (it hears this process's appends) and worker B (only through its
    socket; its watcher held closed once it looked), B with Nia's page and an API stream; `act(scene)` runs
    on the event loop, then every stream is closed and the watchers end. Returns what `act` returned."""
    app = _setting(db)
    with TestClient(app) as gm:
        secret, cid, head, ids = _campaign(gm, db, "Nia")

        async def run():
            a, b = Hub(app.state.sawbones), Hub(app.state.sawbones)
            b._appended = lambda *written: None  # (another process: this one's appends are not its own)
            gate = Gate(b)
            a.open(cid, "gm-a", "-", sent=head)
            page = b.open(cid, "link-nia", "-", character=ids["Nia"], sent=head)
            api = b.open(cid, "secret", "-", language="en")
            await _until(lambda: cid in a.seen and cid in b.seen and a.peers and b.peers, "both workers watching")
            gate.open = False
            scene = SimpleNamespace(a=a, b=b, page=page, api=api, cid=cid, head=head, nia=ids["Nia"],
                                    hit=lambda: asyncio.to_thread(_hit, gm, secret))
            out = await act(scene)
            for hub in (a, b):
                for subs in list(hub.topics.values()):
                    for sub in list(subs):
                        hub.close(sub)
            await _until(lambda: a.task is None and b.task is None, "the watchers end")
            return out

        return asyncio.run(run())


def _hit(gm, secret) -> None:
    answer = gm.post("/api/campaigns/Alpha/damage", headers=bearer(secret), json={"character": "Nia", "parts": FIRE})
    assert answer.status_code == 200, answer.text


def test_another_workers_streams_hear_of_a_write_through_its_socket(db):
    """Two writes through worker A: worker B's page and API stream hear of both, in order, with B's watcher
    held closed; each worker had its socket in the database's directory, which the last one out removed."""
    async def act(scene):
        await scene.hit()
        await scene.hit()
        await _until(lambda: len(_frames(scene.api)) == 2, "worker B told of both writes")
        return scene, scene.a.peers.place, sorted(p.name for p in scene.a.peers.place.iterdir())

    scene, place, sockets = _two_workers(db, act)
    assert _frames(scene.api) == [scene.head + 1, scene.head + 2]
    assert _heads(scene.page) == [scene.head + 1, scene.head + 2], scene.page.box
    assert len(sockets) == 2 and all(name.endswith(".sock") for name in sockets), sockets
    assert not place.exists()  # the last worker out removed the directory


def test_what_a_socket_says_is_checked_as_a_read_of_the_log(db, caplog):
    """Worker B's socket is sent junk, a write whose rows do not match their checksum, one that is not a
    list of rows, and one of another database: none is handed over (B's streams stay where they were); a
    true write after them is."""
    async def act(scene):
        cid, head, b = scene.cid, scene.head, scene.b
        row = [cid, head + 1, 99, "damage_taken", json.dumps({"character": scene.nia, "amount": 1}), 1, "x", 0.0,
               "0" * 16]
        sender = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        sender.connect(b.peers.path)
        for message in (b"not json", json.dumps({"db": b.database_id, "c": cid, "a": head, "r": [row]}).encode(),
                        json.dumps({"db": b.database_id, "c": cid, "a": head, "r": "rows"}).encode(),
                        json.dumps({"db": "another", "c": cid, "a": head, "r": [row]}).encode()):
            sender.send(message)
        sender.close()
        await _until(lambda: "could not be handed over" in caplog.text, "the forged write refused")
        for _ in range(20):
            await asyncio.sleep(0)
        nothing = (list(scene.page.box), _frames(scene.api), b.seen[cid][0])
        await scene.hit()
        await _until(lambda: len(_frames(scene.api)) == 1, "the true write handed over")
        return scene, nothing

    scene, nothing = _two_workers(db, act)
    assert nothing == ([], [], scene.head), nothing
    assert _frames(scene.api) == [scene.head + 1] and _heads(scene.page) == [scene.head + 1]


def test_a_directory_that_is_not_the_users_own_private_one_is_not_used(private_temp):
    place = peers_module.directory("db-id", "/some/file.db")
    assert place is not None and stat.S_IMODE(os.stat(place).st_mode) == 0o700
    os.chmod(place, 0o755)  # (as another user's, or a loosened one: anyone could send)
    assert Peers.open("db-id", "/some/file.db") is None
    os.chmod(place, 0o700)
    assert Peers.open("db-id", "/some/file.db") is not None
    assert peers_module.directory("db-id", "/another/file.db") != place  # one directory per database file


def test_a_stale_socket_is_forgotten_and_a_live_one_told(private_temp):
    """A worker that died left its socket file: telling skips it (and removes it), the live one is told; a
    write too big for a message is not sent (that worker's watcher reads it); a worker that stopped is not
    told any more, and telling it fails no write."""
    rows = [(7, 3, 2, "noted", "{}", 1, "v", 1.5, "c" * 16)]

    async def scene():
        heard: list = []
        one, other = Peers.open("db-id", "/f.db"), Peers.open("db-id", "/f.db")
        other.serve(asyncio.get_running_loop(), lambda *told: heard.append(told))
        dead = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        dead_path = str(one.place / "1-dead.sock")
        dead.bind(dead_path)
        dead.close()  # (the file stays: no one listens there)
        one.tell(7, 2, [(7, 3, 2, "noted", "x" * peers_module.LIMIT, 1, "v", 1.5, "c" * 16)])  # too big
        one.tell(7, 2, rows)
        await _until(lambda: heard, "the live worker told")
        stale = os.path.exists(dead_path), sorted(one.links)
        other.close()
        one.tell(7, 3, rows)  # (the stopped worker's connection fails: forgotten, nothing raised)
        one.close()
        return heard, stale, other.path, one.place

    heard, (dead_left, links), other_path, place = asyncio.run(scene())
    assert heard == [(7, 2, rows)], heard  # the big write never went
    assert not dead_left and links == [other_path]
    assert not place.exists()


def test_a_workers_socket_leaves_with_its_process(private_temp):
    """A worker whose hub was never closed (its event loop ended first): its socket file and the directory
    go when its process exits."""
    code = ("import sys, tempfile; tempfile.tempdir = sys.argv[1]; from sawbones.adapters.peers import Peers; "
            "peers = Peers.open('db-id', '/f.db'); print(peers.path)")
    done = subprocess.run([sys.executable, "-c", code, str(private_temp)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    path = done.stdout.strip()
    assert path.endswith(".sock") and not os.path.exists(path) and not os.path.exists(os.path.dirname(path))
