"""Player links (a stored, revocable token per character *instance*) and the server-side flash.

A player token's record (`player_token:{token}` in the store's meta table) names the campaign (and its
id), the character's id and the version (and action) of the log when it was made. The link shows the
character while it is that same character: a non-undone `character_added` or `character_removed` of its
id after that version means it was removed (and maybe another took its id), and so does an undo that
reaches back to an older add or removal; then the link is dead. The GM
renews (a new token, the old one dead) or revokes it from the dashboard or the API; a new API secret
changes nothing here. `player_of:#{campaign id}\x1f{character}` holds the character's current token (keyed on
the campaign's id, as a token's record is: `campaign rename` keeps every link).

Flash messages (what an action did, after a redirect) wait in `flash:{session id}`, the row deleted once read;
a closed server keeps none for a browser that is neither a GM nor its admin (security.Session.keep_flash: a
short message rides in the signed cookie instead).
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from ....errors import NotFound
from .security import _record, by_id, require_campaign, well_formed

PLAYER_TOKEN = "player_token:{token}"
PLAYER_OF = "player_of:{campaign}\x1f{character}"
FLASH = "flash:{sid}"
INSTANCE_EVENTS = ("character_added", "character_removed")
UNDO = "action_undone"
CHECKPOINT = 100  # events read past a token before its record moves forward (one small write)


def _same_character(store: Any, record: dict[str, Any]) -> bool:
    """No action after the token (not undone) added or removed its character's id, and no undo after it reached
    back to an add or a removal older than the token (which could bring back another character of that id)."""
    cid, character = record["cid"], record["character"]
    events = store.events(cid, after=int(record.get("since", 0)), upcast=False)
    undone = {int(e.data["action"]) for e in events if e.type == UNDO}
    if undone:
        undone |= {action for _, action in store.undo_markers(cid)}
    for event in events:
        if event.type in INSTANCE_EVENTS and event.action not in undone and event.data.get("id") == character:
            return False
    older = {action for action in undone if action <= int(record.get("action", 0))}
    if older and any(kind in INSTANCE_EVENTS for action, kind in store.actions(cid) if action in older):
        return False
    if len(events) > CHECKPOINT:  # the next check starts here (sound: nothing above changed the character)
        record.update(since=events[-1].version, action=events[-1].action)
        store.set_meta(PLAYER_TOKEN.format(token=record["token"]), json.dumps(record))
    return True


def _live(store: Any, record: dict[str, Any] | None, state: Any) -> bool:
    """The token's character is still the one it was made for (and the token is not revoked)."""
    if record is None or record.get("revoked") or state.character(record.get("character", "")) is None:
        return False
    return _same_character(store, record)


def may_end_links(documents: list[dict[str, Any]]) -> bool:
    """Whether these actions (event_docs' documents) may end a player link by themselves: only an add or a
    removal of a character, or an undo, can (`_same_character`); a revocation is a change of access."""
    return any(doc.get("type") == UNDO or any(e.get("type") in INSTANCE_EVENTS for e in doc.get("events", ()))
               for doc in documents)


def player_token(store: Any, campaign: str, state: Any, character_id: str) -> str:
    """The character's current player token, made when it has none that still shows it. Two pages drawn at once
    (the dashboard and its live cards, two workers) make one token between them: the one whose token is stored
    first wins, the other shows that one (a token shown to the GM never stops working at once)."""
    key, current = _current(store, campaign, character_id)
    if current and _live(store, _record(store, PLAYER_TOKEN.format(token=current)), state):
        return current
    primary = PLAYER_OF.format(campaign=by_id(store, campaign), character=character_id)
    seen = current if key == primary else store.get_meta(primary)
    token = _new_token(store, campaign, character_id)
    if not store.swap_meta(primary, seen, token):  # another page made one meanwhile: that one
        store.set_meta(PLAYER_TOKEN.format(token=token), None)
        return _current(store, campaign, character_id)[1] or player_token(store, campaign, state, character_id)
    if current:
        _revoked(store, current, key if key != primary else None)
    return token


def _current(store: Any, campaign: str, character_id: str) -> tuple[str, str | None]:
    """(the key, the character's current token): under the campaign's id, else under its name (older)."""
    key = PLAYER_OF.format(campaign=by_id(store, campaign), character=character_id)
    current = store.get_meta(key)
    if current is None:
        older = PLAYER_OF.format(campaign=campaign, character=character_id)
        current = store.get_meta(older)
        if current is not None:
            return older, current
    return key, current


def renew_player_token(store: Any, campaign: str, state: Any, character_id: str) -> str:
    """A new token for the character; its previous one stops working."""
    revoke_player_token(store, campaign, character_id)
    token = _new_token(store, campaign, character_id)
    store.set_meta(PLAYER_OF.format(campaign=by_id(store, campaign), character=character_id), token)
    return token


def _new_token(store: Any, campaign: str, character_id: str) -> str:
    """A new token's record (what it shows, from which version of the log on); not yet the character's link."""
    cid = require_campaign(store, campaign)
    token = secrets.token_urlsafe(18)
    head = store.head(cid)
    last = store.events(cid, after=head - 1, upcast=False) if head else []
    record = {"token": token, "campaign": campaign, "cid": cid, "character": character_id, "since": head,
              "action": last[-1].action if last else 0}
    store.set_meta(PLAYER_TOKEN.format(token=token), json.dumps(record))
    return token


def revoke_player_token(store: Any, campaign: str, character_id: str) -> bool:
    """The character's player link stops working (until a new one is made). False: it had none."""
    key, current = _current(store, campaign, character_id)
    if not current:
        return False
    record = _revoked(store, current, key)
    return record is not None and not record.get("revoked")


def _revoked(store: Any, token: str, key: str | None) -> dict[str, Any] | None:
    """Mark the token revoked (its open streams end) and empty `key`, the link that held it; its record before."""
    record = _record(store, PLAYER_TOKEN.format(token=token))
    if record is not None:
        store.set_meta(PLAYER_TOKEN.format(token=token), json.dumps({**record, "revoked": True}))
    if key is not None:
        store.set_meta(key, "")
    if record is not None and isinstance(record.get("cid"), int):
        from ....adapters.notify import access_changed

        access_changed(store, record["cid"])  # its open streams end
    return record


def player_target(service: Any, token: str) -> tuple[str, str] | None:
    """(campaign, character id) the token shows now, or None (unknown, revoked, or its character is gone)."""
    if not well_formed(token):
        return None
    store = service.store
    record = _record(store, PLAYER_TOKEN.format(token=token))
    if record is None or not isinstance(record.get("cid"), int) or record.get("revoked"):
        return None
    campaign = _named(store, str(record.get("campaign")), record["cid"])
    if campaign is None:
        return None
    if not _live(store, record, service.load(campaign).state):
        return None
    return campaign, record["character"]


def _named(store: Any, name: str, cid: int) -> str | None:
    """The campaign of id `cid` by its name now (`campaign rename` keeps its links), None when it is gone."""
    try:
        if store.campaign_id(name) == cid:
            return name
    except NotFound:
        pass
    for other in store.campaign_names():  # renamed since the token was made
        if store.campaign_id(other) == cid:
            return other
    return None


# ------------------------------------------------------------------ flash messages


def put_flash(store: Any, sid: str, flash: dict[str, Any]) -> None:
    store.set_meta(FLASH.format(sid=sid), json.dumps(flash))


def take_flash(store: Any, sid: str) -> dict[str, Any] | None:
    key = FLASH.format(sid=sid)
    flash = _record(store, key)
    store.set_meta(key, None)  # (the row is deleted)
    return flash
