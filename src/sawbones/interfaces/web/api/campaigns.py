"""API: campaigns, their options and GM secret, characters and player links, status, clock, log, undo."""

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import Field, StringConstraints

from ....errors import UsageError
from ....message import msg

from ....presentation import log_view, views
from ....domain.engine import campaign as decisions
from . import models as m
from . import reports
from ..access import security
from .actions import Action, decided, register
from ..access import access
from ..http.language import Language
from ..http.deps import AdminAccess, CharacterKey, GmAccess, OptionId, admin_access, gm_access, gm_read
from ..http.params import WholeQuery

router = APIRouter(prefix="/campaigns")


def sheet_of(body: m.Sheet) -> dict:
    """The API's sheet as the CLI's `_sheet` makes it: only given fields, pair keys in lower case."""
    sheet = body.model_dump(exclude_none=True, exclude={"character"})
    for key in ("abilities", "saves", "skills", "body"):
        if key in sheet:
            sheet[key] = {k.lower(): v for k, v in sheet[key].items()}
    return sheet


def gm_link(campaign: str, code: str) -> str:
    """The GM's sign-in link: a one-time code, never the API secret (an address lands in browser history)."""
    from urllib.parse import quote

    return f"/c/{quote(campaign, safe='')}?code={code}"


def sign_in_link(store, campaign: str) -> str:
    return gm_link(campaign, security.new_signin_code(store, campaign))


# ------------------------------------------------------------------ campaigns


CLOSED = ("On a closed server (`sawbones serve --access closed`, the default beyond 127.0.0.1) this needs the "
          "server's admin secret: `Authorization: Bearer <admin secret>`.")


@router.get("", response_model=m.CampaignList, tags=["campaigns"], summary="List campaigns", description=CLOSED)
def list_campaigns(admin: AdminAccess = Depends(admin_access)):
    with admin.open() as service:
        return {"campaigns": service.store.campaign_names(), "current": service.store.get_meta("current_campaign")}


@router.post("", response_model=m.CampaignCreated, status_code=201, tags=["campaigns"], summary="Create a campaign",
             description="Creates the campaign and its API secret, and a one-time GM sign-in link (valid 15 "
                         "minutes) for the web dashboard. " + CLOSED)
def create_campaign(body: m.CampaignIn, response: Response, admin: AdminAccess = Depends(admin_access)):
    with admin.open() as service:
        state = service.create_campaign(body.name, body.system, body.seed)
        secret = security.new_gm_secret(service.store, state.name)
        response.headers["Cache-Control"] = "no-store"
        return {"campaign": views.campaign_doc(state, service.rules_for(state)), "gm_secret": secret,
                "gm_link": sign_in_link(service.store, state.name)}


@router.get("/{campaign}", response_model=m.CampaignOut, tags=["campaigns"], summary="Show a campaign")
async def show_campaign(gm: GmAccess = Depends(gm_read)):
    def read(service):
        state = service.load(gm.campaign).state
        return views.campaign_doc(state, service.rules_for(state))

    return await gm.read(read)


@router.post("/{campaign}/gm-secret", response_model=m.GmSecretOut, tags=["campaigns"],
             summary="Replace the API secret",
             description="The old API secret stops working; signed-in browsers and player links are not touched. "
                         "The answer also carries a new one-time GM sign-in link.")
def rotate_secret(response: Response, gm: GmAccess = Depends(gm_read)):
    with gm.open() as service:
        secret = security.new_gm_secret(service.store, gm.campaign)
        response.headers["Cache-Control"] = "no-store"
        return {"gm_secret": secret, "gm_link": sign_in_link(service.store, gm.campaign)}


@router.post("/{campaign}/sign-in-link", response_model=m.SignInLink, tags=["campaigns"],
             summary="A one-time GM sign-in link for a browser",
             description="Valid once, for 15 minutes: opening it signs the browser in as GM (a session cookie). "
                         "Sessions already signed in are not touched.")
def new_sign_in_link(response: Response, gm: GmAccess = Depends(gm_read)):
    with gm.open() as service:
        response.headers["Cache-Control"] = "no-store"
        return {"gm_link": sign_in_link(service.store, gm.campaign), "expires_in": security.SIGNIN_SECONDS}


@router.post("/{campaign}/end-sessions", response_model=m.SessionsEnded, tags=["campaigns"],
             summary="Sign every browser out of the GM dashboard",
             description="Every browser signed in as GM of the campaign must sign in again (with a new sign-in "
                         "link). The API secret and player links are not touched.")
def end_sessions(gm: GmAccess = Depends(gm_read)):
    with gm.open() as service:
        security.end_gm_sessions(service.store, gm.campaign)
        return {"campaign": gm.campaign, "ended": True}


@router.get("/{campaign}/options", dependencies=[Language], response_model=m.OptionsOut, tags=["campaigns"],
            summary="Every ruleset option with its value in this campaign")
