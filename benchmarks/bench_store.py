"""The event store on both backends: writes per second, and load time against history length.

    .venv/bin/python benchmarks/bench_store.py [--sizes 100,1000,10000,100000] [--writes 500]

PostgreSQL: $SAWBONES_BENCH_PG_URL or $SAWBONES_TEST_PG_URL if set, else a throwaway cluster started
with scripts/setup_postgres.sh (never installing; skipped when PostgreSQL's programs are absent).
Prints markdown tables. Bounded: about a minute on a 2-core machine.

- writes/s, store: `EventStore.append` of one 2-event action after the head (the transaction alone);
- writes/s, service: `Service.act` (load the campaign, decide, fold, append) — what a GM's command costs;
- load, full replay: folding the whole log (snapshots off);
- load, snapshot + tail: the newest snapshot and a tail of 250 events (snapshots every SNAPSHOT_EVERY events);
- load, warm worker: a process that loaded the campaign before reads only what is new (here: nothing).
"""

from __future__ import annotations

import argparse
import atexit
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from sawbones.adapters.store import StoredEvent
from sawbones.adapters.engines import dispose_all
from sawbones.adapters.backends import open_store  # noqa: E402
from sawbones.application.memory import MEMORY
from sawbones.application.service import SNAPSHOT_EVERY, Service  # noqa: E402

TAIL = 250


def scratch_dir(prefix: str) -> str:
    """A temporary directory for a benchmark's databases, removed when the benchmark's process exits."""
    place = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, place, True)
    return place


def synthetic_log(n: int) -> list[StoredEvent]:
    """A campaign of n events that folds: four characters, then hits, heals, notes and the clock."""
    now = time.time()
    out = [StoredEvent(1, 1, "campaign_created", {"name": "Bench", "system": "dnd5e", "seed": 1, "content_packs": []},
                       1, "bench", now)]
    names = ["aria", "brom", "cy", "dee"]
    for i, name in enumerate(names, start=2):
        out.append(StoredEvent(i, i, "character_added", {"id": name, "name": name.title(), "max_hp": 40, "hp": 40},
                               1, "bench", now))
    version, action = len(out), len(out)
    while version < n:
        action += 1
        kind = action % 4
        if kind == 0:
            events = [("clock_advanced", {"seconds": 6})]
        elif kind == 1:
            events = [("hp_changed", {"character": names[action % 4], "hp": action % 40, "cause": "damage"}),
                      ("noted", {"what": "save", "character": names[action % 4], "total": action % 20})]
        elif kind == 2:
            events = [("damage_taken", {"character": names[(action + 1) % 4], "hp": (action * 7) % 40,
                                        "amount": 5, "type": "fire"})]
        else:
            events = [("hp_changed", {"character": names[(action + 2) % 4], "hp": 40, "cause": "heal"})]
        for etype, data in events:
            if version >= n:
                break
            version += 1
            out.append(StoredEvent(version, action, etype, data, 1, "bench", now))
    return out[:n]


