"""The player's page (issue 12): /p/{token} shows one character as its player may know it (the player view
document, one builder shared with the player API), the rolls the GM asks of them, and answers them.

The page reloads its sheet when the campaign changes (live.py: `event: change`); a revoked link ends the
stream at once (`event: gone`) and the page says the link no longer works. "Since you last looked" counts
from the version this browser saw at its previous visit (a cookie scoped to the link's own path).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response
from pydantic import ValidationError

from ....errors import NotFound, SawbonesError
from ....numbers import parse_int
from ....presentation.locale import _
from ..access import access
from ..live import live
from ..access.access_errors import NO_PLAYER_LINK
from ..http.deps import open_service, web
from ..http.writers_lane import run_action
from .pages_common import checked_form, query_int, redirect, render, session_of
from .pages_gm import stale_or
from ..api.player_view import player_view

router = APIRouter(include_in_schema=False)
SEEN_COOKIE = "sawbones_seen"


def player_doc(request: Request, token: str, since: int | None) -> dict[str, Any]:
    """The view a token shows now, or the page's 404 (unknown, revoked, or its character is gone)."""
    with open_service(web(request)) as service:
        target = access.player_target(service, token)
        doc = player_view(service, *target, since=since) if target else None
    if doc is None:
        raise NotFound(NO_PLAYER_LINK, "player link")
    return doc


def _seen(request: Request) -> int | None:
    return parse_int(request.cookies.get(SEEN_COOKIE, ""))


def _since(value: str | None) -> int | None:
    return parse_int(value)


@router.get("/p/{token}")
def player(request: Request, token: str) -> Response:
    since = _seen(request)
    doc = player_doc(request, token, since)
    response = render(request, "player.html", doc=doc, token=token, since=since, gm=False)
    response.set_cookie(SEEN_COOKIE, str(doc["version"]), max_age=365 * 86400, httponly=True, samesite="lax",
                        secure=request.url.scheme == "https", path=f"/p/{quote(token, safe='')}")
    return response


@router.get("/p/{token}/sheet")
def player_sheet(request: Request, token: str, since: str | None = Query(None, max_length=12)) -> Response:
    doc = player_doc(request, token, _since(since))
    return render(request, "player_sheet.html", doc=doc, token=token, since=_since(since), gm=False,
                  flash=False)


@live.opener("/p/{token}/events")
async def player_events(request: Request, token: str) -> live.Opened:
    """The page's stream (live.py, served before the app's routes): changes its player may see."""
    link = PlayerLink(web(request), token)
    found = await run_in_threadpool(link.target)
    if found is None:
        raise NotFound(NO_PLAYER_LINK, "player link")
    link.found = found
    return await live.page_stream(request, found[0], still=link.still, token=token, character=found[1])


class PlayerLink:
    """A player link's stream: what it opens (campaign, character) and whether it still opens the same (a
    small object rather than closures: thousands of streams are held at once)."""

    __slots__ = ("state", "token", "found")

    def __init__(self, state: Any, token: str) -> None:
        self.state, self.token, self.found = state, token, None

    def target(self) -> tuple[str, str] | None:
        with open_service(self.state) as service:
            return access.player_target(service, self.token)

    def still(self) -> bool:
        return self.target() == self.found


@router.post("/p/{token}/answer")
async def player_answer(request: Request, token: str) -> Response:
    """The prompt card's form: "Roll for me" (`how=roll`) or "I rolled" (a d20 or a total), as the player API's
    answer; what happened (or why not) is shown on the page after the redirect."""
    form = await checked_form(request)
    body: dict[str, Any] = {"pending": str(form.get("pending") or "")[:40]}
    session = session_of(request)
    if form.get("how") == "roll":
        body["roll"] = True
    else:
        try:
            for key, low, high in (("d20", 1, 20), ("total", -20, 80)):
                value = form.get(key)
                typed = query_int(value if isinstance(value, str) else None, key, low, high)
                if typed is not None:
                    body[key] = typed
        except SawbonesError as exc:
            session.flash("error", [stale_or(exc)])
            return await run_in_threadpool(redirect, request, f"/p/{quote(token, safe='')}#prompts")

    def run() -> dict[str, Any] | None:
        from ..api.player import answer_as_player

        with open_service(web(request)) as service:
            target = access.player_target(service, token)
            return None if target is None else answer_as_player(service, *target, body)

    try:
        doc = await run_action(web(request), run)
    except SawbonesError as exc:  # not theirs, no longer pending, a bad number: said on the page, nothing applied
        session.flash("error", [stale_or(exc)])
    except ValidationError as exc:
        from .pages import _validation_lines

        session.flash("error", _validation_lines(exc))
    else:
        if doc is None:
            raise NotFound(NO_PLAYER_LINK, "player link")
        waiting = [_("Sent: waiting for the GM to confirm.")] if doc.get("status") == "awaiting_gm" else []
        session.flash("done", _rolled(doc.get("roll")) + list(doc.get("lines") or []) + waiting or [_("Done.")])
    return await run_in_threadpool(redirect, request, f"/p/{quote(token, safe='')}#prompts")


def _rolled(roll: dict[str, Any] | None) -> list[str]:
    """The die the server rolled (or the player typed), with the bonus and every modifier's source."""
    if not roll or roll.get("d20") is None or roll.get("total") is None:
        return []
    from ....presentation.save_breakdown import describe

    bonus = "%+d" % int(roll.get("bonus") or 0)
    line = _("Your roll: d20 {d20} {bonus} = {total}", d20=roll["d20"], bonus=bonus, total=roll["total"])
    if roll.get("breakdown"):
        line += f" ({describe(roll['breakdown'])})"
    if roll.get("succeeded") is not None:
        line += " — " + (_("success") if roll["succeeded"] else _("failure"))
    return [line]
