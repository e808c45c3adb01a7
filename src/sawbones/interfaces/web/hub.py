"""The live hub: one watcher per process for every campaign someone watches, fanned out in memory.

A stream (a GM's dashboard, a player's page, the API's events) subscribes to its campaign's topic and
waits on its own bounded queue: it costs no database work while nothing changes. One thread per process
runs the watcher (adapters/notify.py: LISTEN/NOTIFY on PostgreSQL, `PRAGMA data_version` on SQLite) for
the topics that have subscribers; when a campaign moves it reads the new actions once (their documents,
with lines only in the languages API streams asked for; on PostgreSQL up to READERS campaigns at once)
and hands one `Change` to every subscriber.
A change of access (a player link revoked, the API secret or the GM sessions renewed) hands `ACCESS`:
each stream then checks who it serves. Each worker process (`serve --workers N`) runs its own hub.

Bounds: at most `per_token` streams per token (player link, GM session, API secret) and `per_address`
per client address in this process (429 past them: $SAWBONES_STREAMS_PER_TOKEN,
$SAWBONES_STREAMS_PER_ADDRESS); a queue of QUEUE messages per stream: a client that does not read is
dropped (its stream ends) instead of being buffered without limit.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .deps import WebState, open_service
from .access_errors import WebError

log = logging.getLogger("sawbones.web")
QUEUE = 64
READERS = 4  # campaigns read at once by the watcher when several moved
PER_TOKEN, PER_ADDRESS = 8, 256
TOKEN_ENV, ADDRESS_ENV = "SAWBONES_STREAMS_PER_TOKEN", "SAWBONES_STREAMS_PER_ADDRESS"
ACCESS = "access"  # the message: who may watch the campaign changed


class TooManyStreams(WebError):
    code = "too_many_requests"
    status = 429


@dataclass(frozen=True)
class Change:
    """The campaign moved from `after` to `head`. `light`: its actions' documents without lines (for the
    audience), `docs`: the full documents per language; None when the hub did not read them (a stream then
    reads what it needs itself)."""

    after: int
    head: int
    light: list[dict[str, Any]] | None = None
    docs: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


class Sub:
    """One stream's subscription: a bounded mailbox (a list and the future its stream waits on; lighter
    than an asyncio.Queue, which holds three deques — thousands of streams are held at once)."""

    __slots__ = ("cid", "token", "address", "lang", "player", "box", "waiter", "dropped", "closed")

    def __init__(self, cid: int, token: str, address: str, lang: str | None = None, player: bool = False) -> None:
        self.cid, self.token, self.address = cid, token, address
        self.lang = lang  # the API's events: documents in this language
        self.player = player  # a player's page: the hub reads the documents for the audience
        self.box: list[Any] = []  # at most QUEUE messages (a deque weighs ten times an empty list)
        self.waiter: asyncio.Future[None] | None = None
        self.dropped = self.closed = False

    def put(self, message: Any) -> bool:
        """False when the stream has QUEUE messages unread already (its client does not read)."""
        if len(self.box) >= QUEUE:
            return False
        self.box.append(message)
        self._wake()
        return True

    def end(self) -> None:
        """The stream ends at its next turn (its client left, or does not read): `get` answers None."""
        self.dropped = True
        self._wake()

    def _wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    async def get(self) -> Any:
        """The next message, or None once the stream is ended."""
        while not self.box and not self.dropped:
            self.waiter = asyncio.get_running_loop().create_future()
            try:
                await self.waiter
            finally:
                self.waiter = None
        return None if self.dropped else self.box.pop(0)


def _limit(env: str, default: int) -> int:
    value = os.environ.get(env, "")
    return int(value) if value.isdigit() and int(value) > 0 else default


class Hub:
    def __init__(self, state: WebState, per_token: int | None = None, per_address: int | None = None) -> None:
        self.state = state
        self.per_token = per_token or _limit(TOKEN_ENV, PER_TOKEN)
        self.per_address = per_address or _limit(ADDRESS_ENV, PER_ADDRESS)
        self.topics: dict[int, set[Sub]] = {}
        self.seen: dict[int, tuple[int, str]] = {}
        self.fresh: set[int] = set()
        self.tokens: Counter[str] = Counter()
        self.addresses: Counter[str] = Counter()
        self.lock = threading.Lock()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self.readers: ThreadPoolExecutor | None = None

    # -------------------------------------------------------- subscribers (on the event loop)
    def open(self, cid: int, token: str, address: str, *, lang: str | None = None, player: bool = False) -> Sub:
        if self.tokens[token] >= self.per_token:
            most = self.per_token
            raise TooManyStreams(f"too many live streams for this link or secret (at most {most} at once): "
                                 "close another tab, then try again", "stream")
        if self.addresses[address] >= self.per_address:
            most = self.per_address
            raise TooManyStreams(f"too many live streams from this address (at most {most} at once): "
                                 "close another tab, then try again", "stream")
        sub = Sub(cid, token, address, lang, player)
        self.tokens[token] += 1
        self.addresses[address] += 1
        with self.lock:
            self.loop = asyncio.get_running_loop()
            if cid not in self.topics:
                self.topics[cid] = set()
                self.fresh.add(cid)
            self.topics[cid].add(sub)
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="sawbones-live", daemon=True)
                self.thread.start()
        return sub

    def close(self, sub: Sub) -> None:
        if sub.closed:
            return
        sub.closed = True
        for counter, key in ((self.tokens, sub.token), (self.addresses, sub.address)):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]
        with self.lock:
            subs = self.topics.get(sub.cid)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self.topics[sub.cid]
                    self.seen.pop(sub.cid, None)
                    self.fresh.discard(sub.cid)

    def _publish(self, cid: int, messages: list[Any]) -> None:
        for sub in list(self.topics.get(cid, ())):
            for message in messages:
                if not sub.put(message):  # a client that does not read: dropped, not buffered
                    sub.end()
                    self.close(sub)
                    break

    # -------------------------------------------------------- the watcher (its own thread)
    def _run(self) -> None:
        from ...adapters.notify import open_watcher

        watcher = None
        try:
            while True:
                with self.lock:
                    if not self.topics:
                        self.thread = None
                        return
                    known = {cid: self.seen[cid] for cid in self.topics if cid in self.seen}
                    fresh, self.fresh = self.fresh, set()
                    wants = {cid: (any(s.player for s in subs), {s.lang for s in subs if s.lang})
                             for cid, subs in self.topics.items()}
                try:
                    if watcher is None:
                        with open_service(self.state) as service:
                            watcher = open_watcher(service.store)
                    moved = watcher.wait(known, fresh, self.state.poll_interval)
                    if moved:
                        self._read(moved, known, wants, watcher.reads_wait)
                except Exception:  # the hub outlives a database hiccup: it watches again on the next turn
                    log.exception("live updates: watching failed; trying again")
                    with self.lock:
                        self.fresh |= fresh
                    if watcher is not None:
                        watcher.close()
                    watcher = None
                    threading.Event().wait(min(self.state.poll_interval * 4, 2.0))
        finally:
            if watcher is not None:
                watcher.close()

    def _read(self, moved: dict[int, tuple[int, str]], known: dict[int, tuple[int, str]],
              wants: dict[int, tuple[bool, set[str]]], parallel: bool = False) -> None:
        """Each moved campaign's new actions, read once and handed to its streams, each sent when read;
        `parallel` (PostgreSQL: reads wait on the server, not on Python): several at once, READERS threads."""
        if len(moved) == 1 or not parallel:
            for cid, seen in moved.items():
                self._read_one(cid, seen, known.get(cid), wants.get(cid, (False, set())))
            return
        if self.readers is None:
            self.readers = ThreadPoolExecutor(READERS, thread_name_prefix="sawbones-live-read")
        done = [self.readers.submit(self._read_one, cid, seen, known.get(cid), wants.get(cid, (False, set())))
                for cid, seen in moved.items()]
        for future in done:
            future.result()  # (a failure: the watcher starts again, _run)

    def _read_one(self, cid: int, seen: tuple[int, str], before: tuple[int, str] | None,
                  want: tuple[bool, set[str]]) -> None:
        from .event_docs import event_documents, light_documents

        head, stamp = seen
        with self.lock:
            if cid not in self.topics:
                return
            self.seen[cid] = seen
        messages: list[Any] = []
        if before is None:  # just watched: the streams compare with what they sent
            messages.append(Change(head, head))
        else:
            if stamp != before[1]:
                messages.append(ACCESS)
            if head != before[0]:
                player, langs = want
                after = before[0] if head > before[0] else 0
                with open_service(self.state) as service:
                    light = light_documents(service.store, cid, after, head) if player else None
                    docs = {lang: event_documents(service, cid, after, lang, upto=head) for lang in langs}
                messages.append(Change(after, head, light, docs))
        if messages:
            self._send(cid, messages)

    def _send(self, cid: int, messages: list[Any]) -> None:
        loop = self.loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._publish, cid, messages)
            except RuntimeError:  # the loop closed meanwhile (the server stops)
                pass


def hub_of(request: Any) -> Hub:
    """The app's hub (one per process), made on first use."""
    app_state = request.app.state
    hub = getattr(app_state, "live_hub", None)
    if hub is None:
        hub = app_state.live_hub = Hub(app_state.sawbones)
    return hub
