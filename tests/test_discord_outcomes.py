"""No outcome misreported, under SimCord against a real `sawbones serve`: an action sawbones applied but whose
answer was lost on the way back (a 503 from a proxy, a connection cut) is reported as one that may have been
applied, with a Retry button that sends it again with the same Idempotency-Key — applied once; a server that
refuses the connection is still "nothing was done". Idempotency keys are scoped to who sends them."""

from __future__ import annotations

import http.server
import threading
from contextlib import contextmanager
from typing import Iterator

import httpx
import pytest

from discord_table import buttons, campaign, discord_table, said
from test_web_browser import serving

pytestmark = pytest.mark.asyncio


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("discord_outcomes")) as base:
        yield base


@contextmanager
def losing_proxy(upstream: str, how: str) -> Iterator[dict]:
    """A proxy in front of sawbones that forwards every request and, for the first GM action (a POST under
    /api/campaigns/…/), loses the answer: `how` "503" answers 503 instead, "cut" closes the connection."""
    seen = {"lost": 0, "forwarded": []}

    class Proxy(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _forward(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            if self.path.split("?")[0].endswith("/events"):  # (the feed: not through this proxy)
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length",
                                                                                   "connection")}
            answer = httpx.request(self.command, upstream + self.path, content=body, headers=headers, timeout=30)
            seen["forwarded"].append((self.command, self.path.split("?")[0], self.headers.get("Idempotency-Key")))
            lose = self.command == "POST" and self.path.startswith("/api/campaigns/") and not seen["lost"]
            if lose:
                seen["lost"] += 1
                if how == "cut":
                    self.close_connection = True
                    self.connection.close()
                    return
                self.send_response(503)
                payload = b'{"error": {"code": "unavailable", "message": "busy"}}'
            else:
                self.send_response(answer.status_code)
                payload = answer.content
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        do_GET = do_POST = do_PATCH = _forward

        def log_message(self, *args: object) -> None:
            pass

    proxy = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    seen["url"] = f"http://127.0.0.1:{proxy.server_port}"
    try:
        yield seen
    finally:
        proxy.shutdown()


MAYBE = "sawbones at {url} did not answer in time: it may have been applied. Look (/status) before acting again."


@pytest.mark.parametrize("how", ["503", "cut"])
async def test_an_answer_lost_on_the_way_back_may_have_been_applied_and_retry_applies_once(server, how):
    c = campaign(server, f"Lost {how}")
    with losing_proxy(server, how) as proxy:
        async with discord_table(c, server=proxy["url"]) as t:
            hit = await t.gm.slash(t.channel, "damage", character="Aria", amount=5, type="cold")
            assert said(hit) == [MAYBE.format(url=proxy["url"])]  # never "nothing was done"
            assert buttons(hit.response) == ["Retry"]
            assert c.get("/characters/aria")["hp"] == 19  # it was applied
            version = c.version()
            await t.gm.click(hit.response, label="Retry")
            assert said(hit) == ["Aria: 5 Cold = 5 damage → 19 HP"]  # sawbones' first answer, back
            assert not buttons(hit.response)
            assert c.get("/characters/aria")["hp"] == 19 and c.version() == version  # applied once
            keys = [k for m, p, k in proxy["forwarded"] if m == "POST" and p.endswith("/damage")]
            assert len(keys) == 2 and keys[0] == keys[1] and len(keys[0]) >= 20  # the same, unguessable key


async def test_keys_are_scoped_to_who_sends_them(server):
    """A key the GM used tells a player nothing, and a player's key never answers for another sender."""
    c = campaign(server, "Scoped")
    used = c.post("/damage", {"character": "Aria", "parts": [{"amount": 2, "type": "cold"}]},
                  **{"Idempotency-Key": "shared-key"})
    assert used.status_code == 200
    # the GM's key again, from the GM: the first answer; from a player with the same key: their own request
    again = c.post("/damage", {"character": "Aria", "parts": [{"amount": 2, "type": "cold"}]},
                   **{"Idempotency-Key": "shared-key"})
    assert again.json()["version"] == used.json()["version"]
    c.http.put(f"{c.path}/options/who_rolls", json={"value": "players"})
    exposed = c.post("/expose", {"character": "Brena", "affliction": "filth_fever"})
    assert exposed.status_code == 200, exposed.text
    pending = c.get("/pending")["pending"][0]["id"]
    token = c.get("/characters/brena/player-link")["token"]
    mine = httpx.post(f"{server}/api/player/{token}/answer", json={"pending": pending, "roll": True},
                      headers={"Idempotency-Key": "shared-key"})
    assert mine.status_code == 200, mine.text  # not "already used": the GM's key is the GM's
    assert mine.json()["lines"]  # the save's result sentence, as the log tells it
    # the player's key from the GM, for another request: the GM's own (no refusal naming the player's)
    other = c.post("/damage", {"character": "Aria", "parts": [{"amount": 1, "type": "cold"}]},
                   **{"Idempotency-Key": "player-key"})
    httpx.post(f"{server}/api/player/{token}/answer", json={"pending": "p99", "roll": True},
               headers={"Idempotency-Key": "player-key"})
    assert other.status_code == 200
