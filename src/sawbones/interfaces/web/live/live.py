"""Live updates: Server-Sent Events fed by the hub (hub.py), served as bare ASGI endpoints.

Every stream (a page's: the GM dashboard's `/c/{campaign}/events`, a player's `/p/{token}/events`; the API's
`/api/campaigns/{campaign}/events`) is served by `serve`, which the app (app.App) calls before its middleware
and routes: one coroutine per stream and one task that notices its client leaving, no task group, no
dependency machinery (thousands of streams are held at once: a held stream costs its subscription, its
coroutine and the server's connection, not a framework request). Each stream's module registers its opener with
`@opener(path)`: it checks who asks (token, session, secret) and subscribes; errors (401/403/404/422, the 429
of the caps) are the app's one error answer (errors.py), in the page's or the API's language.

A page's stream sends `event: hello` (data: the campaign's version), then `event: change` (data: the new
version) when the campaign moves — for a player's page, only when the change is one that player may see
(audience.py; the hub decides it before waking the stream) — and the page reloads its fragment. Every
message queued while the stream was busy goes out in one write. A keep-alive comment when the stream said
nothing for KEEP_ALIVE seconds (one timer per event loop for every stream, `Ticks`: a stream waits in the
bucket of its next keep-alive or end, moved only when it fires, at most BATCH told per turn of the loop;
waiting for a message costs no timer); the stream ends after `stream_seconds` (EventSource reconnects by
itself), when its client leaves or is too slow to read, or when who it serves lost access (`still()` is checked at each change
of access and before a player hears of a change that may end links); a stream that ends because its link
lost access says `event: gone` first (the player's page then says the link no longer works).
"""

from __future__ import annotations

import asyncio
import signal
import threading
import weakref
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from ....errors import SawbonesError
from ....message import msg
from ..access.access import may_end_links
from .audience import audience
from ..http.deps import open_service, web
from .hub import hub_of
from .subscriptions import ACCESS, Change, Sub

KEEP_ALIVE = 15.0
SLICES = 15  # a stream's keep-alive and end are due in buckets of KEEP_ALIVE / SLICES seconds (Ticks)
BATCH = 64  # streams told they are due per turn of the event loop (Ticks)
GONE = b"event: gone\ndata: \n\n"  # the link lost access: the page says so
ALIVE = b": keep-alive\n\n"
HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-store"),
           (b"x-accel-buffering", b"no")]
Still = Callable[[], bool]
OnChange = Callable[[Change], Awaitable["list[bytes] | None"]]


@dataclass(slots=True)
class Opened:
    """A stream, checked and subscribed: what it says first, what it makes of each change (None: access
    lost, it ends with `event: gone`), and who it serves still may (checked at each change of access)."""

    sub: Sub
    first: list[bytes]
    on_change: OnChange
    still: Still | None


Opener = Callable[[Request, str], Awaitable[Opened]]
ROUTES: dict[tuple[str, ...], Opener] = {}  # path segments ("" for the one variable segment) → opener


def opener(path: str) -> Callable[[Opener], Opener]:
    """Registers the opener of the stream at `path` ("/p/{token}/events"); its argument is the braced segment."""
    def register(fn: Opener) -> Opener:
        ROUTES[tuple("" if part.startswith("{") else part for part in path.strip("/").split("/"))] = fn
        return fn
    return register


def route(path: str) -> tuple[Opener, str] | None:
    """The opener of the stream at `path` and its argument (the app serves it: app.App), or None."""
    parts = path.strip("/").split("/") if path.endswith("/events") else ()
    for shape, fn in ROUTES.items():
        if len(shape) == len(parts) and all(want in ("", got) for want, got in zip(shape, parts)):
            variable = parts[shape.index("")]
            return (fn, variable) if variable else None
    return None


class Served(Response):
    """A stream as a route's answer (a route that declares a stream in the API's schema)."""

    def __init__(self, open_stream: Opener, arg: str) -> None:
        super().__init__()
        self.open_stream, self.arg = open_stream, arg

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await serve(scope, receive, send, self.open_stream, self.arg)


