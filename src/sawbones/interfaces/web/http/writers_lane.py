"""The writers' lane: the threads GM actions run in, off the event loop, beside the thread pool that serves
reads; on SQLite, the actions queued in a lane thread are written with one COMMIT (group commit)."""

from __future__ import annotations

import asyncio
import contextvars
import itertools
import queue
import threading
import zlib
from concurrent.futures import Future
from contextlib import AbstractContextManager
from functools import partial
from typing import Any, Callable, TypeVar

from fastapi.concurrency import run_in_threadpool

from ....adapters import locks

T = TypeVar("T")

LANE = 4  # threads per worker process that run GM actions (the writers' lane, see run_action) on PostgreSQL,
LOCAL_LANE = 1  # on SQLite: its writes take the whole file in turn; one thread commits the most actions together
LANE_WAIT = 0.05  # seconds: the longest an action waits in the lane for a lock another writer holds
BATCH_MOST = 16  # actions at most in one group commit (the write lock is held from its first write to its COMMIT)

_LANES = itertools.count()
Work = tuple[Callable[[], Any], Future]


class LaneThread:
    """One thread of the lane and its queue. With `group_commit` (a context manager factory: the store's batch),
    the actions waiting when the thread is free run one after the other in one batch: one transaction, one
    COMMIT, one fsync for all of them. None is answered before the COMMIT (an acknowledged write is durable);
    an action that fails is rolled back alone; when the COMMIT fails, every action of the batch gets its error."""

    def __init__(self, name: str, group_commit: Callable[[], AbstractContextManager[Any]] | None) -> None:
        self.name = name
        self._group_commit = group_commit
        self._queue: queue.SimpleQueue[Work] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def submit(self, work: Callable[[], T]) -> Future[T]:
        future: Future[T] = Future()
        self._queue.put((work, future))
        return future

    def _serve(self) -> None:
        while True:
            batch = [self._queue.get()]
            while len(batch) < BATCH_MOST:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            if self._group_commit is None or len(batch) == 1:
                for work, future in batch:
                    _settle(future, *_run(work, future))
            else:
                self._together(batch)

    def _together(self, batch: list[Work]) -> None:
        done: list[tuple[Future, bool, Any]] = []  # run, not answered yet (not durable yet)
        try:
            with self._group_commit() as group:  # type: ignore[misc]
                for work, future in batch:
                    seen = _begin_piece(group)
                    result = (future, *_run(work, future))
                    _answer_flushed(group, seen, done)
                    done.append(result)
        except BaseException as exc:  # the COMMIT failed: nothing since the last one was written
            for future, ok, value in done:
                _settle(future, False, exc if ok else value)
            for _, future in batch:  # (those not run yet; the others are answered already)
                _settle(future, False, exc)
            return
        for future, ok, value in done:
            _settle(future, ok, value)


def _begin_piece(group: Any) -> tuple[int, Any]:
    """(group_commit.Batch, or None) A new piece of work begins: what the batch had committed and failed."""
    if group is None:
        return 0, None
    group.begin_piece()
    return group.commits, group.failure


def _answer_flushed(group: Any, seen: tuple[int, Any], done: list[tuple[Future, bool, Any]]) -> None:
    """When the piece that ran flushed the batch (another writer waited for a turn it held: group_commit.flush),
    the work before it is answered now: done if that COMMIT was made, its error if it failed."""
    if group is None or (group.commits, group.failure) == seen:
        return
    for future, ok, value in done:
        if group.failure is not seen[1]:
            _settle(future, False, group.failure)
        else:
            _settle(future, ok, value)
    done.clear()


def _run(work: Callable[[], Any], future: Future) -> tuple[bool, Any]:
    if not future.set_running_or_notify_cancel():
        return False, asyncio.CancelledError()
    try:
        return True, work()
    except BaseException as exc:  # noqa: BLE001 (handed to the waiting request)
        return False, exc


def _settle(future: Future, ok: bool, value: Any) -> None:
    if future.done():
        return
    future.set_result(value) if ok else future.set_exception(value)


class WritersLane:
    """The threads GM actions run in, a lane of their own beside the thread pool that serves reads: `size` threads
    however many GMs write at once (the others wait in a thread's queue, holding no thread), so that writers can
    neither take every thread of the pool from the reads nor hold the interpreter for more than those threads'
    share. A campaign's actions all go to one of them, in the order they came: they follow each other without
    waiting for the campaign's writer turn in several threads at once (each turn handed over is a thread woken),
    and a campaign whose turn another program holds keeps one thread waiting, not the whole lane. Threads are
    made on first use (a worker that only reads starts none). `group_commit`: see LaneThread."""

    def __init__(self, size: int = LANE, group_commit: Callable[[], AbstractContextManager[Any]] | None = None) -> None:
        self.size = size
        self.group_commit = group_commit
        self.prefix = f"sawbones-lane{next(_LANES)}-"  # its threads' names (an app of its own, a lane of its own)
        self._threads: list[LaneThread] = []
        self._making = threading.Lock()
        self._next = 0

    def thread(self, campaign: str | None) -> LaneThread:
        """The campaign's thread (None: a campaign not known yet, as a player's link: each in turn)."""
        if not self._threads:
            with self._making:
                if not self._threads:
                    self._threads = [LaneThread(f"{self.prefix}{i}", self.group_commit) for i in range(self.size)]
        if campaign is None:
            self._next += 1
            return self._threads[self._next % self.size]
        return self._threads[zlib.crc32(campaign.encode()) % self.size]


async def run_action(state: Any, work: Callable[[], T], on_lane: bool = True, campaign: str | None = None) -> T:
    """A GM's action (`work` opens its own service), off the event loop: the loop only routes, streams and waits.

    On the writers' lane (WritersLane), in the thread of the `campaign` acted on: the reads, served by the thread
    pool, never queue behind writes, and the decisions, folds and COMMITs (an fsync on SQLite) never hold up the
    loop. A lock held longer than LANE_WAIT (another program's: the CLI, another worker, a long import) is not
    waited for in the lane, where it would hold up the other campaigns of the thread: the action gives up before
    writing anything (`locks.waiting_briefly`) and runs again from the start in the thread pool, where it waits
    its turn (once it wrote, it waits where it is: nothing is ever written twice). An action whose work grows
    with what the client sent (`on_lane=False`: reading imported files) runs in the thread pool too: it holds
    no lane thread from the other GMs for its length. The request's context (its language) goes with the
    work."""
    if not on_lane:
        return await run_in_threadpool(work)

    def first() -> T:
        with locks.waiting_briefly(LANE_WAIT):
            return work()

    future = state.lane.thread(campaign).submit(partial(contextvars.copy_context().run, first))
    try:
        return await asyncio.wrap_future(future)
    except locks.WouldWait:  # another program holds a lock it needs: it waits in the pool, not in the lane
        return await run_in_threadpool(work)
