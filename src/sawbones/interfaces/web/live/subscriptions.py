"""A stream's subscription to its campaign (hub.py): its bounded mailbox, and the changes it is handed.

`Change`: the campaign moved (with what its streams need to redraw or to decide without a read); `ACCESS`: who
may watch it changed. `Sub.concerned` decides, once per change and stream, whether a page's stream is woken:
a player's page only for what its player may see (audience.py, decided once per change: `Heard`).
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field
from typing import Any

from ..access.access_errors import WebError
from .audience import audience

QUEUE = 64  # messages a stream's mailbox holds: a client that leaves more unread is dropped
ACCESS = "access"  # the message: who may watch the campaign changed
PER_TOKEN, PER_ADDRESS = 8, 256  # streams at once per token, per client address (in a worker)
TOKEN_ENV, ADDRESS_ENV = "SAWBONES_STREAMS_PER_TOKEN", "SAWBONES_STREAMS_PER_ADDRESS"


class TooManyStreams(WebError):
    code = "too_many_requests"
    status = 429
    headers = {"Retry-After": "5"}  # a stream that ends gives its place back


def limit(env: str, default: int) -> int:
    """A cap: $env when it is a whole number above 0, else `default`."""
    from ....numbers import parse_int

    value = parse_int(os.environ.get(env, ""), 1)
    return default if value is None else value


@dataclass(frozen=True)
class Change:
    """The campaign moved from `after` to `head`. `light`: its actions' documents without lines (for the
    audience), None when the hub did not read them (the stream then reads what it needs itself);
    `frames`: per language, each action's Server-Sent Event (its version and its bytes, made once for every
    API stream of that language)."""

    after: int
    head: int
    light: list[dict[str, Any]] | None = None
    frames: dict[str, list[tuple[int, bytes]]] = field(default_factory=dict)


class Heard:
    """Who hears of a change (`audience` of its documents), decided at the first player's stream that asks."""

    __slots__ = ("light", "_who")

    def __init__(self, light: list[dict[str, Any]] | None) -> None:
        self.light, self._who = light, None

    @property
    def who(self) -> tuple[bool, set[str]]:
        if self._who is None:
            self._who = audience(self.light or ())
        return self._who


class Sub:
    """One stream's subscription: a bounded mailbox (a list and the future its stream waits on; lighter
    than an asyncio.Queue, which holds three deques — thousands of streams are held at once), and for a
    page's stream the version it was last brought to (`sent`: the hub moves it on, whether it tells the
    stream or not) and the character its player's page shows."""

    __slots__ = ("cid", "token", "address", "language", "character", "sent", "box", "waiter", "dropped", "closed",
                 "due")

    def __init__(self, cid: int, token: str, address: str, language: str | None = None, character: str | None = None,
                 sent: int | None = None) -> None:
        self.cid, self.token, self.address = cid, token, address
        self.language = language  # the API's events: documents in this language
        self.character = character  # a player's page: the hub decides which changes it hears of
        self.sent = sent  # a page's stream: the version it was last brought to (None: the API's, its own)
        self.box: list[Any] = []  # at most QUEUE messages (a deque weighs ten times an empty list)
        self.waiter: asyncio.Future[None] | None = None
        self.dropped = self.closed = self.due = False

    def put(self, message: Any) -> bool:
        """False when the stream has QUEUE messages unread already (its client does not read)."""
        if len(self.box) >= QUEUE:
            return False
        self.box.append(message)
        self._wake()
        return True

    def end(self) -> None:
        """The stream ends at its next turn (its client left, or does not read): `take` answers None."""
        self.dropped = True
        self._wake()

    def tick(self) -> None:
        """Its timer fired (a keep-alive, or the end of its time): `take` returns, `due` set."""
        self.due = True
        self._wake()

    def _wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    async def take(self) -> list[Any] | None:
        """Every message queued (none when only its timer fired: `due`), or None once the stream is ended."""
        while not self.box and not self.dropped and not self.due:
            self.waiter = asyncio.get_running_loop().create_future()
            try:
                await self.waiter
            finally:
                self.waiter = None
        if self.dropped:
            return None
        box, self.box = self.box, []
        return box

    def concerned(self, change: Change, heard: Heard) -> Change | None:
        """What this stream is handed of `change` (None: nothing, and it is not woken); `heard`: who hears of
        the change (audience.audience), decided once for the change's streams. Moves `sent` on."""
        sent = self.sent
        if sent is None:  # the API's events: every action (the stream keeps its own place)
            return change
        if change.head == sent:
            return None
        self.sent = change.head
        if self.character is None:  # the GM's page: every change
            return change
        if change.light is None or not change.after <= sent < change.head:  # the stream reads what it missed
            return Change(sent, change.head)
        if change.after == sent:
            everyone, characters = heard.who
        else:  # (the stream was brought past the change's start: only what is new to it)
            everyone, characters = audience(d for d in change.light if d["version"] > sent)
        return change if everyone or self.character in characters else None
