"""The campaign's events as documents, one per whole action, built from the log alone: what the GM and API
streams send (`event_documents`, with lines; `frame`: one as a Server-Sent Event) and what the live layer
filters per audience (`light_documents`). The events route (api/events.py) and the hub (hub.py) both read them
here."""

from __future__ import annotations

import json
from itertools import groupby
from typing import Any

from ....presentation import log_view
from ....presentation.locale import speaking
from ....presentation.sentences import sentence
from ..api.reports import event_lines, touched

UNDO = "action_undone"
BATCH = 500  # events read per poll at most: a client far behind catches up over several polls


def _undone_characters(store: Any, campaign_id: int, action: int, rows: list[Any]) -> set[str]:
    """The characters the undone action touched (read from the log when it is not in this batch)."""
    events = [e for e in rows if e.action == action] or [
        e for e in store.events(campaign_id, after=0, upcast=False) if e.action == action]
    return {c for e in events for c in _ids(e.as_event())}


def _ids(event: dict[str, Any]) -> set[str]:
    data = event.get("data")
    if not isinstance(data, dict):
        return set()
    ids = {data["character"]} if isinstance(data.get("character"), str) else set()
    if event["type"].startswith("character_") and isinstance(data.get("id"), str):
        ids.add(data["id"])
    return ids


def light_documents(store: Any, campaign_id: int, after: int, upto: int | None = None,
                    rows: list[Any] | None = None) -> list[dict[str, Any]]:
    """The documents of `event_documents` without lines, read from the log alone (the live layer's audience):
    `characters` holds every character id the action's events name (for an undo, the undone action's).
    `rows`: the stored events after `after`, when the caller has them (a write of this process)."""
    if rows is None:
        rows = list(store.events(campaign_id, after=after, upto=upto))
    return _documents(store, campaign_id, rows)


def _documents(store: Any, campaign_id: int, rows: list[Any]) -> list[dict[str, Any]]:
    docs = []
    for action, group in groupby(rows, key=lambda e: e.action):
        stored = list(group)
        events = [e.as_event() for e in log_view.for_people(stored)]
        first = events[0] if events else stored[0].as_event()
        characters = {c for e in events for c in _ids(e)}
        doc = {"id": stored[-1].version, "type": first["type"], "action": action, "version": stored[-1].version,
               "characters": characters, "events": events}
        if first["type"] == UNDO:
            doc["undone_action"] = first["data"]["action"]
            doc["characters"] = _undone_characters(store, campaign_id, int(first["data"]["action"]), rows)
        docs.append(doc)
    return docs


def event_documents(service: Any, campaign_id: int, after: int, limit: int = BATCH,
                    upto: int | None = None, rows: list[Any] | None = None) -> list[dict[str, Any]]:
    """One document per whole action stored after log version `after` (up to `upto`; the lines use the
    current state), in the reader's language. `rows`: those stored events, when the caller has them."""
    if rows is None:
        rows = list(service.store.events(campaign_id, after=after, upto=upto))
    if len(rows) > limit:  # stop at an action boundary
        cut = rows[limit - 1].action
        rows = [e for e in rows if e.action <= cut]
    state = service.load_id(campaign_id).state if rows else None
    rules = service.rules_for(state) if rows else None
    docs = []
    for doc in _documents(service.store, campaign_id, rows):
        events = doc["events"]
        lines = event_lines(events, state, rules) if doc["type"] != UNDO else []
        if not lines:
            lines = [sentence(e, state, rules) for e in log_view.for_people(events)]
        known = {c.id for c in touched(events, state)} | {
            e["data"]["id"] for e in events if e["type"].startswith("character_") and "id" in e["data"]}
        if doc["type"] == UNDO:
            known |= doc["characters"]
        docs.append({**doc, "characters": sorted(known), "lines": lines})
    return docs


def frames_in(languages: list[str], service: Any, campaign_id: int, after: int, **given: Any) -> dict[str, Any]:
    """Per language, the API stream's frames of the actions after `after` (made once for all the streams that
    read that language: hub.py)."""
    frames = {}
    for code in languages:
        with speaking(code):
            frames[code] = [(doc["version"], frame(doc)) for doc in event_documents(service, campaign_id, after, **given)]
    return frames


def frame(doc: dict[str, Any]) -> bytes:
    """An `event_documents` document as the API stream's message: `id:` its version, `data:` it in JSON."""
    return f"id: {doc['id']}\ndata: {json.dumps(doc, ensure_ascii=False, separators=(',', ':'))}\n\n".encode()
