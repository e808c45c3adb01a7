"""An honest client's latency while a stranger attacks the server (a real `sawbones serve` on 127.0.0.1 under
`ulimit -n 256`, SQLite in a temp dir). Each attack runs `--seconds`; meanwhile the honest client asks its
request every 0.1 s (5 s timeout: a failure past it, or a closed connection) and we report its median, p95,
worst, and how many failed.

  quiet        no attack (honest: GET /api/tables)
  slow-bodies  200 connections each send a POST's head (Content-Length 1 MB, JSON) and then one byte every 2 s
               (honest: GET /api/tables); also the server's peak memory (VmHWM)
  silent-tls   (`--certfile`) 300 TCP connections that never send a ClientHello (honest: GET /api/tables
               over https, a new connection each time)
  streams      300 live streams of a player link held open (its per-link cap raised as if the attacker held
               many links) (honest: GET /api/tables)
  costly       18 anonymous `GET /api/odds/party?compare=all` at a time from 9 addresses (X-Forwarded-For
               behind the trusted proxy), again as each ends (honest: a GM's own odds,
               /api/campaigns/NAME/odds/injuries/fire with its API secret)
  panels       60 dashboard loads with the what-if panel at a time, again as each ends (honest:
               GET /api/tables); also the server's threads at their most

    .venv/bin/python benchmarks/bench_attacks.py [--seconds 8] [--only slow-bodies,streams] [--src DIR]

`--src DIR` runs the server from another tree's `src` (PYTHONPATH), e.g. the code before a change:
`git archive <commit> src | tar -x -C /tmp/before` then `--src /tmp/before/src`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_web import free_port  # noqa: E402

FILES = 256


class Server:
    def __init__(self, folder: Path, src: str | None, args: tuple[str, ...] = (), **env: str) -> None:
        self.port = free_port()
        self.log = folder / "server.log"
        environ = dict(os.environ, SAWBONES_DATABASE_URL=f"sqlite:///{folder}/c.db", **env)
        if src:
            environ["PYTHONPATH"] = src
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sawbones", "serve", "--port", str(self.port), *args], cwd=folder,
            stdout=open(self.log, "w"), stderr=subprocess.STDOUT, env=environ,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (FILES, FILES)))
        for _ in range(300):
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise SystemExit(self.log.read_text())

    def peak_mb(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) // 1024
        return 0

    def threads(self) -> int:
        return len(os.listdir(f"/proc/{self.proc.pid}/task"))

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def connect(port: int, secure: bool = False, timeout: float = 5) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    if secure:
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        sock = context.wrap_socket(sock, server_hostname="localhost")
    return sock


def ask(port: int, path: str, headers: dict[str, str] | None = None, secure: bool = False,
        timeout: float = 5) -> tuple[int, bytes]:
    """(status, answer); status 0 when the connection failed or closed without one."""
    lines = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
    try:
        with connect(port, secure, timeout) as sock:
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{lines}\r\n".encode())
            out = b""
            while chunk := sock.recv(65536):
                out += chunk
    except (OSError, ssl.SSLError):
        return 0, b""
    try:
        return int(out.split(b" ", 2)[1]), out
    except (IndexError, ValueError):
        return 0, out


def honest(seconds: float, call) -> dict[str, float]:
    """`call()` every 0.1 s for `seconds`: its latency (ms) and failures (no answer, or not a 200)."""
    times, failed, end = [], 0, time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.perf_counter()
        status = call()
        spent = (time.perf_counter() - started) * 1000
        if status == 200:
            times.append(spent)
        else:
            failed += 1
        time.sleep(max(0.0, 0.1 - spent / 1000))
    times.sort()
    return {"n": len(times) + failed, "failed": failed,
            "median_ms": round(statistics.median(times), 1) if times else float("nan"),
            "p95_ms": round(times[int(len(times) * 0.95) - 1 if len(times) > 1 else 0], 1) if times else float("nan"),
            "worst_ms": round(times[-1], 1) if times else float("nan")}


def keep_going(stop: threading.Event, many: int, call) -> list[threading.Thread]:
    def loop(i: int) -> None:
        while not stop.is_set():
            call(i)

    threads = [threading.Thread(target=loop, args=(i,), daemon=True) for i in range(many)]
    for thread in threads:
        thread.start()
    return threads


def quiet(folder: Path, args) -> dict:
    server = Server(folder, args.src)
    try:
        return honest(args.seconds, lambda: ask(server.port, "/api/tables")[0])
    finally:
        server.stop()


def slow_bodies(folder: Path, args) -> dict:
    server = Server(folder, args.src)
    before = server.peak_mb()
    held, stop = [], threading.Event()
    try:
        for _ in range(200):
            try:
                sock = connect(server.port)
                sock.sendall(b"POST /api/campaigns HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                             b"Content-Length: 1000000\r\n\r\n{\"name\": \"" + b"x" * 60_000)
                held.append(sock)
            except OSError:
                break

        def trickle() -> None:
            while not stop.wait(2):
                for sock in list(held):
                    try:
                        sock.send(b"x")
                    except OSError:
                        held.remove(sock)

        threading.Thread(target=trickle, daemon=True).start()
        result = honest(args.seconds, lambda: ask(server.port, "/api/tables")[0])
        result["peak_mb"] = server.peak_mb() - before
        return result
    finally:
        stop.set()
        for sock in held:
            sock.close()
        server.stop()


def silent_tls(folder: Path, args) -> dict:
    if not shutil.which("openssl"):
        return {"skipped": "no openssl"}
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(folder / "k.pem"),
                    "-out", str(folder / "c.pem"), "-days", "1", "-subj", "/CN=localhost"], check=True,
                   capture_output=True)
    server = Server(folder, args.src, ("--certfile", str(folder / "c.pem"), "--keyfile", str(folder / "k.pem")))
    silent = []
    try:
        for _ in range(300):
            try:
                silent.append(connect(server.port))
            except OSError:
                break
        return honest(args.seconds, lambda: ask(server.port, "/api/tables", secure=True)[0])
    finally:
        for sock in silent:
            sock.close()
        server.stop()


def streams(folder: Path, args) -> dict:
    server = Server(folder, args.src, ("--demo",), SAWBONES_STREAMS_PER_TOKEN="10000")
    time.sleep(0.5)
    path = "/p/" + re.search(r"/p/([\w-]+)", server.log.read_text()).group(1) + "/events"
    held = []
    try:
        for _ in range(300):
            try:
                sock = connect(server.port)
                sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                held.append(sock)
            except OSError:
                break
        time.sleep(1)
        return honest(args.seconds, lambda: ask(server.port, "/api/tables")[0])
    finally:
        for sock in held:
            sock.close()
        server.stop()


def costly(folder: Path, args) -> dict:
    server = Server(folder, args.src)
    stop = threading.Event()
    try:
        body = json.dumps({"name": "Alpha", "seed": 7}).encode()
        with connect(server.port) as sock:
            sock.sendall(b"POST /api/campaigns HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: "
                         b"application/json\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        secret = json.loads(answer.split(b"\r\n\r\n", 1)[1])["gm_secret"]
        counter = iter(range(10**9))
        keep_going(stop, 18, lambda i: ask(server.port, f"/api/odds/party?compare=all&bonus={next(counter) % 40}",
                                           {"X-Forwarded-For": f"203.0.113.{i % 9 + 1}"}, timeout=60))
        time.sleep(0.5)
        mine = iter(range(10**9))
        return honest(args.seconds, lambda: ask(
            server.port, f"/api/campaigns/Alpha/odds/injuries/fire?x={next(mine)}",
            {"Authorization": f"Bearer {secret}"}, timeout=5)[0])
    finally:
        stop.set()
        server.stop()


def panels(folder: Path, args) -> dict:
    server = Server(folder, args.src, ("--demo",), SAWBONES_COSTLY="1,100,100,100000")
    stop = threading.Event()
    try:
        time.sleep(0.5)
        link = re.search(r"(/c/\w+)\?code=([\w-]+)", server.log.read_text())
        _, answer = ask(server.port, f"{link.group(1)}?code={link.group(2)}")
        cookie = re.search(rb"(?im)^set-cookie: ([^;]+)", answer).group(1).decode()
        counter = iter(range(10**9))
        keep_going(stop, 60, lambda i: ask(server.port, f"{link.group(1)}?whatif=1&wdrops={1 + next(counter) % 50 / 10}",
                                           {"Cookie": cookie}, timeout=120))
        most = [server.threads()]

        def watch() -> None:
            while not stop.wait(0.2):
                most.append(server.threads())

        threading.Thread(target=watch, daemon=True).start()
        time.sleep(1)
        result = honest(args.seconds, lambda: ask(server.port, "/api/tables")[0])
        result["threads_at_most"] = max(most)
        return result
    finally:
        stop.set()
        server.stop()


ATTACKS = {"quiet": quiet, "slow-bodies": slow_bodies, "silent-tls": silent_tls, "streams": streams, "costly": costly,
           "panels": panels}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--only", default=",".join(ATTACKS))
    parser.add_argument("--src", default=None)
    args = parser.parse_args()
    for name in args.only.split(","):
        with tempfile.TemporaryDirectory() as folder:
            print(f"{name:12} {json.dumps(ATTACKS[name](Path(folder), args))}", flush=True)


if __name__ == "__main__":
    main()
