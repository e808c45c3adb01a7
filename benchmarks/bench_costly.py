"""A cheap request while anonymous clients ask for the most expensive public computation (issue 41, item 2).

    .venv/bin/python benchmarks/bench_costly.py [--clients 32] [--seconds 20] [--src DIR]

A real `sawbones serve` (one process, open access on 127.0.0.1, SQLite in a temp dir; `--src DIR`: the
sawbones sources to serve, e.g. an older tree unpacked with `git archive`). A GM reads a character
(`GET /api/campaigns/Alpha/characters/Aria`, a few milliseconds) once every 50 ms: alone first, then while
`--clients` anonymous threads, each with its own connection, ask for `GET /api/odds/party?compare=all` with
parameters varied so that no cache answers (about 1.5 s of CPU each) for `--seconds` seconds; then how long
after they stop until a read is fast again. Prints the read's p50/p99 in each phase and what the attackers
got (200, 429, timeouts). Bounded: the attack stops after `--seconds`, every request times out after 60 s,
the recovery is watched for 120 s at most, the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from contextlib import closing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_web import free_port  # noqa: E402

READ = "/api/campaigns/Alpha/characters/Aria"


def serve(db: str, port: int, src: str | None) -> subprocess.Popen:
    env = dict(os.environ, SAWBONES_DATABASE_URL=db)
    if src:
        env["PYTHONPATH"] = src
    server = subprocess.Popen([sys.executable, "-m", "sawbones", "serve", "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with closing(http.client.HTTPConnection("127.0.0.1", port, timeout=2)) as conn:
                conn.request("GET", "/api/tables")
                if conn.getresponse().status == 200:
                    return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("the server did not start")


def request(port: int, method: str, path: str, body: dict | None = None, secret: str | None = None,
            timeout: float = 60) -> tuple[int, bytes]:
    headers = {"Content-Type": "application/json"}
    if secret:
        headers["Authorization"] = f"Bearer {secret}"
    with closing(http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)) as conn:
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        answer = conn.getresponse()
        return answer.status, answer.read()


def reads(port: int, secret: str, until: threading.Event, out: list[float], most: int = 100_000) -> None:
    """A GM's read every 50 ms (its own keep-alive connection) until `until` is set: latencies in ms."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    while not until.is_set() and len(out) < most:
        started = time.perf_counter()
        try:
            conn.request("GET", READ, headers={"Authorization": f"Bearer {secret}"})
            answer = conn.getresponse()
            answer.read()
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            continue
        out.append((time.perf_counter() - started) * 1000)
        time.sleep(0.05)
    conn.close()


def attacker(port: int, stop: float, got: Counter, lock: threading.Lock) -> None:
    rng = random.Random()
    while time.time() < stop:
        path = (f"/api/odds/party?compare=all&wait={rng.randint(0, 30)}&bonus={rng.randint(-5, 15)}"
                f"&drops={rng.randint(1, 40) / 10}")
        try:
            status, _ = request(port, "GET", path, timeout=60)
            key = str(status)
        except TimeoutError:
            key = "timeout"
        except (OSError, http.client.HTTPException) as exc:
            key = type(exc).__name__
        with lock:
            got[key] += 1
        if key == "429":
            time.sleep(0.5)  # a polite client would wait Retry-After; a hostile one comes back soon


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--src", default=None, help="the sawbones sources to serve (PYTHONPATH)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        port = free_port()
        server = serve(str(Path(home) / "bench.db"), port, args.src)
        try:
            status, body = request(port, "POST", "/api/campaigns", {"name": "Alpha", "seed": 1})
            secret = json.loads(body)["gm_secret"]
            request(port, "POST", "/api/campaigns/Alpha/characters", {"name": "Aria", "max_hp": 30}, secret)
            alone: list[float] = []
            done = threading.Event()
            reader = threading.Thread(target=reads, args=(port, secret, done, alone, 100))
            reader.start()
            reader.join()
            under: list[float] = []
            done = threading.Event()
            reader = threading.Thread(target=reads, args=(port, secret, done, under))
            got: Counter = Counter()
            lock = threading.Lock()
            stop = time.time() + args.seconds
            attackers = [threading.Thread(target=attacker, args=(port, stop, got, lock), daemon=True)
                         for _ in range(args.clients)]
            reader.start()
            for thread in attackers:
                thread.start()
            for thread in attackers:
                thread.join(timeout=max(0.0, stop - time.time()) + 65)
            done.set()
            reader.join(timeout=65)
            stopped = time.time()
            recovered = None
            while time.time() - stopped < 120:  # until a read takes under twice the quiet p99
                started = time.perf_counter()
                request(port, "GET", READ, secret=secret)
                if (time.perf_counter() - started) * 1000 < 2 * pct(alone, 0.99):
                    recovered = time.time() - stopped
                    break
                time.sleep(0.1)
            print(f"served from: {args.src or 'this tree'}; {args.clients} anonymous clients, {args.seconds:g} s")
            print(f"GM read alone:        p50 {pct(alone, 0.5):7.1f} ms  p99 {pct(alone, 0.99):7.1f} ms  "
                  f"({len(alone)} reads)")
            print(f"GM read under attack: p50 {pct(under, 0.5):7.1f} ms  p99 {pct(under, 0.99):7.1f} ms  "
                  f"max {max(under, default=float('nan')):7.1f} ms  ({len(under)} reads)")
            print(f"attackers' answers:   {dict(sorted(got.items()))}")
            print("fast again after:     " + (f"{recovered:.1f} s" if recovered is not None else "not within 120 s"))
            if under:
                print(f"(read median under attack / alone: {statistics.median(under) / statistics.median(alone):.1f}x)")
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()


if __name__ == "__main__":
    main()
