"""The composition root of the web app: `create_app(service_factory)`.

`service_factory()` returns a new `Service` (one per request: SQLite connections stay in their
thread). Rule areas each bring one module (api/*.py): its read routes in `router`, its actions
registered with actions.register; a module whose rules are not written yet is skipped.
"""

# No `from __future__ import annotations`: the action endpoints below are typed at run time.

from functools import partial
from importlib import import_module
from pathlib import Path
from typing import Any, Callable, Optional

from fastapi import APIRouter, Body, Depends, FastAPI, Request
from fastapi.staticfiles import StaticFiles

from .http import errors, guard
from .access import security
from .http.action_route import ActionRoute
from .api.actions import ACTIONS, Action
from .http.deps import GmAccess, WebState, gm_access, open_service
from .http.writers_lane import run_action
from .http.language import asked_language, reading
from .api.models import ErrorResponse

HERE = Path(__file__).parent
AREAS = ("api.campaigns", "api.injuries", "api.rules", "api.wounds", "api.afflictions", "api.odds", "api.events",
         "api.player")
ERRORS = {status: {"model": ErrorResponse, "description": text} for status, text in (
    (401, "No GM secret given"), (403, "Wrong GM secret"), (404, "No such campaign, character or entry"),
    (409, "The rules forbid it now, or the campaign changed meanwhile"), (422, "The request is malformed"),
    (503, "The store could not write"))}
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'")


def load_areas() -> list[Any]:
    """The api/ modules whose rules exist (the same pattern as the CLI's command modules)."""
    from importlib.util import find_spec

    modules = []
    for name in AREAS:
        try:
            modules.append(import_module(f"{__package__}.{name}"))
        except ModuleNotFoundError as exc:
            missing = exc.name or ""
            if missing == f"{__package__}.{name}" or (missing.startswith("sawbones.") and find_spec(missing) is None):
                continue
            raise
    return modules


def _action_endpoint(act: Action) -> Callable[..., Any]:
    """The action's route: its work in one piece, on the writers' lane or in the thread pool (writers_lane.run_action); the
    response is validated on the event loop."""
    def run(gm: GmAccess, body: Any) -> Any:
        with gm.open() as service:
            return act.run(service, gm.campaign, body)

    if act.body is None:  # (the language is the request's: language.py; the route declares `?lang=`)
        async def endpoint(request: Request, gm: GmAccess = Depends(gm_access)):
            return await run_action(gm.state, partial(run, gm, None), act.on_lane, gm.campaign)
    elif act.body_optional:
        async def endpoint(request: Request, body: Optional[act.body] = Body(None),  # type: ignore[name-defined]
                           gm: GmAccess = Depends(gm_access)):
            return await run_action(gm.state, partial(run, gm, body), act.on_lane, gm.campaign)
    else:
        async def endpoint(request: Request, body: act.body,  # type: ignore[name-defined]
                           gm: GmAccess = Depends(gm_access)):
            return await run_action(gm.state, partial(run, gm, body), act.on_lane, gm.campaign)
    endpoint.__name__ = f"action_{act.name}"
    return endpoint


def add_action_routes(app: FastAPI) -> None:
    """The GM actions, on the app's own router and first in it: a request is matched against them one pattern
    each, before the included routers (whose matching walks every route they hold, twice per request); a
    regular request takes the short way through them (action_route.py)."""
    for act in ACTIONS.values():
        if act.api:
            app.router.add_api_route(f"/api/campaigns/{{campaign}}{act.path or '/' + act.name}",
                                     _action_endpoint(act), methods=["POST"], response_model=act.response,
                                     status_code=act.status_code, summary=act.summary,
                                     description=act.description or act.summary, tags=list(act.tags),
                                     operation_id=f"act_{act.name}", responses=ERRORS,
                                     dependencies=[Depends(asked_language)],
                                     route_class_override=ActionRoute)


def api_router(areas: list[Any]) -> APIRouter:
    router = APIRouter(prefix="/api", responses=ERRORS)
    for module in areas:
        router.include_router(module.router)
    return router


SECURITY_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin"),
                    (b"x-frame-options", b"DENY"), (b"content-security-policy", CSP.encode())]


