"""Live updates of the pages: Server-Sent Events that say when a campaign changed, fed by the hub (hub.py).

A page's stream sends `event: hello` (data: the campaign's version), then `event: change` (data: the new
version) when the campaign moves — for a player's page, only when the change is one that player may see
(audience.py) — and the page reloads its fragment. A keep-alive comment every KEEP_ALIVE seconds; the
stream ends after `stream_seconds` (EventSource reconnects by itself), when its client is too slow to
read, or when who it serves lost access (`still()` is checked at each change of access and before a
player hears of a change); a stream that ends because its link lost access says `event: gone` first
(the player's page then says the link no longer works).

`held(...)` is the one loop of every stream (pages here, the API's events in api_events.py).
"""

from __future__ import annotations

import asyncio
from typing import Any, AsyncIterator, Awaitable, Callable

from fastapi import Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse

from ...errors import SawbonesError
from .audience import player_sees
from .deps import open_service, web
from .hub import ACCESS, Change, Hub, Sub, hub_of

KEEP_ALIVE = 15.0
GONE = "event: gone\ndata: \n\n"  # the link lost access: the page says so
HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
Still = Callable[[], bool]


class Held(StreamingResponse):
    """A stream whose subscription is given back however the response ends (even unstarted)."""

    def __init__(self, content: AsyncIterator[str], hub: Hub, sub: Sub) -> None:
        super().__init__(content, media_type="text/event-stream", headers=HEADERS)
        self.hub, self.sub = hub, sub

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.hub.close(self.sub)


def address_of(request: Request) -> str:
    return request.client.host if request.client else "-"


async def held(request: Request, sub: Sub, first: list[str], on_change: Callable[[Change], Awaitable[list[str] | None]],
               still: Still | None) -> AsyncIterator[str]:
    """Send `first`, then what `on_change` makes of each change (None: access lost, the stream ends with
    `event: gone`), keep-alives between."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + web(request).stream_seconds
    for chunk in first:
        yield chunk
    while not sub.dropped:
        left = deadline - loop.time()
        if left <= 0:
            break
        try:
            async with asyncio.timeout(min(left, KEEP_ALIVE)):
                message = await sub.get()
        except TimeoutError:
            if loop.time() < deadline:
                yield ": keep-alive\n\n"
            continue
        if message is ACCESS:
            if still is not None and not await run_in_threadpool(still):
                yield GONE
                break
            continue
        out = await on_change(message)
        if out is None:  # who it serves lost access with this change
            yield GONE
            break
        for chunk in out:
            yield chunk


async def stream(request: Request, campaign: str, still: Still | None = None, *, token: str,
                 character: str | None = None) -> StreamingResponse:
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
        from ...errors import NotFound

        raise NotFound(f"no campaign named {campaign!r}", "campaign")
    cid, start = found
    hub = hub_of(request)
    sub = hub.open(cid, token, address_of(request), player=character is not None)
    sent = start

    def seen_by_player(after: int, upto: int) -> list[dict[str, Any]]:
        from .event_docs import light_documents

        with open_service(state) as service:
            return light_documents(service.store, cid, after, upto)

    async def on_change(change: Change) -> list[str] | None:
        nonlocal sent
        if change.head == sent:
            return []
        if character is not None:
            light = change.light if change.light is not None and change.after == sent else \
                await run_in_threadpool(seen_by_player, sent, change.head)
            if not any(player_sees(doc, character) for doc in light):
                sent = change.head  # nothing this player may see: not even that something changed
                return []
            if still is not None and not await run_in_threadpool(still):
                return None  # the link died with this change (its character removed, say)
        sent = change.head
        return [f"event: change\ndata: {change.head}\n\n"]

    hello = [f"retry: 2000\nevent: hello\ndata: {start}\n\n"]
    return Held(held(request, sub, hello, on_change, still), hub, sub)
