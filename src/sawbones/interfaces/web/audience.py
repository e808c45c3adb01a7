"""Who may hear of a change: the one decision the live layer asks before telling a player's page.

The GM's streams (the dashboard, the API's events) hear of every action. A player's page shows one
character (its hit points, injuries, wounds, afflictions and conditions, without the GM's secrets) and
the campaign's clock and name: its stream says `change` only for an action that alters that.
"""

from __future__ import annotations

from typing import Any

# Events that never alter what a player's page shows, even about their own character: the GM's notes of a
# moment (rest results, the end of a combat), idempotency keys. An action made only of these is the GM's
# business. A roll waiting for a die is the player's only when it waits for the player's (`to: player`):
# their page shows its prompt; one that waits for the GM's die is the GM's business too.
GM_ONLY = frozenset({"noted", "request_keyed"})
PENDING = "save_pending"
# Events that alter every player's page of the campaign: its clock, its name, its options and content packs.
EVERYONE = frozenset({"clock_advanced", "campaign_renamed", "option_set", "content_packs_set"})


def player_sees(document: dict[str, Any], character_id: str) -> bool:
    """Whether the player of `character_id` hears of the action `document` (api_events.event_documents's
    document: `events` of one action, `characters` it touched — for an undo, those of the undone action).

    True when one of its events that a player may see touches that character, or alters every player's
    page; False for another character's change and for the GM's own business (GM_ONLY). Secrets kept per
    affliction, or saves a player rolls, extend this function (issue 12a), never the streams."""
    visible = [e for e in document.get("events", ()) if e.get("type") not in GM_ONLY and not _gms_die(e)]
    if not visible:
        return False
    if any(e.get("type") in EVERYONE for e in visible):
        return True
    if document.get("type") == "action_undone":
        return character_id in document.get("characters", ())
    return any(_touches(e, character_id) for e in visible)


def _gms_die(event: dict[str, Any]) -> bool:
    """A roll queued for the GM's die (the player's page shows no prompt for it)."""
    data = event.get("data")
    return event.get("type") == PENDING and not (isinstance(data, dict) and data.get("to") == "player")


def _touches(event: dict[str, Any], character_id: str) -> bool:
    data = event.get("data")
    if not isinstance(data, dict):
        return False
    if data.get("character") == character_id:
        return True
    return event.get("type", "").startswith("character_") and data.get("id") == character_id
