"""API: the campaign's events for GM tools (a VTT module, a bot), as Server-Sent Events.

`GET /api/campaigns/{campaign}/events` (GM secret) streams one message per action, undo included:

    id: 14
    data: {"id": 14, "type": "damage_taken", "action": 6, "version": 14, "characters": ["brena"],
           "lines": ["Brena: 30 fire = 30 → 0 HP", ...], "events": [{"type": ..., "data": {...}}, ...]}

`id` is the log version of the action's last event. A client that reconnects with `Last-Event-ID`
(EventSource does it by itself) gets every action after that version, each once; without it, the stream
starts at the current version (`?after=0` replays the whole log). `event_documents` builds the
documents from the log alone, so any live layer can send them.
"""

from __future__ import annotations

import asyncio
import json
import time
from itertools import groupby
from typing import Any, AsyncIterator

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse

from ....domain.engine.evolve import KEYED
from ....errors import SawbonesError, UsageError
from ..deps import GmAccess, api_lang, gm_access, open_service
from ...sentences import sentence
from ..reports import event_lines, touched

router = APIRouter(prefix="/campaigns")
UNDO = "action_undone"
KEEP_ALIVE = 15.0
BATCH = 500  # events read per poll at most: a client far behind catches up over several polls


def event_documents(service: Any, campaign_id: int, after: int, lang: str, limit: int = BATCH) -> list[dict[str, Any]]:
    """One document per whole action stored after log version `after` (the lines use the current state)."""
    rows = [e for e in service.store.events(campaign_id, after=after)]
    if len(rows) > limit:  # stop at an action boundary
        cut = rows[limit - 1].action
        rows = [e for e in rows if e.action <= cut]
    state = service.load_id(campaign_id).state if rows else None
    rules = service.rules_for(state) if rows else None
    docs = []
    for action, group in groupby(rows, key=lambda e: e.action):
        stored = list(group)
        events = [e.as_event() for e in stored if e.type != KEYED]
        first = events[0] if events else stored[0].as_event()
        lines = event_lines(events, state, rules, lang) if first["type"] != UNDO else []
        if not lines:
            lines = [sentence(e.as_event(), state, rules, lang) for e in stored if e.type != KEYED]
        characters = {c.id for c in touched(events, state)}
        characters |= {e["data"]["id"] for e in events if e["type"].startswith("character_") and "id" in e["data"]}
        doc = {"id": stored[-1].version, "type": first["type"], "action": action, "version": stored[-1].version,
               "characters": sorted(characters), "lines": lines, "events": events}
        if first["type"] == UNDO:
            doc["undone_action"] = first["data"]["action"]
        docs.append(doc)
    return docs


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
def events(request: Request, gm: GmAccess = Depends(gm_access), lang: str = Depends(api_lang),
           last_event_id: str | None = Header(None, alias="Last-Event-ID", max_length=20),
           after: int | None = Query(None, ge=0, description="Start after this log version (default: now).")):
    resume = _resume_point(last_event_id, after)
    with gm.open() as service:
        cid = service.store.campaign_id(gm.campaign)
        start = service.store.head(cid) if resume is None else resume
    state = gm.state

    def poll(since: int) -> tuple[int, list[dict[str, Any]]]:
        with open_service(state) as service:
            try:
                if service.store.head(cid) <= since:
                    return since, []
                docs = event_documents(service, cid, since, lang)
            except SawbonesError:
                return since, []
            return (docs[-1]["version"] if docs else since), docs

    async def stream() -> AsyncIterator[str]:
        last = start
        yield "retry: 2000\n\n"
        started = beat = time.monotonic()
        first = True
        while time.monotonic() - started < state.stream_seconds:
            if not first:
                await asyncio.sleep(state.poll_interval)
            first = False
            if await request.is_disconnected():
                break
            last, docs = await run_in_threadpool(poll, last)
            for doc in docs:
                yield f"id: {doc['id']}\ndata: {json.dumps(doc, ensure_ascii=False, separators=(',', ':'))}\n\n"
                beat = time.monotonic()
            if time.monotonic() - beat > KEEP_ALIVE:
                beat = time.monotonic()
                yield ": keep-alive\n\n"

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
