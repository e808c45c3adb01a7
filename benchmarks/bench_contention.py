"""Many writers on one campaign at once: how many actions are refused, and how many get through per second.

    .venv/bin/python benchmarks/bench_contention.py [--writers 8,32,64] [--actions 10] [--procs-actions 4]

Every writer has its own Service (as each web request has) and acts on the same campaign, all
released at once:

- threads: writers in one process (the web app's worker threads);
- processes: one process per writer (command lines, several web workers);
- threads, no turns: the same threads with the writer turn switched off (the design before it:
  decide, append, re-decide up to RETRIES times on a conflict), for comparison.

Refused: an action that raised any error. Throughput: acknowledged actions over the wall time from
the release to the last writer done. Latency: per action, from its call to its return.
PostgreSQL as in bench_store.py ($SAWBONES_BENCH_PG_URL, $SAWBONES_TEST_PG_URL, or a throwaway cluster).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_store import _drop_schemas, _pg_schema, scratch_dir, start_postgres  # noqa: E402

from sawbones.adapters.locks import lock_wait  # noqa: E402
from sawbones.adapters.engines import dispose_all
from sawbones.adapters.backends import open_store  # noqa: E402
from sawbones.application import service as service_module  # noqa: E402
from sawbones.application.service import Service  # noqa: E402


def note(tag: str, n: int):
    return lambda ctx: [{"type": "noted", "data": {"by": tag, "n": n}}]


def run_threads(url: str, writers: int, actions: int, turns: bool = True) -> dict:
    Service(open_store(url)).create_campaign("Rush", "dnd5e", 1)
    barrier = threading.Barrier(writers + 1)
    refused: list[str] = []
    latencies: list[float] = []
    lock = threading.Lock()

    def gm(tag: str) -> None:
        service = Service(open_store(url))
        service.context(service.load("Rush"))  # a running worker: rules loaded
        barrier.wait()
        for n in range(actions):
            start = time.perf_counter()
            try:
                service.act("Rush", note(tag, n))
            except Exception as exc:  # noqa: BLE001
                with lock:
                    refused.append(type(exc).__name__)
                continue
            with lock:
                latencies.append(time.perf_counter() - start)

    saved = service_module._writer_turn
    if not turns:
        service_module._writer_turn = lambda store, cid, deadline: contextlib.nullcontext()
    try:
        threads = [threading.Thread(target=gm, args=(f"gm{i}",)) for i in range(writers)]
        for th in threads:
            th.start()
        barrier.wait()
        start = time.perf_counter()
        for th in threads:
            th.join()
        wall = time.perf_counter() - start
    finally:
        service_module._writer_turn = saved
    return _result(writers * actions, refused, latencies, wall)


WORKER = textwrap.dedent("""
    import json, sys, time
    from sawbones.adapters.backends import open_store
    from sawbones.application.service import Service

    url, tag, actions = sys.argv[1], sys.argv[2], int(sys.argv[3])
    service = Service(open_store(url))
    service.context(service.load("Rush"))  # a running worker: imports done, rules loaded
    print("ready", flush=True)
    sys.stdin.readline()
    refused, latencies = [], []
    for n in range(actions):
        start = time.perf_counter()
        try:
            service.act("Rush", lambda ctx, n=n: [{"type": "noted", "data": {"by": tag, "n": n}}])
        except Exception as exc:
            refused.append(type(exc).__name__)
            continue
        latencies.append(time.perf_counter() - start)
    print(json.dumps({"refused": refused, "latencies": latencies}), flush=True)
""")


def run_processes(url: str, writers: int, actions: int) -> dict:
    Service(open_store(url)).create_campaign("Rush", "dnd5e", 1)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, url, f"p{i}", str(actions)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, env=env) for i in range(writers)]
    for p in procs:
        assert p.stdout.readline().strip() == "ready"
    start = time.perf_counter()
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    outs = [json.loads(p.stdout.readline()) for p in procs]
    wall = time.perf_counter() - start
    for p in procs:
        p.wait()
    refused = [r for o in outs for r in o["refused"]]
    latencies = [x for o in outs for x in o["latencies"]]
    return _result(writers * actions, refused, latencies, wall)


def _result(total: int, refused: list[str], latencies: list[float], wall: float) -> dict:
    ordered = sorted(latencies) or [0.0]
    return {"total": total, "refused": len(refused), "kinds": sorted(set(refused)),
            "per_s": len(latencies) / wall if wall else 0.0, "p50": statistics.median(ordered) * 1000,
            "p99": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, "max": ordered[-1] * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", default="8,32,64")
    parser.add_argument("--actions", type=int, default=10, help="actions per writer thread")
    parser.add_argument("--procs-actions", type=int, default=4, help="actions per writer process")
    args = parser.parse_args()
    counts = [int(n) for n in args.writers.split(",")]
    tmp = scratch_dir("sawbones-bench-")
    pg_url, stop = start_postgres()
    backends = [("SQLite", lambda i: str(Path(tmp) / f"rush{i}.db"))]
    if pg_url:
        backends.append(("PostgreSQL", lambda i: _pg_schema(pg_url, i)))
    print(f"Writers on one campaign, released at once; turn wait bounded at {lock_wait():g} s, "
          f"{service_module.RETRIES} re-decisions on a conflict.\n")
    print("| backend | writers | mode | actions | refused | refusal rate | actions/s | p50 ms | p99 ms | max ms |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    i = 0
    try:
        for label, target in backends:
            for writers in counts:
                for mode in ("threads", "processes", "threads, no turns"):
                    i += 1
                    url = target(i)
                    if mode == "threads":
                        r = run_threads(url, writers, args.actions)
                    elif mode == "processes":
                        r = run_processes(url, writers, args.procs_actions)
                    else:
                        r = run_threads(url, writers, args.actions, turns=False)
                    dispose_all()
                    kinds = f" ({', '.join(r['kinds'])})" if r["kinds"] else ""
                    print(f"| {label} | {writers} | {mode} | {r['total']} | {r['refused']}{kinds} | "
                          f"{100 * r['refused'] / r['total']:.0f} % | {r['per_s']:,.0f} | {r['p50']:.0f} | "
                          f"{r['p99']:.0f} | {r['max']:.0f} |", flush=True)
    finally:
        if pg_url:
            _drop_schemas(pg_url)
        stop()


if __name__ == "__main__":
    main()
