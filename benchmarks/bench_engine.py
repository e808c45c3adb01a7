"""Engine: a party of 6 with three afflictions each, advanced a year in auto mode; replay of long logs.

    .venv/bin/python benchmarks/bench_engine.py [--runs 5]

Prints a markdown table (median and spread over the runs). In-process, no database: the decision
and the fold are what is measured.
"""

from __future__ import annotations

import argparse
import statistics
import time

from sawbones.application.service import Context
from sawbones.content.loader import load_rules
from sawbones.domain.afflictions.decide import expose
from sawbones.domain.engine.campaign import add_character
from sawbones.domain.engine.evolve import fold
from sawbones.domain.engine.options import effective_options
from sawbones.domain.engine.rolls import Roller
from sawbones.domain.engine.state import DAY, Campaign
from sawbones.domain.engine.timeline import advance

RULES = load_rules()
OPTIONS = effective_options(RULES, {})
PARTY = ["Aria", "Borin", "Cyra", "Dax", "Eon", "Fay"]
AFFLICTIONS = ["filth_fever", "leprosy", "mindfire", "devil_chills", "dementia_dust", "shakes"]


def act(state: Campaign, decision, seed: int) -> tuple[Campaign, list[dict]]:
    events = decision(Context(state, RULES, OPTIONS, Roller.for_campaign(seed, state.version)))
    return fold(events, state), events


def party_with_afflictions(seed: int = 1) -> Campaign:
    state = fold([{"type": "campaign_created", "data": {"name": "Bench", "system": "pf1e", "seed": seed}}])
    for i, name in enumerate(PARTY):
        state, _ = act(state, lambda ctx, n=name: add_character(ctx, n, {"max_hp": 60, "saves": {"fortitude": 4}}), seed)
        for j in range(3):
            disease = AFFLICTIONS[(i + j) % len(AFFLICTIONS)]
            state, _ = act(state, lambda ctx, n=name, d=disease: expose(ctx, n, d, total=0), seed)
    return state


def year_auto(seed: int) -> tuple[float, int]:
    state = party_with_afflictions(seed)
    start = time.perf_counter()
    events = advance(Context(state, RULES, OPTIONS, Roller.for_campaign(seed, state.version)), 365 * DAY, auto=True)
    return time.perf_counter() - start, len(events)


def replay(n_events: int) -> float:
    state = party_with_afflictions(3)
    log = [{"type": "hp_changed", "data": {"character": PARTY[i % 6].lower(), "hp": 30 + i % 7}} if i % 2 else
           {"type": "clock_advanced", "data": {"seconds": 6}} for i in range(n_events)]
    start = time.perf_counter()
    fold(log, state)
    return time.perf_counter() - start


def row(label: str, times: list[float], extra: str = "") -> str:
    return (f"| {label} | {statistics.median(times) * 1000:.0f} ms | {min(times) * 1000:.0f}-{max(times) * 1000:.0f} ms"
            f" | {extra} |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print("| measure | median | spread (min-max) | note |\n|---|---|---|---|")
    runs = [year_auto(seed) for seed in range(args.runs)]
    print(row("party of 6 × 3 afflictions, 365 days, auto", [t for t, _ in runs],
              f"{statistics.median(n for _, n in runs):.0f} events"))
    for n in (10_000, 100_000):
        print(row(f"fold of {n:,} events (in memory)", [replay(n) for _ in range(args.runs)]))


if __name__ == "__main__":
    main()
