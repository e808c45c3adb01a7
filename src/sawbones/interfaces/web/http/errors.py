"""One error shape for every failure of the API: {"error": {"code", "message", "where"}}.

The project's error hierarchy (errors.py) maps to HTTP statuses here, once; FastAPI's validation
errors, unknown routes and wrong methods get the same shape. Pages get an HTML page instead.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from ....errors import (ConflictError, ContentError, NotFound, PackMissing, RuleViolation, SawbonesError, StoreError,
                         UsageError)

from ....message import N_, Message, msg
from ....presentation.locale import say
from ....presentation.system_words import said_system
from . import invalid
from ..access.access_errors import WebError
from ..pages.pages_common import render_error

log = logging.getLogger("sawbones.web")


# Order matters: subclasses before their bases.
STATUSES: tuple[tuple[type[SawbonesError], int], ...] = (
    (NotFound, 404), (ConflictError, 409), (RuleViolation, 409), (UsageError, 422),
    (PackMissing, 503), (ContentError, 500), (StoreError, 503),
)
HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
              405: "method_not_allowed", 406: "not_acceptable", 409: "conflict", 413: "too_large",
              415: "unsupported_media_type", 422: "invalid_request", 429: "too_many_requests"}


# A database's 503 says one of these, never its cause (which may name the database's file, or a PostgreSQL URL's
# user, host and database: the server's log has it), nor where (the request instead).
UNAVAILABLE = N_("the database is unavailable for now: try again in a few seconds")
BUSY_WRITE = N_("the database is busy: nothing was written; try again in a few seconds")
MAYBE_APPLIED = N_("the database became unavailable during this write: it may have been applied; retrying with the same "
                   "Idempotency-Key is safe (it applies once); without a key, read the log before trying again")


def status_of(exc: SawbonesError) -> int:
    if isinstance(exc, WebError):
        return exc.status
    return next((status for kind, status in STATUSES if isinstance(exc, kind)), 400)


def error_body(code: str, message: str, where: str = "", **more: Any) -> dict[str, Any]:
    """The one error shape; `more` only for errors that carry data for programs (current_version)."""
    return {"error": {"code": code, "message": message, "where": where, **more}}


def _where(request: Request) -> str:
    return f"{request.method} {request.url.path}"


def _wants_html(request: Request) -> bool:
    """Everything but the API answers errors as an HTML page (a page's link, a form, a typed address)."""
    path = request.url.path
    return not (path == "/api" or path.startswith("/api/"))


def _respond(request: Request, status: int, code: str, message: str | Message, where: str,
             headers: dict[str, str] | None = None, heading: Message | None = None, **more: Any) -> Response:
    """The error in the request's language, to its audience (a page's labels, the API's fields: language.py)."""
    if _wants_html(request):
        return render_error(request, status, code, said(message), headers, say(heading) if heading else None)
    return JSONResponse(error_body(code, said(message), where, **more), status_code=status, headers=headers)


def said(message: str | Message) -> str:
    """An error's words in the request's language and to its audience (a Message; text that has no words of its
    own, a path, as it is), the system's and the libraries' words in it too (`Permission denied`, SQLite's `file is
    not a database`: presentation/system_words.py), once for the API's JSON and the pages alike."""
    return said_system(say(message))


def _allowed(request: Request) -> list[str]:
    """Every method some route offers on this path (Starlette names only the first route's)."""
    from starlette.routing import Match

    methods: set[str] = set()
    for route in _routes(request.app.router.routes):
        match, _ = route.matches({**request.scope, "method": "GET"}) if hasattr(route, "matches") else (None, None)
        if match in (Match.FULL, Match.PARTIAL) and getattr(route, "methods", None):
            methods |= set(route.methods)
    methods |= _api_methods(request.app, request.url.path)
    if "GET" in methods:
        methods.add("HEAD")  # (head.py: every GET answers HEAD)
    return sorted(methods)


def _routes(routes: Any) -> Any:
    """Every route, those of the routers included without a prefix too (the pages: FastAPI keeps an included
    router whole, as one entry)."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from _routes(inner.routes)
        else:
            yield route


def _api_methods(app: Any, path: str) -> set[str]:
    """The API's routes sit in included routers (not in app.router.routes with every FastAPI): read the
    methods from the OpenAPI paths, which list them all with their full path."""
    from starlette.routing import compile_path

    matches = [(template.count("{"), operations) for template, operations in app.openapi().get("paths", {}).items()
               if compile_path(template)[0].match(path)]
    fewest = min((count for count, _ in matches), default=0)  # …/characters/import over …/characters/{character}
    return {method.upper() for count, operations in matches if count == fewest for method in operations}


def install(app: FastAPI) -> None:
    @app.exception_handler(SawbonesError)
    async def sawbones_error(request: Request, exc: SawbonesError) -> Response:
        return answer(request, exc)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        message, where = invalid.first(list(exc.errors()))
        return _respond(request, 422, "invalid_request", message, where or _where(request))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 400:  # FastAPI could not parse the body: a malformed request, like any other
            return _respond(request, 422, "invalid_request",
                            msg("the request body could not be read ({detail})", detail=exc.detail), "body")
        code = HTTP_CODES.get(exc.status_code, "http_error")
        message: str | Message = exc.detail if isinstance(exc.detail, (str, Message)) else code.replace("_", " ")
        if exc.status_code == 404 and message == "Not Found":
            message = msg("no such page or endpoint: {path}", path=request.url.path)
        headers = getattr(exc, "headers", None)
        if exc.status_code == 405:
            message = msg("{method} is not allowed on {path}", method=request.method, path=request.url.path)
            headers = {**(headers or {}), "Allow": ", ".join(_allowed(request))}
        return _respond(request, exc.status_code, code, message, _where(request), headers)

    @app.exception_handler(UnicodeError)
    async def unicode_error(request: Request, exc: UnicodeError) -> Response:
        return _respond(request, 422, "invalid_request", msg("text must be valid Unicode (UTF-8)"), _where(request))

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> Response:  # a bug
        return internal(request)


def logged_where(request: Request) -> str:
    """The request as the log names it: a player link's token is never written (`/p/…/sheet`)."""
    path = TOKEN_IN_PATH.sub(HIDDEN, request.url.path)
    return f"{request.method} {path}"


TOKEN_IN_PATH = re.compile(r"^(/p/|/api/player/)[^/]+")
HIDDEN = r"\1…"


def internal(request: Request) -> Response:
    """A bug's answer (the app's handler, and the live streams served before it): logged, the one shape."""
    log.exception("internal error on %s", logged_where(request))
    message = msg("internal error: the server could not complete the request")
    if _wants_html(request):  # a page: the error as a page too, in its language
        try:
            return _respond(request, 500, "internal", message, logged_where(request))
        except Exception:  # (the page itself cannot be drawn: the bug may be in a template)
            log.exception("the error page of %s", logged_where(request))
    return JSONResponse(error_body("internal", say(message), logged_where(request)), status_code=500)


def answer(request: Request, exc: SawbonesError) -> Response:
    """The answer to one of the project's errors (the app's handler, and the live streams served before it)."""
    status = status_of(exc)
    if status >= 500:
        log.error("%s on %s: %s", exc.code, logged_where(request), exc)
    more: dict[str, Any] = {}
    headers = getattr(exc, "headers", None) or None
    message: str | Message = exc.text
    where = exc.where or _where(request)
    if status == 503 and isinstance(exc, StoreError):
        where = _where(request)
        headers = {**(headers or {}), "Retry-After": "2"}
        if request.method in ("GET", "HEAD", "OPTIONS"):
            message = msg(UNAVAILABLE)
        elif exc.code == "busy":  # the writer's turn never came: nothing was written
            message = msg(BUSY_WRITE)
        else:  # cut off around its commit, a write may have been applied while its client gets this answer
            message = msg(MAYBE_APPLIED)
            more["outcome"] = "unknown"
    if getattr(exc, "current_version", None) is not None:  # a stale If-Match: the version to reload at
        more["current_version"] = exc.current_version
        headers = {**(headers or {}), "ETag": f'"{exc.current_version}"'}
    return _respond(request, status, exc.code, message, where, headers, getattr(exc, "heading", None), **more)


def respond(request: Request, status: int, code: str, message: str | Message, where: str,
            headers: dict[str, str] | None = None) -> Response:
    """The one error answer, outside an exception handler (guard.py): JSON, or an HTML page for the pages."""
    return _respond(request, status, code, message, where, headers)
