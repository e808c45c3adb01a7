"""The campaign's log for people: the last events and an undone action in sentences (`log`, `undo`, the
dashboard), and the lines an action prints after its own output (CLI and API)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..domain.engine.evolve import KEYED
from .time_words import describe

if TYPE_CHECKING:
    from ..content.rules import Rules

# the store's own records kept in an action (its idempotency key and first answer): not a sentence of the game,
# left out of every document people read (the log, undo, the feed's and the actions' lines)
BOOKKEEPING = frozenset({KEYED})


def for_people(events: Any) -> list[Any]:
    """`events` (stored rows or event dicts) without the store's bookkeeping."""
    return [e for e in events if (e["type"] if isinstance(e, dict) else e.type) not in BOOKKEEPING]

# sentences.py is imported inside the functions, as views.py did: `sawbones --help` stays light


def log_events(service: Any, campaign_id: int, head: int, limit: int, state: Any,
               rules: "Rules", character: str | None = None) -> list[dict[str, Any]]:
    """The last `limit` stored events (read from the tail, not the whole log), each with its sentence (none for the
    store's bookkeeping: people's views leave those out). `character`: only that character's events among them (a
    player's view keeps no other)."""
    from .sentence_parts import injury_names
    from .sentences import sentence

    start = max(0, head - limit)
    tail = service.store.events(campaign_id, after=start, character=character)
    undone = {action for _, action in service.store.undo_markers(campaign_id, after=start)}  # (an undo before the
    known = injury_names(tail, state)  # tail undid an action before it: the tail's actions are undone after it)
    named = [(str(e.data.get("character")), str(e.data["injury"])) for e in tail
             if e.type != "injury_gained" and isinstance(e.data, dict) and isinstance(e.data.get("injury"), str)]
    if any(key not in known for key in named) and head > limit:  # gone, and gained before the tail: read back
        known = {**injury_names(service.store.events(campaign_id, upto=head - limit, character=character)), **known}
    return [{"version": e.version, "action": e.action, "type": e.type, "data": e.data, "undone": e.action in undone,
             "schema_version": e.schema_version, "content_version": e.content_version,
             "text": "" if e.type in BOOKKEEPING else sentence({"type": e.type, "data": e.data}, state, rules, known)}
            for e in tail]  # (every stored event read, its version for programs; the bookkeeping without a sentence)


def log_doc(service: Any, campaign: str, limit: int) -> dict[str, Any]:
    """`log` (CLI and API): the last events, each with its sentence in the reader's language."""
    loaded = service.load(campaign)
    rules = service.rules_for(loaded.state)
    return {"campaign": loaded.state.name,
            "events": log_events(service, loaded.campaign_id, loaded.head, limit, loaded.state, rules)}


def undo_doc(service: Any, campaign: str, meant: int | None = None) -> dict[str, Any]:
    """`undo` (CLI, API, dashboard): the action reverted and what it had done, in sentences; `meant`, the action
    the caller means (refused when another came last)."""
    from .sentences import sentence

    from .sentence_parts import injury_names

    state, action = service.undo(campaign, action=meant)
    rules = service.rules_for(state)
    cid = service.store.campaign_id(state.name)
    head, window = service.store.head(cid), 64
    while True:  # the undone action is near the end: read back from the tail until it is all there
        tail = service.store.events(cid, after=max(0, head - window))
        if not tail or tail[0].version == 1 or tail[0].action < action:
            break
        window *= 4
    events = for_people(e for e in tail if e.action == action)
    known = injury_names(tail, state)  # (the state after the undo has the injuries the action had taken away)
    return {"undone_action": action, "version": state.version,
            "reverted": [sentence({"type": e.type, "data": e.data}, state, rules, known) for e in events]}


def action_id(text: Any) -> int | None:
    """An action as the log shows it ("a14"; 14 and "14" too), or None when `text` is not one."""
    from ..numbers import parse_int

    if isinstance(text, int) and not isinstance(text, bool):
        return text if 1 <= text <= 2**31 - 1 else None
    if not isinstance(text, str):
        return None
    text = text.strip()
    return parse_int(text[1:] if text[:1] in ("a", "A") else text, 1, 2**31 - 1)


def render_log(doc: dict[str, Any], con: Any) -> None:
    from .sentences import say

    from rich.markup import escape

    for e in doc["events"]:
        if not e["text"]:  # the store's bookkeeping
            continue
        mark = f" [dim]({say('undone')})[/]" if e["undone"] else ""
        text = escape(e["text"]).replace("\n", "\n" + " " * 12)
        con.print(f"{e['version']:>5} a{e['action']:<4} {text}{mark}")


# events an action's own output already tells (its command prints them its way)
QUIET = frozenset({"campaign_created", "campaign_renamed", "option_set", "clock_advanced", "character_added",
                   "character_edited", "character_removed", "wound_received", "wound_first_aid", "wound_recovery",
                   "wound_suppression_ended", "wound_healed", "affliction_contracted", "affliction_changed",
                   "affliction_saved", "affliction_removed", "save_pending", "pending_cleared", "action_undone",
                   "request_keyed"})


def describe_event(event: dict[str, Any], state: Any, rules: "Rules",
                   known: dict[tuple[str, str], str] | None = None) -> str | None:
    """One line for people (sentences.py); None for events the action's own output tells."""
    from .sentences import sentence

    if event["type"] in QUIET or (event["type"] == "injury_changed" and not event["data"].get("note")):
        return None
    return sentence(event, state, rules, known)


def render_events(events: list[dict[str, Any]], state: Any, rules: "Rules", con: Any,
                  known: dict[tuple[str, str], str] | None = None) -> None:
    """The action's events in sentences; `known`: the injuries of the state before it (sentences.injury_names)."""
    from rich.markup import escape
    from .sentence_parts import injury_names

    known = {**(known or {}), **injury_names(events)}
    for event in events:
        line = describe_event(event, state, rules, known)
        if line:
            con.print(escape(line))
    con.print(f"[dim]{describe(state.clock)}[/]")
