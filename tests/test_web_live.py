"""The live layer (issue 14): streams fed by one watcher per process, filtered per audience, bounded.

A player's page hears of what that player may see and of nothing else; a revoked link's open stream
ends; streams past the cap per token are refused with 429; the API's events resume exactly where a
client left; two server processes on one PostgreSQL both deliver a change made through either.
Reads are guarded by a generous watchdog (a hang fails the test), never timed."""

from __future__ import annotations

import contextlib
import inspect
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import types
from pathlib import Path

import httpx
import pytest

from test_web_access import TestClient, bearer, new_campaign, player_link
from sawbones.application.service import Service
from sawbones.interfaces.web import create_app
from sawbones.interfaces.web.live.audience import player_sees

FIRE = [{"amount": 1, "type": "fire"}]


def _party(client, *names):
    secret = new_campaign(client)["gm_secret"]
    for name in names:
        made = client.post("/api/campaigns/Alpha/characters", json={"name": name, "max_hp": 40}, headers=bearer(secret))
        assert made.status_code == 201, made.text
    return secret


def _hit(client, secret, who):
    answer = client.post("/api/campaigns/Alpha/damage", headers=bearer(secret), json={"character": who, "parts": FIRE})
    assert answer.status_code == 200, answer.text
    return client.get("/api/campaigns/Alpha", headers=bearer(secret)).json()["version"]


class Watchdog:
    """Closes a stream that waits longer than `seconds` (a hang fails the test instead of blocking it)."""

    def __init__(self, response, seconds: float = 30.0) -> None:
        self.fired = False
        self.timer = threading.Timer(seconds, self._fire, args=(response,))
        self.timer.start()

    def _fire(self, response) -> None:
        self.fired = True
        response.close()

    def stop(self) -> None:
        self.timer.cancel()


def _lines(response, until, guard: float = 30.0):
    """The stream's lines, up to the one `until(line)` accepts (or the stream's end)."""
    dog = Watchdog(response, guard)
    seen = []
    try:
        for line in response.iter_lines():
            seen.append(line)
            if until(line):
                break
    except (httpx.HTTPError, RuntimeError):
        pass
    finally:
        dog.stop()
    assert not dog.fired, f"the stream stalled: {seen}"
    return seen


def make(db):
    return create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=600)


@pytest.fixture
def app(db):
    return make(db)


def test_a_player_hears_of_their_own_character_and_not_of_the_gm_only_change(app, monkeypatch):
    """Oda is hit, the combat ends (the GM's note), then Nia is hit: Nia's page says `change` once, for
    Nia's hit; what the page needed was made once by the hub, never by the stream itself (a page that
    skipped changes needs no read to tell of the next one)."""
    from sawbones.interfaces.web.live import event_docs

    readers = []
    read = event_docs.light_documents

    def spy(*args, **kwargs):
        readers.append(any(frame.filename.endswith("hub.py") for frame in inspect.stack(0)))  # the hub's?
        return read(*args, **kwargs)

    monkeypatch.setattr(event_docs, "light_documents", spy)
    with TestClient(app) as gm, TestClient(app) as player:
        secret = _party(gm, "Nia", "Oda")
        link = player_link(gm, secret, "Nia")["url"]
        versions = {}
        with player.stream("GET", link + "/events") as stream:
            def until(line):
                if line == "event: hello":
                    versions["oda"] = _hit(gm, secret, "Oda")  # another character's: not for Nia's player
                    ended = gm.post("/api/campaigns/Alpha/combat_end", headers=bearer(secret), json={})
                    assert ended.status_code == 200, ended.text  # the GM's note only: for no player
                    versions["nia"] = _hit(gm, secret, "Nia")
                return "nia" in versions and line == f"data: {versions['nia']}"

            seen = _lines(stream, until)
    changes = [seen[i + 1] for i, line in enumerate(seen) if line == "event: change"]
    assert changes == [f"data: {versions['nia']}"], seen  # Oda's change never reached Nia's page
    assert readers and all(readers), readers  # made by the hub (a write of this process, or read by its
    # watcher), never by the stream


