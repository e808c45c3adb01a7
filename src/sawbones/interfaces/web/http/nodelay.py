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
- At most `connection_cap()` connections per worker (its open-file limit less a margin for the database,
  its files and the workers' sockets): past it, the oldest connection with no request in progress (an
  idle one, one still sending its head) is closed to make room, so a real client always gets in; if every
  connection has a request in progress, the new one is closed.

uvicorn's own options do not cover these with httptools: `timeout_keep_alive` (kept at its 5 s) only starts
after a first answer, `h11_max_incomplete_event_size` is the h11 parser's alone, and `limit_concurrency`
counts idle connections too, so 1,000 silent sockets would get every real client a 503.
"""

from __future__ import annotations

import os
import resource
import socket
import time
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

HEAD_ENV = "SAWBONES_HEAD_SECONDS"  # (tests shorten it)
HEAD_SECONDS = 10  # a slow phone on a bad network sends its head in well under a second
MAX_HEADERS = 100  # browsers send about 20
MAX_HEAD = 32 * 1024  # bytes of header names and values (a browser's cookies for this server: a few KB)
MAX_TARGET = 8 * 1024  # bytes of the request target (path and query)
FILES_MARGIN = 128  # files a worker keeps for itself beyond its connections


def head_seconds() -> int:
    from ....numbers import parse_int

    value = parse_int(os.environ.get(HEAD_ENV, ""), 1, 3600)
    return HEAD_SECONDS if value is None else value


def connection_cap() -> int:
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 100_000
    return max(16, soft - FILES_MARGIN)


_STATUS = {414: b"414 URI Too Long", 431: b"431 Request Header Fields Too Large"}


class NoDelayHTTPProtocol(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
    _head_timer: Any = None
    _refused = False
    _opened = 0.0
    _head_bytes = 0
    _header_count = 0
    _target_bytes = 0

    def connection_made(self, transport: Any) -> None:
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError:
                pass
        super().connection_made(transport)
        self._opened = time.monotonic()
        self._arm()
        if len(self.connections) > connection_cap():
            self._make_room()

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
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

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
        import json

        if not self._refused:
            self._refused = True
            code = "too_large" if status == 431 else "uri_too_long"
            body = json.dumps({"error": {"code": code, "message": message, "where": "request head"}}).encode()
            self.transport.write(b"HTTP/1.1 " + _STATUS[status] + b"\r\ncontent-type: application/json\r\n"
                                 b"content-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n"
                                 + body)
            self.transport.close()
        raise ValueError(message)

    def send_400_response(self, msg: str) -> None:
        if not self._refused:  # (the parser's error after a refusal: already answered)
            super().send_400_response(msg)

    # ------------------------------------------------------------ the number of connections
    def _busy(self) -> bool:
        cycle = self.cycle
        return cycle is not None and not cycle.response_complete

    def _make_room(self) -> None:
        idle = [c for c in self.connections if c is not self and not getattr(c, "_busy", lambda: True)()]
        if not idle:
            self.transport.close()
            return
        oldest = min(idle, key=lambda c: getattr(c, "_opened", 0.0))
        oldest.transport.close()
