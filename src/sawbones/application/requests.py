"""Safe retries and no lost updates: what a client may attach to an action (API headers, CLI options).

- An idempotency key: the same key with the same request within WINDOW seconds gets the first answer
  back and changes nothing; the same key with another request is refused. The key, a digest of the
  request and the first answer are recorded in the action itself (a `request_keyed` event appended
  with the action's own events, in the same transaction): a retry can never apply twice, on any
  backend, even across processes. Undoing the action does not free its key.
- Keys are scoped to who sends them (`sender`: a digest of the GM's secret, of a player's token): a key one
  sender used never answers for another, nor tells them it was used.
- An expected version (the log version the client saw: `If-Match`, `expected_version`, `--expect-version`):
  when the campaign has moved on, the action is refused with the current version, nothing applied.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

from ..frozen import frozen
from ..domain.engine.evolve import KEYED, REQUEST_WINDOW
from ..domain.engine.state import Campaign
from ..errors import ConflictError, UsageError
from ..message import msg

MAX_KEY = 200


@frozen
class Request:
    key: str | None = None  # the client's idempotency key
    digest: str = ""  # what the request was (see digest())
    expected_version: int | None = None  # the campaign's log version the client saw
    sender: str = ""  # who sent the key (sender_of their credential): keys are theirs alone

    @property
    def scoped_key(self) -> str | None:
        """The key as recorded: the sender's and the client's."""
        return None if self.key is None else f"{self.sender}/{self.key}" if self.sender else self.key


class VersionMismatch(ConflictError):
    """The client saw an older version of the campaign: nothing was applied."""

    code = "version_mismatch"

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(msg("the campaign is at version {current}, not {expected}: someone acted meanwhile; nothing was "
                             "applied (reload, then try again if you still mean it)", current=current, expected=expected),
                         "expected_version")
        self.current_version = current


class KeyReused(UsageError):
    code = "idempotency_key_reused"

    def __init__(self, key: str) -> None:
        super().__init__(msg("the Idempotency-Key {key} was already used for another request (within 24 hours): use a new "
                             "key for a new request", key=repr(key)), "Idempotency-Key")


def digest(*parts: Any) -> str:
    """A stable digest of what a request asks (its route and body)."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def sender_of(credential: str | None) -> str:
    """Who sends a request, as its keys are scoped: a digest of their credential (never the credential)."""
    return hashlib.sha256((credential or "").encode()).hexdigest()[:16]


def check_key(key: str | None) -> str | None:
    if key is None:
        return None
    if not 1 <= len(key) <= MAX_KEY or not key.isprintable():
        raise UsageError(msg("an Idempotency-Key has 1 to {most} printable characters", most=MAX_KEY), "Idempotency-Key")
    return key


def check(request: Request | None, state: Campaign, head: int, now: float) -> int | None:
    """Before deciding: the log version of the recorded answer when this is a retry (None: go ahead);
    refuse a reused key or a stale expected version."""
    if request is None:
        return None
    if request.key is not None:
        for key, seen, version, at in state.requests:
            if key == request.scoped_key and at > now - REQUEST_WINDOW:
                if seen != request.digest:
                    raise KeyReused(request.key)
                return version
    if request.expected_version is not None and request.expected_version != head:
        raise VersionMismatch(request.expected_version, head)
    return None


def keyed_event(request: Request | None) -> list[dict[str, Any]]:
    """The event that records the key with the action (nothing without a key); its `answer` is set once known."""
    if request is None or request.key is None:
        return []
    return [{"type": KEYED, "data": {"key": request.scoped_key, "digest": request.digest, "at": round(time.time(), 3),
                                     "answer": None}}]
