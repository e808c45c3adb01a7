"""The garbage collector of a long-running server process.

A worker holding thousands of streams keeps a few hundred thousand objects alive for minutes: the
content, the modules, the kept campaign states, the streams' sockets and tasks. CPython's full collection
walks all of them, and with the default thresholds it ran several times in ten seconds of GM load, each
pausing every request of the worker for 100–300 ms (docs/benchmarks.md, "tenth pass"). `settle` is called
once per server process, when it is ready to serve: what every request uses (the content) is loaded, the
heap is collected once and frozen (`gc.freeze`: the startup objects are never walked again), and a full
collection waits for ten times more collections of the middle generation than by default. The young and
middle generations are collected as before, and a full collection still comes when the long-lived objects
grow (CPython's own rule: a quarter more than at the last one), so memory stays bounded. Not for tests or the CLI: a short process gains nothing from it.
"""

from __future__ import annotations

import gc
from typing import Iterable

FULL_AFTER = 100  # collections of the middle generation before a full one may run (CPython's default: 10)


def settle(packs: Iterable[str] = ()) -> None:
    from ....content.loader import load_rules

    load_rules(tuple(packs))
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_AFTER)