async def serve(scope: dict, receive: Any, send: Any, open_stream: Opener, arg: str,
                extra: list[tuple[bytes, bytes]] | None = None) -> None:
    """One stream, from its checks to its end (`extra`: headers of every answer, an error's too); its
    subscription is given back however it ends."""
    from ..http import errors

    request = Request(scope, receive)
    try:
        opened = await open_stream(request, arg)
    except SawbonesError as exc:
        response = errors.answer(request, exc)
        response.raw_headers += extra or []
        await response(scope, receive, send)
        return
    except Exception:  # a bug: the one error shape too, and the token kept out of the log
        response = errors.internal(request)
        response.raw_headers += extra or []
        await response(scope, receive, send)
        return
    hub, seconds = hub_of(request), web(request).stream_seconds
    del request
    end_streams_at_stop(hub)
    gone = asyncio.get_running_loop().create_task(_until_gone(receive, opened.sub))
    try:
        await send({"type": "http.response.start", "status": 200, "headers": HEADERS + (extra or [])})
        await _pump(send, opened, seconds)
        await send({"type": "http.response.body", "body": b"", "more_body": False})
    finally:
        gone.cancel()
        hub.close(opened.sub)


_SERVED: "weakref.WeakSet[Any]" = weakref.WeakSet()  # the hubs whose streams end at the stop signal


def end_streams_at_stop(hub: Any) -> None:
    """At the server's stop signal (SIGINT, SIGTERM) every stream of this process ends at once, cleanly, and
    then the server's own handler runs: without it the server waited its graceful timeout for the streams,
    then cancelled them and logged each one's traceback. The handler is chained once, where signals are
    handled (the main thread of a `serve` worker), and ends the streams of every hub that served one."""
    if threading.current_thread() is not threading.main_thread():
        return
    _SERVED.add(hub)
    for sig in (signal.SIGINT, signal.SIGTERM):
        previous = signal.getsignal(sig)
        if not callable(previous) or getattr(previous, "ends_streams", False):
            continue

        def chained(signum: int, frame: Any, previous: Any = previous) -> None:
            for served in list(_SERVED):
                if served.loop is not None and not served.loop.is_closed():
                    served.loop.call_soon_threadsafe(_end_all, served)
            previous(signum, frame)

        chained.ends_streams = True  # type: ignore[attr-defined]
        signal.signal(sig, chained)


def _end_all(hub: Any) -> None:
    """Every stream ends; the worker's socket among its peers goes now (once the server is done, it raises
    the stop signal again, and the process ends before its tasks' last steps)."""
    for subs in list(hub.topics.values()):
        for sub in list(subs):
            sub.end()
    if hub.peers is not None:
        hub.peers.close()


async def _until_gone(receive: Any, sub: Sub) -> None:
    """The client left: its stream ends at once (not at its next keep-alive)."""
    while (await receive())["type"] != "http.disconnect":
        pass
    sub.end()


async def _say(send: Any, chunks: list[bytes]) -> None:
    if chunks:
        await send({"type": "http.response.body", "body": b"".join(chunks), "more_body": True})


class Ticks:
    """The event loop's one timer for every stream's next keep-alive or end: a stream waits in the bucket of
    the time it is due (buckets of KEEP_ALIVE / SLICES seconds; it is told at or after that time), and the
    timer fires the earliest bucket. A timer per stream weighed about 600 bytes; a place in a bucket, a few
    dozen."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop, self.step = loop, KEEP_ALIVE / SLICES
        self.buckets: dict[int, set[Sub]] = {}
        self.timer: asyncio.Handle | None = None
        self.first: int | None = None  # the bucket the timer is set for

    def arm(self, sub: Sub, when: float) -> int:
        """`sub.tick()` at `when` (loop time) or just after; returns its bucket (for `disarm`)."""
        key = -int(-when // self.step)  # (rounded up: never early)
        self.buckets.setdefault(key, set()).add(sub)
        if self.first is None or key < self.first:
            self._set(key)
        return key

    def disarm(self, sub: Sub, key: int) -> None:
        bucket = self.buckets.get(key)
        if bucket is not None:
            bucket.discard(sub)
            if not bucket:
                del self.buckets[key]

    def _set(self, key: int) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.first, self.timer = key, self.loop.call_at(key * self.step, self._fire)

    def _fire(self) -> None:
        """Tells the streams that are due, at most BATCH per turn of the loop: streams opened together (a
        server's restart, a bench's burst) fall due together, and telling a thousand at once held every
        request behind their keep-alives."""
        self.first = self.timer = None
        now, told = self.loop.time(), 0
        for key in sorted(k for k in self.buckets if k * self.step <= now):
            bucket = self.buckets[key]
            while bucket and told < BATCH:
                bucket.pop().tick()
                told += 1
            if bucket:  # the rest at the next turn, after what else is waiting
                self.first, self.timer = key, self.loop.call_soon(self._fire)
                return
            del self.buckets[key]
        if self.buckets:
            self._set(min(self.buckets))


_TICKS: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Ticks]" = weakref.WeakKeyDictionary()


def ticks() -> Ticks:
    """This event loop's Ticks (one per worker process; tests run several loops)."""
    loop = asyncio.get_running_loop()
    found = _TICKS.get(loop)
    if found is None:
        found = _TICKS[loop] = Ticks(loop)
    return found


