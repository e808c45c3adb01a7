"""What a process remembers between actions: the newest folded state per (database, campaign), shared by the
services opened per request, and the writer turn held across load, decide and append (service.py)."""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from contextlib import contextmanager
from typing import Any, Iterator

from ..frozen import frozen
from ..domain.engine.state import Campaign


@frozen
class _Base:
    """A folded state to start from."""

    version: int  # last event folded in
    action: int  # its action
    state: Campaign | None = None  # None: a stored snapshot, read on use
    snapshot_at: int = 0  # version of the newest usable stored snapshot at or before `version`
    content_version: str = ""
    stamp: float | None = None  # created_at of the event at `version`: a restored or replaced database differs


KEPT = 1024  # campaigns whose folded state a process keeps ($SAWBONES_KEPT_STATES): about 8 KB each for a
# party of six (more for a long campaign with many effects running). A worker serving N tables in turn with
# fewer kept loads each of them from the store at every action (64 kept, 500 tables: every action did).
KEPT_ENV = "SAWBONES_KEPT_STATES"


def kept_states() -> int:
    """How many campaigns' states a process keeps: $SAWBONES_KEPT_STATES (a positive whole number), else KEPT."""
    raw = os.environ.get(KEPT_ENV, "").strip()
    return int(raw) if raw.isascii() and raw.isdigit() and int(raw) > 0 else KEPT


class _Memory:
    """This process's newest folded state per (database, campaign): services opened per request share it,
    the least recently used let go past `size`."""

    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        self.items: OrderedDict[tuple[str, int], _Base] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[str, int]) -> _Base | None:
        with self.lock:
            found = self.items.get(key)
            if found is not None:
                self.items.move_to_end(key)
            return found

    def put(self, key: tuple[str, int], base: _Base) -> None:
        with self.lock:
            known = self.items.get(key)
            if known is None or known.version <= base.version:
                self.items[key] = base
                self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def drop(self, key: tuple[str, int]) -> None:
        with self.lock:
            self.items.pop(key, None)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()


MEMORY = _Memory(kept_states())


@contextmanager
def _writer_turn(store: Any, cid: int, deadline: float) -> Iterator[None]:
    """Hold the store's writer turn across load, decide and append (a store without turns: no wait)."""
    turn = getattr(store, "writer_turn", None)
    if turn is None:
        yield
        return
    with turn(cid, deadline):
        yield