def test_the_audience_of_one_action():
    nia_hit = {"type": "damage_taken", "characters": {"nia"},
               "events": [{"type": "damage_taken", "data": {"character": "nia", "amount": 3}}]}
    note_on_nia = {"type": "noted", "characters": {"nia"},
                   "events": [{"type": "noted", "data": {"character": "nia", "moment": "long_rest"}}]}
    clock = {"type": "clock_advanced", "characters": set(), "events": [{"type": "clock_advanced", "data": {}}]}
    undo_of_nia = {"type": "action_undone", "characters": {"nia"},
                   "events": [{"type": "action_undone", "data": {"action": 4}}]}
    assert player_sees(nia_hit, "nia") and not player_sees(nia_hit, "oda")
    assert not player_sees(note_on_nia, "nia")  # the GM's note: not even that something changed
    assert player_sees(clock, "oda")  # every page shows the clock
    assert player_sees(undo_of_nia, "nia") and not player_sees(undo_of_nia, "oda")
    # a save that waits for a die: the player's page shows its prompt only when it waits for the player's die
    for to, heard in (("player", True), ("gm", False)):
        waits = {"type": "save_pending", "characters": {"nia"},
                 "events": [{"type": "save_pending", "data": {"id": "p3", "character": "nia", "to": to}}]}
        assert player_sees(waits, "nia") is heard and not player_sees(waits, "oda")
    answered = {"type": "pending_cleared", "characters": {"nia"},
                "events": [{"type": "pending_cleared", "data": {"id": "p3", "character": "nia", "by": "player"}}]}
    assert player_sees(answered, "nia") and not player_sees(answered, "oda")  # the prompt goes away


def test_a_revoked_link_ends_its_open_stream_without_any_other_change(app):
    with TestClient(app) as gm, TestClient(app) as player:
        secret = _party(gm, "Nia")
        link = player_link(gm, secret, "Nia")["url"]
        with player.stream("GET", link + "/events") as stream:
            def until(line):
                if line == "event: hello":
                    player_link(gm, secret, "Nia", "DELETE")
                return False

            seen = _lines(stream, until)  # the server ends it (stream_seconds is 600 here)
        assert "event: hello" in seen and "event: change" not in seen
        assert app.state.live_hub.tokens == {}  # its place is given back


def test_a_players_open_stream_ends_when_their_character_is_removed(app):
    """The link shows a character while it is that character: removing it ends the page's stream (`gone`),
    while a change to another character does not even reach it."""
    with TestClient(app) as gm, TestClient(app) as player:
        secret = _party(gm, "Nia", "Oda")
        link = player_link(gm, secret, "Nia")["url"]
        with player.stream("GET", link + "/events") as stream:
            def until(line):
                if line == "event: hello":
                    _hit(gm, secret, "Oda")
                    assert gm.delete("/api/campaigns/Alpha/characters/Nia", headers=bearer(secret)).status_code == 200
                return False

            seen = _lines(stream, until)  # the server ends it (stream_seconds is 600 here)
        assert seen.count("event: gone") == 1 and "event: change" not in seen, seen
        assert app.state.live_hub.tokens == {}


def test_streams_keep_the_guard_the_headers_and_cors(db):
    """Streams are served before the app's middleware: they still get its Host allow-list, its security
    headers, and a cross-origin call of the API's events gets the CORS answer."""
    app = create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=0.2,
                     allowed_hosts=("testserver",), cors_origins=("https://vtt.example.org",))
    with TestClient(app) as client:
        secret = _party(client, "Nia")
        link = player_link(client, secret, "Nia")["url"]
        with client.stream("GET", link + "/events") as stream:
            assert stream.status_code == 200 and stream.headers["content-type"].startswith("text/event-stream")
            assert stream.headers["x-frame-options"] == "DENY" and "content-security-policy" in stream.headers
        refused = client.get(link + "/events", headers={"Host": "evil.example"})
        assert refused.status_code == 400 and "evil.example" in refused.text
        gone = client.get("/p/no-such-link/events", headers={"Accept-Language": "fr"})
        assert gone.status_code == 404 and "text/html" in gone.headers["content-type"]
        assert gone.headers["x-frame-options"] == "DENY"
        anonymous = client.get("/api/campaigns/Alpha/events", headers={"Last-Event-ID": "nope"})
        assert anonymous.status_code == 401 and anonymous.json()["error"]["code"] == "unauthorized"
        wrong = client.get("/api/campaigns/Alpha/events", headers={**bearer(secret), "Last-Event-ID": "nope"})
        assert wrong.status_code == 422 and wrong.json()["error"]["where"] == "Last-Event-ID"
        assert client.get("/api/campaigns/Alpha/events?lang=de", headers=bearer(secret)).status_code == 422
        with client.stream("GET", "/api/campaigns/Alpha/events",
                           headers={**bearer(secret), "Origin": "https://vtt.example.org"}) as tool:
            assert tool.status_code == 200
            assert tool.headers["access-control-allow-origin"] == "https://vtt.example.org"
            assert "retry: 2000" in list(tool.iter_lines())


