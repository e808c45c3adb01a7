"""The live hub: one watcher per process for every campaign someone watches, fanned out in memory.

A stream (a GM's dashboard, a player's page, the API's events) subscribes to its campaign's topic and
waits on its own bounded queue: it costs no database work while nothing changes. One watcher per process
(adapters/notify.py) watches the topics that have subscribers: on PostgreSQL a thread listening
(LISTEN/NOTIFY), on SQLite a task on the event loop asking `PRAGMA data_version` every `poll_interval` and
reading what moved a campaign at a time, letting requests in after each SLICE of reading or WAKES streams
woken (`_watch_here`). When a campaign moves it reads the new actions once (their documents, with lines
only in the languages API streams asked for, each API message encoded once; on PostgreSQL up to READERS
campaigns to read at once, those told whole built by the watcher; it keeps its own service) and hands one
`Change` to the subscribers it concerns, deciding for them before waking any (`_publish`): a page's stream remembers the
version it was last brought to (`Sub.sent`); a player's page hears only of a change its character's player
may see (audience.py, decided once per change), the others are moved on silently, never woken, and need no
read later. The GM's pages hear of every change, the API's events of every action.
A change of access (a player link revoked, the API secret or the GM sessions renewed) hands `ACCESS`:
each stream then checks who it serves. Each worker process (`serve --workers N`) runs its own hub.

On SQLite the writes of this machine's workers need no watcher: the store tells the writer's hub what an
append wrote as it commits (store.APPENDED), the hub tells the other workers through their sockets
(adapters/peers.py) and hands it to its own streams (`_appended`, `_hand_over`); each worker builds the
change from the rows written, checked as a read of the log is. A write is handed over only to streams brought
to where it starts (`seen`); one that comes out of turn, and every write of another program (the CLI), is
read by the watcher a poll later, as before. On PostgreSQL an append's notification carries its rows when
they fit (adapters/notify.py): the watcher builds the change from them instead of reading it (`_told`).

Bounds: at most `per_token` streams per token (player link, GM session, API secret) and `per_address`
per client address in this process (429 past them: $SAWBONES_STREAMS_PER_TOKEN,
$SAWBONES_STREAMS_PER_ADDRESS); a queue of QUEUE messages per stream: a client that does not read is
dropped (its stream ends) instead of being buffered without limit.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from contextlib import contextmanager
from concurrent.futures import ThreadPoolExecutor
from collections import Counter
from typing import Any, Iterator

from ....adapters.notify import Busy
from ....adapters.records import Damaged, read_events
from ....adapters.store import APPENDED
from ....message import msg
from ..http.deps import WebState, open_service
from .subscriptions import (ACCESS, ADDRESS_ENV, PER_ADDRESS, PER_TOKEN, TOKEN_ENV, Change, Heard, Sub, TooManyStreams,
                            limit)

log = logging.getLogger("sawbones.web")
# campaigns read at once when several moved (PostgreSQL). Two, not four: four readers' Python contended with the
# GM's actions (docs/benchmarks.md, "Two readers"); those told whole are built by the watcher itself ("eleventh").
READERS = 2
# SQLite: the watcher on the event loop reads campaigns for at most SLICE seconds before it lets requests in
SLICE = 0.002
WAKES = 16  # ... or once it woke WAKES streams (they write to their sockets at the loop's next turn)

class Hub:
    def __init__(self, state: WebState, per_token: int | None = None, per_address: int | None = None) -> None:
        self.state = state
        self.per_token = per_token or limit(TOKEN_ENV, PER_TOKEN)
        self.per_address = per_address or limit(ADDRESS_ENV, PER_ADDRESS)
        self.topics: dict[int, set[Sub]] = {}
        self.seen: dict[int, tuple[int, str]] = {}
        self.fresh: set[int] = set()
        self.tokens: Counter[str] = Counter()
        self.addresses: Counter[str] = Counter()
        self.players: Counter[int] = Counter()  # per campaign: its player pages' streams (they need `light`)
        self.languages: dict[int, Counter[str]] = {}  # per campaign: its API streams' languages (they need frames)
        self.kept = threading.local()  # the watcher thread's own service, for its reads (`_reading`)
        self.lock = threading.Lock()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self.task: asyncio.Task[None] | None = None
        self.readers: ThreadPoolExecutor | None = None
        self.database_id: str | None = None  # the watched database's (set with the watcher: `_appended`)
        self.database_path: str | None = None  # (SQLite: its file)
        self.peers: Any = None  # this worker's socket among the machine's workers (SQLite: adapters/peers.py)
        self.peers_tried = False

    # -------------------------------------------------------- subscribers (on the event loop)
    def open(self, cid: int, token: str, address: str, *, language: str | None = None, character: str | None = None,
             sent: int | None = None) -> Sub:
        """A subscription to the campaign `cid`: the API's events in `language`, or a page's stream brought to
        version `sent` (a player's page: of `character`)."""
        if self.tokens[token] >= self.per_token:
            most = self.per_token
            raise TooManyStreams(msg("too many live streams for this link or secret (at most {most} at once): "
                                     "close another tab, then try again", most=most), "stream")
        if self.addresses[address] >= self.per_address:
            most = self.per_address
            raise TooManyStreams(msg("too many live streams from this address (at most {most} at once): "
                                     "close another tab, then try again", most=most), "stream")
        sub = Sub(cid, token, address, language, character, sent)
        self.tokens[token] += 1
        self.addresses[address] += 1
        with self.lock:
            self.loop = asyncio.get_running_loop()
            if cid not in self.topics:
                self.topics[cid] = set()
                self.fresh.add(cid)
            self.topics[cid].add(sub)
            self._count(sub, 1)
            if self.thread is None and self.task is None:
                if self.state.local_writes:  # SQLite: the watcher reads on the event loop, a campaign at a time
                    self.task = self.loop.create_task(self._watch_here())
                    if self._appended not in APPENDED:  # this worker's own writes, handed over as they commit
                        APPENDED.append(self._appended)
                else:
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
            if subs is not None and sub in subs:
                subs.discard(sub)
                self._count(sub, -1)
                if not subs:
                    del self.topics[sub.cid]
                    self.seen.pop(sub.cid, None)
                    self.fresh.discard(sub.cid)

    def _count(self, sub: Sub, step: int) -> None:
        """What the campaign's streams need read (under the lock): player pages, API languages."""
        for counter, key in ((self.players, sub.cid if sub.character else None),
                             (self.languages.setdefault(sub.cid, Counter()), sub.language)):
            if key is not None:
                counter[key] += step
                if counter[key] <= 0:
                    del counter[key]
        if not self.languages[sub.cid]:
            del self.languages[sub.cid]

    def _publish(self, cid: int, messages: list[Any]) -> int:
        """Hands each message to the streams it concerns (a change of access: to all); who sees a change is
        decided once per change, and a stream it does not concern is not woken. Returns how many were."""
        subs = self.topics.get(cid)
        if not subs:
            return 0
        woken = 0
        for message in messages:
            heard = Heard(None if message is ACCESS else message.light)
            for sub in list(subs):
                out = message if message is ACCESS else sub.concerned(message, heard)
                if out is None:
                    continue
                woken += 1
                if not sub.put(out):  # a client that does not read: dropped, not buffered
                    sub.end()
                    self.close(sub)
        return woken

    def _open_peers(self, loop: asyncio.AbstractEventLoop) -> None:
        """This worker's socket among the machine's workers (adapters/peers.py), read on the event loop."""
        from ....adapters.peers import Peers

        self.peers_tried = True
        if self.database_id is None or self.database_path is None:
            return
        peers = Peers.open(self.database_id, self.database_path)
        if peers is not None:
            peers.serve(loop, self._hand_over)  # another worker's write: handed over as this one's own
            self.peers = peers

    def _close_peers(self) -> None:
        peers, self.peers, self.peers_tried = self.peers, None, False
        if peers is not None:
            peers.close()

    # -------------------------------------------------------- the watcher (its own thread)
    def _run(self) -> None:
        watcher = None
        self.kept.watcher = True
        try:
            while (turn := self._turn(in_thread=True)) is not None:
                known, fresh = turn
                try:
                    watcher = self._watcher(watcher)
                    moved = watcher.wait(known, fresh, self.state.poll_interval)
                    if moved:
                        self._read(moved, known, watcher.reads_wait, getattr(watcher, "told", {}))
                except Busy:
                    self._again(fresh)
                except Exception:  # the hub outlives a database hiccup: it watches again on the next turn
                    self._failed(watcher, fresh)
                    watcher = None
                    threading.Event().wait(min(self.state.poll_interval * 4, 2.0))
        finally:
            if watcher is not None:
                watcher.close()
            self._let_go()

    async def _watch_here(self) -> None:
        """The watcher on the event loop (SQLite): every `poll_interval`, `PRAGMA data_version`, and when the
        file moved, the moved campaigns read and handed to their streams one at a time, the loop free for
        others after each SLICE of reading or WAKES streams woken. In a thread, the watcher's reads took the
        interpreter's lock from the loop's requests: with 5,100 streams held, the GM's p50 did not move but its
        p99 doubled (docs/benchmarks.md, "sixth pass")."""
        watcher = None
        self.kept.watcher = True
        loop, due = asyncio.get_running_loop(), 0.0
        try:
            while self.topics:
                if not self.fresh:  # every poll_interval from the last poll's start (its reads count in the wait)
                    due = max(due + self.state.poll_interval, loop.time())
                    await asyncio.sleep(due - loop.time())
                if (turn := self._turn()) is None:
                    return
                known, fresh = turn
                try:
                    watcher = self._watcher(watcher)
                    if not self.peers_tried:
                        self._open_peers(loop)
                    since, woken = time.perf_counter(), 0
                    for cid, seen in watcher.poll(known, fresh).items():
                        woken += self._publish(*self._read_one(cid, seen, known.get(cid)))
                        if woken >= WAKES or time.perf_counter() - since >= SLICE:
                            await asyncio.sleep(0)
                            since, woken = time.perf_counter(), 0
                except Busy:  # another program holds the file: the loop does not wait for it
                    self._again(fresh)
                except Exception:  # the hub outlives a database hiccup: it watches again on the next turn
                    self._failed(watcher, fresh)
                    watcher = None
                    await asyncio.sleep(min(self.state.poll_interval * 4, 2.0))
        finally:
            self.task = None
            if self._appended in APPENDED:
                APPENDED.remove(self._appended)
            self._close_peers()
            if watcher is not None:
                watcher.close()
            self._let_go()

    def _turn(self, in_thread: bool = False) -> tuple[dict[int, tuple[int, str]], set[int]] | None:
        """What the watcher looks at this turn: (the watched campaigns' heads last seen, those just watched),
        or None when nothing is watched any more (the watcher thread then ends, under the lock)."""
        with self.lock:
            if not self.topics:
                if in_thread:
                    self.thread = None
                return None
            known = dict(self.seen)  # (a campaign is seen only while watched: `close`, `_read_one`, `_hand_over`)
            fresh, self.fresh = self.fresh, set()
            return known, fresh

    def _watcher(self, watcher: Any) -> Any:
        if watcher is None:
            from ....adapters.notify import open_watcher

            with self._reading() as service:
                watcher = open_watcher(service.store)
                self.database_id = service.store.database_id
                self.database_path = getattr(service.store, "path", None)
        return watcher

    def _again(self, fresh: set[int]) -> None:
        """The campaigns just watched are looked at next turn (this one read nothing)."""
        with self.lock:
            self.fresh |= fresh

    def _failed(self, watcher: Any, fresh: set[int]) -> None:
        """A turn failed: its fresh campaigns are looked at again, the watcher and its service let go."""
        log.exception("live updates: watching failed; trying again")
        self._again(fresh)
        if watcher is not None:
            watcher.close()
        self._let_go()

    @contextmanager
    def _reading(self) -> Iterator[Any]:
        """A service for the hub's reads: the watcher thread and its reader threads (PostgreSQL) keep their own
        (opening one per change was a quarter of the hub's reading: the threads that keep theirs by
        `open_service` are the requests'); one that failed is let go."""
        if not getattr(self.kept, "watcher", False):
            with open_service(self.state) as service:
                yield service
            return
        if getattr(self.kept, "service", None) is None:
            self.kept.service = self.state.service_factory()
        try:
            yield self.kept.service
        except BaseException:
            self._let_go()
            raise

    def _reader(self) -> None:
        self.kept.watcher = True  # a reader thread of the watcher's: it keeps its service (`_reading`)

    def _let_go(self) -> None:
        service, self.kept.service = getattr(self.kept, "service", None), None
        if service is not None:
            service.close()

    def _read(self, moved: dict[int, tuple[int, str]], known: dict[int, tuple[int, str]],
              parallel: bool = False, told: dict[int, Any] | None = None) -> None:
        """Each moved campaign's new actions, read once and handed to its streams, one after the other and
        handed over together (one wake-up of the event loop per turn); `parallel` (PostgreSQL: reads wait on
        the server): those to read from it several at once in READERS threads, each handed over when read."""
        told = told or {}
        # (PostgreSQL) a campaign whose move was told whole needs no read: Python's work only, built here, one
        # after the other, not in a reader thread contending for the interpreter's lock with the requests'
        waits = {cid: seen for cid, seen in moved.items() if parallel and not self._told_whole(cid, seen, known, told)}
        if len(waits) < 2:
            waits = {}
        elif self.readers is None:
            self.readers = ThreadPoolExecutor(READERS, thread_name_prefix="sawbones-live-read",
                                              initializer=self._reader)
        done = [self.readers.submit(self._read_one, cid, seen, known.get(cid), told.get(cid))
                for cid, seen in waits.items()] if waits and self.readers else []
        read: list[tuple[int, list[Any]]] = []
        try:
            for cid, seen in moved.items():
                if cid not in waits:
                    read.append(self._read_one(cid, seen, known.get(cid), told.get(cid)))
        finally:  # (what was read before a failure still goes out)
            self._send(read)
        for future in done:
            self._send([future.result()])  # (a failure: the watcher starts again, _run)

    def _told_whole(self, cid: int, seen: tuple[int, str], known: dict[int, tuple[int, str]],
                    told: dict[int, Any]) -> bool:
        """The move of `cid` to `seen` was told whole, and no API stream's lines must read the campaign's state."""
        before, rows = known.get(cid), told.get(cid)
        return before is not None and rows is not None and before[1] == seen[1] and not self.languages.get(cid) \
            and rows[0] == before[0] and rows[0] + len(rows[1]) == seen[0]

    def _read_one(self, cid: int, seen: tuple[int, str], before: tuple[int, str] | None,
                  told: tuple[int, list[Any]] | None = None) -> tuple[int, list[Any]]:
        """The messages for the streams of campaign `cid`, which moved from `before` to `seen`; `told`: the
        rows its notifications carried (PostgreSQL), used instead of a read when they are the whole move."""
        head, stamp = seen
        with self.lock:
            if cid not in self.topics:
                return cid, []
            handed = self.seen.get(cid)
            if before is not None and handed is not None and head >= before[0]:
                # (this worker's own write may have been handed over since the turn began: `_appended`)
                before, head = handed, max(head, handed[0])
            self.seen[cid] = (head, stamp)
            player, languages = self.players[cid] > 0, list(self.languages.get(cid, ()))
        messages: list[Any] = []
        if before is None:  # just watched: the streams compare with what they sent
            messages.append(Change(head, head))
        else:
            if stamp != before[1]:
                messages.append(ACCESS)
            if head != before[0]:
                after = before[0] if head > before[0] else 0
                messages.append(self._change(cid, after, head, player, languages, self._told(cid, after, head, told)))
        return cid, messages

    @staticmethod
    def _told(cid: int, after: int, head: int, told: tuple[int, list[Any]] | None) -> list[Any] | None:
        """The stored events of the move from `after` to `head` from the rows told of it (checked as a read of
        the log is), or None (not told whole, or not as written: read instead)."""
        if told is None or told[0] != after or after + len(told[1]) != head:
            return None
        try:
            return read_events([row[1:] for row in told[1]], after, None, lambda: f"#{cid}")
        except Damaged as exc:
            log.warning("live updates: a write told could not be handed over (%s); read instead", exc.message)
            return None

    def _change(self, cid: int, after: int, head: int, player: bool, languages: list[str],
                rows: list[Any] | None = None) -> Change:
        """The change from `after` to `head`, with what its streams need: the light documents (player pages),
        the frames per language (API streams); from `rows` (its stored events) when given, else read."""
        from .event_docs import frames_in, light_documents

        with self._reading() as service:
            light = light_documents(service.store, cid, after, head, rows) if player else None
            frames = frames_in(languages, service, cid, after, upto=head, rows=rows)
        return Change(after, head, light, frames)

    # -------------------------------------------------------- writes of this machine's workers (SQLite)
    def _appended(self, database_id: str, cid: int, after: int, rows: list[tuple[Any, ...]]) -> None:
        """(in the writer's thread, store.APPENDED) An append of this process committed: told to the other
        workers (adapters/peers.py), and handed to this worker's streams on the event loop, without reading it
        back, when the campaign is watched here."""
        if database_id != self.database_id:
            return
        peers = self.peers
        if peers is not None:
            peers.tell(cid, after, rows)
        loop = self.loop
        if cid not in self.topics or loop is None or loop.is_closed():
            return
        try:
            if asyncio._get_running_loop() is loop:
                loop.call_soon(self._hand_over, cid, after, rows)
            else:
                loop.call_soon_threadsafe(self._hand_over, cid, after, rows)
        except RuntimeError:  # the loop closed meanwhile (the server stops): the watcher is gone too
            pass

    def _hand_over(self, cid: int, after: int, rows: list[tuple[Any, ...]]) -> None:
        """(on the event loop) This worker's write, from version `after`, handed to the campaign's streams when
        they were brought to `after`; otherwise (another writer came between) the watcher reads it, as any
        other's. Nothing is marked handed over unless it was."""
        with self.lock:
            seen = self.seen.get(cid)
            if cid not in self.topics or seen is None or seen[0] != after:
                return
            player, languages = self.players[cid] > 0, list(self.languages.get(cid, ()))
        events = self._told(cid, after, after + len(rows), (after, rows))
        if events is None:  # (a write told that does not read as written) the watcher reads it instead
            return
        try:
            change = self._change(cid, after, after + len(rows), player, languages, events)
        except Exception:
            log.exception("live updates: handing over a write failed; the watcher reads it")
            return
        with self.lock:
            if self.seen.get(cid) != seen:  # (not on SQLite's one thread; kept for safety)
                return
            self.seen[cid] = (change.head, seen[1])
        self._publish(cid, [change])

    def _send(self, read: list[tuple[int, list[Any]]]) -> None:
        read = [(cid, messages) for cid, messages in read if messages]
        loop = self.loop
        if read and loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(self._publish_all, read)
            except RuntimeError:  # the loop closed meanwhile (the server stops)
                pass

    def _publish_all(self, read: list[tuple[int, list[Any]]]) -> None:
        for cid, messages in read:
            self._publish(cid, messages)


def hub_of(request: Any) -> Hub:
    """The app's hub (one per process), made on first use."""
    app_state = request.app.state
    hub = getattr(app_state, "live_hub", None)
    if hub is None:
        hub = app_state.live_hub = Hub(app_state.sawbones)
    return hub
