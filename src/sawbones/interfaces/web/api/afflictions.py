"""API: diseases and poisons on their progression tracks — the same decisions as cli/afflictions.py."""

from typing import Literal

from fastapi import APIRouter, Depends
from pydantic import Field

from ....domain.afflictions.care import cast, recover
from ....domain.afflictions.decide import answer, expose
from . import models as m
from .actions import Action, decided, register
from ..http.language import Language
from ..http.deps import GmAccess, gm_read
from .reports import action_doc, advance_doc, pending_list

router = APIRouter()


class ExposeIn(m.CharacterName):
    affliction: m.Key = Field(description="The disease or poison (content id, e.g. giant_scorpion_venom).")
    save: int | None = Field(None, ge=-20, le=80, description="The initial save's total, as rolled at the table.")
    d20: int | None = Field(None, ge=1, le=20, description="The natural d20 (alone: the character's bonus is added).")
    deadly: m.Key | None = Field(None, description="A truly deadly affliction: start at this stage.")
    rolls: Literal["gm", "players"] | None = Field(None, description=(
        "Who rolls the initial save when no total is given: the server (gm) or the character's player (it waits as "
        "a pending save). Default: the option who_rolls."))


class AnswerIn(m.Strict):
    pending: m.IdStr = Field(description="The pending save's id (p3).")  # type: ignore[valid-type]
    total: int | None = Field(None, ge=-20, le=80, description="The save's total.")
    d20: int | None = Field(None, ge=1, le=20, description="The natural d20 (alone: the character's bonus is added).")
    auto: bool = Field(False, description="Roll any later save of the resumed advance.")
    roll: bool = Field(False, description="Roll this save with the campaign's dice (the character's bonus added).")
    confirm: bool = Field(False, description="Apply the player's answer that waits for the GM (confirm_player_answers).")
    reject: bool = Field(False, description="Refuse the player's answer: the save waits for the player again.")


class CureIn(m.CharacterName):
    affliction: m.IdStr = Field(description="The affliction on the character (d3, t4; a3 from before) or its content id.")  # type: ignore[valid-type]
    spell: m.Key = Field(description="neutralize_poison, remove_disease, heal, restoration, ...")
    cl_check: int | None = Field(None, ge=-20, le=100, description="The caster level check's total, as rolled.")
    cl: int | None = Field(None, ge=0, le=40, description="Caster level: roll the caster level check.")


class RecoverIn(m.CharacterName):
    how: Literal["bed_rest", "night"] = Field(description="A full day of bed rest, or a night of normal rest.")
    care: bool = Field(False, description="With long-term care: recovery doubled.")


class PendingList(m.Doc):
    pending: list[m.PendingOut]


register(Action("expose", ExposeIn, m.ActionOut, summary="Expose a character to a disease or poison", run=decided(
    lambda b: lambda ctx: expose(ctx, b.character, b.affliction, b.save, b.d20, b.deadly, b.rolls),
    action_doc)))
register(Action("answer", AnswerIn, m.AdvanceOut, tags=("campaign state",),
                summary="Give a pending save's total; the interrupted advance resumes", run=decided(
                    lambda b: lambda ctx: answer(ctx, b.pending, b.total, b.d20, b.auto, roll=b.roll, confirm=b.confirm,
                                                 reject=b.reject),
                    advance_doc)))
register(Action("cure", CureIn, m.ActionOut, summary="Cast a spell on one of a character's afflictions", run=decided(
    lambda b: lambda ctx: cast(ctx, b.character, b.affliction, b.spell, b.cl_check, b.cl),
    action_doc)))
register(Action("recover", RecoverIn, m.ActionOut, summary="Rest recovery from poisons out of the system", run=decided(
    lambda b: lambda ctx: recover(ctx, b.character, b.how == "bed_rest", b.care), action_doc)))


@router.get("/campaigns/{campaign}/pending", dependencies=[Language], response_model=PendingList, tags=["campaign state"],
            summary="Saves waiting for a player's die (an advance stopped there)")
async def pending(gm: GmAccess = Depends(gm_read)):
    def read(service):
        state = service.load(gm.campaign).state
        return {"pending": pending_list(state, service.rules_for(state))}

    return await gm.read(read)
