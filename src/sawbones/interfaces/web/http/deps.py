"""What routes share: the service (one per request, opened in the request's thread),
the GM's access to a campaign (API: `Authorization: Bearer <secret>`)."""

from __future__ import annotations

from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, TypeVar

import hashlib
import json
import threading
import time
import weakref

from fastapi import Depends, Header, Path, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from ..access import security
from ....adapters import locks
from ....errors import NotFound, SawbonesError, UsageError
from ....message import msg
from ....numbers import parse_int
from ..access.access_errors import Forbidden, Unauthorized
from .params import WholeQuery
from .writers_lane import LANE, LOCAL_LANE, WritersLane

KEEP = 8  # threads that keep their service between requests at most (each holds its database connections)


class KnownSecrets:
    """GM secrets found right lately, per campaign (their digests, for TTL seconds, at most MOST): the guard lets
    such a request through without checking first in a thread of its own, and the endpoint checks it in its
    thread, as it does any request the guard did not check. A secret replaced meanwhile (by this process or
    another) is refused the same way, only after the body was read; a wrong secret is never known."""

    TTL, MOST = 30.0, 10_000

    def __init__(self) -> None:
        self._seen: dict[tuple[str, bytes], float] = {}

    @staticmethod
    def _key(campaign: str, secret: str) -> tuple[str, bytes]:
        return campaign, hashlib.sha256(secret.encode()).digest()

    def known(self, campaign: str, secret: str | None) -> bool:
        if secret is None:
            return False
        seen = self._seen.get(self._key(campaign, secret))
        return seen is not None and time.monotonic() - seen < self.TTL

    def remember(self, campaign: str, secret: str) -> None:
        if len(self._seen) >= self.MOST:
            self._seen.clear()
        self._seen[self._key(campaign, secret)] = time.monotonic()

    def forget(self, campaign: str, secret: str) -> None:
        self._seen.pop(self._key(campaign, secret), None)


@dataclass
class WebState:
    service_factory: Callable[[], Any]
    signer: security.Signer
    templates: Any
    poll_interval: float = 1.0
    stream_seconds: float = 300.0  # an SSE stream ends after this; the browser reconnects by itself
    areas: frozenset[str] = frozenset()  # the api/ modules loaded, by name (the rule areas that exist)
    closed: bool = False  # closed mode: listing and creating campaigns need the server's admin secret
    kept: threading.local = field(default_factory=threading.local)  # each thread's service (open_service)
    keeping: weakref.WeakSet[Any] = field(default_factory=weakref.WeakSet)  # the services threads keep
    secrets: KnownSecrets = field(default_factory=KnownSecrets)  # GM secrets found right lately (guard.py)
    local_writes: bool = False  # the store is local (SQLite): the live hub reads it on the event loop (live/hub.py)
    lane: "WritersLane | None" = None  # the threads GM actions run in (run_action): LANE, LOCAL_LANE on SQLite
    public_base: str | None = None  # serve --base: the address players reach the server at (links.page_base)
    listening_base: str | None = None  # where serve listens on the network (its LAN address and port)

    def __post_init__(self) -> None:
        if self.lane is None:
            self.lane = WritersLane(LOCAL_LANE, self.group_commit) if self.local_writes else WritersLane(LANE)

    def group_commit(self) -> AbstractContextManager[Any]:
        """A batch of the store's writes in one COMMIT (writers_lane.LaneThread; SQLite)."""
        with open_service(self) as service:
            return service.group_commit()


def web(request: Request) -> WebState:
    return request.app.state.sawbones


@contextmanager
def open_service(state: WebState) -> Iterator[Any]:
    """A service for this piece of work, kept by its thread for the next one (SQLite connections stay in the
    thread that opened them; opening and closing them was a fifth of a GM action's time). A service is lent
    to one piece of work at a time, closed rather than kept when the work failed, and at most KEEP threads
    keep one (a burst of requests leaves no more connections, and their page caches, behind)."""
    spare = getattr(state.kept, "service", None)
    service = spare if spare is not None else state.service_factory()
    state.kept.service = None
    try:
        with service.store.names_read_once():  # (a campaign's id read once in this piece of work)
            yield service
    except locks.WouldWait:  # nothing was done (run_action): the service is as good as it was
        _keep(state, service, spare)
        raise
    except BaseException:
        _close(service)
        raise
    _keep(state, service, spare)


