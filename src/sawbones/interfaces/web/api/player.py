"""API for players (issue 12): their character's view, their prompts, their answers — by their player token.

The token is the one of the player's link (/p/{token}, interfaces/web/access/access.py): unknown, revoked, or its
character gone → 403 at once. A player answers only their own character's roll that is still waiting for
them: another character's roll is answered as one that does not exist (404: no oracle), their own that was
answered or undone 409; nothing is applied then. The answer to a save against an affliction the player does
not know says only what the page says (no total, no success: they would narrow its DC). The GM's side: `reveal` and `diagnose` (what the player knows of an affliction).
"""

from typing import Any, TYPE_CHECKING

from fastapi import APIRouter, Depends, Path, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from pydantic import Field

from ....domain.afflictions.secrets import diagnose, reveal
from ....errors import NotFound, RuleViolation
from ..access import access
from . import models as m
from .actions import Action, decided, register
from ..http.language import Language
from ....message import msg
from ..http.deps import IdempotencyKey, client_request, open_service, web
from ..http.writers_lane import run_action
from ..access.access_errors import NO_PLAYER_LINK, Forbidden
from .player_secrets import about_unknown, mask, player_line, unknown_afflictions
from .player_view import player_view, prompts_doc
from .reports import action_doc
from ..http.params import WholeQuery

if TYPE_CHECKING:
    from ....content.rules import Rules
    from ....domain.engine.context import Context

router = APIRouter(prefix="/player", tags=["players"])
Token = Path(..., description="The player's token (the end of their link /p/{token}).", min_length=1, max_length=80)


class PlayerAnswerIn(m.Strict):
    pending: m.IdStr = Field(description="The pending save's id (p3), from the prompts.")  # type: ignore[valid-type]
    roll: bool = Field(False, description="Roll for me: the server rolls with the campaign's dice.")
    d20: int | None = Field(None, ge=1, le=20, description="I rolled: the natural d20 (the bonus is added).")
    total: int | None = Field(None, ge=-20, le=80, description="I rolled: the total.")


class RevealIn(m.CharacterName):
    affliction: m.IdStr = Field(description="The affliction on the character (d3, t4; a3 from before) or its content id.")  # type: ignore[valid-type]
    known: bool = Field(True, description="Known to the player (name, DC, track, cure), or only its symptoms.")


class DiagnoseIn(m.CharacterName):
    affliction: m.IdStr = Field(description="The affliction on the character (d3, t4; a3 from before) or its content id.")  # type: ignore[valid-type]
    healer: m.NameStr | None = Field(None, description="Who makes the Heal (5e: Medicine) check (default: the character).")  # type: ignore[valid-type]
    check: int | None = Field(None, ge=-20, le=80, description="The check's total, as rolled at the table.")
    d20: int | None = Field(None, ge=1, le=20, description="The natural d20 (the healer's bonus is added).")


register(Action("reveal", RevealIn, m.ActionOut, summary="Show an affliction to the character's player, or hide it",
                run=decided(lambda b: lambda ctx: reveal(ctx, b.character, b.affliction, b.known), action_doc)))
register(Action("diagnose", DiagnoseIn, m.ActionOut, summary="A Heal check against an affliction's DC (may reveal it)",
                run=decided(lambda b: lambda ctx: diagnose(ctx, b.character, b.affliction, b.healer, b.check, b.d20),
                            action_doc)))


def target(service: Any, token: str) -> tuple[str, str]:
    """(campaign, character id) of a live player token, else 403."""
    found = access.player_target(service, token)
    if found is None:
        raise Forbidden(NO_PLAYER_LINK, "player link")
    return found


