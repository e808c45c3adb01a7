"""HTML pages: home (campaigns), the GM dashboard and its forms, the player's page, the tables.

Forms post to the same actions as the API (actions.py), then redirect back (POST-redirect-GET)
with what happened as a flash message (kept on the server). The GM is known by a signed cookie set
when they open a one-time sign-in link /c/{campaign}?code=CODE (pages_access.py); players get
links /p/{token} (access.py; their pages in pages_player.py). Query parameters are validated: a bad one is a 422 page.
"""

from __future__ import annotations

import re

from typing import Any, Literal, TYPE_CHECKING

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response
from pydantic import ValidationError

from ....presentation import views
from ....errors import SawbonesError
from ....message import msg
from ....presentation.locale import _, name, say
from ..access import access, security
from ..http import invalid
from ..live import live
from . import odds_charts
from ..api import reports
from ..api.actions import ACTIONS
from ..http.costly import panels
from ..http.deps import open_service, web
from ..http.writers_lane import run_action
from ..access.access_errors import Forbidden
from ..api.models import CampaignIn
from ..access.pages_access import gm_check, is_admin, is_gm, may_create, sign_in
from ..http.errors import said
from .must_choose import labelled_fields, unchosen
from ....presentation.sheet_names import named_sheet
from .pages_common import (PageCampaign, campaign_url, checked_form, page_campaign, public_base, query_int, redirect,
                           render, session_of)
from .pages_gm import expected_version, mark_known, player_answers, stale_or, undo_preview, urgent_first

if TYPE_CHECKING:
    from ....content.rules import Rules

router = APIRouter(include_in_schema=False)


def _validation_lines(exc: ValidationError) -> list[str]:
    """A form's errors as the form reads: each names the field by its label ("amount: …", not "parts.0.amount: …")."""
    return [say(line) for line in invalid.form_lines(list(exc.errors()))]


# ------------------------------------------------------------------ home


@router.get("/")
def home(request: Request) -> Response:
    """Open mode (or the admin): every campaign. Closed mode: only those this browser is GM of."""
    with open_service(web(request)) as service:
        every = is_admin(request, service) or not web(request).closed
        names = service.store.campaign_names()
        if not every:
            mine = set(session_of(request).gm_campaigns())  # ids (security.by_id), or names (older cookies)
            names = [name for name in names if name in mine or security.by_id(service.store, name) in mine]
        campaigns = [{"name": name, "gm": is_gm(request, service, name)} for name in names]
        campaigns = [c for c in campaigns if every or c["gm"]]
        create = may_create(request, service)
    return render(request, "home.html", campaigns=campaigns, may_create=create, closed=web(request).closed)


@router.post("/campaigns")
async def create_campaign(request: Request) -> Response:
    form = await checked_form(request)
    session = session_of(request)
    try:
        body = CampaignIn.model_validate(form_to_fields(form, ("name", "system", "seed")), strict=False)
    except ValidationError as exc:
        session.flash("error", _validation_lines(exc))
        return await run_in_threadpool(redirect, request, "/")

    def create() -> None:
        with open_service(web(request)) as service:
            if not may_create(request, service):
                raise Forbidden(msg("This server is closed: creating a campaign needs its admin secret."), "campaigns")
            state = service.create_campaign(body.name, body.system, body.seed)
            security.new_gm_secret(service.store, state.name)
            session.grant(security.by_id(service.store, state.name),
                          security.gm_fingerprint(service.store, state.name, create=True))

    try:
        await run_in_threadpool(create)
    except Forbidden:
        raise
    except SawbonesError as exc:
        session.flash("error", [said(exc.text)])
        return await run_in_threadpool(redirect, request, "/")
    session.flash("done", [_("Campaign created: you are its GM in this browser. Its API secret is under Access.")])
    return await run_in_threadpool(redirect, request, campaign_url(body.name))


@router.get("/c/{campaign}/part/party")
def party_part(request: Request, campaign: PageCampaign) -> Response:
    """The dashboard's cards, as HTML to put in place when the campaign changes (a player's answer on their phone
    changes a save, a cure streak: the card says it without the GM reloading)."""
    with open_service(web(request)) as service:
        gm_check(request, service, campaign)
        loaded = service.load(campaign)
        doc = reports.dashboard_doc(service, campaign, loaded=loaded)
        rules = service.rules_for(loaded.state)
        options = service.context(loaded).options
        links = player_links(request, service, campaign, loaded.state)
        mark_known(doc, loaded, options)
    return render(request, "_gm_party.html", flash=False, doc=doc, party=urgent_first(doc), campaign=campaign,
                  links=links, choices=choices(rules, options, loaded.state.system), actions=set(ACTIONS), gm=True)


