"""CLI start-up and status on a long campaign, side by side with a bare `python -c pass`.

    .venv/bin/python benchmarks/bench_cli.py [--runs 15] [--events 10000]

Prints a markdown table: median and spread (min-max) of wall time over the runs, and the ratio to
`python -c pass` measured in the same run.
"""

from __future__ import annotations

import argparse
import os
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


def timed(command: list[str], runs: int, env: dict[str, str]) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
        out.append(time.perf_counter() - start)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--events", type=int, default=10000)
    args = parser.parse_args()
    env = dict(os.environ, COLUMNS="100")
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "long.db")
        build_campaign(db, args.events)
        cases = [
            ("python -c pass", [sys.executable, "-c", "pass"]),
            ("sawbones --help", SAWBONES + ["--help"]),
            (f"sawbones status ({args.events:,} events)", SAWBONES + ["--db", db, "status"]),
            (f"sawbones --json status ({args.events:,} events)", SAWBONES + ["--db", db, "--json", "status"]),
        ]
        base = None
        print(f"| command | median | spread (min-max) | × python -c pass |\n|---|---|---|---|")
        for label, command in cases:
            times = timed(command, args.runs, env)
            median = statistics.median(times)
            base = base or median
            print(f"| `{label}` | {median * 1000:.0f} ms | {min(times) * 1000:.0f}-{max(times) * 1000:.0f} ms "
                  f"| {median / base:.1f} |")


if __name__ == "__main__":
    main()
