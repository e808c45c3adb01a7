"""What the file stamp costs an append on SQLite (issue 20, item 3: damage found before the next append).

    .venv/bin/python benchmarks/bench_stamp.py [--appends 400] [--events 10000]

- the stamp alone: `integrity.before_write` (the files as stamped: read the stamp, stat the database and
  its -wal) then `after_write` (stat, write the stamp), as every write does;
- `EventStore.append` of one 2-event action, with the stamp and without it (its two calls replaced by
  no-ops), alternated by blocks of 10 in one process so that a machine shared with other work weighs on
  both alike;
- the whole check after the file changed behind sawbones' back (`PRAGMA quick_check` and every event's
  checksum), once, for a campaign of --events events: what the first write after such a change pays.
Prints a markdown table (medians; CPU time of the process beside wall time).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from sawbones.adapters import integrity, locks  # noqa: E402
from sawbones.adapters.backends import open_store  # noqa: E402

EVENTS = [{"type": "noted", "data": {"character": "a", "note": "x" * 40}}] * 2


def _timed(fn) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--appends", type=int, default=400)
    ap.add_argument("--events", type=int, default=10000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "bench.db")
        store = open_store(db)
        cid = store.create_campaign("Bench", [{"type": "campaign_created", "data": {"name": "Bench"}}], "c")
        head = 1
        while head < args.events:
            head = store.append(cid, head, head, EVENTS * 50, "c")
        with store._write():  # stamped as this write leaves it
            pass

        def stamp_only() -> None:
            with locks.file_lock(db, time.monotonic() + 10):
                integrity.after_write(store, integrity.before_write(store))

        alone = [_timed(stamp_only) for _ in range(args.appends)]
        real = (integrity.before_write, integrity.after_write)
        with_stamp: list[tuple[float, float]] = []
        without: list[tuple[float, float]] = []
        action = head
        for _ in range(0, args.appends, 10):  # blocks of 10, one way then the other
            for runs, hooks in ((with_stamp, real), (without, (lambda s: {}, lambda s, d: None))):
                integrity.before_write, integrity.after_write = hooks
                try:
                    for _ in range(10):
                        action += 1
                        wall, cpu = time.perf_counter(), time.process_time()
                        head = store.append(cid, head, action, EVENTS, "c")
                        runs.append((time.perf_counter() - wall, time.process_time() - cpu))
                finally:
                    integrity.before_write, integrity.after_write = real
            with locks.file_lock(db, time.monotonic() + 10):
                integrity.after_write(store, {})  # stamped as the unstamped appends left it (not timed)
        lock = Path(locks.lock_path(db))
        lock.write_text("{}")  # as if the file changed behind sawbones' back
        whole = [_timed(lambda: integrity.before_write(store))]
        events = store.head(cid)
    print(f"SQLite (WAL, synchronous=FULL), {args.appends} actions of 2 events each way; whole check at {events:,} "
          "events")
    print()
    print("| measure | median (wall) | median CPU time of the process |")
    print("|---|---:|---:|")
    for name, runs in (("the stamp alone (checked before, written after)", alone),
                       ("store append, with the stamp", with_stamp), ("store append, without the stamp", without),
                       (f"first write after an outside change: the whole check ({events:,} events)", whole)):
        wall, cpu = statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)
        print(f"| {name} | {wall * 1000:.3f} ms | {cpu * 1000:.3f} ms |")


if __name__ == "__main__":
    main()
