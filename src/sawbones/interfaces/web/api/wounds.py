"""API: localized wounds (3.5) and the roll query — the same decisions and documents as cli/wounds.py."""

from typing import Literal

from fastapi import APIRouter, Depends, Query
from pydantic import Field

from ....presentation.roll_answer import answer_doc
from ....presentation.roll_bonus import with_sheet
from ....presentation.wounds import roll_context
from ....domain.engine.campaign import find_character
from ....domain.engine.roll_query import query
from ....domain.wounds.rules import first_aid, heal_wounds, wound
from . import models as m
from .actions import Action, decided, register
from ..http.language import Language
from ..http.deps import CharacterKey, GmAccess, gm_read
from .reports import action_doc

router = APIRouter()


class WoundIn(m.CharacterName):
    part: m.Key = Field(description="hand, arm, head, eye, ear, foot_leg (or a content pack's part).")
    damage: int = Field(ge=1, le=10000, description="Damage taken by that part.")
    side: Literal["left", "right"] | None = None
    superficial: bool | None = Field(None, description="Superficial or not (default: by damage, option "
                                                        "superficial_threshold).")
    fort: int | None = Field(None, ge=-20, le=60, description="Total of the optional Fortitude save.")
    cause: m.Str(200, 0) = ""  # type: ignore[valid-type]
    rolls: Literal["gm", "players"] | None = Field(None, description=(
        "Who rolls the Fortitude save when no total is given: the server (gm) or the character's player (the wound "
        "waits for their die). Default: the option who_rolls."))


class FirstAidIn(m.CharacterName):
    wound: m.IdStr  # type: ignore[valid-type]
    check: int | None = Field(None, ge=-20, le=60, description="Total of the Heal check (default: rolled for the healer).")
    healer: m.NameStr | None = None  # type: ignore[valid-type]


class WoundHealIn(m.CharacterName):
    wounds: list[m.IdStr] = Field(default_factory=list, max_length=40,  # type: ignore[valid-type]
                                  description="Which wounds (default: all of the character's).")
    magic: int | None = Field(None, ge=0, le=10000, description="Hit points of magical healing.")
    rest: bool = Field(False, description="A day of rest has just ended.")
    hp: int | None = Field(None, ge=1, le=10000, description="With rest: hit points the rest gave back.")
    gm: bool = Field(False, description="The GM declares the wounds healed.")


def _wound_heal(body: WoundHealIn):
    """cli_wounds' `wound-heal`: the same decision."""
    return lambda ctx: heal_wounds(ctx, body.character, list(body.wounds), body.magic, body.rest, body.hp, body.gm)


register(Action("wound", WoundIn, m.ActionOut, summary="Wound one body part: -2 on what that part does", run=decided(
    lambda b: lambda ctx: wound(ctx, b.character, b.part, b.damage, b.side, b.superficial, b.fort, b.cause,
                                b.rolls),
    action_doc)))
register(Action("firstaid", FirstAidIn, m.ActionOut, summary="A DC 15 first-aid check on a superficial wound",
                run=decided(lambda b: lambda ctx: first_aid(ctx, b.character, b.wound, b.check, b.healer),
                            action_doc)))
register(Action("wound_heal", WoundHealIn, m.ActionOut, path="/wound-heal",
                summary="Heal wounds by magic, a day of rest or the GM's word",
                form_lists=("wounds",), run=decided(_wound_heal, action_doc)))


class ModsOut(m.Doc):
    character: str
    name: str
    system: str
    roll: dict
    modifier: int
    mode: str
    auto_fail: bool
    modifiers: list[dict]


def mods_doc(service, campaign: str, character: str, roll: str, **given) -> dict:
    """cli_wounds' `mods`: what applies to one roll, each line with its source."""
    loaded = service.load(campaign)
    ctx = service.context(loaded)
    found = find_character(loaded.state, character)
    context = roll_context(ctx.rules, roll, **given)  # (refuses with a UsageError where "roll", in its Message)
    answer = query(found, ctx.rules, ctx.options, loaded.state.system, context)
    return {"character": found.id, "name": found.name} | with_sheet(answer_doc(answer), found, ctx.rules,
                                                                    loaded.state.system)


@router.get("/campaigns/{campaign}/characters/{character}/mods", dependencies=[Language], response_model=ModsOut, tags=["characters"],
            summary="The roll query: what applies to one roll (modifier, advantage, conditions...), with sources")
def mods(character: str = CharacterKey,
         roll: str = Query(..., min_length=1, max_length=40, description="attack, damage, check, skill, save, "
                           "initiative, ac, ... or a skill, save or ability (perception, reflex, str)."),
         ability: Literal["str", "dex", "con", "int", "wis", "cha"] | None = None,
         skill: str | None = Query(None, max_length=40), save: str | None = Query(None, max_length=40),
         hand: Literal["left", "right", "both"] | None = None, range: Literal["ranged", "melee"] | None = None,
         sense: Literal["sight", "hearing"] | None = None, armor: str | None = Query(None, max_length=40),
         standing: bool | None = None, combat: bool | None = None, fear_in_sight: bool | None = None,
         weapon: bool | None = None,
         gm: GmAccess = Depends(gm_read)):
    with gm.open() as service:
        return mods_doc(service, gm.campaign, character, roll, ability=ability, skill=skill, save=save,
                        hand=hand, range=range, sense=sense, armor=armor, standing=standing, in_combat=combat,
                        fear_source_in_sight=fear_in_sight, weapon=weapon)
