"""Read models of the web app, built from the CLI's (views.py, cli_tracks.py): what an action did, in
lines for people; the GM dashboard; what a player may know of their character."""

from __future__ import annotations

from typing import Any

from .. import log_view, views
from ...domain.engine.clock import describe, describe_in

TRACK_LINE_EVENTS = ("affliction_saved", "save_pending")


def _tracks():
    try:
        from ..cli import afflictions as cli_tracks
    except ModuleNotFoundError:  # pragma: no cover - the tracks module not written yet
        return None
    return cli_tracks


def event_lines(events: list[dict[str, Any]], state: Any, rules: Any, lang: str) -> list[str]:
    """One line per event that means something to people (log_view.describe_event, cli_tracks' summary)."""
    lines: list[str] = []
    for event in events:
        line = log_view.describe_event(event, state, rules, lang)
        if line:
            lines.extend(line.splitlines())
    tracks = _tracks()
    saves = [e for e in events if e["type"] in TRACK_LINE_EVENTS]
    if tracks is not None and saves:
        lines.extend(tracks.tracks_summary(saves, state, rules, lang)["lines"])
    return lines


def touched(events: list[dict[str, Any]], state: Any) -> list[Any]:
    ids = {e["data"].get("character") for e in events if isinstance(e.get("data"), dict)}
    return [c for c in state.characters if c.id in ids]


def action_doc(service: Any, state: Any, events: list[dict[str, Any]], lang: str) -> dict[str, Any]:
    """What an action did: the CLI's document (events, the characters it touched) and lines for people."""
    rules = service.rules_for(state)
    return {"events": events,
            "characters": [views.character_doc(c, state, rules, lang) for c in touched(events, state)],
            "lines": event_lines(events, state, rules, lang)}


def advance_doc(service: Any, state: Any, events: list[dict[str, Any]], lang: str) -> dict[str, Any]:
    """An advance (or an answered save that resumed one): cli_tracks' document when tracks exist."""
    rules = service.rules_for(state)
    tracks = _tracks()
    if tracks is not None:
        doc = tracks.advance_doc(events, state, rules, lang)
    else:  # pragma: no cover
        doc = {"clock": state.clock, "text": describe(state.clock, lang),
               "events": [e for e in events if e["type"] != "clock_advanced"], "pending": []}
    doc["characters"] = [views.character_doc(c, state, rules, lang) for c in touched(events, state)]
    doc["lines"] = event_lines(events, state, rules, lang) + [
        ("Horloge : " if lang == "fr" else "Clock: ") + describe(state.clock, lang)]
    return doc


def pending_list(state: Any, rules: Any, lang: str) -> list[dict[str, Any]]:
    tracks = _tracks()
    return tracks.pending_doc(state, rules, lang) if tracks is not None else []


# ------------------------------------------------------------------ the dashboard


def next_due(state: Any, rules: Any, options: dict[str, Any]) -> int | None:
    """When the clock next has something to run (a save, a deadline, a daily loss), or None."""
    from ...domain.engine import timeline

    return timeline.next_due(timeline.AdvanceContext(state, rules, options, None))


def dashboard_doc(service: Any, campaign: str, lang: str, log_limit: int = 30, loaded: Any = None) -> dict[str, Any]:
    """Everything the GM dashboard shows, as one JSON document (also GET /api/campaigns/{c}/dashboard)."""
    loaded = loaded or service.load(campaign)
    state = loaded.state
    ctx = service.context(loaded)
    rules, options = ctx.rules, ctx.options
    characters = []
    for c in state.characters:
        doc = views.character_doc(c, state, rules, lang)
        doc["conditions"] = views.conditions_of(c, rules, options, lang)
        characters.append(doc)
    due = next_due(state, rules, options)
    log = [{"version": e["version"], "action": e["action"], "type": e["type"], "undone": e["undone"],
            "line": e["text"].replace("\n", " / ")}
           for e in reversed(log_view.log_events(service, loaded.campaign_id, loaded.head, log_limit, state, rules, lang))]
    return {
        "campaign": views.campaign_doc(state, rules), "head": loaded.head, "clock": state.clock,
        "clock_text": describe(state.clock, lang), "characters": characters,
        "next_due": None if due is None else {"at": due, "text": describe(due, lang),
                                               "in_text": describe_in(max(0, due - state.clock), lang)},
        "pending": pending_list(state, rules, lang), "log": log,
    }


# ------------------------------------------------------------------ the player's view

SECRET_KEYS = frozenset({"rolls", "d20", "deadline_at", "deadline_in", "seed", "notes", "next_save", "remaining",
                         "failures", "pending", "onset_stages", "hidden", "secret"})
PLAYER_FIELDS = ("id", "name", "hp", "max_hp", "dead", "stable", "hit_dice", "hit_dice_max", "hit_die", "body",
                 "injuries", "wounds", "afflictions", "conditions")


DEADLINE_KEYS = frozenset({"deadline_at", "deadline_in"})  # shown to the player with the option reveal_deadline


def _scrub(value: Any, hidden: frozenset = SECRET_KEYS) -> Any:
    if isinstance(value, dict):
        return {k: _scrub(v, hidden) for k, v in value.items() if k not in hidden}
    if isinstance(value, list):
        return [_scrub(v, hidden) for v in value]
    return value


def player_doc(service: Any, campaign: str, character_id: str, lang: str) -> dict[str, Any] | None:
    """What the player may know: no secret deadlines, no hidden rolls, no GM notes, no save schedule."""
    loaded = service.load(campaign)
    state = loaded.state
    character = next((c for c in state.characters if c.id == character_id), None)
    if character is None:
        return None
    ctx = service.context(loaded)
    doc = views.character_doc(character, state, ctx.rules, lang)
    doc["conditions"] = views.conditions_of(character, ctx.rules, ctx.options, lang)
    hidden = SECRET_KEYS - DEADLINE_KEYS if ctx.options.get("reveal_deadline") else SECRET_KEYS
    player = {key: _scrub(doc[key], hidden) for key in PLAYER_FIELDS if key in doc}
    return {"campaign": state.name, "clock": state.clock, "clock_text": describe(state.clock, lang),
            "head": loaded.head, "character": player}