def _keep(state: WebState, service: Any, spare: Any) -> None:
    service.request = None
    if getattr(state.kept, "service", None) is None and (spare is not None or len(state.keeping) < KEEP):
        state.kept.service = service
        state.keeping.add(service)  # (weakly: a thread that ends lets its service go)
    else:  # a piece of work inside another (the thread keeps one service), or KEEP threads keep theirs
        state.keeping.discard(service)
        _close(service)


T = TypeVar("T")


def _close(service: Any) -> None:
    close = getattr(service, "close", None) or getattr(service.store, "close", None)
    if close is not None:
        close()


CampaignName = Path(..., description="The campaign's name.", min_length=1, max_length=120)
CharacterKey = Path(..., description="The character's name or id.", min_length=1, max_length=80)
OptionId = Path(..., description="The option's id (see GET /api/options).", min_length=1, max_length=60)
bearer = HTTPBearer(auto_error=False, description="The campaign's GM secret, given once when the campaign is created.")


NEED_SECRET = "this needs the campaign's API secret: send `Authorization: Bearer <secret>`"
CHECKED = "sawbones.gm_checked"  # in a request's scope: (campaign, secret) the guard found right (guard.py)


def bearer_of(authorization: str | None) -> str | None:
    """The secret of an `Authorization: Bearer <secret>` header, or None."""
    scheme, _, secret = (authorization or "").partition(" ")
    return secret.strip() if scheme.lower() == "bearer" and secret.strip() else None


@dataclass
class GmAccess:
    """A campaign the caller claims to be GM of; `open()` checks the claim in the request's thread."""

    state: WebState
    campaign: str
    secret: str | None
    intent: Any = None  # the application's Request: Idempotency-Key, If-Match (see client_request)
    checked: bool = False  # the guard checked this secret for this campaign as the request arrived

    @contextmanager
    def open(self) -> Iterator[Any]:
        if self.secret is None:  # before anything is read: an anonymous client learns nothing
            raise Unauthorized(NEED_SECRET)
        with open_service(self.state) as service:
            service.request = self.intent
            if not self.checked:
                try:
                    check_gm_secret(service.store, self.campaign, self.secret, self.state.closed)
                except SawbonesError:
                    self.state.secrets.forget(self.campaign, self.secret)
                    raise
                name = security.stored_name(service.store, self.campaign)  # "alpha" means Alpha, as in the CLI
                if name == self.campaign:  # (only a stored name is remembered: the next request skips this)
                    self.state.secrets.remember(self.campaign, self.secret)
                self.campaign = name
            yield service

    async def read(self, read: Callable[[Any], T]) -> T:
        """A GM's read in one hop: the secret checked and `read(service)` done in one thread of the pool (an
        async route that awaits this has its answer validated on the event loop: no second hop for that)."""
        def work() -> T:
            with self.open() as service:
                return read(service)

        return await run_in_threadpool(work)


CLOSED_REFUSAL = "no campaign of that name opens with this API secret"


def check_gm_secret(store: Any, campaign: str, secret: str, closed: bool = False) -> None:
    """NotFound (without campaign names) or Forbidden unless `secret` is the campaign's API secret. On a closed
    server, one answer (403) whether the campaign exists or not: its names are not told to a guess."""
    if closed:
        try:
            check_gm_secret(store, campaign, secret)
        except (Forbidden, NotFound):
            raise Forbidden(CLOSED_REFUSAL, "campaign") from None
        return
    cid = security.require_campaign(store, campaign)
    if not security.is_gm_secret(store, campaign, secret, cid):
        if security.gm_secret(store, campaign) is None:
            raise Forbidden(msg("campaign {campaign} has no API secret yet: the server's administrator makes one "
                                "(gm-link, its API secret)", campaign=repr(campaign)))
        raise Forbidden(msg("wrong API secret for this campaign"))


