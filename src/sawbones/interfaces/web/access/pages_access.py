"""HTML pages of access: a GM sign-in link exchanged for the session cookie, the dashboard's Access panel
(another device's sign-in link, the API secret behind a reveal, signing every browser out), player links
renewed or revoked, the server's admin signing in (closed mode).

A one-time secret (a sign-in link, the API secret) is rendered in the answer to the POST that asked for it
(with Cache-Control: no-store), never put in a cookie or a flash message.
"""

from __future__ import annotations

import hmac
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response

from ....errors import NotFound
from . import access, security
from ....message import Message, msg
from ....presentation.locale import _
from ..http.deps import open_service, web
from .access_errors import Forbidden, SignInNeeded
from ..pages.pages_common import PageCampaign, campaign_url, checked_form, public_base, redirect, render, session_of

router = APIRouter(include_in_schema=False)


def is_gm(request: Request, service: Any, campaign: str) -> bool:
    """This browser signed in as GM of the campaign, and its session was not ended since."""
    held = session_of(request).gm_of(campaign, security.by_id(service.store, campaign))
    fingerprint = security.gm_fingerprint(service.store, campaign)
    return held is not None and fingerprint is not None and hmac.compare_digest(held, fingerprint)


def gm_check(request: Request, service: Any, campaign: str) -> str:
    """Forbidden unless this browser is GM of the campaign; NotFound for a campaign that does not exist, except on
    a closed server, which answers the same for both (its campaigns' names are not told to a guess). Returns the
    name checked (a page's address read by pages_common.page_campaign already holds the stored name)."""
    try:
        security.require_campaign(service.store, campaign)
    except NotFound:
        if not web(request).closed:
            raise
        raise SignInNeeded(_need_gm_link(request, campaign), campaign) from None
    if not is_gm(request, service, campaign):
        raise SignInNeeded(_need_gm_link(request, campaign), campaign)
    return campaign


def _need_gm_link(request: Request, campaign: str) -> Message:
    """What a browser not signed in reads: the command that prints a sign-in link, with this campaign's name as a
    shell takes it."""
    import shlex

    return msg("This dashboard needs a GM sign-in link (/c/NAME?code=…): `sawbones --campaign {campaign} gm-link` "
               "prints one, and so does the dashboard of a browser already signed in.", campaign=shlex.quote(campaign))


def is_admin(request: Request, service: Any) -> bool:
    held = session_of(request).admin()
    fingerprint = security.admin_fingerprint(service.store)
    return held is not None and fingerprint is not None and hmac.compare_digest(held, fingerprint)


def may_create(request: Request, service: Any) -> bool:
    return not web(request).closed or is_admin(request, service)


def sign_in(request: Request, service: Any, campaign: str, code: str) -> Response:
    """GET /c/{campaign}?code=…: the code is used up, this browser becomes GM, the address loses the code. A closed
    server answers a campaign that does not exist exactly as a wrong code (no guess learns its names)."""
    try:
        security.require_campaign(service.store, campaign)
    except NotFound:
        if not web(request).closed:
            raise
        raise Forbidden(SIGN_IN_REFUSED["unknown"], "code") from None
    try:
        fingerprint = security.redeem_signin_code(service.store, campaign, code)
    except security.SignInRefused as refused:
        raise Forbidden(SIGN_IN_REFUSED[refused.reason], "code") from None
    session_of(request).grant(security.by_id(service.store, campaign), fingerprint)
    return redirect(request, campaign_url(campaign))


SIGN_IN_REFUSED = {  # why a sign-in link did not sign in (security.SignInRefused.reason)
    "unknown": msg("This sign-in link is not valid for this campaign. Ask for a new one: "
                   "`sawbones --campaign NAME gm-link`, or the dashboard of a signed-in browser."),
    "used": msg("This sign-in link was already used: each link signs in one browser, once. Ask for a new one: "
                "`sawbones --campaign NAME gm-link`, or the dashboard of a signed-in browser."),
    "expired": msg("This sign-in link has expired (a link is valid 15 minutes). Ask for a new one: "
                   "`sawbones --campaign NAME gm-link`, or the dashboard of a signed-in browser."),
}


