"""Issue 41, item 2: anonymous requests cannot stall the server. The attacker's steps: ask, with no secret,
for the most expensive public computation (`GET /api/odds/party?compare=all`), many times at once, varying
the parameters so no cache helps, and walk away from each request. A closed server asks for a credential;
everywhere, the work is bounded per client and per worker, and abandoned work stops."""

from __future__ import annotations

import asyncio
import threading
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sawbones.application.service import Service
from sawbones.interfaces.web.http import costly
from sawbones.interfaces.web import create_app
from sawbones.interfaces.web.app import load_areas
from sawbones.interfaces.web.access import security

load_areas()
COSTLY = "/api/odds/party?compare=all&wait=3&bonus=4"
CHEAP_ODDS = "/api/odds/injuries/fire"


def _client(db, **kwargs) -> TestClient:
    client = TestClient(create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=3, **kwargs))
    client.__enter__()
    return client


def test_a_closed_server_answers_the_odds_only_to_a_credential(db):
    client = _client(db, closed=True)
    try:
        for path in (COSTLY, CHEAP_ODDS, "/api/odds", "/api/odds/", "/api/odds/blinding_sickness?bonus=2"):
            refused = client.get(path)
            assert refused.status_code == 401, (path, refused.text)
            assert refused.json()["error"]["code"] == "unauthorized"
        wrong = client.get(CHEAP_ODDS, headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 403
        service = Service.open(db)
        admin = security.new_admin_secret(service.store)
        service.store.close()
        assert client.get(CHEAP_ODDS, headers={"Authorization": f"Bearer {admin}"}).status_code == 200
    finally:
        client.__exit__(None, None, None)


def test_an_open_server_still_answers_anyone(db):
    client = _client(db)
    try:
        assert client.get(CHEAP_ODDS).status_code == 200
    finally:
        client.__exit__(None, None, None)


def test_a_client_past_its_budget_is_told_when_to_come_back(db, monkeypatch):
    monkeypatch.setenv(costly.ENV, "1,8,2,0")  # a budget of 0 s: the first computation spends it
    client = _client(db)
    try:
        assert client.get(CHEAP_ODDS).status_code == 200
        refused = client.get(CHEAP_ODDS + "?lang=fr")
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"]["code"] == "too_many_requests"
        assert int(refused.headers["Retry-After"]) >= 1
        assert "budget" in refused.json()["error"]["message"] or "calculs" in refused.json()["error"]["message"]
    finally:
        client.__exit__(None, None, None)


class _Leaving:
    """A request whose client leaves once `left` is set (its next message is the disconnect)."""

    def __init__(self, left: asyncio.Event, host: str = "203.0.113.7") -> None:
        self.left = left
        self.client = type("C", (), {"host": host})()

    async def receive(self) -> dict:
        await self.left.wait()
        return {"type": "http.disconnect"}


def test_the_work_of_a_client_that_left_stops_and_no_client_runs_more_than_its_share():
    limits = costly.Limits(at_once=1, waiting=1, per_client=1, budget=1000)
    parts_done = []
    started = threading.Event()

    def work():  # as the party odds: option set after option set, a checkpoint between them
        started.set()
        for part in range(10_000):
            costly.checkpoint()
            parts_done.append(part)
            threading.Event().wait(0.001)
        return "finished"

    async def scenario():
        left = asyncio.Event()
        running = asyncio.ensure_future(limits.run(_Leaving(left), work, "a"))
        while not started.is_set():
            await asyncio.sleep(0.001)
        # the same client asks again: refused, not queued
        with pytest.raises(costly.Busy):
            await limits.run(_Leaving(asyncio.Event()), lambda: "again", "a")
        # another client waits its turn; a third is turned away (one running, one waiting at most)
        waiting = asyncio.ensure_future(limits.run(_Leaving(asyncio.Event()), lambda: "second", "b"))
        await asyncio.sleep(0.01)
        with pytest.raises(costly.Busy) as busy:
            await limits.run(_Leaving(asyncio.Event()), lambda: "third", "c")
        assert int(busy.value.headers["Retry-After"]) >= 1
        left.set()  # the first client walks away
        with pytest.raises(costly.Gone):
            await running
        assert await waiting == "second"

    asyncio.run(scenario())
    assert len(parts_done) < 10_000, "the abandoned computation stopped"


def test_the_dashboards_costly_panels_take_their_turn_too(db, monkeypatch):
    from tests.test_web_api import sign_in

    monkeypatch.setenv(costly.ENV, "1,8,2,0")  # a budget of 0 s: the first computation spends it
    client = _client(db)
    try:
        made = client.post("/api/campaigns", json={"name": "Alpha", "seed": 7}).json()
        sign_in(client, secret=made["gm_secret"])
        assert client.get("/c/Alpha?whatif=1").status_code == 200
        busy = client.get("/c/Alpha?whatif=1&wdrops=2")
        assert busy.status_code == 429 and busy.headers["Retry-After"]
        assert client.get("/c/Alpha").status_code == 200, "the dashboard without the panel is not held"
    finally:
        client.__exit__(None, None, None)
