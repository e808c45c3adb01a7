"""uvicorn's HTTP protocol with TCP_NODELAY on every connection, and bounds on what a connection may hold
(issue 41: a client that sent nothing, or half its headers, kept its connection for ever; 1,100 idle sockets
exhausted a worker's 1,024 files; 100 KB of headers and 2,000 headers were read).

- TCP_NODELAY: with several worker processes uvicorn binds the listening socket itself with protocol 0,
  and asyncio only turns Nagle's algorithm off for sockets whose protocol is TCP: every response then
  waited ~40 ms for the client's delayed ACK. Setting TCP_NODELAY per connection removes that.
- A request's head (its line and headers) must arrive within HEAD_SECONDS of the connection (or of the
  previous answer on a kept-alive one), else the connection is closed; an idle kept-alive connection is
  closed by uvicorn's own `timeout_keep_alive` (5 s).
- At most MAX_HEADERS headers, MAX_HEAD bytes of them, and a target of MAX_TARGET bytes: 431 / 414 beyond,
  and the connection closed.
- A request's body keeps coming (room.py: BODY_SECONDS, then MIN_RATE bytes a second), else 408 and closed.
- With --certfile the TLS handshake is this protocol's own (tls.py): a connection is counted, and under the
  head's deadline, from its first byte, not from the end of a handshake that may never come.
- At most `connection_cap()` connections per worker (its open-file limit less a margin for the database,
  its files and the workers' sockets): past it, room.py chooses the connection closed to make room (an
  idle one, else the slowest body, else the oldest live stream), so a real client always gets in; if every
  connection has an answer being computed, the new one is closed.

uvicorn's own options do not cover these with httptools: `timeout_keep_alive` (kept at its 5 s) only starts
after a first answer, `h11_max_incomplete_event_size` is the h11 parser's alone, and `limit_concurrency`
counts idle connections too, so 1,000 silent sockets would get every real client a 503.
"""

from __future__ import annotations

import json
import os
import socket
import time
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from . import room, tls
from .room import FILES_MARGIN, connection_cap  # noqa: F401  (where they were)

HEAD_ENV = "SAWBONES_HEAD_SECONDS"  # (tests shorten it)
HEAD_SECONDS = 10  # a slow phone on a bad network sends its head in well under a second
MAX_HEADERS = 100  # browsers send about 20
MAX_HEAD = 32 * 1024  # bytes of header names and values (a browser's cookies for this server: a few KB)
MAX_TARGET = 8 * 1024  # bytes of the request target (path and query)


def head_seconds() -> int:
    from ....numbers import parse_int

    value = parse_int(os.environ.get(HEAD_ENV, ""), 1, 3600)
    return HEAD_SECONDS if value is None else value


_STATUS = {408: b"408 Request Timeout", 414: b"414 URI Too Long", 431: b"431 Request Header Fields Too Large"}
_CODES = {408: "request_timeout", 414: "uri_too_long", 431: "too_large"}


