"""API: the campaign's events for GM tools (a VTT module, a bot), as Server-Sent Events.

`GET /api/campaigns/{campaign}/events` (GM secret) streams one message per action, undo included:

    id: 14
    data: {"id": 14, "type": "damage_taken", "action": 6, "version": 14, "characters": ["brena"],
           "lines": ["Brena: 30 fire = 30 → 0 HP", ...], "events": [{"type": ..., "data": {...}}, ...]}

`id` is the log version of the action's last event. A client that reconnects with `Last-Event-ID`
(EventSource does it by itself) gets every action after that version, each once; without it, the stream
starts at the current version (`?after=0` replays the whole log). `event_documents` (event_docs.py) builds the
documents from the log alone, so any live layer can send them; an undo's `characters` are those of the
undone action. The stream waits on the process's hub (hub.py): no database work while nothing changes.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse

from ....errors import SawbonesError, UsageError
from ..deps import GmAccess, api_lang, check_gm_secret, gm_access, open_service
from ..event_docs import event_documents

router = APIRouter(prefix="/campaigns")
def _resume_point(last_event_id: str | None, after: int | None) -> int | None:
    if last_event_id is not None:
        if not last_event_id.strip().isdigit():
            raise UsageError(f"Last-Event-ID must be a log version (a whole number), not {last_event_id!r}",
                             "Last-Event-ID")
        return int(last_event_id)
    return after


@router.get("/{campaign}/events", tags=["campaign state"], response_class=StreamingResponse,
            summary="The campaign's events as Server-Sent Events (resumable with Last-Event-ID)",
            responses={200: {"content": {"text/event-stream": {}},
                             "description": "One `data:` JSON document per action, `id:` its log version."}})
async def events(request: Request, gm: GmAccess = Depends(gm_access), lang: str = Depends(api_lang),
                 last_event_id: str | None = Header(None, alias="Last-Event-ID", max_length=20),
                 after: int | None = Query(None, ge=0, description="Start after this log version (default: now).")):
    from ..hub import hub_of
    from ..live import Held, address_of, held

    resume = _resume_point(last_event_id, after)

    def opening() -> tuple[int, int]:
        with gm.open() as service:
            cid = service.store.campaign_id(gm.campaign)
            return cid, (service.store.head(cid) if resume is None else resume)

    cid, start = await run_in_threadpool(opening)
    state = gm.state
    hub = hub_of(request)
    sub = hub.open(cid, gm.secret or "", address_of(request), lang=lang)
    last = start

    def read(since: int) -> list[dict[str, Any]]:
        with open_service(state) as service:
            try:
                return event_documents(service, cid, since, lang)
            except SawbonesError:
                return []

    def still() -> bool:
        with open_service(state) as service:
            try:
                check_gm_secret(service.store, gm.campaign, gm.secret or "")
            except SawbonesError:
                return False
            return True

    def said(docs: list[dict[str, Any]]) -> list[str]:
        nonlocal last
        out = []
        for doc in docs:
            if doc["version"] > last:
                out.append(f"id: {doc['id']}\ndata: {json.dumps(doc, ensure_ascii=False, separators=(',', ':'))}\n\n")
                last = doc["version"]
        return out

    async def catch_up(head: int) -> list[str]:
        out: list[str] = []
        while last < head:  # a client far behind catches up BATCH events at a time
            docs = await run_in_threadpool(read, last)
            if not docs:
                break
            out += said(docs)
        return out

    async def on_change(change: Any) -> list[str]:
        docs = change.docs.get(lang)
        if docs is not None and change.after <= last:
            out = said(docs)
            return out + await catch_up(change.head)  # (a change longer than a batch)
        return await catch_up(change.head)

    first = ["retry: 2000\n\n"] + await catch_up(await run_in_threadpool(_head, state, cid))  # subscribed first
    return Held(held(request, sub, first, on_change, still), hub, sub)


def _head(state: Any, cid: int) -> int:
    with open_service(state) as service:
        return service.store.head(cid)
