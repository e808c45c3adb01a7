"""Cross-origin access to the API, off by default: `serve --cors-origin URL` (repeatable, or
$SAWBONES_CORS_ORIGINS, space-separated) lets a page of those origins (a hosted VTT, a GM tool) call
/api/... with `Authorization: Bearer <secret>`.

Preflights from an allowed origin are answered (204) with the Bearer, Idempotency-Key, If-Match and
Last-Event-ID headers allowed, and with `Access-Control-Allow-Private-Network: true` when the browser
asks (a page on the internet reaching the GM's own server). Cookies are never accepted cross-origin:
a cross-origin API request has its Cookie header removed and no response allows credentials.
"""

from __future__ import annotations

import json
import os
from typing import Any, Iterable

ENV = "SAWBONES_CORS_ORIGINS"
METHODS = "GET, POST, PUT, PATCH, DELETE"
HEADERS = "Authorization, Content-Type, Accept-Language, Idempotency-Key, If-Match, Last-Event-ID"
EXPOSED = "ETag, Location, Retry-After"


def normalize(origin: str) -> str:
    """scheme://host[:port], as browsers send it in Origin."""
    from urllib.parse import urlsplit

    text = origin.strip().rstrip("/")
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path or parts.query:
        raise ValueError(f"a CORS origin is scheme://host[:port] (for example https://foundry.example.org), "
                         f"not {origin!r}")
    return f"{parts.scheme}://{parts.netloc}".lower()


def from_env() -> tuple[str, ...]:
    return tuple(normalize(o) for o in os.environ.get(ENV, "").split() if o)


class Cors:
    """ASGI middleware: CORS for /api only, for the configured origins only."""

    def __init__(self, app: Any, origins: Iterable[str] = ()) -> None:
        self.app = app
        self.origins = frozenset(normalize(o) for o in origins)

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not scope.get("path", "").startswith("/api"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        origin = cross_origin(scope, headers)
        if origin is None:
            await self.app(scope, receive, send)
            return
        allowed = origin.lower() in self.origins
        if scope["method"] == "OPTIONS" and "access-control-request-method" in headers:
            await self._preflight(send, origin, allowed, headers)
            return
        scope = {**scope, "headers": [(k, v) for k, v in scope["headers"] if k.lower() != b"cookie"]}

        async def send_with_cors(message: dict) -> None:
            if message["type"] == "http.response.start" and allowed:
                message["headers"] = list(message.get("headers", [])) + [
                    (b"access-control-allow-origin", origin.encode("latin-1")), (b"vary", b"Origin"),
                    (b"access-control-expose-headers", EXPOSED.encode())]
            await send(message)

        await self.app(scope, receive, send_with_cors)

    @staticmethod
    async def _preflight(send: Any, origin: str, allowed: bool, headers: dict[str, str]) -> None:
        if not allowed:
            body = json.dumps({"error": {"code": "forbidden", "message": f"origin {origin} may not call this API "
                                         "(the server allows it with `serve --cors-origin`)", "where": "Origin"}})
            out = [(b"content-type", b"application/json"), (b"vary", b"Origin")]
            await send({"type": "http.response.start", "status": 403, "headers": out})
            await send({"type": "http.response.body", "body": body.encode()})
            return
        out = [(b"access-control-allow-origin", origin.encode("latin-1")), (b"vary", b"Origin"),
               (b"access-control-allow-methods", METHODS.encode()), (b"access-control-allow-headers", HEADERS.encode()),
               (b"access-control-max-age", b"600")]
        if headers.get("access-control-request-private-network", "").lower() == "true":
            out.append((b"access-control-allow-private-network", b"true"))
        await send({"type": "http.response.start", "status": 204, "headers": out})
        await send({"type": "http.response.body", "body": b""})


def cross_origin(scope: dict, headers: dict[str, str]) -> str | None:
    """The Origin of a cross-origin call of the API; None: not the API, no Origin, or the server's own."""
    origin = headers.get("origin")
    if origin is None or not scope.get("path", "").startswith("/api") or \
            origin == f"{scope.get('scheme', 'http')}://{headers.get('host', '')}":
        return None
    return origin
