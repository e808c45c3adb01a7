"""A reader's latency while GMs write: the hot read routes idle, with 8 and with 32 writers, on both backends.

    .venv/bin/python benchmarks/bench_readers.py [--seconds 10] [--writers 0,8,32] [--backends sqlite,postgresql]
                                                 [--checkout before=/tmp/before] [--workers 1]
                                                 [--read-rate 50]

A real `sawbones serve` (one worker unless --workers) of each checkout given (`--checkout NAME=ROOT`, repeatable:
its src/ on PYTHONPATH, this venv's Python; this checkout as "after" always), one row per backend, checkout,
number of writers and where they write:

- own: each writer POSTs damage to a campaign of its own (the server's other tables);
- same: the writers POST damage to the reader's own campaign (its characters, the reader's table);

Meanwhile one reader (a process of its own, so that the writers' client threads never hold its interpreter)
cycles through the hot reads on its keep-alive connection, paced at --read-rate requests a second at most (the
same read load on every tree: a reader starved by the writers would leave them its share of the CPU): a
character, the campaign, pending, the player's view, and the events stream's catch-up (opened 5 events back,
timed to its last caught-up frame). Prints the
reader's p50/p99 per route and over all, the writers' acknowledged actions per second, and the load average
(`os.getloadavg`, the machine is shared) next to every row. PostgreSQL as bench_store.py finds or starts it.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from bench_web import PARTY, call, free_port, setup_campaign  # noqa: E402

ROUTES = ("character", "campaign", "pending", "player", "catch-up")


def start_server(root: Path, db: str, port: int, workers: int) -> subprocess.Popen:
    env = dict(os.environ, SAWBONES_DATABASE_URL=db, PYTHONPATH=str(root / "src"))
    command = [sys.executable, "-m", "sawbones", "serve", "--host", "127.0.0.1", "--port", str(port),
               "--workers", str(workers)]
    server = subprocess.Popen(command, env=env, cwd=str(root), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            if call(http.client.HTTPConnection("127.0.0.1", port, timeout=2), "GET", "/api/tables")[0] == 200:
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise RuntimeError("the server did not start")


def campaign(port: int, name: str) -> dict:
    secret = setup_campaign(port, name)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for _ in range(6):  # a few events for the stream to catch up on
        call(conn, "POST", f"/api/campaigns/{name}/damage", {"character": PARTY[0], "parts": [
            {"amount": 1, "type": "fire"}]}, secret)
    status, link = call(conn, "GET", f"/api/campaigns/{name}/characters/{PARTY[0]}/player-link", None, secret)
    assert status == 200, (status, link)
    return {"name": name, "secret": secret, "token": link["token"]}


# ------------------------------------------------------------------ the writers (a process of their own)

def writers_main(port: int, tables: list[dict], seconds: float) -> None:
    """N threads, one keep-alive connection each, POST damage until `seconds` are up; prints the 2xx count."""
    done = [0] * len(tables)
    stop_at = time.perf_counter() + seconds

    def write(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        table = tables[i]
        body = {"character": PARTY[i % len(PARTY)], "parts": [{"amount": 1, "type": "fire"}]}
        while time.perf_counter() < stop_at:
            status, _ = call(conn, "POST", f"/api/campaigns/{table['name']}/damage", body, table["secret"])
            done[i] += 200 <= status < 300

    threads = [threading.Thread(target=write, args=(i,)) for i in range(len(tables))]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(json.dumps({"ok": sum(done), "wall": time.perf_counter() - start}), flush=True)


# ------------------------------------------------------------------ the reader

def catch_up(port: int, table: dict) -> None:
    """Open the events stream 5 events back and read until the catch-up's last frame."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", f"/api/campaigns/{table['name']}/events?after={table['head'] - 5}",
                 headers={"Authorization": f"Bearer {table['secret']}"})
    response = conn.getresponse()
    assert response.status == 200, response.status
    seen = 0
    while seen < 5:
        line = response.fp.readline()
        if not line:
            break
        seen += line.startswith(b"id:")
    conn.close()


def read(port: int, table: dict, seconds: float, rate: float) -> dict[str, list[float]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    name, secret = table["name"], table["secret"]
    paths = {"character": f"/api/campaigns/{name}/characters/{PARTY[1]}", "campaign": f"/api/campaigns/{name}",
             "pending": f"/api/campaigns/{name}/pending", "player": f"/api/player/{table['token']}"}
    times: dict[str, list[float]] = {route: [] for route in ROUTES}
    stop_at = time.perf_counter() + seconds
    next_at = time.perf_counter()
    while time.perf_counter() < stop_at:
        for route in ROUTES:
            next_at += 1 / rate  # paced: the same read load on every tree (a starved reader would leave its
            time.sleep(max(0.0, next_at - time.perf_counter()))  # share of the CPU to the writers)
            start = time.perf_counter()
            if route == "catch-up":
                catch_up(port, table)
            else:
                status, doc = call(conn, "GET", paths[route], None, secret)
                assert status == 200, (route, status, doc)
                if route == "campaign":
                    table["head"] = doc.get("version", table.get("head", 10))
            times[route].append(time.perf_counter() - start)
    return times


def reader_main(port: int, table: dict, seconds: float, rate: float) -> None:
    call(http.client.HTTPConnection("127.0.0.1", port), "GET", f"/api/campaigns/{table['name']}")
    table.setdefault("head", 10)
    print(json.dumps(read(port, table, seconds, rate)), flush=True)


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] * 1000


