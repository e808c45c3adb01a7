"""What the server checks before the app reads a request: the Host allow-list (against DNS rebinding),
the size of the body (413 before anything is read), and, on routes that need a secret, the secret
itself (401/403 before the body is parsed: an anonymous client gets nothing read or validated).

A body is counted while it is read as well, so a chunked body without Content-Length is cut at the
limit too. A JSON body is read whole (and checked for depth) only for a route that exists, once its access
is granted: nothing is buffered for a request the app would refuse anyway. Errors have the app's one shape (a
JSON error, or an HTML page for the pages).
"""

from __future__ import annotations

from typing import Any

from fastapi.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.routing import Match

from ....errors import SawbonesError
from ....message import Message, msg
from ....numbers import parse_int
from . import bodies, errors
from ..access import security
from .deps import CHECKED, NEED_SECRET, AdminAccess, bearer_of, check_gm_secret, open_service
from ..access.access_errors import Unauthorized

MAX_BODY = 1_000_000  # bytes: the default limit of a request's body
CLOSED_ODDS = msg("this server is closed: the odds without a campaign need its admin secret (`Authorization: Bearer "
               "<admin secret>`); a GM asks a campaign's odds, under /api/campaigns/NAME/odds/…, with its API secret")


class TooLarge(HTTPException):
    """Raised while a body is read past the limit: an HTTP 413, which FastAPI's body parsing lets through."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, msg("The request is larger than this server accepts ({limit} bytes at most).",  # type: ignore[arg-type]
                                  limit=limit))


def host_name(value: str) -> str:
    """The host of a Host header, without its port, in lower case ("[::1]:8000" → "[::1]")."""
    value = value.strip().lower()
    if value.startswith("["):
        return value.split("]", 1)[0] + "]"
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def needs(path: str) -> tuple[str, str] | None:
    """What a path of the API needs: ("gm", campaign) under /api/campaigns/{campaign} (every such route needs
    the campaign's API secret), ("admin", "") for /api/campaigns itself (closed mode), ("player", token) for
    /api/player/{token}/answer (a live player token; the player's reads check it in their route), else None."""
    if path.rstrip("/") == "/api/campaigns":
        return "admin", ""
    if path.rstrip("/") == "/api/odds" or path.startswith("/api/odds/"):  # costly: closed mode keeps it to the admin
        return "odds", ""
    if path.startswith("/api/campaigns/"):
        return "gm", path[len("/api/campaigns/"):].split("/", 1)[0]  # (an ASGI path is already decoded)
    if path.startswith("/api/player/") and path.endswith("/answer"):  # a player's answer (api/player.py)
        return "player", path[len("/api/player/"):].split("/", 1)[0]
    return None


def refused(headers: dict[str, str], allowed: frozenset[str] | None,
            max_body: int) -> tuple[int, str, str | Message] | None:
    """What the guard refuses before reading anything: a Host off the allow-list, a Content-Length that is not
    a number or is past the limit (the status, the code, the message); None: go on."""
    if allowed is not None and host_name(headers.get("host", "")) not in allowed:
        return 400, "host_refused", msg("This server does not answer to the host name {host!r} (see --allowed-host).",
                                        host=headers.get("host", ""))
    length = headers.get("content-length")
    if length is not None:
        size = parse_int(length)
        if size is None:
            return 400, "bad_request", "Content-Length is not a number"
        if size > max_body:
            return 413, "too_large", msg("The request is larger than this server accepts ({limit} bytes at most).",
                                         limit=max_body)
    return None


def routed(scope: dict) -> bool:
    """Whether a route of the app answers this path and method (else it answers 404/405 without the body)."""
    app = scope.get("app")
    router = getattr(app, "router", None)
    if router is None:
        return True
    return any(route.matches(scope)[0] == Match.FULL for route in router.routes)


def allow_list(allowed_hosts: tuple[str, ...] | None) -> frozenset[str] | None:
    return frozenset(host_name(h) for h in allowed_hosts) if allowed_hosts else None


class Guard:
    def __init__(self, app: Any, *, allowed_hosts: tuple[str, ...] | None = None, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.allowed = allow_list(allowed_hosts)
        self.max_body = max_body

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        refused = self._refused(scope, headers)
        if refused is None:
            refused = await self._access(scope, headers)
        if refused is not None:
            await self._answer(scope, receive, send, *refused)
            return
        started = False
        size = 0
        if bodies.json_type(headers.get("content-type")) and scope.get("method") not in ("GET", "HEAD") \
                and routed(scope):
            read = await self._json_body(scope, receive, send)
            if read is None:
                return
            receive = read

        async def counted() -> dict:
            nonlocal size
            message = await receive()
            if message["type"] == "http.request":
                size += len(message.get("body", b""))
                if size > self.max_body:
                    raise TooLarge(self.max_body)
            return message

        async def watched(message: dict) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except TooLarge:  # read outside a route (the app's handlers answer it inside one)
            if started:  # pragma: no cover - the app answered before reading its whole body
                raise
            await self._answer(scope, receive, send, 413, "too_large", ("too_large", {"limit": self.max_body}))

    async def _json_body(self, scope: dict, receive: Any, send: Any) -> Any:
        """A JSON body read whole (within the limit) and checked for depth (bodies.py): the receive that hands it
        to the app, or None once the refusal is answered."""
        parts: list[bytes] = []
        size, more, last = 0, True, None
        try:
            while more:
                message = await receive()
                if message["type"] != "http.request":
                    last = message
                    break
                parts.append(message.get("body", b""))
                if not bodies.Held.room_for(len(parts[-1])):
                    await self._answer(scope, receive, send, 503, "busy", msg(
                        "The server is receiving too many request bodies at once: try again in a few seconds."))
                    return None
                size += len(parts[-1])
                bodies.Held.total += len(parts[-1])
                if size > self.max_body:
                    await self._answer(scope, receive, send, 413, "too_large", msg(
                        "The request is larger than this server accepts ({limit} bytes at most).",
                        limit=self.max_body))
                    return None
                more = message.get("more_body", False)
            body = b"".join(parts)
        finally:
            bodies.Held.total -= size
            parts.clear()
        if bodies.too_deep(body):
            await self._answer(scope, receive, send, 422, "invalid_request",
                               msg("The JSON body nests arrays and objects more than {limit} deep.",
                                   limit=bodies.MAX_DEPTH))
            return None
        handed = False

        async def replay() -> dict:
            nonlocal handed
            if not handed:
                handed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return last if last is not None else await receive()

        return replay

    def _refused(self, scope: dict, headers: dict[str, str]) -> tuple[int, str, Any] | None:
        return refused(headers, self.allowed, self.max_body)

    async def _access(self, scope: dict, headers: dict[str, str]) -> tuple[int, str, Any] | None:
        """The secret, checked before the body is read, in a thread (the endpoint does not check it again); a GM
        secret found right lately (deps.KnownSecrets) is checked by the endpoint, in its thread, instead."""
        need = needs(scope.get("path", ""))
        if need is None or scope.get("method") == "OPTIONS":  # (a CORS preflight carries no secret)
            return None
        if need[0] == "admin" and scope.get("method") not in ("GET", "HEAD", "POST"):
            return None
        if need[0] == "player" and scope.get("method") != "POST":
            return None
        kind, campaign = need
        secret = bearer_of(headers.get("authorization"))
        state = scope["app"].state.sawbones
        if kind == "odds" and not state.closed:
            return None
        if kind == "gm" and state.secrets.known(campaign, secret):
            return None  # right lately: the endpoint checks it in its own thread (deps.GmAccess), no hop here

        exact: list[bool] = []  # the campaign typed as stored: remembered (another is resolved by the endpoint)

        def check() -> None:
            if kind == "player":
                from ..api.player import target

                with open_service(state) as service:
                    target(service, campaign)
            elif kind == "gm":
                if secret is None:
                    raise Unauthorized(NEED_SECRET)
                with open_service(state) as service:
                    check_gm_secret(service.store, campaign, secret, state.closed)
                    exact.append(security.stored_name(service.store, campaign) == campaign)
            elif kind == "odds" and secret is None:
                raise Unauthorized(CLOSED_ODDS)
            else:
                with AdminAccess(state, secret).open():
                    pass

        try:
            await run_in_threadpool(check)
        except SawbonesError as exc:
            return errors.status_of(exc), exc.code, exc.text
        if kind == "gm" and all(exact):
            scope[CHECKED] = (campaign, secret)  # the endpoint does not read it again (deps.GmAccess)
            state.secrets.remember(campaign, secret)
        return None

    async def _answer(self, scope: dict, receive: Any, send: Any, status: int, code: str,
                      message: str | Message) -> None:
        """The error, in the request's language (language.py)."""
        request = Request(scope, receive)
        headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
        if status in (413, 503):
            headers = {"Connection": "close", **({"Retry-After": "5"} if status == 503 else {})}
        response = errors.respond(request, status, code, message, f"{scope.get('method')} {scope.get('path')}",
                                  headers)
        await response(scope, receive, send)