def player_links(request: Request, service: Any, campaign: str, state: Any) -> dict[str, dict[str, Any]]:
    """Each character's player link, whole (the address a phone reaches: presentation/links.py), and its QR code."""
    from markupsafe import Markup

    from ....presentation.links import qr_svg

    base = public_base(request)
    out = {}
    for c in state.characters:
        url = f"{base}/p/{access.player_token(service.store, campaign, state, c.id)}"
        out[c.id] = {"url": url, "qr": Markup(qr_svg(url, c.name))}
    return out


def form_to_fields(form: Any, names: tuple[str, ...]) -> dict[str, Any]:
    return {n: form.get(n).strip() for n in names if isinstance(form.get(n), str) and form.get(n).strip()}


# ------------------------------------------------------------------ the GM dashboard


@router.get("/c/{campaign}")
@panels("odds", "itype", "whatif")  # costly panels wait for their turn on the event loop (costly.py)
def dashboard(request: Request, campaign: str, code: str | None = Query(None, max_length=64),
              key: str | None = Query(None, max_length=200), mods: str | None = Query(None, max_length=80),
              roll: str | None = Query(None, max_length=40), hand: Literal["left", "right", "both", ""] | None = None,
              range: Literal["ranged", "melee", ""] | None = None, sense: Literal["sight", "hearing", ""] | None = None,
              odds: str | None = Query(None, max_length=80), bonus: str | None = Query(None, max_length=12),
              itype: str | None = Query(None, max_length=40), id20: str | None = Query(None, max_length=4),
              ibonus: str | None = Query(None, max_length=12), iwait: str | None = Query(None, max_length=12),
              whatif: str | None = Query(None, max_length=4), wdrops: str | None = Query(None, max_length=12),
              wbonus: str | None = Query(None, max_length=12)) -> Response:
    bonus_value = query_int(bonus, "bonus", -30, 60) or 0
    asked = {"character": mods, "roll": roll, "hand": hand or None, "range": range or None, "sense": sense or None}
    with open_service(web(request)) as service:
        if key is not None:  # an old link carried the API secret itself: it no longer signs in
            raise Forbidden(msg("Links with ?key= no longer sign in (they put the API secret in the browser's history): "
                                "ask for a sign-in link with `sawbones --campaign NAME gm-link`."), "key")
        if code is not None:
            return sign_in(request, service, campaign, code)
        gm_check(request, service, campaign)
        stored = security.stored_name(service.store, campaign)
        if stored != campaign:  # "alpha" means Alpha, as on the command line: the page lives at its name
            return redirect(request, campaign_url(stored) + (f"?{request.url.query}" if request.url.query else ""))
        loaded = service.load(campaign)
        doc = reports.dashboard_doc(service, campaign, loaded=loaded)
        rules = service.rules_for(loaded.state)
        links = player_links(request, service, campaign, loaded.state)
        options = service.context(loaded).options
        system = loaded.state.system
        answer, problem = (_roll_query(service, campaign, asked, rules, system) if mods and roll
                           else (None, None))
        chart, chart_error = (_odds_chart(rules, options, loaded.state.system, odds, bonus_value) if odds
                              else (None, None))
        injury_chart, injury_error = (odds_charts.injury_panel(rules, options, itype, id20, ibonus, iwait)
                                      if itype else (None, None))
        what_if, what_if_error = (odds_charts.what_if_panel(rules, options, wdrops, wbonus) if whatif
                                  else (None, None))
        undo, answers = undo_preview(loaded, doc["log"]), player_answers(service, loaded)
        mark_known(doc, loaded, options)
    areas = web(request).areas
    return render(request, "dashboard.html", doc=doc, party=urgent_first(doc), campaign=campaign, links=links,
                  undo=undo, answers=answers,
                  choices=choices(rules, options, loaded.state.system), actions=set(ACTIONS), gm=True,
                  mods_enabled="wounds" in areas, mods=answer, mods_error=problem, mods_asked=asked,
                  roll_words=_roll_words(rules, system) if "wounds" in areas else None,
                  odds_enabled="odds" in areas, odds=chart, odds_error=chart_error,
                  odds_asked={"affliction": odds, "bonus": bonus}, injury_odds=injury_chart,
                  injury_odds_error=injury_error,
                  injury_asked={"type": itype, "d20": id20, "bonus": ibonus, "wait": iwait}, what_if=what_if,
                  what_if_error=what_if_error, what_if_asked={"drops": wdrops, "bonus": wbonus})


