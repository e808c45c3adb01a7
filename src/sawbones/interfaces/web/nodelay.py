"""uvicorn's HTTP protocol with TCP_NODELAY on every connection.

With several worker processes uvicorn binds the listening socket itself with protocol 0, and
asyncio only turns Nagle's algorithm off for sockets whose protocol is TCP: every response then
waited ~40 ms for the client's delayed ACK. Setting TCP_NODELAY per connection removes that.
"""

from __future__ import annotations

import socket
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol


class NoDelayHTTPProtocol(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
    def connection_made(self, transport: Any) -> None:
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError:
                pass
        super().connection_made(transport)
