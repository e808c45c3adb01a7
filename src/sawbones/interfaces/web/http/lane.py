"""The costly computations' turns (costly.py), given in turn to each party that waits: when a turn frees, the
party whose last turn is the oldest goes next (one that never had one first), not whoever queued first. A party
that keeps its share of the queue full then waits behind every other party once per turn, and a GM asking
while anonymous callers hold the queue waits for one computation, not for all of theirs."""

from __future__ import annotations

import asyncio
import time
from collections import deque


class Lane:
    def __init__(self, slots: int) -> None:
        self.free = max(1, slots)
        self.waiting: dict[str, deque[asyncio.Future[None]]] = {}
        self.last: dict[str, float] = {}

    async def take(self, who: str) -> None:
        """Wait for a turn (on the event loop); `give()` it back after."""
        if self.free > 0 and not any(self.waiting.values()):
            self.free -= 1
            self.last[who] = time.monotonic()
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(who, deque()).append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # given at the moment it was cancelled: pass it on
                self.give()
            else:
                self._forget(who, turn)
            raise

    def give(self) -> None:
        parties = [who for who, turns in self.waiting.items() if turns]
        if not parties:
            self.free += 1
            return
        who = min(parties, key=lambda p: self.last.get(p, float("-inf")))
        turn = self.waiting[who].popleft()
        if not self.waiting[who]:
            del self.waiting[who]
        self.last[who] = time.monotonic()
        if len(self.last) > 4096:  # forget the parties that wait for nothing
            self.last = {p: t for p, t in self.last.items() if p in self.waiting}
        turn.set_result(None)

    def _forget(self, who: str, turn: asyncio.Future[None]) -> None:
        turns = self.waiting.get(who)
        if turns is not None and turn in turns:
            turns.remove(turn)
            if not turns:
                del self.waiting[who]
