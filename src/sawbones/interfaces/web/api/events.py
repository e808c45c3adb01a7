"""API: the campaign's events for GM tools (a VTT module, a bot), as Server-Sent Events.

`GET /api/campaigns/{campaign}/events` (GM secret) streams one message per action, undo included:

    id: 14
    data: {"id": 14, "type": "damage_taken", "action": 6, "version": 14, "characters": ["brena"],
           "lines": ["Brena: 30 fire = 30 → 0 HP", ...], "events": [{"type": ..., "data": {...}}, ...]}

`id` is the log version of the action's last event. A client that reconnects with `Last-Event-ID`
(EventSource does it by itself) gets every action after that version, each once; without it, the stream
starts at the current version (`?after=0` replays the whole log), and its first message says so: `id:` that
version and no data, so that a client that loses the stream before any action came resumes from there (an
EventSource keeps the id by itself; a client reading the stream by hand keeps it as it keeps the others'). `event_documents` (event_docs.py) builds the
documents from the log alone, so any live layer can send them; an undo's `characters` are those of the
undone action. The stream waits on the process's hub (hub.py): no database work while nothing changes.
It is served as a bare ASGI endpoint before the app's routes (live.py); the route below declares it in
the API's schema.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Header, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse

from ....errors import SawbonesError, UsageError
from ..live import live
from ..http.language import Language
from ..http.deps import GmAccess, bearer_of, check_gm_secret, gm_read, open_service, web
from ....message import Listed, msg
from ....presentation.locale import language, languages
from ..live.event_docs import event_documents, frame
from ..http.params import WholeQuery

router = APIRouter(prefix="/campaigns")


def _resume_point(last_event_id: str | None, after: str | None) -> int | None:
    from ....numbers import parse_int

    if last_event_id is not None:
        version = parse_int(last_event_id)
        if version is None:
            raise UsageError(msg("Last-Event-ID must be a log version (a whole number), not {last_event_id}",
                                 last_event_id=repr(last_event_id[:40])), "Last-Event-ID")
        return version
    if after is not None:
        version = parse_int(after)
        if version is None:
            raise UsageError(msg("after must be a log version (a whole number), not {after}", after=repr(after[:40])),
                             "after")
        return version
    return None


def _checked_language(request: Request) -> str:
    """The stream's language (the request's: language.py), after refusing a `?lang=` sawbones does not speak."""
    asked = request.query_params.get("lang")
    if asked is not None and asked not in languages():
        raise UsageError(msg("lang must be {languages}, not {asked}", languages=Listed(languages(), "or"), asked=repr(asked)), "lang")
    return language()


@router.get("/{campaign}/events", dependencies=[Language], tags=["campaign state"], response_class=StreamingResponse,
            summary="The campaign's events as Server-Sent Events (resumable with Last-Event-ID)",
            responses={200: {"content": {"text/event-stream": {}},
                             "description": "One `data:` JSON document per action, `id:` its log version."}})
async def events(request: Request, gm: GmAccess = Depends(gm_read),
                 last_event_id: str | None = Header(None, alias="Last-Event-ID", max_length=20),
                 after: int | None = WholeQuery(None, ge=0, description="Start after this log version (default: now).")):
    """Declared here for the schema; the app serves it before its routes (`api_events` below, app.App), and here
    only a cross-origin call (through CORS)."""
    return live.Served(api_events, gm.campaign)


@live.opener("/api/campaigns/{campaign}/events")
async def api_events(request: Request, campaign: str) -> live.Opened:
    gm = GmAccess(web(request), campaign, bearer_of(request.headers.get("authorization")))

    def opening() -> tuple[int, int]:
        with gm.open() as service:  # the secret first: an anonymous client gets nothing read or validated
            cid = service.store.campaign_id(gm.campaign)
            return cid, service.store.head(cid)

    cid, head = await run_in_threadpool(opening)
    reads = _checked_language(request)  # (the hub makes each change's frames once per language)
    resume = _resume_point(request.headers.get("last-event-id"), request.query_params.get("after"))
    start = head if resume is None else resume
    state = gm.state
    hub = live.hub_of(request)
    sub = hub.open(cid, gm.secret or "", live.address_of(request), language=reads)
    last = start

    def read(since: int) -> list[dict[str, Any]]:
        with open_service(state) as service:
            try:
                return event_documents(service, cid, since)
            except SawbonesError:
                return []

    def still() -> bool:
        with open_service(state) as service:
            try:
                check_gm_secret(service.store, gm.campaign, gm.secret or "", state.closed)
            except SawbonesError:
                return False
            return True

    def said(frames: list[tuple[int, bytes]]) -> list[bytes]:
        nonlocal last
        out = []
        for version, message in frames:
            if version > last:
                out.append(message)
                last = version
        return out

    async def catch_up(head: int) -> list[bytes]:
        out: list[bytes] = []
        while last < head:  # a client far behind catches up BATCH events at a time
            docs = await run_in_threadpool(read, last)
            if not docs:
                break
            out += said([(doc["version"], frame(doc)) for doc in docs])
        return out

    async def on_change(change: Any) -> list[bytes]:
        frames = change.frames.get(reads)  # (made once for every stream in this language)
        if frames is not None and change.after <= last:
            out = said(frames)
            return out + await catch_up(change.head)  # (a change longer than a batch)
        return await catch_up(change.head)

    def head_and_read(since: int) -> tuple[int, list[dict[str, Any]]]:
        """The head (read once subscribed: nothing is missed) and the first batch after `since`, in one hop."""
        with open_service(state) as service:
            head = service.store.head(cid)
            try:
                return head, (event_documents(service, cid, since) if since < head else [])
            except SawbonesError:
                return head, []

    try:
        head, docs = await run_in_threadpool(head_and_read, last)
        opened = f"retry: 2000\nid: {start}\n\n" if resume is None else "retry: 2000\n\n"  # (the point it starts at)
        first = [opened.encode()] + said([(doc["version"], frame(doc)) for doc in docs]) + await catch_up(head)
    except BaseException:
        hub.close(sub)
        raise
    return live.Opened(sub, first, on_change, still)
