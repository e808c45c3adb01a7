"""Who may hear of a change: the one decision the live layer asks before telling a player's page.

The GM's streams (the dashboard, the API's events) hear of every action. A player's page shows one
character (its hit points, injuries, wounds, afflictions and conditions, without the GM's secrets) and
the campaign's clock and name: its stream says `change` only for an action that alters that.
"""

from __future__ import annotations

from typing import Any, Iterable

# Events that never alter what a player's page shows, even about their own character: the GM's notes of a
# moment (rest results, the end of a combat), idempotency keys. An action made only of these is the GM's
# business. A roll waiting for a die is the player's only when it waits for the player's (`to: player`):
# their page shows its prompt; one that waits for the GM's die is the GM's business too.
GM_ONLY = frozenset({"noted", "request_keyed"})
PENDING = "save_pending"
# Events that alter every player's page of the campaign: its clock, its name, its options and content packs.
EVERYONE = frozenset({"clock_advanced", "campaign_renamed", "option_set", "content_packs_set"})


def audience(documents: Iterable[dict[str, Any]]) -> tuple[bool, set[str]]:
    """Whose players hear of the actions `documents` (event_docs' documents: `events` of one action,
    `characters` it touched — for an undo, those of the undone action): (every player of the campaign, the
    characters whose players do). Decided once per change for all of its streams (hub.py).

    A player hears of an action when one of its events that a player may see touches their character, or
    alters every player's page; not of another character's change nor of the GM's own business (GM_ONLY).
    Secrets kept per affliction, or saves a player rolls, extend this function (issue 12a), never the
    streams."""
    characters: set[str] = set()
    for document in documents:
        visible = [e for e in document.get("events", ()) if e.get("type") not in GM_ONLY and not _gms_die(e)]
        if not visible:
            continue
        if any(e.get("type") in EVERYONE for e in visible):
            return True, set()
        if document.get("type") == "action_undone":
            characters.update(document.get("characters", ()))
        else:
            characters.update(c for e in visible for c in _touched(e))
    return False, characters


def player_sees(document: dict[str, Any], character_id: str) -> bool:
    """Whether the player of `character_id` hears of the action `document` (`audience` of that one action)."""
    everyone, characters = audience((document,))
    return everyone or character_id in characters


def _gms_die(event: dict[str, Any]) -> bool:
    """A roll queued for the GM's die (the player's page shows no prompt for it)."""
    data = event.get("data")
    return event.get("type") == PENDING and not (isinstance(data, dict) and data.get("to") == "player")


def _touched(event: dict[str, Any]) -> list[str]:
    """The characters an event touches: its `character`, or the one a `character_*` event is about."""
    data = event.get("data")
    if not isinstance(data, dict):
        return []
    out = [data["character"]] if isinstance(data.get("character"), str) else []
    if event.get("type", "").startswith("character_") and isinstance(data.get("id"), str):
        out.append(data["id"])
    return out
