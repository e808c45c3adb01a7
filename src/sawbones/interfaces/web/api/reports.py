"""Read models of the web app, built from the presentation's (presentation/views.py, presentation/afflictions.py):
what an action did, in lines for people; the GM dashboard (the player's view is player_view.py)."""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

from ....presentation import log_view, views
from ....presentation.locale import _
from ....presentation.time_words import describe, describe_in

if TYPE_CHECKING:
    from ....content.rules import Rules

TRACK_LINE_EVENTS = ("affliction_saved", "save_pending")


def _tracks():
    try:
        from ....presentation import afflictions as cli_tracks
    except ModuleNotFoundError:  # pragma: no cover - the tracks module not written yet
        return None
    return cli_tracks


def event_lines(events: list[dict[str, Any]], state: Any, rules: Rules,
                quiet: frozenset[str] = frozenset()) -> list[str]:
    """What the events did, one line each for people: every event's sentence (the web has no output of its own
    to tell them, unlike the CLI's commands: log_view.QUIET is theirs), but the store's bookkeeping, `quiet`
    (what the document says its own way) and the saves, told by cli_tracks' summary."""
    from ....presentation.sentence_parts import injury_names
    from ....presentation.sentences import sentence

    known = injury_names(events)  # an injury gained and gone in the same action is named
    tracks = _tracks()
    summed = TRACK_LINE_EVENTS if tracks is not None else ()
    lines: list[str] = []
    for event in log_view.for_people(events):
        if event["type"] not in quiet and event["type"] not in summed:
            lines.extend(line for line in sentence(event, state, rules, known).splitlines() if line)
    saves = [e for e in events if e["type"] in summed]
    if tracks is not None and saves:
        lines.extend(tracks.tracks_summary(saves, state, rules)["lines"])
    return lines


def touched(events: list[dict[str, Any]], state: Any) -> list[Any]:
    ids = {e["data"].get("character") for e in events if isinstance(e.get("data"), dict)}
    return [c for c in state.characters if c.id in ids]


def action_doc(service: Any, state: Any, events: list[dict[str, Any]]) -> dict[str, Any]:
    """What an action did: the CLI's document (events, the characters it touched) and lines for people."""
    rules = service.rules_for(state)
    return {"events": events,
            "characters": [views.character_doc(c, state, rules) for c in touched(events, state)],
            "lines": event_lines(events, state, rules)}


def advance_doc(service: Any, state: Any, events: list[dict[str, Any]]) -> dict[str, Any]:
    """An advance (or an answered save that resumed one): cli_tracks' document when tracks exist."""
    rules = service.rules_for(state)
    tracks = _tracks()
    if tracks is not None:
        doc = tracks.advance_doc(events, state, rules)
    else:  # pragma: no cover
        doc = {"clock": state.clock, "text": describe(state.clock),
               "events": [e for e in events if e["type"] != "clock_advanced"], "pending": []}
    doc["characters"] = [views.character_doc(c, state, rules) for c in touched(events, state)]
    doc["lines"] = event_lines(events, state, rules, quiet=frozenset({"clock_advanced"})) + [
        _("Clock: {clock}", clock=describe(state.clock))]
    return doc


def pending_list(state: Any, rules: Rules) -> list[dict[str, Any]]:
    tracks = _tracks()
    return tracks.pending_doc(state, rules) if tracks is not None else []


# ------------------------------------------------------------------ the dashboard


def next_due(state: Any, rules: Rules, options: dict[str, Any]) -> int | None:
    """When the clock next has something to run (a save, a deadline, a daily loss), or None."""
    from ....domain.engine import timeline

    return timeline.next_due(timeline.AdvanceContext(state, rules, options, None))


def dashboard_doc(service: Any, campaign: str, log_limit: int = 30, loaded: Any = None) -> dict[str, Any]:
    """Everything the GM dashboard shows, as one JSON document (also GET /api/campaigns/{c}/dashboard)."""
    loaded = loaded or service.load(campaign)
    state = loaded.state
    ctx = service.context(loaded)
    rules, options = ctx.rules, ctx.options
    characters = []
    for c in state.characters:
        doc = views.character_doc(c, state, rules)
        doc["conditions"] = views.conditions_of(c, rules, options)
        characters.append(doc)
    due = next_due(state, rules, options)
    log = [{"version": e["version"], "action": e["action"], "type": e["type"], "undone": e["undone"],
            "line": e["text"].replace("\n", " / ")}
           for e in reversed(log_view.log_events(service, loaded.campaign_id, loaded.head, log_limit, state, rules))
           if e["text"]]  # (the store's bookkeeping has no sentence: log_view.BOOKKEEPING)
    return {
        "campaign": views.campaign_doc(state, rules), "head": loaded.head, "clock": state.clock,
        "clock_text": describe(state.clock), "characters": characters,
        "next_due": None if due is None else {"at": due, "text": describe(due),
                                               "in_text": describe_in(max(0, due - state.clock))},
        "pending": pending_list(state, rules), "log": log,
    }
