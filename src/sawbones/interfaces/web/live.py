"""Live updates: Server-Sent Events that say when a campaign changed.

The stream polls the campaign's version (the head of its event log) every `poll_interval` seconds
in a worker thread and sends `event: change` when it moves; the page then reloads its fragment.
Streams end after `stream_seconds`; EventSource reconnects by itself. A stream opened with `still`
(a player link) ends as soon as `still()` is false, checked at each change and keep-alive; `alive()` (a cheap
check: the link not revoked) is checked at every poll. A stream that ends so says `event: gone` first.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, AsyncIterator, Callable

from fastapi import Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse

from ...errors import SawbonesError
from .deps import open_service, web

KEEP_ALIVE = 15.0


def stream(request: Request, campaign: str, still: Callable[[], bool] | None = None,
           alive: Callable[[], bool] | None = None) -> StreamingResponse:
    state = web(request)

    def head() -> int | None:
        with open_service(state) as service:
            try:
                return service.store.head(service.store.campaign_id(campaign))
            except SawbonesError:
                return None

    async def events() -> AsyncIterator[str]:
        last: Any = await run_in_threadpool(head)
        yield f"retry: 2000\nevent: hello\ndata: {last}\n\n"
        started = beat = time.monotonic()
        while time.monotonic() - started < state.stream_seconds:
            await asyncio.sleep(state.poll_interval)
            if await request.is_disconnected():
                break
            if alive is not None and not await run_in_threadpool(alive):
                yield "event: gone\ndata: \n\n"
                break  # the link was revoked
            now = await run_in_threadpool(head)
            due = now != last or time.monotonic() - beat > KEEP_ALIVE
            if due and still is not None and not await run_in_threadpool(still):
                yield "event: gone\ndata: \n\n"
                break  # the link was revoked, or its character is gone
            if now != last:
                last = now
                beat = time.monotonic()
                yield f"event: change\ndata: {now}\n\n"
            elif time.monotonic() - beat > KEEP_ALIVE:
                beat = time.monotonic()
                yield ": keep-alive\n\n"

    return StreamingResponse(events(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