def row(port: int, reader_table: dict, writer_tables: list[dict], seconds: float, rate: float) -> dict:
    me = [sys.executable, __file__]
    procs = []
    if writer_tables:
        procs.append(subprocess.Popen(me + ["--as-writers", json.dumps([port, writer_tables, seconds])],
                                      stdout=subprocess.PIPE, text=True))
        time.sleep(min(1.0, seconds / 10))  # the writers under way before the first read
    reader = subprocess.Popen(me + ["--as-reader", json.dumps([port, reader_table, seconds, rate])], stdout=subprocess.PIPE,
                              text=True)
    times = json.loads(reader.communicate(timeout=seconds * 6 + 60)[0])
    wrote = json.loads(procs[0].communicate(timeout=seconds * 6 + 60)[0]) if procs else {"ok": 0, "wall": 1}
    everything = [t for route in ROUTES for t in times[route]]
    return {"routes": {route: (statistics.median(times[route]) * 1000, _pct(times[route], 0.99)) for route in ROUTES},
            "p50": statistics.median(everything) * 1000, "p99": _pct(everything, 0.99), "reads": len(everything) / seconds,
            "writes_s": wrote["ok"] / wrote["wall"], "load": os.getloadavg()[0]}


def run_checkout(label: str, root: Path, backend: str, url: str, counts: list[int], seconds: float, workers: int,
                 prefix: str, rate: float) -> list[tuple]:
    port = free_port()
    server = start_server(root, url, port, workers)
    rows = []
    try:
        table = campaign(port, f"{prefix}Table")
        own = [campaign(port, f"{prefix}Own{i}") for i in range(max(counts))]
        for n in counts:
            for spread in (("own", "same") if n else ("idle",)):
                writers = own[:n] if spread == "own" else [table] * n
                r = row(port, table, writers, seconds, rate)
                rows.append((backend, n, spread, label, r))
                print(_line(rows[-1]), flush=True)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return rows


def _line(entry: tuple) -> str:
    backend, n, spread, label, r = entry
    per_route = " | ".join(f"{r['routes'][route][0]:.0f} / {r['routes'][route][1]:.0f}" for route in ROUTES)
    return (f"| {backend} | {n} {spread} | {label} | **{r['p50']:.1f} / {r['p99']:.0f}** | {per_route} | "
            f"{r['reads']:,.0f} | {r['writes_s']:,.0f} | {r['load']:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="Seconds per row.")
    parser.add_argument("--writers", default="0,8,32")
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--read-rate", type=float, default=50.0, help="The reader's requests per second at most.")
    parser.add_argument("--checkout", action="append", default=[], help="NAME=ROOT of another checkout to compare.")
    parser.add_argument("--as-writers", help=argparse.SUPPRESS)
    parser.add_argument("--as-reader", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.as_writers:
        writers_main(*json.loads(args.as_writers))
        return
    if args.as_reader:
        reader_main(*json.loads(args.as_reader))
        return
    from bench_store import _drop_schemas, _pg_schema, scratch_dir, start_postgres

    checkouts = [(name, Path(root).resolve()) for name, _, root in (c.partition("=") for c in args.checkout)]
    checkouts.append(("after", ROOT))
    counts = [int(n) for n in args.writers.split(",")]
    tmp = scratch_dir("sawbones-readers-")
    wanted = args.backends.split(",")
    pg_url, stop = start_postgres() if "postgresql" in wanted else ("", lambda: None)
    print(f"A reader's p50 / p99 in ms while GMs write (POST damage), {args.seconds:g} s per row, "
          f"{args.workers} worker(s), reads paced at {args.read_rate:g}/s at most; load = 1-minute load average "
          f"at the row's end\n")
    print("| backend | writers | checkout | all reads | " + " | ".join(ROUTES) + " | reads/s | writes/s | load |")
    print("|---|---|---|---:|" + "---:|" * len(ROUTES) + "---:|---:|---:|", flush=True)
    i = 0
    try:
        for backend in ("sqlite", "postgresql"):
            if backend not in wanted or (backend == "postgresql" and not pg_url):
                continue
            for label, root in checkouts:
                i += 1
                url = f"sqlite:///{tmp}/readers{i}.db" if backend == "sqlite" else _pg_schema(pg_url, i)
                run_checkout(label, root, backend, url, counts, args.seconds, args.workers, f"R{i}", args.read_rate)
    finally:
        if pg_url:
            _drop_schemas(pg_url)
        stop()


if __name__ == "__main__":
    main()
