"""Issue 41, item 4: connections never held for ever. The attacker's steps, against a real `sawbones serve` on
127.0.0.1: connect and send nothing; send half a request's head; send 2,000 headers, a 100 KB header, a 10 KB
address; open more idle connections than the worker has files. The server closes the slow ones, refuses the
oversized heads (431 / 414, the JSON error shape), and a real client still gets its answer."""

from __future__ import annotations

import json
import os
import resource
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _limit_files(n: int):
    return lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))


@pytest.fixture
def server(tmp_path):
    port = _free_port()
    env = dict(os.environ, SAWBONES_DATABASE_URL=f"sqlite:///{tmp_path}/c.db", SAWBONES_HEAD_SECONDS="2")
    log = open(tmp_path / "server.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "sawbones", "serve", "--port", str(port)], cwd=tmp_path,
                            stdout=log, stderr=subprocess.STDOUT, env=env, preexec_fn=_limit_files(300))
    for _ in range(300):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            if proc.poll() is not None:
                pytest.fail((tmp_path / "server.log").read_text())
            time.sleep(0.1)
    yield port
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def _ask(port: int, head: bytes, timeout: float = 20) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(head)
        out = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return out
            out += chunk


def _get(port: int, path: str = "/api/tables") -> int:
    answer = _ask(port, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    return int(answer.split(b" ", 2)[1])


def _closed_by_server(sock: socket.socket, wait: float = 30) -> bool:
    """True when the server closes the connection (an empty read) before `wait` seconds (a liveness bound)."""
    sock.settimeout(wait)
    try:
        return sock.recv(1024) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def test_a_connection_that_sends_nothing_or_half_a_head_is_closed(server):
    silent = socket.create_connection(("127.0.0.1", server))
    half = socket.create_connection(("127.0.0.1", server))
    half.sendall(b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    try:
        assert _closed_by_server(silent)
        assert _closed_by_server(half)
    finally:
        silent.close()
        half.close()
    assert _get(server) == 200


@pytest.mark.parametrize("head,status", [
    (b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"".join(b"X-H%d: v\r\n" % i for i in range(2000))
     + b"\r\n", 431),
    (b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n", 431),
    (b"GET /api/tables?" + b"q" * 10_000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 414),
])
def test_an_oversized_head_is_refused_in_the_json_shape(server, head, status):
    answer = _ask(server, head)
    assert answer.startswith(b"HTTP/1.1 %d" % status), answer[:200]
    assert "error" in json.loads(answer.split(b"\r\n\r\n", 1)[1])
    assert _get(server) == 200


def test_more_idle_connections_than_files_leave_room_for_a_real_client(server):
    idle = []
    try:
        for _ in range(400):  # the worker has 300 files
            try:
                idle.append(socket.create_connection(("127.0.0.1", server), timeout=5))
            except OSError:
                break
        for _ in range(3):
            assert _get(server) == 200
    finally:
        for sock in idle:
            sock.close()