def _shown(request: Request, campaign: str, title: str, lines: list[str], value: str | None = None) -> Response:
    response = render(request, "access.html", campaign=campaign, title=title, lines=lines, value=value)
    response.headers["Cache-Control"] = "no-store"
    return response


async def _as_gm(request: Request, campaign: str, work: Any) -> Any:
    await checked_form(request)

    def run() -> Any:
        with open_service(web(request)) as service:
            gm_check(request, service, campaign)
            return work(service)

    return await run_in_threadpool(run)


@router.post("/c/{campaign}/sign-in-link")
async def new_sign_in_link(request: Request, campaign: PageCampaign) -> Response:
    from ..api.campaigns import sign_in_link

    path = await _as_gm(request, campaign, lambda service: sign_in_link(service.store, campaign))
    return await run_in_threadpool(_shown, request, campaign, _("Sign in another device"),
                                   [_("A sign-in link for another device: it works once, within 15 minutes.")],
                                   f"{public_base(request)}{path}")


@router.post("/c/{campaign}/api-secret")
async def api_secret(request: Request, campaign: PageCampaign) -> Response:
    form = await checked_form(request)
    renew = form.get("do") == "new"

    def work(service: Any) -> str | None:
        return (security.new_gm_secret(service.store, campaign) if renew
                else security.gm_secret(service.store, campaign))

    secret = await _as_gm(request, campaign, work)
    lines = [_("The campaign's API secret, for bots and virtual tabletops (Authorization: Bearer …):") if secret
             else _("This campaign has no API secret yet: make one.")]
    return await run_in_threadpool(_shown, request, campaign, _("API secret"), lines, secret)


@router.post("/c/{campaign}/end-sessions")
async def end_sessions(request: Request, campaign: PageCampaign) -> Response:
    await _as_gm(request, campaign, lambda service: security.end_gm_sessions(service.store, campaign))
    session_of(request).flash("done", [_("Every browser is signed out: sign in again with "
                                         "`sawbones --campaign NAME gm-link`.")])
    return await run_in_threadpool(redirect, request, "/")


@router.post("/c/{campaign}/player-link/{character}")
async def player_link(request: Request, campaign: PageCampaign, character: str) -> Response:
    from ....domain.engine.campaign import find_character

    form = await checked_form(request)
    revoke = form.get("do") == "revoke"

    def work(service: Any) -> tuple[str, str | None]:
        state = service.load(campaign).state
        found = find_character(state, character)
        if revoke:
            access.revoke_player_token(service.store, campaign, found.id)
            return found.name, None
        return found.name, access.renew_player_token(service.store, campaign, state, found.id)

    name, token = await _as_gm(request, campaign, work)
    if token is None:
        session_of(request).flash("done", [f"{_('Player link revoked:')} {name}"])
        return await run_in_threadpool(redirect, request, campaign_url(campaign, "#party"))
    return await run_in_threadpool(_shown, request, campaign, name, [_("New player link (the old one stops working):")],
                                   f"{public_base(request)}/p/{token}")


@router.post("/admin")
async def admin_sign_in(request: Request) -> Response:
    form = await checked_form(request)
    secret = form.get("secret") if isinstance(form.get("secret"), str) else None

    def check() -> str | None:
        with open_service(web(request)) as service:
            if not security.is_admin_secret(service.store, secret):
                return None
            return security.admin_fingerprint(service.store)

    fingerprint = await run_in_threadpool(check)
    if fingerprint is None:
        raise Forbidden(msg("Wrong admin secret for this server."), "secret")
    session_of(request).grant_admin(fingerprint)
    return await run_in_threadpool(redirect, request, "/")
