"""Importing a party of many characters: the seconds one import of N new characters takes (a CSV party file,
`character import`'s path: decide and append), for each N; the same file again (every character updated); and
a second file of N new characters into the campaign that holds the first (2N in all).

    .venv/bin/python benchmarks/bench_import.py [--sizes 250,500]

(One import holds at most 500 characters, a campaign 1,000: domain/engine/roster.py.)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from sawbones.adapters.sheets import parse
from sawbones.application.service import Service
from sawbones.domain.engine.campaign import import_characters


def party(n: int, first: int = 0) -> bytes:
    return ("name,max_hp\n" + "".join(f"Member {i:05d} Élodie,{10 + i % 20}\n"
                                      for i in range(first, first + n))).encode()


def one(n: int) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        service = Service.open(f"{folder}/c.db")
        service.create_campaign("Bench", "dnd5e", 1)
        times = []
        for entries in (parse("party.csv", party(n)), parse("party.csv", party(n)), parse("more.csv", party(n, n))):
            started = time.perf_counter()
            service.act("Bench", lambda ctx: import_characters(ctx, entries))
            times.append(time.perf_counter() - started)
        service.store.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="250,500")
    args = parser.parse_args()
    for n in (int(x) for x in args.sizes.split(",")):
        added, updated, more = one(n)
        print(f"{n:>5} characters: added in {added:5.2f} s, updated in {updated:5.2f} s; {n} more (to {2 * n}) "
              f"in {more:5.2f} s")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
