"""Costly computations a client may ask for (the odds: every option compared, every affliction's table), bounded
so that no client, nor many, stops the table (issue 41).

- at most AT_ONCE of them run at once in a worker, WAITING more wait their turn on the event loop (no thread
  held), any further one is answered 429 at once;
- a party has at most PER_CLIENT running or waiting, and a budget of BUDGET seconds of computation that
  comes back at REFILL seconds per second: past it, 429 with the seconds to wait (`Retry-After`). A party is
  who asks, not where from (`party`): the secret the guard checked (a campaign's API secret, the admin
  secret of a closed server), a dashboard's campaign once its GM is signed in; every caller without one
  (the open server's public odds) is the one anonymous party, one small share together (its budget a quarter
  of a party's): no number of addresses holds the queue. Turns go to each waiting party in turn (lane.py);
- a client that leaves stops its computation: while it waits, it never starts; while it runs, it stops at
  its next checkpoint (`checkpoint()`, called by the computation between its parts).

A cheap request stays cheap meanwhile: one computation at a time shares the interpreter with the event loop,
not thirty-two. The dashboard's costly panels (`panels`) wait for their turn the same way, on the event loop,
not in a thread each. The numbers come from $SAWBONES_COSTLY (AT_ONCE,WAITING,PER_CLIENT,BUDGET), e.g. `1,8,2,20`.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import math
import os
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from fastapi import Request
from starlette.concurrency import run_in_threadpool

from ....numbers import parse_int
from ....message import Message, msg
from ..access.access_errors import WebError
from ..api.models import ErrorResponse
from .lane import Lane

ENV = "SAWBONES_COSTLY"
BUSY: dict[int | str, dict[str, Any]] = {429: {
    "model": ErrorResponse, "description": "Too many costly computations (this client's budget or share, or the server's queue): "
                   "try again after `Retry-After` seconds",
    "headers": {"Retry-After": {"description": "Seconds to wait", "schema": {"type": "integer"}}}}}
ANONYMOUS = "anonymous"  # the one party of every caller without a checked secret
ANONYMOUS_SHARE = 0.25  # of a party's budget: every anonymous caller together
DEFAULTS = (1, 8, 2, 20)  # at once, waiting, per client, budget (seconds)
REFILL = 0.25  # seconds of budget regained per second


class Busy(WebError):
    code = "too_many_requests"
    status = 429

    def __init__(self, message: Message, retry_after: float) -> None:
        super().__init__(message, "")
        self.headers = {"Retry-After": str(max(1, math.ceil(retry_after)))}


class Gone(WebError):
    """The client left before its computation ended: nobody reads this answer."""
    code = "client_gone"
    status = 408


_local = threading.local()


def checkpoint() -> None:
    """Raise Gone in a costly computation whose client has left (a no-op anywhere else)."""
    gone = getattr(_local, "gone", None)
    if gone is not None and gone.is_set():
        raise Gone(msg("the client left: its computation was stopped"))


def _settings() -> tuple[int, int, int, int]:
    parts = os.environ.get(ENV, "").split(",")
    if len(parts) != 4:
        return DEFAULTS
    values = [parse_int(p, 0, 10_000) for p in parts]
    return tuple(d if v is None else v for v, d in zip(values, DEFAULTS))  # type: ignore[return-value]


@dataclass
class Limits:
    at_once: int
    waiting: int
    per_client: int
    budget: float
    pending: int = 0
    clients: dict[str, int] = field(default_factory=dict)
    spent: dict[str, tuple[float, float]] = field(default_factory=dict)  # client: (debt in seconds, as of)
    _turns: Lane | None = None

    def _debt(self, who: str, now: float) -> float:
        debt, since = self.spent.get(who, (0.0, now))
        return max(0.0, debt - (now - since) * REFILL)

    def admit(self, who: str) -> None:
        now = time.monotonic()
        debt = self._debt(who, now)
        budget = self.budget * (ANONYMOUS_SHARE if who == ANONYMOUS else 1)
        if debt > budget:
            wait = math.ceil((debt - budget) / REFILL)
            raise Busy(msg("this secret (or, without one, every anonymous caller together) spent its budget of costly "
                           "computations ({budget} s): try again in {seconds} s",
                           budget="%g" % budget, seconds=wait), (debt - budget) / REFILL)
        if self.clients.get(who, 0) >= self.per_client:
            raise Busy(msg("at most {per_client} costly computations at once per secret (and for every anonymous "
                           "caller together): wait for the others", per_client=self.per_client), 1)
        if self.pending >= self.at_once + self.waiting:
            raise Busy(msg("the server is busy with costly computations: try again in a few seconds"), 2)

    def spend(self, who: str, seconds: float) -> None:
        now = time.monotonic()
        self.spent[who] = (self._debt(who, now) + seconds, now)
        if len(self.spent) > 4096:  # forget the clients that owe nothing
            self.spent = {k: v for k, v in self.spent.items() if self._debt(k, now) > 0}

    async def run(self, request: Request, work: Callable[[], Any], who: str | None = None) -> Any:
        who = party(request) if who is None else who
        self.admit(who)
        if self._turns is None:
            self._turns = Lane(self.at_once)
        self.pending += 1
        self.clients[who] = self.clients.get(who, 0) + 1
        gone = threading.Event()
        watcher = asyncio.ensure_future(_watch(request, gone))
        try:
            await self._turns.take(who)
            try:
                if gone.is_set():
                    raise Gone(msg("the client left before its computation started"))
                started = time.monotonic()
                try:
                    return await run_in_threadpool(_in_thread, work, gone)
                finally:
                    self.spend(who, time.monotonic() - started)
            finally:
                self._turns.give()
        finally:
            watcher.cancel()
            self.pending -= 1
            self.clients[who] -= 1
            if not self.clients[who]:
                del self.clients[who]


def party(request: Request) -> str:
    """Who asks, for the limits: the secret the guard checked before the route (a digest of it), else
    ANONYMOUS. (A campaign's routes all need its API secret, checked by the guard; the public odds need the
    admin secret on a closed server, none on an open one.)"""
    from .deps import bearer_of, web
    from .guard import needs

    need = needs(request.url.path)
    secret = bearer_of(request.headers.get("authorization"))
    if secret and need is not None and (need[0] == "gm" or (need[0] == "odds" and web(request).closed)):
        return "secret:" + hashlib.sha256(secret.encode()).hexdigest()[:32]
    return ANONYMOUS


async def _watch(request: Request, gone: threading.Event) -> None:
    """Set `gone` when the client disconnects (a GET's body is empty: the next message is the disconnect)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            gone.set()
            return


SWITCH = 0.001  # seconds a computing thread keeps the interpreter before the event loop may take it


def _in_thread(work: Callable[[], Any], gone: threading.Event) -> Any:
    """The work, with the interpreter handed back to the event loop five times as often as by default (a cheap
    request waits for the computation's thread at each step otherwise: 5 ms each)."""
    _local.gone = gone
    before = sys.getswitchinterval()
    sys.setswitchinterval(min(before, SWITCH))
    try:
        return work()
    finally:
        _local.gone = None
        sys.setswitchinterval(before)


def limits(request: Request) -> Limits:
    """The app's limits (made with its first costly request, from $SAWBONES_COSTLY)."""
    state = request.app.state
    found = getattr(state, "costly", None)
    if found is None:
        at_once, waiting, per_client, budget = _settings()
        found = state.costly = Limits(at_once, waiting, per_client, float(budget))
    return found


def panels(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A page whose query may ask for costly panels (the dashboard's odds, injury odds, what-if: `names`): when
    it does, the page waits for its turn under the limits on the event loop, as the API's odds do, its party
    the campaign whose GM is signed in (checked first, in a thread, briefly); otherwise it is an ordinary page."""
    def wrap(endpoint: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(endpoint)
        async def bounded(*args: Any, **kwargs: Any) -> Any:
            request = kwargs["request"]
            call = functools.partial(endpoint, *args, **kwargs)
            if not any(kwargs.get(name) for name in names):
                return await run_in_threadpool(call)
            who = await run_in_threadpool(_page_party, request, kwargs["campaign"])
            if who is None:  # not its GM: the page's own answer (sign-in needed, not found)
                return await run_in_threadpool(call)
            return await limits(request).run(request, call, who)

        return bounded

    return wrap


def _page_party(request: Request, campaign: str) -> str | None:
    from ....errors import SawbonesError
    from ..access import security
    from ..access.pages_access import gm_check
    from .deps import open_service, web

    with open_service(web(request)) as service:
        try:
            gm_check(request, service, campaign)
        except SawbonesError:
            return None
        return "campaign:" + security.stored_name(service.store, campaign)


def costly(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    """A route whose work is costly: the same parameters (it takes `request`), run under the limits."""
    @functools.wraps(endpoint)
    async def bounded(*args: Any, **kwargs: Any) -> Any:
        request = kwargs["request"]
        return await limits(request).run(request, functools.partial(endpoint, *args, **kwargs))

    return bounded