def _odds_chart(rules: Rules, options: dict[str, Any], system: str, affliction: str, bonus: int) -> tuple[Any, Any]:
    """The odds of one affliction at one bonus, with each final stage's display name (for the chart)."""
    from ....presentation.odds_stages import stage_label, stage_names
    from ....presentation.save_words import save_name
    from ..api.odds import odds_doc

    try:
        doc = odds_doc(rules, options, affliction, bonus, None, 0, False, None, system)
    except SawbonesError as exc:
        return None, said(exc.text)
    names = stage_names(rules, affliction)
    doc["name"] = name(rules.afflictions[affliction].name)
    doc["save_name"] = save_name(rules, doc["save"], doc["system"])
    doc["bars"] = [{"label": label, "name": stage_label(names, label), "p": p, "dead": label.split("+")[-1] == "dead"}
                   for label, p in doc["final"].items()]
    return doc, None


def _roll_query(service: Any, campaign: str, asked: dict[str, Any], rules: Rules, system: str) -> tuple[Any, Any]:
    """(answer, error) of the roll query, the roll named in the page's language (`title`)."""
    from ....presentation.wounds import roll_title
    from ..api.wounds import mods_doc

    given = {k: v for k, v in asked.items() if k in ("hand", "range", "sense") and v}
    try:
        answer = mods_doc(service, campaign, asked["character"], asked["roll"], **given)
    except SawbonesError as exc:
        return None, said(exc.text)
    answer["title"] = " · ".join(roll_title(rules, system, answer["roll"]))
    return answer, None


def _roll_words(rules: Rules, system: str) -> dict[str, Any]:
    """What the roll query's field offers (its suggestions, its first value), in the page's language."""
    from ....presentation.wounds import roll_word, roll_words

    return {"words": roll_words(rules, system), "first": roll_word("attack")}


def choices(rules: Rules, options: dict[str, Any], system: str | None = None) -> dict[str, Any]:
    """What the dashboard's selects offer, from the content (names in the page's language; spells under the
    names of the campaign's game system)."""
    def named(section: str, keep=lambda e: True) -> list[tuple[str, str]]:
        return sorted(((e.id, name(e.name)) for e in rules.section(section).values() if keep(e)), key=lambda p: p[1])

    spells = sorted(((s.id, name(s.title(system))) for s in rules.spells.values() if system is None or system in s.systems),
                    key=lambda p: p[1])  # the campaign's system's own spells only (issue 39)
    return {
        "damage_types": named("damage_tables"), "spells": spells,
        "diseases": named("afflictions", lambda e: e.kind == "disease"),
        "poisons": named("afflictions", lambda e: e.kind == "poison"),
        "tracks": named("tracks"), "body_parts": named("body_parts"),
        # each value as `campaign set` takes it and `campaign options` prints it (eyes=2,hands=2, true)
        "options": [{**o, "shown": views.shown_option(o)} for o in views.options_doc(rules, options)["options"]],
    }


BACK = re.compile(r"[A-Za-z0-9_-]{1,40}")


@router.post("/c/{campaign}/act/{name}")
async def act(request: Request, campaign: PageCampaign, name: str) -> Response:
    form = await checked_form(request)
    session = session_of(request)
    action = ACTIONS.get(name)
    asked = form.get("back")  # a section of the dashboard (its id), else the party: never more in the Location
    back = campaign_url(campaign, "#" + (asked if isinstance(asked, str) and BACK.fullmatch(asked) else "party"))

    def run() -> dict[str, Any] | None:
        with open_service(web(request)) as service:
            gm_check(request, service, campaign)
            service.request = expected_version(form)
            if action is None:
                from ....errors import NotFound

                raise NotFound(msg("no action {name}", name=repr(name)))
            missing = unchosen(form)
            if missing:
                session.flash("error", missing)
                return None
            try:
                fields = labelled_fields(action, form)
                if name in ("add_character", "edit_character"):  # the names typed on a sheet, as the CLI reads them
                    fields = named_sheet(service.rules_for(service.load(campaign).state), fields)
                body = (action.body.model_validate(fields, strict=False)
                        if action.body is not None else None)
            except ValidationError as exc:
                session.flash("error", _validation_lines(exc))
                return None
            return action.run(service, campaign, body)

    try:
        doc = await run_action(web(request), run, action is None or action.on_lane)
    except Forbidden:
        raise
    except SawbonesError as exc:
        session.flash("error", [stale_or(exc)])
        return await run_in_threadpool(redirect, request, back)
    if doc is not None:
        session.flash("done", done_lines(name, doc))
    return await run_in_threadpool(redirect, request, back)