def test_each_thread_lends_its_service_to_one_piece_of_work_at_a_time(monkeypatch):
    """A thread keeps its service for the next request; a request inside another gets its own; a request that
    failed closes its service instead of leaving it to the next one; past KEEP threads, none is kept."""
    from sawbones.interfaces.web.http import deps
    from sawbones.interfaces.web.http.deps import WebState, open_service

    made, closed = [], []

    class Made:
        def __init__(self):
            self.request = None
            self.store = types.SimpleNamespace(names_read_once=contextlib.nullcontext)
            made.append(self)

        def close(self):
            closed.append(self)

    state = WebState(Made, None, None)
    with open_service(state) as first:
        first.request = "intent"
        with open_service(state) as inner:
            assert inner is not first
    assert closed == [first]  # one service kept per thread: the inner one, given back first
    with open_service(state) as again:
        assert again is inner and again.request is None and len(made) == 2  # nothing of the last request stays
        again.request = "intent"
    with open_service(state) as again:
        assert again is inner and again.request is None
    with pytest.raises(RuntimeError):
        with open_service(state) as failing:
            raise RuntimeError("the store broke")
    assert failing is inner and closed == [first, inner]
    with open_service(state) as fresh:
        assert fresh not in (first, inner) and len(made) == 3
    monkeypatch.setattr(deps, "KEEP", 1)  # this thread keeps `fresh`: the one place KEEP allows

    def elsewhere():
        with open_service(state):
            pass

    worker = threading.Thread(target=elsewhere)
    worker.start()
    worker.join()
    assert len(made) == 4 and closed[-1] is made[3]  # another thread's service, closed: not kept
    with open_service(state) as mine:
        assert mine is fresh


def test_a_renewed_api_secret_ends_the_event_streams_opened_with_the_old_one(app, db):
    from contextlib import closing

    from sawbones.interfaces.web.access import security

    with TestClient(app) as gm, TestClient(app) as tool:
        secret = _party(gm, "Nia")
        with tool.stream("GET", "/api/campaigns/Alpha/events", headers=bearer(secret)) as stream:
            def until(line):
                if line == "retry: 2000":
                    with closing(Service.open(db)) as service:  # `sawbones gm-link --api-secret`, say
                        security.new_gm_secret(service.store, "Alpha")
                return False

            seen = _lines(stream, until)  # the server ends it
        assert seen[:3] == ["retry: 2000", "id: 2", ""]  # where it opened (after adding Nia), no action after it
        assert seen[3:] == ["event: gone", "data: ", ""], seen  # then its end, said


def test_streams_past_the_cap_per_token_are_refused(db, monkeypatch):
    monkeypatch.setenv("SAWBONES_STREAMS_PER_TOKEN", "2")
    app = make(db)
    with TestClient(app) as gm, TestClient(app) as player:
        secret = _party(gm, "Nia")
        link = player_link(gm, secret, "Nia")["url"]
        with player.stream("GET", link + "/events") as one, player.stream("GET", link + "/events") as two:
            assert one.status_code == two.status_code == 200
            third = player.get(link + "/events")
            assert third.status_code == 429 and "text/html" in third.headers["content-type"]
            with gm.stream("GET", "/api/campaigns/Alpha/events", headers=bearer(secret)), \
                    gm.stream("GET", "/api/campaigns/Alpha/events", headers=bearer(secret)):
                refused = gm.get("/api/campaigns/Alpha/events", headers={**bearer(secret), "Accept-Language": "fr"})
                assert refused.status_code == 429
                assert refused.json()["error"]["code"] == "too_many_requests"
                assert refused.json()["error"]["message"].startswith("trop de flux en direct")
        again = player.stream("GET", link + "/events")  # the places are given back when streams close
        with again as stream:
            assert stream.status_code == 200


def _read_events(client, secret, headers, count):
    out = []
    with client.stream("GET", "/api/campaigns/Alpha/events", headers={**bearer(secret), **headers}) as stream:
        message = {}

        def until(line):
            if line.startswith("id: "):
                message["id"] = int(line[4:])
            elif line.startswith("data: "):
                message["doc"] = json.loads(line[6:])
            elif line == "" and "doc" in message:
                out.append(dict(message))
                message.clear()
            return len(out) == count

        _lines(stream, until)
    return out


