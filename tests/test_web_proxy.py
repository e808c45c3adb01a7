"""Behind a reverse proxy on another host (issue 39, item 2): `serve --forwarded-allow-ips` trusts X-Forwarded-For
and X-Forwarded-Proto from those addresses only, so the live streams' limit per address counts each player behind
the proxy, not the proxy. A client bound to 127.0.0.2 stands for the proxy on another machine (traffic stays on
the loopback); the server listens on 127.0.0.1."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest

from sawbones.interfaces.cli import main

PROXY = "127.0.0.2"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _serve(home: Path, *args: str) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    env = dict(os.environ, PYTHONUNBUFFERED="1", SAWBONES_STREAMS_PER_ADDRESS="2")
    log = open(home / f"server-{port}.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "sawbones", "--db", str(home / "c.db"), "serve", "--port", str(port),
                             *args], cwd=home, stdout=log, stderr=subprocess.STDOUT, env=env)
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


def _proxy(base: str) -> httpx.Client:
    """What a reverse proxy on another machine sends from: its own address."""
    return httpx.Client(base_url=base, timeout=30, transport=httpx.HTTPTransport(local_address=PROXY))


def _table(client: httpx.Client, *names: str) -> list[str]:
    made = client.post("/api/campaigns", json={"name": "Alpha", "seed": 7})
    assert made.status_code == 201, made.text
    bearer = {"Authorization": f"Bearer {made.json()['gm_secret']}"}
    links = []
    for name in names:
        assert client.post("/api/campaigns/Alpha/characters", json={"name": name, "max_hp": 20},
                           headers=bearer).status_code == 201
        links.append(client.get(f"/api/campaigns/Alpha/characters/{name}/player-link", headers=bearer).json()["url"])
    return links


def _streams(client: httpx.Client, opened: list[tuple[str, str]]) -> list[int]:
    """Open each player's stream (link, the player's own address as the proxy forwards it); their statuses."""
    with ExitStack() as stack:
        statuses = []
        for link, player in opened:
            response = stack.enter_context(client.stream("GET", link + "/events", headers={
                "X-Forwarded-For": player, "X-Forwarded-Proto": "https"}))
            statuses.append(response.status_code)
        return statuses


@pytest.fixture
def served(tmp_path):
    started: list[subprocess.Popen] = []

    def serve(*args: str) -> str:
        proc, base = _serve(tmp_path, *args)
        started.append(proc)
        return base

    yield serve
    for proc in started:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_players_behind_a_trusted_proxy_each_count_as_themselves(served):
    base = served("--forwarded-allow-ips", f"{PROXY},127.0.0.1")
    with _proxy(base) as proxy:
        aria, borin, cora = _table(proxy, "Aria", "Borin", "Cora")
        players = [(aria, "192.168.1.21"), (borin, "192.168.1.22"), (cora, "192.168.1.23")]
        assert _streams(proxy, players) == [200, 200, 200]
        # the limit still holds, for one player: three streams from one phone
        assert _streams(proxy, [(aria, "192.168.1.21")] * 3) == [200, 200, 429]
        # X-Forwarded-Proto from the proxy: the player's cookie is for https only
        page = proxy.get(aria, headers={"X-Forwarded-For": "192.168.1.21", "X-Forwarded-Proto": "https"})
        assert page.status_code == 200 and "secure" in page.headers["set-cookie"].lower()


def test_an_untrusted_proxy_is_one_address_and_its_headers_are_ignored(served):
    base = served()  # the default: 127.0.0.1 only
    with _proxy(base) as proxy:
        aria, borin, cora = _table(proxy, "Aria", "Borin", "Cora")
        players = [(aria, "192.168.1.21"), (borin, "192.168.1.22"), (cora, "192.168.1.23")]
        assert _streams(proxy, players) == [200, 200, 429]  # every player is the proxy
        page = proxy.get(aria, headers={"X-Forwarded-For": "192.168.1.21", "X-Forwarded-Proto": "https"})
        assert page.status_code == 200 and "secure" not in page.headers["set-cookie"].lower()


@pytest.mark.parametrize("value", ["", "10.0.0.300", "proxy.example.org", "10.0.0.0/33"])
def test_a_bad_forwarded_allow_ips_is_one_line(tmp_path, capsys, value):
    code = main(["--db", str(tmp_path / "s.db"), "serve", "--port", str(_free_port()), "--forwarded-allow-ips", value])
    err = capsys.readouterr().err
    assert code == 2 and "--forwarded-allow-ips" in err and "Traceback" not in err, err
    assert not (tmp_path / "s.db").exists()
