"""The GM dashboard's live parts (issue 12): the top bar (clock, saves waiting, undo) and the pending saves
panel, each also served alone as a fragment the page reloads when the campaign changes (a player's answer
arrives without the GM reloading); what "Undo" will undo, said before it is done.

The undo form carries the log version the page showed (`expected_version`): if another action arrived
since, the undo is refused (application/requests.py) and nothing is undone.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ....message import msg
from ....presentation.locale import _
from ..http.deps import open_service, web
from ..access.pages_access import gm_check
from .pages_common import PageCampaign, render

router = APIRouter(include_in_schema=False)

NOT_UNDOABLE = ("action_undone", "campaign_created", "campaign_renamed")  # as application/service.py's undo
SHOWN_LINES = 2


def undo_preview(loaded: Any, log: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The action "Undo" reverts now (the service's own choice: the last one in force that may be undone),
    with what it did in words (its first lines in the dashboard's log), or None when nothing can be undone."""
    candidates = [a for a, first, undone in loaded.actions if not undone and first not in NOT_UNDOABLE]
    if not candidates:
        return None
    action = candidates[-1]
    lines = [e["line"] for e in reversed(log) if e["action"] == action and e["line"]]
    what = " / ".join(lines[:SHOWN_LINES]) + (" …" if len(lines) > SHOWN_LINES else "")
    return {"action": action, "what": what or f"a{action}", "version": loaded.head}


ANSWER_EVENTS = ("answer_proposed", "pending_cleared")
QUIET = ("clock_advanced",)  # no news in an answer's lines (the bookkeeping is never in the log: log_view.BOOKKEEPING)
RECENT_ANSWERS, ANSWERS_READ, ANSWER_LINES = 5, 80, 3


def player_answers(service: Any, loaded: Any) -> list[dict[str, Any]]:
    """The players' latest answers (newest first, in force), each with what it did in words: the GM sees them
    arrive in the saves-waiting panel."""
    from ....presentation import log_view

    state = loaded.state
    events = log_view.log_events(service, loaded.campaign_id, loaded.head, ANSWERS_READ, state,
                              service.rules_for(state))
    actions: list[int] = []
    for e in reversed(events):
        data = e["data"] if isinstance(e["data"], dict) else {}
        if (e["type"] in ANSWER_EVENTS and data.get("by") == "player" and not e["undone"]
                and e["action"] not in actions):
            actions.append(e["action"])
    return [{"action": a, "lines": [e["text"].replace("\n", " / ") for e in events
                                    if e["action"] == a and e["type"] not in QUIET and e["text"]][:ANSWER_LINES]}
            for a in actions[:RECENT_ANSWERS]]


def urgent_first(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The party's cards in the order the GM needs them (issue 39): the dying first, then a save waiting, then
    a deadline running (the soonest first); the others as they joined; the dead last."""
    waiting = {p.get("character") for p in doc.get("pending", ())} | {p.get("name") for p in doc.get("pending", ())}

    def deadline(c: dict[str, Any]) -> float | None:
        left = [i["timers"]["deadline_in"] for i in c.get("injuries", ()) if "deadline_in" in (i.get("timers") or {})]
        return min(left) if left else None

    def rank(c: dict[str, Any]) -> tuple[int, float]:
        if c.get("dead"):
            return (4, 0)
        if c.get("hp", 1) <= 0 and not c.get("stable"):
            return (0, 0)
        if c.get("id") in waiting or c.get("name") in waiting:
            return (1, 0)
        due = deadline(c)
        return (2, due) if due is not None else (3, 0)

    return sorted(doc.get("characters", ()), key=rank)


def gm_parts(service: Any, campaign: str) -> dict[str, Any]:
    """What the bar and the pending panel show (the dashboard's document, the undo preview, players' answers)."""
    from ..api.reports import dashboard_doc

    loaded = service.load(campaign)
    doc = dashboard_doc(service, campaign, loaded=loaded)
    return {"doc": doc, "undo": undo_preview(loaded, doc["log"]), "answers": player_answers(service, loaded)}


@router.get("/c/{campaign}/part/{part}")
def gm_part(request: Request, campaign: PageCampaign, part: str) -> Response:
    """One live part of the dashboard (`bar`, `pending` or `log`; `party` is pages.py's), as HTML to put in place."""
    from ....errors import NotFound
    from ..api.actions import ACTIONS

    if part not in ("bar", "pending", "log"):
        raise NotFound(msg("The dashboard has no such part (bar, pending)."), "part")
    with open_service(web(request)) as service:
        gm_check(request, service, campaign)
        parts = gm_parts(service, campaign)
    return render(request, f"_gm_{part}.html", flash=False, campaign=campaign, actions=set(ACTIONS),
                  **parts)


def expected_version(form: Any) -> Any:
    """The application's request for a dashboard form that says which log version it was shown at (None: any)."""
    from ....application.requests import Request as Intent

    from ....numbers import parse_int

    version = parse_int(form.get("expected_version"))
    return None if version is None else Intent(expected_version=version)


def stale_or(exc: Any) -> str:
    """An action's error for the page: a form shown before another action arrived says so in the page's words."""
    from ....application.requests import VersionMismatch
    from ..http.errors import said

    if isinstance(exc, VersionMismatch):
        return _("Nothing was done: the campaign changed since this page was shown (another action arrived). "
                 "Look at the log, then try again if you still mean it.")
    return said(exc.text)  # (the system's words too: errors.said)


def mark_known(doc: dict[str, Any], loaded: Any, options: dict[str, Any]) -> None:
    """Each affliction on the dashboard's cards says whether its player knows it (the GM's toggle)."""
    from ....domain.afflictions.secrets import is_known

    for character in doc["characters"]:
        for affliction in character.get("afflictions", []):
            affliction["known"] = is_known(loaded.state, options, character["id"], affliction["id"])