def test_a_reconnecting_client_misses_nothing(app):
    with TestClient(app) as gm, TestClient(app) as tool:
        secret = _party(gm, "Nia", "Oda")
        start = gm.get("/api/campaigns/Alpha", headers=bearer(secret)).json()["version"]
        _hit(gm, secret, "Nia")
        first = _read_events(tool, secret, {"Last-Event-ID": str(start)}, 1)
        _hit(gm, secret, "Oda")  # while it is away
        assert gm.post("/api/campaigns/Alpha/undo", headers=bearer(secret)).status_code == 200
        _hit(gm, secret, "Nia")
        missed = _read_events(tool, secret, {"Last-Event-ID": str(first[-1]["id"])}, 3)
    types = [m["doc"]["type"] for m in first + missed]
    assert types == ["damage_taken", "damage_taken", "action_undone", "damage_taken"]
    versions = [m["id"] for m in first + missed]
    assert versions == sorted(set(versions)), "each action once, in order"
    assert missed[1]["doc"]["characters"] == ["oda"], "an undo names the characters of the action it undid"


# ------------------------------------------------------------------ two processes on one PostgreSQL


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _serve(url: str, home: Path, **more_env: str) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    env = dict(os.environ, SAWBONES_DATABASE_URL=url, PYTHONUNBUFFERED="1", **more_env)
    log = open(home / f"server-{port}.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "sawbones", "serve", "--port", str(port)], cwd=home,
                            stdout=log, stderr=subprocess.STDOUT, env=env)
    for _ in range(300):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc, f"http://127.0.0.1:{port}"
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.1)
    proc.kill()
    pytest.fail(f"sawbones serve did not start: {(home / f'server-{port}.log').read_text()}")


def test_stopping_the_server_ends_its_open_streams_cleanly(tmp_path):
    """A GM stops `sawbones serve` (Ctrl+C, or systemd's SIGTERM) while pages are open: each stream ends
    at once and whole, the server stops without waiting for them, and its log has no cancelled stream's
    traceback (it waited its graceful timeout, then cancelled them, a traceback each)."""
    sockets = Path(tempfile.mkdtemp(prefix="sbs", dir="/tmp"))  # (the workers' sockets: a short path)
    proc, base = _serve(f"sqlite:///{tmp_path}/c.db", tmp_path, TMPDIR=str(sockets))
    try:
        with httpx.Client(base_url=base, timeout=30) as client:
            secret = _party(client, "Nia")
            response = client.send(client.build_request("GET", "/api/campaigns/Alpha/events",
                                                        headers=bearer(secret)), stream=True)
            assert response.status_code == 200
            seen, made = [], []

            def stop_once(line: str) -> bool:
                seen.append(line)
                if len(seen) == 1:  # the stream is open and speaking: the GM stops the server
                    for _ in range(100):  # (a watchdog: its socket among its peers is made with its watcher)
                        if list(sockets.iterdir()):
                            made.append(True)
                            break
                        time.sleep(0.05)
                    proc.send_signal(signal.SIGTERM)
                return False  # (read to the stream's end)

            _lines(response, stop_once)
            response.close()
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    log = (tmp_path / f"server-{base.rsplit(':', 1)[1]}.log").read_text()
    assert "Traceback" not in log and "Cancel" not in log, log
    assert seen and made, (seen, made)  # (the stream spoke, the worker had its socket)
    left = [str(p.relative_to(sockets)) for p in sockets.rglob("*")]
    shutil.rmtree(sockets, ignore_errors=True)
    assert left == [], left  # its socket and directory went with it


def test_two_processes_on_postgresql_each_deliver_a_change_made_through_either(pg_url, tmp_path):
    first, a = _serve(pg_url, tmp_path)
    second, b = _serve(pg_url, tmp_path)
    try:
        with httpx.Client(base_url=a, timeout=30) as via_a, httpx.Client(base_url=b, timeout=30) as via_b:
            secret = _party(via_a, "Nia")
            heard: dict[str, list[int]] = {a: [], b: []}
            streams = []
            for base, client in ((a, via_a), (b, via_b)):
                response = client.send(client.build_request("GET", "/api/campaigns/Alpha/events",
                                                            headers=bearer(secret)), stream=True)
                assert response.status_code == 200
                streams.append((base, response))
            versions = [_hit(via_a, secret, "Nia"), _hit(via_b, secret, "Nia")]
            for base, response in streams:
                _lines(response, lambda line, base=base: line.startswith("id: ") and int(line[4:]) >= versions[0] and (
                    heard[base].append(int(line[4:])) or len(heard[base]) == 2))  # (the first `id:` is where it opened)
                response.close()
    finally:
        for proc in (first, second):
            proc.terminate()
            proc.wait(timeout=10)
    assert heard == {a: versions, b: versions}


