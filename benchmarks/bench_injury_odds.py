"""Exact injury odds (issue 17): every damage type x every row x healer's bonuses, in-process.

    .venv/bin/python benchmarks/bench_injury_odds.py [--low -1] [--high 15] [--repeat 7]

For each of the 13 damage tables and each of its 6 rows (the row's lowest d20 face), at each bonus: the
chance it heals by treatment, that a part is lost, that it never heals without magic, the expected attempts
and days (`odds_treatment.solve`, floats).

- warm: the treatment chains built (every state's attempt asked of the engine once), solutions not
  memoized (node values and per-bonus results cleared before each run): median of --repeat runs.
- cold: every cache emptied first (`odds_injury.clear_cache`): the chains are built by running the engine's
  `injure`, `treat` and clock over every die (median of 3 runs).
- a new process with the persisted cache (adapters/odds_cache.py): the chains the cold runs built are saved
  (in a temporary cache directory), then each of 3 new processes reads them and solves every case (the time
  and CPU time measured inside the process, from before reading the file: the interpreter's start-up and
  loading the content are not counted).
- the time distributions (`timeline=True`, exact per game day) for the same cases, warm.
Prints a markdown table: wall time, and the process's CPU time (less sensitive to a machine shared with
other work).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from sawbones.content.loader import load_rules  # noqa: E402
from sawbones.domain.injuries import odds as odds_injury, odds_treatment  # noqa: E402
from sawbones.domain.engine.options import effective_options  # noqa: E402


def cases(rules):
    return [(t.id, int(r.d20.split("-")[0])) for t in rules.damage_tables.values() for r in t.rows]


def run(rules, options, bonuses, timeline=False):
    chains = [odds_treatment.treatment_cached(rules, options, *c) for c in cases(rules)]
    for t in chains:
        t.solved.clear()
        t.graph.values.clear()
    start, cpu = time.perf_counter(), time.process_time()
    for t in chains:
        for b in bonuses:
            odds_treatment.solve(t, b, timeline=timeline)
    return time.perf_counter() - start, time.process_time() - cpu


def cold(rules, options, bonuses):
    odds_injury.clear_cache()
    start, cpu = time.perf_counter(), time.process_time()
    for c in cases(rules):
        t = odds_treatment.treatment_cached(rules, options, *c)
        for b in bonuses:
            odds_treatment.solve(t, b)
    return time.perf_counter() - start, time.process_time() - cpu


def from_cache(rules, options, bonuses):
    """In a new process: read the persisted chains, then solve every case (no engine run left to make)."""
    from sawbones.adapters import odds_cache

    start, cpu = time.perf_counter(), time.process_time()
    if not odds_cache.load(rules, options):
        raise SystemExit("no injury odds cache to read")
    for c in cases(rules):
        t = odds_treatment.treatment_cached(rules, options, *c)
        for b in bonuses:
            odds_treatment.solve(t, b)
    return time.perf_counter() - start, time.process_time() - cpu


def new_processes(rules, options, args, runs=3):
    """Save what this process computed into a temporary cache, then time `from_cache` in new processes."""
    import json
    import subprocess
    import tempfile

    from sawbones.adapters import odds_cache

    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "XDG_CACHE_HOME": home}
        env.pop("SAWBONES_NO_ODDS_CACHE", None)
        os.environ["XDG_CACHE_HOME"] = home
        os.environ.pop("SAWBONES_NO_ODDS_CACHE", None)
        if not odds_cache.save(rules, options):
            raise SystemExit("the injury odds cache could not be written")
        out = []
        for _ in range(runs):
            done = subprocess.run([sys.executable, __file__, "--child", "--low", str(args.low), "--high",
                                   str(args.high)], env=env, check=True, capture_output=True, text=True)
            out.append(tuple(json.loads(done.stdout)))
        return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--low", type=int, default=-1)
    ap.add_argument("--high", type=int, default=15)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    rules = load_rules()
    options = effective_options(rules, {})
    bonuses = range(args.low, args.high + 1)
    if args.child:
        print(list(from_cache(rules, options, bonuses)))
        return
    n = len(cases(rules)) * len(bonuses)
    colds = [cold(rules, options, bonuses) for _ in range(3)]
    cached = new_processes(rules, options, args)
    warm = [run(rules, options, bonuses) for _ in range(args.repeat)]
    timed = [run(rules, options, bonuses, timeline=True) for _ in range(3)]
    g = odds_injury.graph(rules, options)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Python {platform.python_version()}, load {load:.1f}; {n} cases "
          f"({len(cases(rules))} rows x bonuses {args.low:+d}..{args.high:+d}); "
          f"{len(g.nodes)} treatment states, {sum(len(v) for v in g.edges.values())} engine branches")
    print()
    print("| measure | cases | median (wall) | spread (min-max, wall) | median CPU time of the process |")
    print("|---|---:|---:|---|---:|")
    for name, runs in (("warm: chains built, solved for every bonus (floats)", warm),
                       ("cold, first computation ever: chains built from the engine, then solved", colds),
                       ("a new process with the persisted cache: chains read, then solved", cached),
                       ("warm, with the exact time distribution (per game day)", timed)):
        xs, cpu = [w for w, _ in runs], [c for _, c in runs]
        print(f"| {name} | {n} | {statistics.median(xs) * 1000:.1f} ms | "
              f"{min(xs) * 1000:.1f}-{max(xs) * 1000:.1f} ms | {statistics.median(cpu) * 1000:.1f} ms |")


if __name__ == "__main__":
    main()