class App(FastAPI):
    """The app, which serves the live streams (live.py) before its middleware and routes: a held stream costs
    its subscription and its coroutine, none of the framework's per-request objects. A stream gets the same
    guard (guard.refused: the Host allow-list) and headers (SECURITY_HEADERS); a cross-origin call of the API's
    events, or a request the guard refuses, takes the whole way instead (CORS, the guard's answer)."""

    guarded: tuple[frozenset[str] | None, int] = (None, guard.MAX_BODY)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        with reading(scope):  # the request's language and audience (language.py), for all that answers it
            found = self._stream(scope) if scope["method"] == "GET" else None
            if found is None:
                await super().__call__(scope, receive, send)
                return
            from .live.live import serve

            scope["app"] = self
            await serve(scope, receive, send, *found, extra=SECURITY_HEADERS)

    def _stream(self, scope: Any) -> Any:
        """The stream's opener and argument when this GET is a live stream this app serves first, else None."""
        from .live import live
        from .http.cors import cross_origin

        found = live.route(scope["path"])
        if found is None:
            return None
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        if cross_origin(scope, headers) is not None or guard.refused(headers, *self.guarded) is not None:
            return None
        return found


class SecurityHeaders:
    """Headers on every response: no framing, no sniffing, no referrer to other sites (links carry secrets),
    a strict CSP (no inline script at all)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(service_factory: Callable[[], Any], *, poll_interval: float = 0.2,
               stream_seconds: float = 300.0, closed: bool = False, allowed_hosts: tuple[str, ...] | None = None,
               max_body: int = guard.MAX_BODY,
               cors_origins: tuple[str, ...] | None = None, public_base: str | None = None,
               listening_base: str | None = None) -> App:
    """The web app on the campaigns `service_factory()` opens (called once per request).

    `closed`: listing and creating campaigns need the server's admin secret. `allowed_hosts`: the only
    Host names answered (None: any). `max_body`: the largest request body read, in bytes.
    `cors_origins`: the origins whose pages may call the API (default $SAWBONES_CORS_ORIGINS; none).
    `public_base`: the address players reach the server at (serve --base); `listening_base`: where it listens
    on the network (presentation/links.py): the player links' QR codes are drawn with them."""
    from .http.cors import Cors, from_env

    from fastapi.templating import Jinja2Templates

    from .pages import pages
    from .access import pages_access

    with open_service(WebState(service_factory, security.Signer(b""), None)) as service:
        key = security.cookie_key(service.store)
        local_writes = getattr(service.store, "local", False)
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app = App(title="sawbones", version=_version(), openapi_url="/api/openapi.json", docs_url=None,
                  redoc_url=None, generate_unique_id_function=lambda route: route.name, description=(
                      "The table's API: lingering injuries, localized wounds and disease/poison tracks for a whole "
                      "campaign. Everything about a campaign needs its API secret (`Authorization: Bearer <secret>`), "
                      "given when the campaign is created and shown again on the GM dashboard. Every failure is "
                      "`{\"error\": {\"code\", \"message\", \"where\"}}`. Routes are described offline at "
                      "/api-docs."))
    areas = load_areas()
    app.state.sawbones = WebState(service_factory, security.Signer(key), templates, poll_interval, stream_seconds,
                                  frozenset(module.__name__.rsplit(".", 1)[1] for module in areas), closed,
                                  local_writes=local_writes, public_base=public_base, listening_base=listening_base)
    errors.install(app)
    add_action_routes(app)
    app.include_router(api_router(areas))
    app.include_router(pages.router)
    app.include_router(pages_access.router)
    from .pages import pages_gm, pages_player

    app.include_router(pages_gm.router)
    app.include_router(pages_player.router)
    from .pages import foundry

    app.include_router(foundry.router)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.add_middleware(guard.Guard, allowed_hosts=allowed_hosts, max_body=max_body)
    app.guarded = (guard.allow_list(allowed_hosts), max_body)
    app.add_middleware(SecurityHeaders)
    if not closed:
        _open_server_schema(app)
    app.add_middleware(Cors, origins=from_env() if cors_origins is None else cors_origins)
    from .http.head import HeadAsGet

    app.add_middleware(HeadAsGet)  # outermost: every GET route answers HEAD too
    return app


def _open_server_schema(app: FastAPI) -> None:
    """An open server lists and creates campaigns for anyone: its OpenAPI document says so (no secret there)."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            for operation in build()["paths"].get("/api/campaigns", {}).values():
                operation.pop("security", None)
        return app.openapi_schema  # type: ignore[return-value]

    app.openapi = openapi  # type: ignore[method-assign]


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("sawbones")
    except Exception:  # pragma: no cover
        return "0"
