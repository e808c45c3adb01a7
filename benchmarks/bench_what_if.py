"""A campaign's what-if (issue 17): `sawbones odds --party`, every injury option compared, in-process.

    .venv/bin/python benchmarks/bench_what_if.py [--repeat 3]

`odds_party.what_if` on the default profile (one drop to 0 per session, every damage type alike, a healer at
+5) under the default options, with every other value of every injury option that is a switch or a choice
(the command's default: 40-odd option sets):

- cold: every cache emptied first (`odds_injury.clear_cache`): the engine runs for every option set's chains;
- warm: the same process again (the chains and their solutions in memory);
- a new process with the persisted cache (adapters/odds_cache.py): the option sets' files written by a cold
  run in a temporary cache directory, then each of --repeat new processes reads them and answers (timed
  inside the process, from before the first file is read: the interpreter's start-up and loading the content
  are not counted); the engine runs it made are counted (0 when every chain came from the files).
Prints a markdown table: wall time and the process's CPU time.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from sawbones.adapters import odds_cache  # noqa: E402
from sawbones.content.loader import load_rules  # noqa: E402
from sawbones.domain.engine.options import effective_options  # noqa: E402
from sawbones.domain.injuries import odds as odds_injury, odds_party  # noqa: E402


def what_if(rules, options, keep=None):
    start, cpu = time.perf_counter(), time.process_time()
    doc = odds_party.what_if(rules, options, odds_party.Profile(), keep=keep)
    return time.perf_counter() - start, time.process_time() - cpu, doc


def child(rules, options) -> None:
    runs = []
    real = odds_injury.every_outcome

    def counting(run):
        runs.append(1)
        return real(run)

    odds_injury.every_outcome = counting
    wall, cpu, doc = what_if(rules, options, keep=partial(odds_cache.kept, rules))
    print(json.dumps([wall, cpu, len(runs), len(doc["variants"]) + len(doc["unchanged"])]))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    rules = load_rules()
    options = effective_options(rules, {})
    if args.child:
        child(rules, options)
        return
    colds, warms = [], []
    for _ in range(args.repeat):
        odds_injury.clear_cache()
        colds.append(what_if(rules, options))
        warms.append(what_if(rules, options))
    sets = 1 + len(colds[0][2]["variants"]) + len(colds[0][2]["unchanged"])
    cached, engine_runs = [], []
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "XDG_CACHE_HOME": home}
        env.pop("SAWBONES_NO_ODDS_CACHE", None)
        env.pop("SAWBONES_NO_CONTENT_CACHE", None)
        os.environ.update(XDG_CACHE_HOME=home)
        os.environ.pop("SAWBONES_NO_ODDS_CACHE", None)
        os.environ.pop("SAWBONES_NO_CONTENT_CACHE", None)
        odds_injury.clear_cache()
        what_if(rules, options, keep=partial(odds_cache.kept, rules))  # writes one file per option set
        files = list(Path(home).rglob("injury-odds-*.pickle"))
        size = sum(f.stat().st_size for f in files)
        for _ in range(args.repeat):
            done = subprocess.run([sys.executable, __file__, "--child"], env=env, check=True, capture_output=True,
                                  text=True)
            wall, cpu, runs, _ = json.loads(done.stdout)
            cached.append((wall, cpu, None))
            engine_runs.append(runs)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Python {platform.python_version()}, load {load:.1f}; {sets} option sets compared; "
          f"the persisted cache: {len(files)} files, {size / 1e6:.1f} MB; engine runs in the new processes: "
          f"{engine_runs}")
    print()
    print("| what-if, every injury option compared | median (wall) | spread (min-max, wall) | median CPU time |")
    print("|---|---:|---|---:|")
    for name, runs in (("cold, first computation ever", colds), ("warm, the same process again", warms),
                       ("a new process with the persisted cache", cached)):
        xs, cpu = [w for w, _, _ in runs], [c for _, c, _ in runs]
        print(f"| {name} | {statistics.median(xs) * 1000:.0f} ms | {min(xs) * 1000:.0f}-{max(xs) * 1000:.0f} ms | "
              f"{statistics.median(cpu) * 1000:.0f} ms |")


if __name__ == "__main__":
    main()