def timed(fn: Callable[[], Any], repeat: int) -> float:
    """Median wall time of fn in milliseconds."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - start) * 1000)
    return statistics.median(runs)


def bench_writes(url: str, count: int) -> tuple[float, float]:
    service = Service.open(url)
    service.create_campaign("Writes", "dnd5e", 1)
    store = service.store
    cid = store.campaign_id("Writes")
    head = store.head(cid)
    start = time.perf_counter()
    for i in range(count):
        head = store.append(cid, head, head + 1, [{"type": "noted", "data": {"i": i}},
                                                  {"type": "clock_advanced", "data": {"seconds": 6}}], "bench")
    store_rate = count / (time.perf_counter() - start)
    start = time.perf_counter()
    for i in range(count):
        service.act("Writes", lambda ctx, i=i: [{"type": "noted", "data": {"i": i}},
                                                {"type": "clock_advanced", "data": {"seconds": 6}}])
    service_rate = count / (time.perf_counter() - start)
    return store_rate, service_rate


def bench_loads(url: str, n: int) -> dict[str, float]:
    store = open_store(url)
    log = synthetic_log(n)
    name = f"Load{n}"
    base = log[:-TAIL] if n > 2 * TAIL else log
    start = time.perf_counter()
    cid = store.import_campaign(name, base)
    import_ms = (time.perf_counter() - start) * 1000
    cold = Service(store, snapshot_every=0, memory_cache=False)
    with_snapshots = Service(store, snapshot_every=SNAPSHOT_EVERY, memory_cache=False)
    with_snapshots.load(name)  # writes the snapshot at the head of `base`
    if len(base) < n:  # then the tail arrives: TAIL events after the snapshot
        rest = log[len(base):]
        head = len(base)
        actions: dict[int, list[dict[str, Any]]] = {}
        for e in rest:
            actions.setdefault(e.action, []).append({"type": e.type, "data": e.data})
        for action, events in actions.items():
            head = store.append(cid, head, action, events, "bench")
    repeat = 1 if n >= 100_000 else 3
    full = timed(lambda: cold.load(name), repeat)
    snap = timed(lambda: with_snapshots.load(name), 5) if n > 2 * TAIL else full
    # the snapshot service just stored a newer snapshot at the head if due; measure with the tail in place
    warm = Service(store, snapshot_every=SNAPSHOT_EVERY, memory_cache=True)
    warm.load(name)
    warm_ms = timed(lambda: warm.load(name), 5)
    assert cold.load(name).state == with_snapshots.load(name).state == warm.load(name).state
    action_ms = _action_latency(Service(store, snapshot_every=SNAPSHOT_EVERY, memory_cache=False), name)
    MEMORY.clear()
    return {"import": import_ms, "full": full, "snapshot": snap, "warm": warm_ms, "action": action_ms}


def _action_latency(service: Service, name: str, count: int = 20) -> float:
    """Median ms of one real GM action (damage through the rules) on a campaign of this length."""
    from sawbones.domain.engine.damage import damage

    times = []
    for i in range(count):
        start = time.perf_counter()
        service.act(name, lambda ctx, i=i: damage(ctx, "aria", [(1 + i % 3, "fire")]))
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def start_postgres() -> tuple[str, Callable[[], None]]:
    url = os.environ.get("SAWBONES_BENCH_PG_URL") or os.environ.get("SAWBONES_TEST_PG_URL")
    if url:
        return url, lambda: None
    env = dict(os.environ, SAWBONES_PG_NO_INSTALL="1", SAWBONES_PG_WATCH_PID=str(os.getpid()))
    script = ('set -euo pipefail; source scripts/setup_postgres.sh; '
              'printf "%s\\0%s\\0" "${SAWBONES_TEST_PG_URL:-}" "${SAWBONES_TEST_PG_STOP:-}"')
    out = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    parts = out.stdout.split("\0")
    if not parts[0]:
        print(f"(PostgreSQL skipped: {out.stderr.strip()[-200:]})", file=sys.stderr)
        return "", lambda: None

    def stop() -> None:
        dispose_all()
        subprocess.run(parts[1].split(), capture_output=True, timeout=60)

    return parts[0], stop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000,100000")
    parser.add_argument("--writes", type=int, default=500)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    tmp = scratch_dir("sawbones-bench-")
    backends = [("SQLite (WAL, synchronous=FULL)", "sqlite", lambda i: str(Path(tmp) / f"bench{i}.db"))]
    pg_url, stop = start_postgres()
    if pg_url:
        backends.append(("PostgreSQL", "postgresql", lambda i: _pg_schema(pg_url, i)))
    try:
        writes, loads = [], []
        for label, _, url_for in backends:
            t0 = time.perf_counter()
            store_rate, service_rate = bench_writes(url_for(0), args.writes)
            writes.append((label, store_rate, service_rate))
            for i, n in enumerate(sizes, start=1):
                loads.append((label, n, bench_loads(url_for(i), n)))
            print(f"({label}: {time.perf_counter() - t0:.1f} s)", file=sys.stderr)
    finally:
        if pg_url:
            _drop_schemas(pg_url)
        stop()
    print(f"\nWrites ({args.writes} actions of 2 events each; one transaction per action)\n")
    print("| backend | store append, actions/s | service act, actions/s |")
    print("|---|---:|---:|")
    for label, store_rate, service_rate in writes:
        print(f"| {label} | {store_rate:,.0f} | {service_rate:,.0f} |")
    print(f"\nLoad time (ms, median) against history length; snapshots every {SNAPSHOT_EVERY} events, tail of {TAIL}\n")
    print("| backend | events | full replay | snapshot + tail | warm worker | bulk import | one action (damage) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, n, r in loads:
        print(f"| {label} | {n:,} | {r['full']:,.1f} | {r['snapshot']:,.1f} | {r['warm']:,.1f} | {r['import']:,.0f} "
              f"| {r['action']:,.1f} |")
    for label in dict.fromkeys(label for label, _, _ in loads):
        rows = [r for lb, _, r in loads if lb == label]
        print(f"\n{label}: one action at {sizes[-1]:,} events / at {sizes[0]:,} events = "
              f"{rows[-1]['action'] / rows[0]['action']:.2f}")


_SCHEMAS: list[str] = []


def _drop_schemas(url: str) -> None:
    import sqlalchemy as sa

    dispose_all()
    engine = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        for schema in _SCHEMAS:
            conn.execute(sa.text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
    engine.dispose()


def _pg_schema(url: str, i: int) -> str:
    import sqlalchemy as sa

    schema = f"bench_{os.getpid()}_{i}"
    _SCHEMAS.append(schema)
    engine = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(sa.text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
    engine.dispose()
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options=-csearch_path%3D{schema}"


if __name__ == "__main__":
    main()
