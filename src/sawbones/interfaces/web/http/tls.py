"""https made by the server's own protocol (nodelay.py) rather than by the listening socket: a connection is
then one of the worker's counted connections from its first byte, its handshake bound by the head's deadline,
and evictable like an idle one. (Given to uvicorn, the certificate made asyncio hold a silent connection
outside every count for 60 s before its handshake: 300 of them kept every https client out for a minute.)

`serve --certfile/--keyfile` hands the pair over in $SAWBONES_TLS (each worker reads it); uvicorn listens in
plain TCP.
"""

from __future__ import annotations

import asyncio
import json
import os
import ssl
from typing import Any, Callable

ENV = "SAWBONES_TLS"
_loaded: tuple[str, ssl.SSLContext | None] | None = None


def hand_over(files: dict[str, str]) -> dict[str, str]:
    """uvicorn's settings for `serve`: the certificate and key go to the protocol ($SAWBONES_TLS), not to
    uvicorn."""
    if files:
        os.environ[ENV] = json.dumps([files["ssl_certfile"], files["ssl_keyfile"]])
    else:
        os.environ.pop(ENV, None)
    return {}


def context() -> ssl.SSLContext | None:
    """The server's TLS context (once per process), or None for plain http."""
    global _loaded
    given = os.environ.get(ENV, "")
    if _loaded is None or _loaded[0] != given:
        made = None
        if given:
            certfile, keyfile = json.loads(given)
            made = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            made.load_cert_chain(certfile, keyfile)
            made.set_alpn_protocols(["http/1.1"])
        _loaded = (given, made)
    return _loaded[1]


def handshake(protocol: Any, raw: Any, made: ssl.SSLContext, seconds: float) -> None:
    """Start the handshake of `raw` for `protocol`: once done, the TLS layer calls `protocol.connection_made`
    again with the secured transport (before any request's byte reaches it); if it fails,
    `protocol.handshake_failed()` (a no-op after connection_made). The TLS layer takes the connection over at once, where `loop.start_tls`
    does it a turn of the loop later (by then a ClientHello may have reached the HTTP parser)."""
    from asyncio import sslproto

    waiter = protocol.loop.create_future()
    layer = sslproto.SSLProtocol(protocol.loop, protocol, made, waiter, server_side=True,
                                 ssl_handshake_timeout=seconds)
    raw.set_protocol(layer)
    layer.connection_made(raw)

    def ended(done: Any) -> None:  # (a handshake that ends without calling connection_made: it failed)
        if done.cancelled() or done.exception() is not None or raw.is_closing():
            raw.close()
        protocol.handshake_failed()

    waiter.add_done_callback(ended)
