"""The costly lane is shared by who asks, not by address, and the dashboard's costly panels wait for it without a
thread. The attacker's steps, against a real `sawbones serve` on 127.0.0.1: the most expensive public odds asked
at once from nine addresses, twice each (behind the trusted proxy, each X-Forwarded-For counts as its own
address); sixty dashboard loads with a what-if panel at once. A GM's own odds, and the table, still answer."""

from __future__ import annotations

import json
import os
import re
import socket
import threading
import time

from tests.test_hardening_progress import _connect, _get, _read_all, serve  # noqa: F401  (the fixture)


def _ask(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    lines = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
    with _connect(port, timeout=120) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{lines}\r\n".encode())
        answer = _read_all(sock)
    return int(answer.split(b" ", 2)[1]), answer


def _post_json(port: int, path: str, body: dict) -> dict:
    data = json.dumps(body).encode()
    with _connect(port) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: "
                     f"application/json\r\nContent-Length: {len(data)}\r\n\r\n".encode() + data)
        answer = _read_all(sock)
    return json.loads(answer.split(b"\r\n\r\n", 1)[1])


def _at_once(calls: list) -> list:
    results: list = [None] * len(calls)

    def run(i: int) -> None:
        results[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    return threads, results


def test_nine_addresses_cannot_hold_the_costly_lane_from_a_gm(serve):
    served = serve(SAWBONES_COSTLY="1,8,2,1000")
    secret = _post_json(served.port, "/api/campaigns", {"name": "Alpha", "seed": 7})["gm_secret"]
    attack = [lambda i=i: _ask(served.port, f"/api/odds/party?compare=all&wait=3&bonus={i % 20}&drops={1 + i / 100}",
                               {"X-Forwarded-For": f"203.0.113.{i % 9 + 1}"})[0] for i in range(18)]
    threads, statuses = _at_once(attack)
    time.sleep(0.5)  # (the attack's requests are in: running, waiting or refused)
    mine, answer = _ask(served.port, "/api/campaigns/Alpha/odds/injuries/fire",
                        {"Authorization": f"Bearer {secret}"})
    for thread in threads:
        thread.join()
    assert mine == 200, answer[:300]
    assert statuses.count(429) >= 14, statuses  # the anonymous callers share one small share (2 at once)


def _threads(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))


def test_sixty_dashboard_panels_wait_without_a_thread(serve):
    served = serve("--demo", SAWBONES_COSTLY="1,100,100,1000")
    for _ in range(100):
        link = re.search(r"(/c/\w+)\?code=([\w-]+)", served.log.read_text())
        if link:
            break
        time.sleep(0.1)
    status, answer = _ask(served.port, f"{link.group(1)}?code={link.group(2)}")
    cookie = "; ".join(re.findall(rb"(?im)^set-cookie: ([^;]+)", answer)[i].decode() for i in range(1))
    page = link.group(1)
    assert _ask(served.port, page, {"Cookie": cookie})[0] == 200
    before = _threads(served.proc.pid)
    loads = [lambda i=i: _ask(served.port, f"{page}?whatif=1&wdrops={1 + i / 10}&wbonus={i % 5}",
                              {"Cookie": cookie})[0] for i in range(60)]
    threads, statuses = _at_once(loads)
    most = before
    while any(thread.is_alive() for thread in threads):
        most = max(most, _threads(served.proc.pid))
        assert _get(served.port) == 200
        time.sleep(0.2)
    assert most < before + 20, (before, most)  # a thread each would be 40 (the pool) and more
    assert statuses.count(200) == 60, statuses
