"""What a hostile body costs the server, and what a long-lived player link costs to check.

    .venv/bin/python benchmarks/bench_web_limits.py [--mb 200] [--events 10000]

A real `sawbones serve` (one process, SQLite in a temp dir) on 127.0.0.1:

- an anonymous client announces a body of `--mb` MB (Content-Length) and starts sending it to a GM
  route, then the same with a chunked body (no Content-Length) to `POST /api/campaigns`: the status,
  how long until the answer, how many bytes the server took, and the server's peak memory
  (VmHWM) against its memory before;
- a player link made before `--events` events: the first view (which reads those events once) and
  the median of the next 50 views.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_web import free_port  # noqa: E402


def memory(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of the process, in MB."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            values[key] = int(rest.split()[0]) // 1024
    return values["VmRSS"], values["VmHWM"]


def serve(db: str, port: int) -> subprocess.Popen:
    env = dict(os.environ, SAWBONES_DATABASE_URL=db)
    server = subprocess.Popen([sys.executable, "-m", "sawbones", "serve", "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with closing(socket.create_connection(("127.0.0.1", port), timeout=1)):
                return server
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start")


def hostile(port: int, path: str, megabytes: int, chunked: bool) -> tuple[str, float, int]:
    """Send a huge body until the server answers or closes: (status line, seconds, bytes sent)."""
    sock = socket.create_connection(("127.0.0.1", port))
    size = megabytes * 1_000_000
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}"
    sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                 f"{framing}\r\n\r\n".encode())
    block = b"[" + b"0," * 32_767 + b"0"  # 64 KB of JSON-looking bytes
    sent, started = 0, time.perf_counter()
    sock.settimeout(0)
    answer = b""
    try:
        while sent < size:
            try:
                answer += sock.recv(4096)
                if answer:
                    break
            except BlockingIOError:
                pass
            piece = (f"{len(block):x}\r\n".encode() + block + b"\r\n") if chunked else block
            sock.setblocking(True)
            sock.sendall(piece)
            sock.settimeout(0)
            sent += len(block)
    except (BrokenPipeError, ConnectionResetError):
        pass
    sock.settimeout(10)
    try:
        while b"\r\n" not in answer:
            more = sock.recv(4096)
            if not more:
                break
            answer += more
    except (TimeoutError, ConnectionResetError):
        pass
    sock.close()
    return answer.split(b"\r\n", 1)[0].decode(errors="replace"), time.perf_counter() - started, sent


def player_views(db: str, port: int, events: int) -> tuple[float, float]:
    from sawbones.application.service import Service
    from sawbones.domain.engine.campaign import add_character
    from sawbones.domain.engine.damage import damage
    from sawbones.interfaces.web.access import access

    service = Service.open(db)
    service.create_campaign("Long", "dnd5e", 1)
    service.act("Long", lambda ctx: add_character(ctx, "Nia", {"max_hp": 20}))
    service.act("Long", lambda ctx: add_character(ctx, "Oda", {"max_hp": 10 ** 6}))
    token = access.player_token(service.store, "Long", service.load("Long").state, "nia")
    for _ in range(events):
        service.act("Long", lambda ctx: damage(ctx, "Oda", [(1, "bludgeoning")], None))
    service.close()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def view() -> float:
        started = time.perf_counter()
        conn.request("GET", f"/p/{token}/sheet")
        response = conn.getresponse()
        response.read()
        assert response.status == 200, response.status
        return time.perf_counter() - started

    first = view()
    return first, statistics.median(view() for _ in range(50))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=200)
    parser.add_argument("--events", type=int, default=10_000, help="0: no player-link measurement")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        db = str(Path(home) / "limits.db")
        port = free_port()
        server = serve(db, port)
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port)
            conn.request("POST", "/api/campaigns", body=json.dumps({"name": "Alpha"}),
                         headers={"Content-Type": "application/json"})
            conn.getresponse().read()
            before = memory(server.pid)[0]
            print("| body | route | answer | time | bytes sent | server RSS before → peak |")
            print("|---|---|---|---:|---:|---|")
            for chunked, path in ((False, "/api/campaigns/Alpha/damage"), (True, "/api/campaigns")):
                status, seconds, sent = hostile(port, path, args.mb, chunked)
                peak = memory(server.pid)[1]
                kind = f"{args.mb} MB " + ("chunked" if chunked else "Content-Length")
                print(f"| {kind} | `POST {path}` (anonymous) | {status} | {seconds * 1000:.0f} ms | "
                      f"{sent / 1e6:.1f} MB | {before} MB → {peak} MB |")
            if not args.events:
                return
            first, median = player_views(db, port, args.events)
            print(f"\nplayer page of a link made {args.events} events ago: first view {first * 1000:.1f} ms, "
                  f"then median {median * 1000:.1f} ms (50 views)")
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