def answer_as_player(service: Any, campaign: str, character_id: str, body: dict[str, Any],
                     intent: Any = None) -> dict[str, Any]:
    """A player's answer to one of their prompts ("roll for me", or the d20 / total they rolled). `intent`: the
    client's Idempotency-Key (the API's): a retry within 24 hours gets the first answer back, nothing applied."""
    from ....domain.afflictions.decide import answer

    answer_in = PlayerAnswerIn.model_validate(body)

    def decide(ctx: "Context") -> list[dict]:  # (a retry with the same key gets the first answer before this runs)
        pending = next((p for p in ctx.state.pending if p.id == answer_in.pending), None)
        if pending is None or pending.character != character_id:
            # one answer for what is not this player's: another character's roll is as unknown as one never made
            cid = service.store.campaign_id(campaign)
            issued = pending is None and any(
                e.type == "save_pending" and e.data.get("id") == answer_in.pending
                and e.data.get("character") == character_id
                for e in service.store.events(cid, after=0, upcast=False))
            if issued:
                raise RuleViolation(msg("{id} is no longer pending (already answered, or undone)",
                                        id=answer_in.pending), "pending")
            raise NotFound(msg("no pending save {id}", id=repr(answer_in.pending)), "pending")
        return answer(ctx, answer_in.pending, answer_in.total, answer_in.d20, roll=answer_in.roll, by="player",
                      player=character_id)

    def render(state: Any, events: list[dict]) -> dict[str, Any]:
        rules = service.rules_for(state)
        options = service.context(service.load(campaign)).options
        character = state.character(character_id)
        unknown = unknown_afflictions(state, options, character)
        from ....presentation import log_view
        from ....presentation.sentences import sentence

        # the lines the log tells for this answer (a periodic save's result too), as the player may read them
        lines = [line for e in log_view.for_people(events) if e["data"].get("character") == character_id
                 for line in [player_line(e, sentence(e, state, rules) or "", character, unknown)] if line]
        made = next((e["data"] for e in events if e["type"] in ("affliction_saved", "affliction_exposed")
                     and e["data"].get("character") == character_id), None) or _moment_roll(events, character_id)
        roll = None
        secret = any(about_unknown(e, unknown) for e in events if e["data"].get("character") == character_id)
        if made is not None and not secret:  # a secret affliction's roll: only what the page says (no total)
            roll = {k: made[k] for k in ("d20", "total", "bonus", "succeeded", "mode", "auto_fail") if k in made}
            roll["breakdown"] = mask(made.get("breakdown", {}), unknown)
        proposed = events[0]["type"] == "answer_proposed"
        return {"status": "awaiting_gm" if proposed else "applied", "lines": lines, "roll": roll,
                "proposed": {k: v for k, v in events[0]["data"].items() if k in ("how", "d20", "total")}
                if proposed else None,
                "prompts": prompts_doc(state, rules, options, character_id), "version": state.version}

    return service.answer(campaign, decide, render, request=intent)[2]


def _moment_roll(events: list[dict], character_id: str) -> dict[str, Any] | None:
    """The step of a moment (turn, Dash, action) made with the player's die: the first roll its note tells."""
    for e in events:
        if e["type"] == "noted" and e["data"].get("character") == character_id:
            step = next((r for r in e["data"].get("results") or () if r.get("total") is not None), None)
            if step is not None:
                return {**step, "succeeded": step["succeeded"] if "succeeded" in step else not step.get("failed")}
    return None


@router.get("/{token}", dependencies=[Language], summary="The player's view of their character (no GM secret)")
async def view(request: Request, token: str = Token,
               since: int | None = WholeQuery(None, ge=0, description="The version the player last saw: what happened since.")):
    def read() -> JSONResponse | None:  # (one hop: the answer has no response model, it is encoded here)
        with open_service(web(request)) as service:
            campaign, character = target(service, token)
            doc = player_view(service, campaign, character, since)
        return None if doc is None else as_json(doc)

    answer = await run_in_threadpool(read)
    if answer is None:
        raise Forbidden(NO_PLAYER_LINK, "player link")
    return answer


def as_json(doc: dict[str, Any]) -> JSONResponse:
    """A player's document as JSON, made in the thread that read it: a route without a response model had it
    encoded on the event loop (FastAPI's jsonable_encoder: about a fifth of a player's view, the loop's time)."""
    return JSONResponse(doc)


@router.get("/{token}/prompts", dependencies=[Language], summary="The saves waiting for the player's die")
def prompts(request: Request, token: str = Token):
    with open_service(web(request)) as service:
        campaign, character = target(service, token)
        loaded = service.load(campaign)
        ctx = service.context(loaded)
        return as_json({"prompts": prompts_doc(loaded.state, ctx.rules, ctx.options, character),
                        "version": loaded.head})


@router.post("/{token}/answer", dependencies=[Language], summary="Answer one of the player's prompts: roll for me, or the die I rolled")
async def answer(body: PlayerAnswerIn, request: Request, token: str = Token,
                 key: str | None = IdempotencyKey):
    intent = await client_request(request, key, None, None, token)

    def run() -> JSONResponse:
        with open_service(web(request)) as service:
            campaign, character = target(service, token)
            return as_json(answer_as_player(service, campaign, character, body.model_dump(), intent))

    return await run_action(web(request), run)
