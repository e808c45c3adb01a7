"""The web API under load: a real server process, a second process sending GM actions on 127.0.0.1.

    .venv/bin/python benchmarks/bench_web.py [--requests 1500] [--seconds 10] [--workers 2] [--clients 1,8,32]
                                             [--backends sqlite,postgresql]

For SQLite (a file in a temp dir) and PostgreSQL (as benchmarks/bench_store.py finds or starts it):
`sawbones serve` with N worker processes; then 1, 8 and 32 clients, each a thread with its own
keep-alive connection, all on one campaign, then each on its own campaign, POST damage actions (a real rules action: load, decide, append) until the
request budget or the time budget is spent. Prints actions/s (2xx answers per second of wall time),
p50/p99 latency, how many answers were conflicts (409: another GM wrote first), the CPU time the server's
processes and this client used per answered action (Linux /proc: less sensitive to a shared machine than
the latencies) and the load average — bounded.
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
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

PARTY = ["Aria", "Borin", "Cyra", "Dax", "Eon", "Fay"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def call(conn: http.client.HTTPConnection, method: str, path: str, body: dict | None = None,
         secret: str | None = None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json"}
    if secret:
        headers["Authorization"] = f"Bearer {secret}"
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse()
    data = response.read()
    return response.status, (json.loads(data) if data else {})


def start_server(db: str, port: int, workers: int) -> subprocess.Popen:
    env = dict(os.environ, SAWBONES_DATABASE_URL=db)
    command = [sys.executable, "-m", "sawbones", "serve", "--host", "127.0.0.1", "--port", str(port),
               "--workers", str(workers)]
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            if call(conn, "GET", "/api/tables")[0] == 200:
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise RuntimeError("the server did not start")


def _with_children(root: int) -> list[int]:
    pids = [root]
    try:
        pids += [int(p) for p in Path(f"/proc/{root}/task/{root}/children").read_text().split()]
    except OSError:
        pass
    return pids


def cpu_seconds(root: int | None) -> float:
    """CPU time (user + system) a process and its children (the server's workers) have used so far (Linux)."""
    if root is None:
        return 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in _with_children(root):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
        except (OSError, IndexError, ValueError):
            pass
    return total / ticks


def setup_campaign(port: int, name: str) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    status, doc = call(conn, "POST", "/api/campaigns", {"name": name, "seed": 1})
    assert status == 201, (status, doc)
    secret = doc["gm_secret"]
    for who in PARTY:
        status, doc = call(conn, "POST", f"/api/campaigns/{name}/characters", {"name": who, "max_hp": 10000}, secret)
        assert status == 201, (status, doc)
    return secret


def load(port: int, campaigns: list[tuple[str, str]], clients: int, requests: int, seconds: float,
         server: int | None = None) -> dict:
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    budget = iter(range(requests))
    stop_at = time.perf_counter() + seconds

    def client(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        campaign, secret = campaigns[i % len(campaigns)]
        body = {"character": PARTY[i % len(PARTY)], "parts": [{"amount": 1, "type": "fire"}]}
        while time.perf_counter() < stop_at:
            with lock:
                if next(budget, None) is None:
                    return
            start = time.perf_counter()
            status, _ = call(conn, "POST", f"/api/campaigns/{campaign}/damage", body, secret)
            took = time.perf_counter() - start
            with lock:
                latencies.append(took)
                statuses[status] = statuses.get(status, 0) + 1

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    cpu = (cpu_seconds(server), time.process_time())
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    used = (cpu_seconds(server) - cpu[0], time.process_time() - cpu[1])
    ok = sum(n for s, n in statuses.items() if 200 <= s < 300)
    ordered = sorted(latencies)
    return {"actions_per_s": ok / wall, "p50": statistics.median(ordered) * 1000,
            "p99": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000,
            "ok": ok, "conflicts": statuses.get(409, 0), "other": sum(n for s, n in statuses.items()
                                                                       if not 200 <= s < 300 and s != 409),
            "server_cpu": used[0] * 1000 / max(ok, 1), "client_cpu": used[1] * 1000 / max(ok, 1),
            "load": os.getloadavg()[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1500, help="Requests per concurrency level at most.")
    parser.add_argument("--seconds", type=float, default=10.0, help="Seconds per concurrency level at most.")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--clients", default="1,8,32")
    parser.add_argument("--backends", default="sqlite,postgresql", help="Which stores to load (comma-separated).")
    args = parser.parse_args()
    from bench_store import _drop_schemas, _pg_schema, scratch_dir, start_postgres  # noqa: E402  (same folder)

    tmp = scratch_dir("sawbones-web-")
    wanted = args.backends.split(",")
    backends = [("SQLite", f"sqlite:///{tmp}/web.db")] if "sqlite" in wanted else []
    pg_url, stop = start_postgres() if "postgresql" in wanted else (None, lambda: None)
    if pg_url:  # (a schema of its own: the campaigns' names of an earlier run on the same database are taken)
        backends.append(("PostgreSQL", _pg_schema(pg_url, 0)))
    rows = []
    try:
        for label, url in backends:
            port = free_port()
            server = start_server(url, port, args.workers)
            try:
                for clients in (int(c) for c in args.clients.split(",")):
                    shared = [(f"Shared{clients}", setup_campaign(port, f"Shared{clients}"))]
                    rows.append((label, clients, "one for all", load(port, shared, clients, args.requests,
                                                                   args.seconds, server.pid)))
                    own = [(f"Own{clients}_{i}", setup_campaign(port, f"Own{clients}_{i}")) for i in range(clients)]
                    rows.append((label, clients, "one each", load(port, own, clients, args.requests, args.seconds,
                                                                 server.pid)))
            finally:
                server.terminate()
                server.wait(timeout=20)
    finally:
        if pg_url:
            _drop_schemas(pg_url)
        stop()
    print(f"\nWeb API under load: POST damage, {args.workers} worker processes, "
          f"at most {args.requests} requests or {args.seconds:.0f} s per row\n")
    print("| backend | clients | campaigns | actions/s | p50 | p99 | 2xx | 409 conflicts | other "
          "| server CPU / action | client CPU / action | load |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, clients, spread, r in rows:
        print(f"| {label} | {clients} | {spread} | {r['actions_per_s']:,.0f} | {r['p50']:.1f} ms | {r['p99']:.1f} ms "
              f"| {r['ok']} | {r['conflicts']} | {r['other']} | {r['server_cpu']:.2f} ms | {r['client_cpu']:.2f} ms "
              f"| {r['load']:.1f} |")


if __name__ == "__main__":
    main()
