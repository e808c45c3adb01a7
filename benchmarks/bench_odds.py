"""Exact odds for the whole catalog x save bonuses, side by side with icepool and a Monte Carlo (issue 6).

    .venv/bin/python benchmarks/bench_odds.py [--system pf1e|dnd5e] [--low -5] [--high 25] [--repeat 7]
                                              [--runs 100000] [--mc-bonus 5]

Every method builds its chain from the engine itself (`expose` for the exposure, `step` for each save)
once per affliction and reuses it across bonuses; each computes the final-stage distribution, the death
chance and the expected number of saves.

- sawbones, cold: `odds.table` on empty caches (chains built from the engine, each state's save read by the
  roll query, then solved), median of --repeat runs; warm: chains, save readings and elimination programs
  cached, results not memoized.
- icepool: `icepool.map(transition, start, repeat='inf')` plus `mean_time_to_absorb`, exact fractions.
- Monte Carlo: --runs seeded plays (pure Python, a d20 per save) of each affliction at one bonus.

Prints a markdown table: times, the ratios, and the largest difference from the exact odds.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from sawbones.content.loader import load_rules  # noqa: E402
from sawbones.domain.afflictions import odds  # noqa: E402
from sawbones.domain.afflictions.odds_reference import EngineMoves, icepool_odds, monte_carlo  # noqa: E402
from sawbones.domain.engine.options import effective_options  # noqa: E402


def _cold(rules, options, bonuses, system, exact=False):
    odds.clear_cache()  # chains and save readings
    start = time.perf_counter()
    rows = odds.table(rules, options, bonuses, system=system, exact=exact)
    return time.perf_counter() - start, rows


def _warm(rules, options, bonuses, system):
    for affliction_id in rules.afflictions:
        odds.chain(rules, options, affliction_id)._memo.clear()
    start = time.perf_counter()
    rows = odds.table(rules, options, bonuses, system=system)
    return time.perf_counter() - start, rows


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--system", choices=["pf1e", "dnd5e"], default="pf1e")
    parser.add_argument("--low", type=int, default=-5)
    parser.add_argument("--high", type=int, default=25)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--runs", type=int, default=100_000)
    parser.add_argument("--mc-bonus", type=int, default=5)
    args = parser.parse_args(argv)
    import icepool

    rules = load_rules()
    options = effective_options(rules, {})
    bonuses = list(range(args.low, args.high + 1))
    ids = list(rules.afflictions)
    cases = len(ids) * len(bonuses)
    odds.table(rules, options, [0], system=args.system)  # imports and first-call costs out of the way

    cold = [_cold(rules, options, bonuses, args.system)[0] for _ in range(args.repeat)]
    warm = [_warm(rules, options, bonuses, args.system)[0] for _ in range(args.repeat)]
    t_cold, t_warm = statistics.median(cold), statistics.median(warm)
    t_exact, exact_rows = _cold(rules, options, bonuses, args.system, exact=True)
    _, float_rows = _cold(rules, options, bonuses, args.system)
    exact = {(r["affliction"], d["bonus"]): d for r in exact_rows for d in r["odds"]}
    fast = {(r["affliction"], d["bonus"]): d for r in float_rows for d in r["odds"]}
    sums = max(abs(sum(d["final"].values()) - 1) for d in fast.values())

    # icepool, the same chains from the engine, the same bonuses
    start = time.perf_counter()
    ice = {}
    for affliction_id in ids:
        moves = EngineMoves(rules, options, affliction_id)
        for b in bonuses:
            ice[(affliction_id, b)] = icepool_odds(moves, b, args.system)
    t_ice = time.perf_counter() - start
    diff_ice = 0.0
    same = 0
    for key, theirs in ice.items():
        ours, ours_exact = fast[key], exact[key]
        nonzero = {k: v for k, v in ours_exact["final"].items() if v}
        saves = ours_exact["expected_duration"]["saves"]
        identical = nonzero == theirs["final"] and ours_exact["death"] == theirs["death"] and (
            saves is None or saves + 1 == theirs["steps"])
        same += identical
        for stage, p in theirs["final"].items():
            diff_ice = max(diff_ice, abs(ours["final"][stage] - float(p)))
        diff_ice = max(diff_ice, abs(ours["death"] - float(theirs["death"])))
        if saves is not None:
            diff_ice = max(diff_ice, abs(ours["expected_duration"]["saves"] + 1 - float(theirs["steps"])))

    # Monte Carlo: every affliction at one bonus
    start = time.perf_counter()
    sampled = {a: monte_carlo(EngineMoves(rules, options, a), args.mc_bonus, args.runs, args.system, seed=1)
               for a in ids}
    t_mc = time.perf_counter() - start
    odds.clear_cache()
    start = time.perf_counter()
    one = {a: odds.odds(rules, options, a, args.mc_bonus, system=args.system) for a in ids}
    t_one = time.perf_counter() - start
    diff_mc = z_mc = 0.0
    for a, s in sampled.items():
        for stage, p in one[a]["final"].items():
            got = s["final"].get(stage, 0.0)
            diff_mc = max(diff_mc, abs(got - p))
            sigma = math.sqrt(p * (1 - p) / args.runs)
            if sigma:
                z_mc = max(z_mc, abs(got - p) / sigma)

    print(f"Exact odds, {len(ids)} afflictions x bonuses {args.low:+d}..{args.high:+d} ({cases} cases), "
          f"{args.system}; Python {platform.python_version()}, icepool {icepool.__version__}, "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}.")
    print()
    print("| method | cases | time | time ratio | largest difference |")
    print("|---|---:|---:|---:|---|")
    print(f"| sawbones `odds.table`, cold: chains built from the engine, saves read, then solved (floats, median of "
          f"{args.repeat}) | {cases} | {_ms(t_cold)} | 1 | final stages sum to 1 within {sums:.0e} |")
    print(f"| sawbones, warm: chains cached, results not memoized (median of {args.repeat}) | {cases} | "
          f"{_ms(t_warm)} | {t_warm / t_cold:.2f} | — |")
    print(f"| sawbones, exact fractions, cold | {cases} | {_ms(t_exact)} | {t_exact / t_cold:.1f} "
          f"| equal to icepool's fractions in {same}/{len(ice)} cases |")
    print(f"| icepool {icepool.__version__}: `map(transition, start, repeat='inf')` + `mean_time_to_absorb` "
          f"(exact) | {len(ice)} | {_ms(t_ice)} | {t_ice / t_cold:.0f} (warm: {t_ice / t_warm:.0f}) "
          f"| sawbones floats vs icepool: {diff_ice:.1e} |")
    print(f"| Monte Carlo: {args.runs:,} seeded runs per affliction at {args.mc_bonus:+d} (pure Python) | "
          f"{len(ids)} | {_ms(t_mc)} | {t_mc / t_one:.0f} (vs sawbones cold on the same {len(ids)}: "
          f"{_ms(t_one)}) | {diff_mc:.4f} (at most {z_mc:.1f} σ: sampling noise) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