def campaign_options(gm: GmAccess = Depends(gm_read)):
    with gm.open() as service:
        loaded = service.load(gm.campaign)
        ctx = service.context(loaded)
        return views.options_doc(ctx.rules, ctx.options)


def _option_text(value) -> str | None:
    import json

    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return str(value)
    return json.dumps(value)


def _set_option(service, campaign: str, option: str, body: m.OptionIn) -> dict:
    from ....errors import UsageError

    text = None if body.reset else _option_text(body.value)
    if text is None and not body.reset:
        raise UsageError(msg("give a value, or reset: true"), "value")
    state, _ = service.act(campaign, lambda ctx: decisions.set_option(ctx, option, text))
    return {"option": option, "value": dict(state.options).get(option), "reset": body.reset}


@router.put("/{campaign}/options/{option}", response_model=m.OptionSet, tags=["campaigns"],
            summary="Set a ruleset option")
def set_option(body: m.OptionIn, option: str = OptionId, gm: GmAccess = Depends(gm_access)):
    with gm.open() as service:
        return _set_option(service, gm.campaign, option, body)


@router.delete("/{campaign}/options/{option}", response_model=m.OptionSet, tags=["campaigns"],
               summary="Reset a ruleset option to its default")
def reset_option(option: str = OptionId, gm: GmAccess = Depends(gm_access)):
    with gm.open() as service:
        return _set_option(service, gm.campaign, option, m.OptionIn(reset=True))


class OptionForm(m.Strict):
    option: m.Key
    value: m.Str(400, 0) | None = None  # type: ignore[valid-type]
    reset: bool = False


register(Action("set_option", OptionForm, m.OptionSet, api=False, summary="Set a ruleset option",
                run=lambda service, campaign, body: _set_option(
                    service, campaign, body.option, m.OptionIn(value=body.value, reset=body.reset))))


# ------------------------------------------------------------------ characters


def _character_report(service, state, events):
    character = state.character(events[0]["data"]["id"])
    return views.character_doc(character, state, service.rules_for(state))


register(Action(
    "add_character", m.CharacterIn, m.CharacterOut, path="/characters", status_code=201, tags=("characters",),
    summary="Add a character", form_lists=("proficiencies",),
    run=decided(lambda body: lambda ctx: decisions.add_character(ctx, body.name, sheet_of(body)), _character_report)))


class EditForm(m.CharacterEdit):
    character: m.NameStr  # type: ignore[valid-type]


def _edit(body) -> object:
    sheet = sheet_of(body)
    return lambda ctx: decisions.edit_character(ctx, body.character, sheet)


register(Action("edit_character", EditForm, m.CharacterOut, api=False, summary="Change a character's sheet",
                form_lists=("proficiencies",), run=decided(_edit, _character_report)))

register(Action(
    "remove_character", m.CharacterName, m.Removed, api=False, summary="Remove a character (undo brings it back)",
    run=decided(lambda body: lambda ctx: decisions.remove_character(ctx, body.character),
                lambda service, state, events: {"removed": events[0]["data"]["id"]})))


def _import(body) -> object:
    from ....adapters.sheets import parse

    entries = [entry for f in body.files for entry in parse(f.filename, f.content)]  # all checked first
    return lambda ctx: decisions.import_characters(ctx, entries)


register(Action(
    "import_characters", m.ImportIn, m.ImportOut, path="/characters/import", tags=("characters",), on_lane=False,
    summary="Add or update characters from Foundry VTT actor exports (dnd5e, pf1) or party files (YAML, CSV)",
    run=decided(_import, lambda service, state, events: views.import_report(
        state, events, service.rules_for(state)))))


@router.get("/{campaign}/characters", response_model=m.CharacterList, tags=["characters"],
            summary="List characters")
def list_characters(gm: GmAccess = Depends(gm_read), external: str | None = Query(
        None, max_length=231, description="Only the character with this external reference (foundry:Actor.abc).")):
    with gm.open() as service:
        state = service.load(gm.campaign).state
        chosen = [c for c in state.characters if external is None or external in c.external]
        return {"characters": [{"id": c.id, "name": c.name, "hp": c.hp, "max_hp": c.max_hp, "npc": c.npc,
                                "external": list(c.external)} for c in chosen]}


@router.get("/{campaign}/characters/{character}", dependencies=[Language], response_model=m.CharacterOut, tags=["characters"],
            summary="One character's sheet, injuries, wounds and afflictions")
async def show_character(character: str = CharacterKey, gm: GmAccess = Depends(gm_read)):
    def read(service):
        state = service.load(gm.campaign).state
        return views.character_doc(decisions.find_character(state, character), state, service.rules_for(state))

    return await gm.read(read)


