"""CLI start-up, status on a long campaign and a write, side by side with a bare `python -c pass`.

    .venv/bin/python benchmarks/bench_cli.py [--runs 15] [--events 10000] [--compare SRC]

Prints a markdown table: median and spread (min-max) of wall time over the runs, the median CPU time
(user + system) of the command, and the ratios to `python -c pass` measured in the same run, of the wall
times and of the CPU times (on a loaded machine the wall time of a short command is mostly waiting for a
core: the CPU ratio is the steadier one).
`--compare SRC` also runs every sawbones command with another source tree first on PYTHONPATH (say
`git archive main src | tar -x -C /tmp/main`, then `--compare /tmp/main/src`): before and after, side by
side. Unset PYTHONDONTWRITEBYTECODE first, or every run recompiles the sources.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAWBONES = [sys.executable, "-m", "sawbones"]


def build_campaign(db: str, events: int) -> None:
    """A campaign with `events` events: six characters, then hits, heals and the clock moving."""
    from sawbones.application.service import Service
    from sawbones.domain.engine.campaign import add_character

    service = Service.open(db)
    service.create_campaign("Long", "dnd5e", 1)
    names = ["Aria", "Borin", "Cyra", "Dax", "Eon", "Fay"]
    for name in names:
        service.act("Long", lambda ctx, n=name: add_character(ctx, n, {"max_hp": 40}))
    loaded = service.load("Long")
    version, action = loaded.head, loaded.next_action
    batch: list[dict] = []
    i = 0
    while version + len(batch) < events:
        who = names[i % len(names)].lower()
        hp = 40 - (i % 7)
        batch.append({"type": "hp_changed", "data": {"character": who, "hp": hp, "cause": "bench"}})
        batch.append({"type": "clock_advanced", "data": {"seconds": 6}})
        i += 1
        if len(batch) >= 200:
            version = service.store.append(loaded.campaign_id, version, action, batch, "bench")
            action += 1
            batch = []
    if batch:
        service.store.append(loaded.campaign_id, version, action, batch, "bench")


def build_small(db: str) -> None:
    """A small campaign for the write: one character with HP enough for every run's point of damage."""
    from sawbones.application.service import Service
    from sawbones.domain.engine.campaign import add_character

    service = Service.open(db)
    service.create_campaign("Small", "dnd5e", 1)
    service.act("Small", lambda ctx: add_character(ctx, "A", {"max_hp": 10000}))  # the sheet's bound
    service.close()


def timed(command: list[str], runs: int, env: dict[str, str]) -> tuple[list[float], list[float]]:
    """Wall times and CPU times (user + system of the child) of each run."""
    wall, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
        wall.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--events", type=int, default=10000)
    parser.add_argument("--compare", metavar="SRC", help="another source tree (its src/), run side by side")
    args = parser.parse_args()
    env = dict(os.environ, COLUMNS="100")
    trees = [("", env)]
    if args.compare:
        other = dict(env, PYTHONPATH=os.path.abspath(args.compare))
        trees = [(" [compare]", other), ("", env)]
    with tempfile.TemporaryDirectory() as tmp:
        db, small = os.path.join(tmp, "long.db"), os.path.join(tmp, "small.db")
        build_campaign(db, args.events)
        build_small(small)
        cases = [("python -c pass", [sys.executable, "-c", "pass"], env)]
        commands = [
            ("sawbones --help", ["--help"]),
            (f"sawbones status ({args.events:,} events)", ["--db", db, "status"]),
            (f"sawbones --json status ({args.events:,} events)", ["--db", db, "--json", "status"]),
            ("sawbones damage A 1 fire (small campaign)", ["--db", small, "damage", "A", "1", "fire"]),
        ]
        for label, argv in commands:
            cases += [(label + tag, SAWBONES + argv, tree_env) for tag, tree_env in trees]
        base = base_cpu = None
        print(f"load average {os.getloadavg()[0]:.1f}\n")
        print("| command | median | spread (min-max) | median CPU | × python -c pass (wall) | × (CPU) |\n"
              "|---|---|---|---|---|---|")
        for label, command, case_env in cases:
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=case_env)  # caches warm
            times, cpu = timed(command, args.runs, case_env)
            median = statistics.median(times)
            base, base_cpu = base or median, base_cpu or statistics.median(cpu)
            print(f"| `{label}` | {median * 1000:.0f} ms | {min(times) * 1000:.0f}-{max(times) * 1000:.0f} ms "
                  f"| {statistics.median(cpu) * 1000:.0f} ms | {median / base:.1f} | {statistics.median(cpu) / base_cpu:.1f} |")
        print(f"\nload average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