@dataclass
class AdminAccess:
    """The caller of a server-level route (list or create campaigns): anyone in open mode; in closed mode,
    only with the server's admin secret (`Authorization: Bearer <admin secret>`)."""

    state: WebState
    secret: str | None

    @contextmanager
    def open(self) -> Iterator[Any]:
        if self.state.closed and self.secret is None:
            raise Unauthorized(msg("this server is closed: listing and creating campaigns need its admin secret "
                                   "(`Authorization: Bearer <admin secret>`; the server's administrator has it)"))
        with open_service(self.state) as service:
            if self.state.closed and not security.is_admin_secret(service.store, self.secret):
                raise Forbidden(msg("wrong admin secret for this server"))
            yield service


async def admin_access(request: Request, credentials: HTTPAuthorizationCredentials | None = Depends(bearer)) -> AdminAccess:
    return AdminAccess(web(request), credentials.credentials if credentials else None)


IdempotencyKey = Header(None, alias="Idempotency-Key", max_length=200, description=(
    "Makes the action safe to retry: the same key and body within 24 hours get the first answer back "
    "and change nothing; the same key with another body is a 422."))
IfMatch = Header(None, alias="If-Match", max_length=40, pattern=r'^(W/)?"?[0-9]{1,18}"?$', description=(
    "The campaign version you saw (`13` or `\"13\"`): if the campaign moved on, 409 with the current version, "
    "nothing applied."))
ExpectedVersion = WholeQuery(None, ge=0, description="The campaign version you saw (like If-Match).")


async def client_request(request: Request, key: str | None, if_match: str | None,
                         expected_version: int | None, credential: str | None = None) -> Any:
    """What the client attached to a change: its idempotency key (scoped to the sender: `credential`, the GM's
    secret or the player's token) and the version it saw."""
    from ....application.requests import Request as Intent, check_key, digest, sender_of

    if request.method == "GET":
        return None
    if if_match is not None:
        version = parse_int(if_match.strip().removeprefix("W/").strip('"'))
        if version is None:
            raise UsageError(msg("If-Match must be a campaign version (a whole number), not {if_match}",
                                 if_match=repr(if_match)), "If-Match")
        expected_version = version
    if check_key(key) is None:  # (the digest tells a retry from another request: only with a key)
        return Intent(None, "", expected_version)
    body = await request.body()
    try:  # (a JSON body is never deeper than bodies.MAX_DEPTH here: the guard refused it; another type may be)
        what: Any = json.loads(body) if body else None
    except (ValueError, RecursionError):
        what = body.decode("utf-8", "replace")
    return Intent(key, digest(request.method, request.url.path, what), expected_version, sender_of(credential))


async def gm_read(request: Request, campaign: str = CampaignName,
                  credentials: HTTPAuthorizationCredentials | None = Depends(bearer)) -> GmAccess:
    """A GM's route that neither applies an action nor honours Idempotency-Key / If-Match (a read, a new link, a
    new secret): it does not advertise them either."""
    secret = credentials.credentials if credentials else None
    return GmAccess(web(request), campaign, secret, None, request.scope.get(CHECKED) == (campaign, secret))


async def gm_access(request: Request, campaign: str = CampaignName,
                    credentials: HTTPAuthorizationCredentials | None = Depends(bearer),
                    key: str | None = IdempotencyKey, if_match: str | None = IfMatch,
                    expected_version: int | None = ExpectedVersion) -> GmAccess:
    """(client_request's parameters are this dependency's own: one dependency less to solve per request)"""
    secret = credentials.credentials if credentials else None
    intent = await client_request(request, key, if_match, expected_version, secret)
    return GmAccess(web(request), campaign, secret, intent, request.scope.get(CHECKED) == (campaign, secret))