@router.patch("/{campaign}/characters/{character}", dependencies=[Language], response_model=m.CharacterOut, tags=["characters"],
              summary="Change a character's sheet")
def edit_character(body: m.CharacterEdit, character: str = CharacterKey, gm: GmAccess = Depends(gm_access)):
    with gm.open() as service:
        form = EditForm(character=character, **body.model_dump(exclude_none=True))
        return decided(_edit, _character_report)(service, gm.campaign, form)


@router.delete("/{campaign}/characters/{character}", response_model=m.Removed, tags=["characters"],
               summary="Remove a character (undo brings it back)")
def remove_character(character: str = CharacterKey, gm: GmAccess = Depends(gm_access)):
    with gm.open() as service:
        service.act(gm.campaign, lambda ctx: decisions.remove_character(ctx, character))
        return {"removed": character}


PLAYER_LINKS = ("A player link shows one character, read-only, as long as it is that character: removing it "
                "ends the link, and a new character that gets the same id never inherits it.")


@router.get("/{campaign}/characters/{character}/player-link", response_model=m.PlayerLink, tags=["characters"],
            summary="The character's read-only player link (made when it has none)", description=PLAYER_LINKS)
def player_link(character: str = CharacterKey, gm: GmAccess = Depends(gm_read)):
    return _player_link(gm, character, access.player_token)


def _player_link(gm: GmAccess, character: str, make) -> dict:
    with gm.open() as service:
        state = service.load(gm.campaign).state
        found = decisions.find_character(state, character)
        token = make(service.store, gm.campaign, state, found.id)
        return {"character": found.id, "token": token, "url": f"/p/{token}"}


@router.post("/{campaign}/characters/{character}/player-link", response_model=m.PlayerLink, tags=["characters"],
             summary="Renew the character's player link (the old one stops working)", description=PLAYER_LINKS)
def renew_player_link(character: str = CharacterKey, gm: GmAccess = Depends(gm_read)):
    return _player_link(gm, character, access.renew_player_token)


@router.delete("/{campaign}/characters/{character}/player-link", response_model=m.PlayerLinkRevoked,
               tags=["characters"], summary="Revoke the character's player link", description=PLAYER_LINKS)
def revoke_player_link(character: str = CharacterKey, gm: GmAccess = Depends(gm_read)):
    with gm.open() as service:
        found = decisions.find_character(service.load(gm.campaign).state, character)
        return {"character": found.id, "revoked": access.revoke_player_token(service.store, gm.campaign, found.id)}


# ------------------------------------------------------------------ reading the campaign


@router.get("/{campaign}/status", dependencies=[Language], response_model=m.StatusOut, tags=["campaign state"],
            summary="The party (or one character): HP, injuries, timers, afflictions")
def status(character: str | None = Query(None, max_length=80), gm: GmAccess = Depends(gm_read)):
    with gm.open() as service:
        return views.status_doc(service, gm.campaign, character)


@router.get("/{campaign}/dashboard", dependencies=[Language], tags=["campaign state"],
            summary="Everything the GM dashboard shows: status, conditions, next due moment, pending saves, log")
def dashboard(gm: GmAccess = Depends(gm_read)) -> dict:
    with gm.open() as service:
        return reports.dashboard_doc(service, gm.campaign)


@router.get("/{campaign}/clock", dependencies=[Language], response_model=m.ClockOut, tags=["campaign state"], summary="The game clock")
def clock(gm: GmAccess = Depends(gm_read)):
    from ....presentation.time_words import describe

    with gm.open() as service:
        state = service.load(gm.campaign).state
        return {"campaign": state.name, "seconds": state.clock, "text": describe(state.clock)}


@router.get("/{campaign}/log", dependencies=[Language], response_model=m.LogOut, tags=["campaign state"],
            summary="The event log (undone actions are marked)")
def log(limit: int = WholeQuery(50, ge=1, le=100000), gm: GmAccess = Depends(gm_read)):
    with gm.open() as service:
        return log_view.log_doc(service, gm.campaign, limit)


class UndoIn(m.Strict):
    action: Annotated[str, StringConstraints(pattern=r"^a?[0-9]{1,9}$")] | Annotated[int, Field(ge=1, le=2**31 - 1)] \
        | None = Field(None, description="The action meant, as the log shows it (\"a14\"): when the last action in "
                                         "force is another one (a bot's, a player's), 409 and nothing is undone.")


def _undo(service, campaign, body):
    meant = log_view.action_id(body.action) if body is not None and body.action is not None else None
    if body is not None and body.action is not None and meant is None:
        raise UsageError(msg("{action} is not an action of the log (like a14)", action=repr(body.action)), "action")
    return log_view.undo_doc(service, campaign, meant)


register(Action("undo", UndoIn, m.UndoOut, run=_undo, body_optional=True, tags=("campaign state",),
                summary="Revert the last action exactly (or only the action named, when it came last)"))
