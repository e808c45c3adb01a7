"""Folding a stored log into a state, and the snapshots that cache it (see service.py).

An event whose type this code does not know (a log written by a newer sawbones, or by a content pack
that is not loaded) is named in one line, with the versions it was written with. A stored snapshot is
a cache: one that cannot be read, or whose seal does not match its text, is ignored with a warning
and the state is rebuilt from the log.
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from typing import Any

from ..domain.engine.evolve import UnknownEventType, evolve, passed_over
from ..domain.engine.state import Campaign
from ..errors import StoreError
from ..message import PerAudience, msg

UNDO = "action_undone"


def _apply(state: Campaign, event: Any) -> Campaign:
    try:
        return evolve(state, event.as_event())
    except UnknownEventType:
        fields = {"campaign": repr(state.name), "version": event.version, "type": repr(event.type),
                  "schema": event.schema_version, "rules": event.content_version or "?"}
        raise StoreError(msg("{said}", said=PerAudience(
            cli=msg("campaign {campaign}: event {version} has type {type}, unknown to this sawbones (written with event "
                    "schema {schema}, rules {rules}): a newer sawbones or a content pack that is not loaded wrote it; "
                    "upgrade sawbones or pass the pack with --content. Nothing was written", **fields),
            api=msg("campaign {campaign}: event {version} has type {type}, unknown to this sawbones (written with event "
                    "schema {schema}, rules {rules}): a newer sawbones or a content pack that is not loaded wrote it; the "
                    "server's administrator upgrades sawbones or loads the pack. Nothing was written", **fields)))) from None


def replay(stored: list[Any]) -> tuple[Campaign, tuple[tuple[int, str, bool], ...]]:
    """Fold the whole log, skipping undone actions; also list the actions for the log view."""
    undone = {e.data["action"] for e in stored if e.type == UNDO}
    state = Campaign(name="")
    first_type: dict[int, str] = {}
    for event in stored:
        first_type.setdefault(event.action, event.type)
        skipped = event.type == UNDO or event.action in undone
        state = passed_over(state, event.as_event()) if skipped else _apply(state, event)  # ids never come back
    actions = tuple((a, t, a in undone) for a, t in first_type.items())
    return state, actions


def fold_tail(state: Campaign, tail: list[Any]) -> Campaign:
    """Fold events after a base state; undo markers in the tail revert actions of the tail."""
    undone = {e.data["action"] for e in tail if e.type == UNDO}
    for event in tail:
        skipped = event.type == UNDO or event.action in undone
        state = passed_over(state, event.as_event()) if skipped else _apply(state, event)  # ids never come back
    return state


@lru_cache(maxsize=1)
def code_version() -> str:
    """What folds the log: the domain package's source and the snapshot codec. A change invalidates snapshots."""
    import sawbones

    digest = hashlib.sha256(getattr(sawbones, "__version__", "").encode())
    root = os.path.dirname(os.path.abspath(sawbones.__file__))
    domain = [os.path.relpath(os.path.join(folder, name), root)  # os.path, not pathlib: `status` imports no pathlib
              for folder, _, names in os.walk(os.path.join(root, "domain")) for name in names if name.endswith(".py")]
    for relative in sorted(domain, key=lambda path: path.split(os.sep)) + [os.path.join("adapters", "codec.py")]:
        with open(os.path.join(root, relative), "rb") as handle:
            digest.update(relative.encode() + b"\0" + handle.read())
    return digest.hexdigest()[:16]




def seal(state: Campaign) -> str:
    """A snapshot's stored text: a digest of the encoded state, a newline, the encoded state."""
    from ..adapters.codec import dumps

    text = dumps(state)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest() + "\n" + text


def read_snapshot(store: Any, cid: int, version: int) -> Campaign | None | bool:
    """The state of a stored snapshot; None if there is none; False if it is damaged (warned about)."""
    from ..adapters.codec import loads

    why = ""
    try:
        text = store.snapshot_state(cid, version, code_version())
    except StoreError as exc:
        text, why = None, exc.message
    if text is None and not why:
        return None
    if not why and not isinstance(text, str):  # (SQLite keeps any type in any column)
        why = f"its state is {type(text).__name__}, not text"
    if not why:
        digest, _, body = text.partition("\n")
        if hashlib.blake2b(body.encode("utf-8", "replace"), digest_size=8).hexdigest() != digest:
            why = "its seal does not match its text"
        else:
            try:
                state = loads(body)
            except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
                why = f"it does not decode ({type(exc).__name__})"
            else:
                if isinstance(state, Campaign):
                    return state
                why = "it holds no campaign"
    name = getattr(store, "_name", lambda c: f"#{c}")(cid)
    import logging  # here: a read whose snapshot is sound imports no logging

    logging.getLogger("sawbones").warning("warning: the snapshot of campaign %r at event %s cannot be read (%s); "
                                          "ignored, the state is rebuilt from the log", name, version, why)
    return False