async def _pump(send: Any, opened: Opened, seconds: float) -> None:
    """`first`, then what `on_change` makes of each change (all that is queued, in one write), keep-alives
    between, until the stream ends."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    sub, still = opened.sub, opened.still
    first, opened.first = opened.first, []  # (sent once: not held for the stream's life)
    await _say(send, first)
    del first
    said = loop.time()  # when the stream last said something
    clock = ticks()
    when = min(said + KEEP_ALIVE, end)
    slot = clock.arm(sub, when)
    try:
        while True:
            messages = await sub.take()
            if messages is None:  # its client left, or was too slow to read
                return
            out: list[bytes] = []
            for message in messages:
                if message is ACCESS:
                    if still is not None and not await run_in_threadpool(still):
                        await _say(send, out + [GONE])
                        return
                    continue
                chunks = await opened.on_change(message)
                if chunks is None:  # who it serves lost access with this change
                    await _say(send, out + [GONE])
                    return
                out += chunks
            if out:
                said = loop.time()
                await _say(send, out)
            if sub.due:  # its timer fired: the end of its time, or maybe a keep-alive
                sub.due = False
                if when >= end:
                    return
                now = loop.time()
                if now - said >= KEEP_ALIVE * 0.99:  # silent for KEEP_ALIVE
                    said = now
                    await _say(send, [ALIVE])
                when = min(said + KEEP_ALIVE, end)
                slot = clock.arm(sub, when)
    finally:
        clock.disarm(sub, slot)


def address_of(request: Request) -> str:
    return request.client.host if request.client else "-"


async def page_stream(request: Request, campaign: str, still: Still | None = None, *, token: str,
                      character: str | None = None) -> Opened:
    """A page's stream on the campaign (already checked by the caller); `character`: a player's page."""
    state = web(request)

    def head_of() -> tuple[int, int] | None:
        with open_service(state) as service:
            try:
                cid = service.store.campaign_id(campaign)
                return cid, service.store.head(cid)
            except SawbonesError:
                return None

    found = await run_in_threadpool(head_of)
    if found is None:
        from ....errors import NotFound

        raise NotFound(msg("no campaign named {campaign}", campaign=repr(campaign)), "campaign")
    cid, start = found
    sub = hub_of(request).open(cid, token, address_of(request), character=character, sent=start)
    return Opened(sub, [f"retry: 2000\nevent: hello\ndata: {start}\n\n".encode()],
                  PageChanges(state, cid, character, still), still)


class PageChanges:
    """What a page's stream makes of a change (`Opened.on_change`): the hub hands a player's page only what
    its player may see (hub.Sub.concerned), or, when it could not decide, what the stream missed (`light`
    None), read and decided here. (A small object rather than closures: thousands are held at once.)"""

    __slots__ = ("state", "cid", "character", "still")

    def __init__(self, state: Any, cid: int, character: str | None, still: Still | None) -> None:
        self.state, self.cid, self.character, self.still = state, cid, character, still

    def _seen_by_player(self, after: int, upto: int) -> list[dict[str, Any]]:
        from .event_docs import light_documents

        with open_service(self.state) as service:
            return light_documents(service.store, self.cid, after, upto)

    async def __call__(self, change: Change) -> list[bytes] | None:
        if self.character is not None:
            light = change.light
            if light is None:
                light = await run_in_threadpool(self._seen_by_player, change.after, change.head)
                everyone, characters = audience(light)
                if not everyone and self.character not in characters:
                    return []  # nothing this player may see: not even that something changed
            if self.still is not None and may_end_links(light) and not await run_in_threadpool(self.still):
                return None  # the link died with this change (its character removed, say)
        return [f"event: change\ndata: {change.head}\n\n".encode()]
