"""Who makes room when a worker is at its connection cap, and what a stream and a body may hold (nodelay.py).

Every connection makes progress or leaves:
- a request's body keeps coming: BODY_SECONDS after its head, plus one second for every MIN_RATE bytes that
  came (a 1 MB body may take 10 s + 250 s; one byte every few seconds is closed with a 408 after 10 s);
  time the server itself stops reading (the app not yet at the body) does not count;
- live streams (text/event-stream answers) hold at most STREAM_SHARE of the cap: past it a new stream is
  answered 429 with `Retry-After` (`no_room_for_stream`), so streams never take every connection;
- at the cap a new connection is let in by closing, in this order: the oldest connection with no request in
  progress (idle, still in its TLS handshake or its head), else the slowest one still sending its body, else
  the oldest live stream; only when every connection is an answer being computed is the new one closed.
"""

from __future__ import annotations

import os
import resource
import time
from typing import Any, Iterable

from ....message import N_, msg

BODY_SECONDS = 10  # a body's first bytes, like a head's
MIN_RATE = 4096  # bytes a second a body keeps coming at, past its first BODY_SECONDS
STREAM_SHARE = 0.5  # of the connection cap
FILES_MARGIN = 128  # files a worker keeps for itself beyond its connections

TOO_MANY_STREAMS = N_("too many live streams on this server at once (at most {most}): try again in a few seconds")
_connections: set[Any] = set()  # this worker's (uvicorn's own set, shared by its connections)


def connection_cap() -> int:
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 100_000
    return max(16, soft - FILES_MARGIN)


def stream_cap() -> int:
    return max(1, int(connection_cap() * STREAM_SHARE))


def know(connections: set[Any]) -> None:
    global _connections
    _connections = connections


def streams() -> int:
    """Live streams this worker holds open."""
    return sum(1 for c in list(_connections) if getattr(c, "streaming", False))


def body_deadline(started: float, received: int, stalled: float) -> float:
    """When a body begun at `started` must be whole, `received` bytes in, the server having paused its reading
    `stalled` seconds."""
    return started + stalled + body_seconds() + received / MIN_RATE


def body_seconds() -> int:
    from ....numbers import parse_int

    value = parse_int(os.environ.get("SAWBONES_BODY_SECONDS", ""), 1, 3600)
    return BODY_SECONDS if value is None else value


def rate(connection: Any, now: float) -> float:
    return connection.body_received / max(0.001, now - connection.body_started)


def _closing(connection: Any) -> bool:
    transport = getattr(connection, "transport", None)
    return transport is None or transport.is_closing()


def to_close(newcomer: Any, connections: Iterable[Any]) -> Any:
    """The connection to close for `newcomer` (itself when nothing else may go)."""
    others = [c for c in connections if c is not newcomer and not _closing(c)]
    idle = [c for c in others if not getattr(c, "_busy", lambda: True)()]
    if idle:
        return min(idle, key=lambda c: getattr(c, "_opened", 0.0))
    now = time.monotonic()
    sending = [c for c in others if getattr(c, "sending_body", lambda: False)()]
    if sending:
        return min(sending, key=lambda c: rate(c, now))
    live = [c for c in others if getattr(c, "streaming", False)]
    if live:
        return min(live, key=lambda c: getattr(c, "_opened", 0.0))
    return newcomer


def no_room_for_stream(start: dict) -> list[dict]:
    """The answer to a stream past the share, instead of its `start`: 429 in the error shape, its other headers
    (the security headers) kept, the connection closed."""
    import json

    from ....presentation.locale import say
    from .errors import error_body

    body = json.dumps(error_body("too_many_requests", say(msg(TOO_MANY_STREAMS, most=stream_cap())),
                                 "live stream")).encode()
    kept = [(k, v) for k, v in start.get("headers") or [] if k.lower() not in (b"content-type", b"content-length")]
    headers = kept + [(b"content-type", b"application/json"), (b"retry-after", b"5"), (b"connection", b"close"),
                      (b"content-length", str(len(body)).encode())]
    return [{"type": "http.response.start", "status": 429, "headers": headers},
            {"type": "http.response.body", "body": body, "more_body": False}]