def done_lines(action: str, doc: dict[str, Any]) -> list[str]:
    if doc.get("lines"):
        return list(doc["lines"])
    if action in ("add_character", "edit_character"):
        return [f"{doc['name']}: {doc['hp']}/{doc['max_hp']} {_('HP')}"]
    if action == "remove_character":
        return [_("Removed") + f" {doc['removed']}"]
    if action == "undo":
        return [_("Action {action} undone.", action=doc["undone_action"])] + doc.get("reverted", [])
    if action == "set_option":
        return [f"{doc['option']} = {doc['value'] if not doc['reset'] else _('(default)')}"]
    return [_("Done.")]


# ------------------------------------------------------------------ the GM's live stream (players: pages_player.py)


@live.opener("/c/{campaign}/events")
async def gm_events(request: Request, campaign: str) -> live.Opened:
    """The dashboard's stream (live.py, served before the app's routes): every change of the campaign."""
    state = web(request)
    session = session_of(request)

    def check() -> str:
        with open_service(state) as service:
            return gm_check(request, service, page_campaign(request, campaign))

    def still() -> bool:
        with open_service(state) as service:
            return is_gm(request, service, campaign)

    campaign = await run_in_threadpool(check)
    return await live.page_stream(request, campaign, still, token=session.sid)


# ------------------------------------------------------------------ tables


@router.get("/tables")
def tables(request: Request, table: str | None = Query(None, max_length=60), d20: str | None = Query(None, max_length=12)) -> Response:
    from ....presentation.tables import index_doc

    if table:
        return table_page(request, table, d20)
    with open_service(web(request)) as service:
        doc = index_doc(service.rules_for())
    return _tables_page(request, index=doc, table=None, rolled=None)


def _tables_page(request: Request, **context: Any) -> Response:
    """The tables page, with the labels the CLI's `tables` prints (presentation/tables.py: head, ENTRY_LINES)."""
    from ....presentation.tables import ENTRY_LINES, head

    return render(request, "tables.html", head=head, entry_lines=ENTRY_LINES, colon=_(": "), **context)


@router.get("/tables/{table_id}")
def table_page(request: Request, table_id: str, d20: str | None = Query(None, max_length=12)) -> Response:
    from ....presentation.tables import index_doc, table_doc
    from ....presentation.views import roll_doc
    from ....domain.engine.options import effective_options

    face = query_int(d20, "d20", 1, 20)
    rolled = None
    with open_service(web(request)) as service:
        rules = service.rules_for()
        doc = table_doc(rules, table_id)
        if doc["kind"] == "damage_table" and face is not None:
            rolled = roll_doc(rules, effective_options(rules, {}), table_id, face, None)
        index = index_doc(rules)
        drop = (odds_charts.drop_chart(rules, effective_options(rules, {}), doc["id"])
                if doc["kind"] == "damage_table" else None)
    return _tables_page(request, index=index, table=doc, rolled=rolled, drop=drop)


# ------------------------------------------------------------------ the API, described offline


@router.get("/api-docs")
def api_docs(request: Request) -> Response:
    """Every API route with its summary, from the OpenAPI document (no Swagger UI: it would load a CDN's
    script on this origin)."""
    spec = request.app.openapi()
    routes = []
    for path, methods in spec["paths"].items():
        for method, op in methods.items():
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
            routes.append({"method": method.upper(), "path": path, "summary": op.get("summary", ""),
                           "tag": (op.get("tags") or [""])[0], "gm": bool(op.get("security")),
                           "body": body.get("$ref", "").rsplit("/", 1)[-1]})
    return render(request, "api_docs.html", routes=routes, version=spec["info"]["version"])