def test_what_the_notifications_say_of_the_watched_campaigns():
    """An append's NOTIFY carries its version (no query for a burst of appends); a change of access, or a
    payload this version cannot read, is read from the database; a campaign nobody watches is ignored."""
    from types import SimpleNamespace

    from sawbones.adapters.notify import _heard

    known = {1: (4, "s"), 2: (9, "t")}
    notes = [SimpleNamespace(payload=p) for p in ("e:1:5", "e:1:7", "e:1:6", "a:2", "e:3:1", "e:2:x")]
    assert _heard(notes, known) == ({1: 7}, {2})



def test_an_appends_notification_carries_its_rows_and_its_database():
    """On PostgreSQL an append's NOTIFY carries the rows it wrote when they fit (the hub then reads nothing:
    one run of writes following each other per campaign; a gap is read), and its database's id: the channel
    is shared by every schema of a PostgreSQL database, and another schema's sawbones is not heard."""
    from types import SimpleNamespace

    from sawbones.adapters.notify import NOTIFY_LIMIT, _heard, _told, append_payload

    def row(cid: int, version: int, data: str = '{"character":"nia"}') -> tuple:
        return (cid, version, version, "damage_taken", data, 1, "c", 1.5, "x" * 16)

    known = {1: (4, "s"), 2: (9, "t")}
    notes = [SimpleNamespace(payload=p) for p in (
        append_payload(1, 4, [row(1, 5)], "db"), append_payload(1, 5, [row(1, 6), row(1, 7)], "db"),
        append_payload(2, 9, [row(2, 10)], "db"), append_payload(2, 11, [row(2, 12)], "db"),  # v11: not heard
        append_payload(1, 7, [row(1, 8)], "another"))]
    assert _heard(notes, known, "db") == ({1: 7, 2: 12}, set())
    assert _told(notes, known, "db") == {1: (4, [row(1, 5), row(1, 6), row(1, 7)])}
    big = append_payload(1, 4, [row(1, 5, "x" * NOTIFY_LIMIT)], "db")
    assert big == "e:1:5:db"  # too big for a NOTIFY: the campaign and its head only
    assert _heard([SimpleNamespace(payload=big)], known, "db") == ({1: 5}, set())
    assert _told([SimpleNamespace(payload=big)], known, "db") == {}

def test_a_change_told_whole_is_built_by_the_watcher_and_one_to_read_by_a_reader():
    """(PostgreSQL) Of the campaigns that moved in one turn, those whose rows the notifications carried whole,
    with no API stream (whose lines read the campaign's state), are built by the watcher's own thread: no
    reader thread wakes to contend for the interpreter's lock. The others are read by the readers, at once."""
    import threading
    from collections import Counter
    from types import SimpleNamespace

    from sawbones.interfaces.web.live.hub import Hub

    hub = Hub(SimpleNamespace(), per_token=1, per_address=1)
    hub.languages = {2: Counter({"en": 1})}  # campaign 2 has an API stream
    built, sent = {}, []

    def read_one(cid, seen, before, told=None):
        built[cid] = threading.current_thread().name
        return cid, [cid]

    hub._read_one = read_one
    hub._send = sent.extend
    known = {1: (4, "s"), 2: (6, "s"), 3: (8, "s"), 4: (2, "s")}
    moved = {1: (5, "s"), 2: (7, "s"), 3: (9, "s"), 4: (4, "s")}
    told = {1: (4, [("row",)]), 2: (6, [("row",)]), 4: (2, [("row",)])}  # 3: not told; 4: told in part
    hub._read(moved, known, parallel=True, told=told)
    here = threading.current_thread().name
    assert built[1] == here
    assert all(built[cid].startswith("sawbones-live-read") for cid in (2, 3, 4)), built
    assert sorted(cid for cid, _ in sent) == [1, 2, 3, 4]
    hub.readers.shutdown()
