"""API: exact odds of a disease or poison (domain/afflictions/odds.py, as `sawbones odds`), with the defaults or a
campaign's options and system."""

from typing import Any, Literal, TYPE_CHECKING

from fastapi import APIRouter, Depends, Query, Request
from fastapi import Path as PathParam
from pydantic import Field

from ....domain.afflictions import odds as model
from ....message import msg
from ....domain.engine.options import effective_options
from . import odds_injury as api_odds_injury
from . import models as m
from ..http.costly import BUSY, costly
from ..http.deps import GmAccess, gm_read, open_service, web
from ..http.params import WholeQuery

if TYPE_CHECKING:
    from ....content.rules import Rules

router = APIRouter()
router.include_router(api_odds_injury.router)  # first: /odds/party and /odds/injuries/... are not afflictions
Affliction = PathParam(..., min_length=1, max_length=60, description="A disease or poison (content id).")
Bonus = WholeQuery(0, ge=-30, le=60, description="The victim's save bonus (without the affliction's own stage penalties).")
FromStage = Query(None, min_length=1, max_length=40, description="Start on this stage (a deadly start).")
Doses = WholeQuery(0, ge=0, le=5, description="Extra doses taken at the same moment.")
Curve = Query(False, description="Also the stage distribution after each periodic save.")
Days = Query(None, ge=0, le=3650, allow_inf_nan=False, description="Horizon of the curve in game days (implies curve).")
System = Query(None, description="pf1e: a natural 1 fails and a natural 20 succeeds (default: the campaign's, "
                                 "else dnd5e).")


class OddsOut(m.Doc):
    affliction: str
    kind: str
    dc: int
    bonus: int
    system: str
    final: dict[str, float] = Field(description="Where the victim ends, by stage: probabilities.")
    death: float
    outcome: dict[str, float]
    expected_duration: dict[str, Any]
    campaign: str | None = None


def odds_doc(rules: "Rules", options: dict[str, Any], affliction: str, bonus: int, from_stage: str | None, doses: int,
             curve: bool, days: float | None, system: str) -> dict[str, Any]:
    """`sawbones odds AFFLICTION --bonus N [--from-stage S] [--doses K] [--curve] [--days D]`."""
    rules.get("afflictions", affliction)
    start = {"from_stage": from_stage, "doses": doses}
    doc = model.odds(rules, options, affliction, bonus, system=system, **start)
    if curve or days is not None:
        doc["curve"] = model.curve(rules, options, affliction, bonus, system=system, days=days, **start)
    return doc


@router.get("/odds/{affliction}", responses=BUSY, response_model=OddsOut, tags=["rules"],
            summary="Exact chances and timeline of a disease or poison (default options)")
@costly
def odds(request: Request, affliction: str = Affliction, bonus: int = Bonus, from_stage: str | None = FromStage,
         doses: int = Doses, curve: bool = Curve, days: float | None = Days,
         system: Literal["dnd5e", "pf1e"] | None = System):
    with open_service(web(request)) as service:
        rules = service.rules_for()
        doc = odds_doc(rules, effective_options(rules, {}), affliction, bonus, from_stage, doses, curve, days,
                       system or model.DEFAULT_SYSTEM)
        doc["campaign"] = None
        return doc


@router.get("/campaigns/{campaign}/odds/{affliction}", responses=BUSY, response_model=OddsOut, tags=["rules"],
            summary="Exact chances and timeline of a disease or poison, with the campaign's options and system")
@costly
def campaign_odds(request: Request, affliction: str = Affliction, bonus: int = Bonus,
                  from_stage: str | None = FromStage,
                  doses: int = Doses, curve: bool = Curve, days: float | None = Days,
                  system: Literal["dnd5e", "pf1e"] | None = System, gm: GmAccess = Depends(gm_read)):
    with gm.open() as service:
        loaded = service.load(gm.campaign)
        ctx = service.context(loaded)
        doc = odds_doc(ctx.rules, ctx.options, affliction, bonus, from_stage, doses, curve, days,
                       system or loaded.state.system)
        doc["campaign"] = gm.campaign
        return doc


class OddsTable(m.Doc):
    system: str
    bonuses: list[int]
    afflictions: list[dict[str, Any]]


@router.get("/odds", responses=BUSY, response_model=OddsTable, tags=["rules"],
            summary="Death chance of every disease and poison by save bonus (default options)")
@costly
def odds_table(request: Request, bonus_from: int = WholeQuery(-5, ge=-30, le=60), bonus_to: int = WholeQuery(25, ge=-30, le=60),
               system: Literal["dnd5e", "pf1e"] | None = System):
    """`sawbones odds --all --bonus A..B`."""
    from ....errors import UsageError

    if bonus_to < bonus_from:
        raise UsageError(msg("bonus_to must not be below bonus_from"), "bonus_to")
    bonuses = list(range(bonus_from, bonus_to + 1))
    system = system or model.DEFAULT_SYSTEM
    with open_service(web(request)) as service:
        rules = service.rules_for()
        return model.table_doc(rules, effective_options(rules, {}), bonuses, system)