class NoDelayHTTPProtocol(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
    _head_timer: Any = None
    _refused = False
    _opened = 0.0
    _head_bytes = 0
    _header_count = 0
    _target_bytes = 0
    _body_timer: Any = None
    body_started = 0.0
    body_received = 0
    _body_open = False
    _answering = False
    _stalled = 0.0
    streaming = False
    _handshaking = False

    def connection_made(self, transport: Any) -> None:
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError:
                pass
        if self._handshaking:  # (tls.py: the handshake is done, this is the secured transport)
            self._handshaking = False
            super().connection_made(transport)
            return
        self._opened = time.monotonic()
        room.know(self.connections)
        context = tls.context()
        if context is not None:  # counted, and under the head's deadline, while its handshake goes on
            self.connections.add(self)
            self.transport = transport
            self._handshaking = True
            self._arm()
            tls.handshake(self, transport, context, head_seconds())
        else:
            super().connection_made(transport)
            self._arm()
        if len(self.connections) > connection_cap():
            self._make_room()

    def handshake_failed(self) -> None:
        """The TLS handshake did not end (tls.py): the connection is gone, uncounted."""
        if self._handshaking:
            self._handshaking = False
            self._disarm()
            self.connections.discard(self)

    # ------------------------------------------------------------ the head's deadline
    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(head_seconds(), self._too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _too_slow(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_bytes = self._header_count = self._target_bytes = 0
        if self._head_timer is None:
            self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        before = self.cycle
        super().on_headers_complete()
        if self.cycle is not before and self.cycle is not None:
            self._watch(self.cycle)
            self._body_open, self._answering = True, False
            self.body_started, self.body_received, self._stalled = time.monotonic(), 0, 0.0
            self._body_timer = self.loop.call_later(room.body_seconds(), self._body_due)

    def on_body(self, body: bytes) -> None:
        self.body_received += len(body)
        super().on_body(body)

    def on_message_complete(self) -> None:
        self._body_done()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        self._body_done()
        self.streaming = False
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._body_done()
        super().connection_lost(exc)

    # ------------------------------------------------------------ the body's deadline
    def sending_body(self) -> bool:
        """Still sending its body, nothing answered yet (room.py: evictable, the slowest first)."""
        return self._body_open and not self._answering

    def _body_done(self) -> None:
        self._body_open = False
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _body_due(self) -> None:
        self._body_timer = None
        if not self._body_open or self.transport.is_closing():
            return
        now = time.monotonic()
        if self.flow.read_paused:  # the server is not reading it yet: the client is not late
            self._stalled += 1.0
            self._body_timer = self.loop.call_later(1.0, self._body_due)
            return
        due = room.body_deadline(self.body_started, self.body_received, self._stalled)
        if now < due:
            self._body_timer = self.loop.call_later(due - now, self._body_due)
            return
        self._body_open = False
        if self._answering:
            self.transport.close()
        else:
            self._write_error(408, "the request's body came too slowly", "request body")

    def _watch(self, cycle: Any) -> None:
        """Know when the answer starts (a body still coming is no longer evictable), and whether it is a stream."""
        send = cycle.send

        refused = False

        async def watched(message: dict) -> None:
            nonlocal refused
            if refused:
                return  # (the stream refused: it ends when it hears its client gone)
            if message["type"] == "http.response.start":
                self._answering = True
                kind = dict(message.get("headers") or []).get(b"content-type", b"")
                if kind.startswith(b"text/event-stream") and room.streams() >= room.stream_cap():
                    refused = True
                    for part in room.no_room_for_stream(message):
                        await send(part)
                    return
                self.streaming = kind.startswith(b"text/event-stream")
            await send(message)

        cycle.send = watched

    # ------------------------------------------------------------ the head's size
    def on_url(self, url: bytes) -> None:
        self._target_bytes += len(url)
        if self._target_bytes > MAX_TARGET:
            self._refuse(414, "the request target is too long")
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        self._head_bytes += len(name) + len(value)
        if self._header_count > MAX_HEADERS or self._head_bytes > MAX_HEAD:
            self._refuse(431, f"at most {MAX_HEADERS} headers of {MAX_HEAD // 1024} KB in all")
        super().on_header(name, value)

    def _refuse(self, status: int, message: str) -> None:
        """Answer the status (the one JSON error shape), close, and stop the parser (it raises through it)."""
        if not self._refused:
            self._write_error(status, message, "request head")
        raise ValueError(message)

    def _write_error(self, status: int, message: str, where: str) -> None:
        self._refused = True
        body = json.dumps({"error": {"code": _CODES[status], "message": message, "where": where}}).encode()
        self.transport.write(b"HTTP/1.1 " + _STATUS[status] + b"\r\ncontent-type: application/json\r\n"
                             b"content-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n"
                             + body)
        self.transport.close()

    def send_400_response(self, msg: str) -> None:
        if not self._refused:  # (the parser's error after a refusal: already answered)
            super().send_400_response(msg)

    # ------------------------------------------------------------ the number of connections
    def _busy(self) -> bool:
        cycle = self.cycle
        return cycle is not None and not cycle.response_complete

    def _make_room(self) -> None:
        room.to_close(self, self.connections).transport.close()
