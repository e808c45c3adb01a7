"""API: exact odds of lingering injuries (issue 17; domain/injuries/odds.py, odds_treatment.py, odds_party.py, as
`sawbones odds --injury` and `--party`), with the defaults or a campaign's options.

Included by api_odds before its `/odds/{affliction}` routes, so `/odds/party` and `/odds/injuries/...` are
never read as an affliction."""

from typing import Any, TYPE_CHECKING

from fastapi import APIRouter, Depends, Query, Request
from fastapi import Path as PathParam

from ....adapters import odds_cache
from ....message import msg
from ....domain.injuries import odds_party
from ....domain.injuries.odds import MAX_BONUS, MAX_WAIT_DAYS, MIN_BONUS
from ....domain.injuries.odds_drop import drop_doc
from ....domain.injuries.odds_treatment import treatment_doc
from ....domain.engine.options import effective_options
from ....errors import UsageError
from ....presentation.locale import say
from . import models as m
from ..http.costly import BUSY, checkpoint, costly
from ..http.deps import GmAccess, gm_read, open_service, web
from ..http.params import WholeQuery

if TYPE_CHECKING:
    from ....content.rules import Rules

router = APIRouter()
DamageType = PathParam(..., min_length=1, max_length=40, description="A damage type (its injury table).")
D20 = WholeQuery(..., ge=1, le=20, description="The injury d20's face.")
HealerBonus = WholeQuery(5, ge=MIN_BONUS, le=MAX_BONUS, description="The healer's check bonus (Wisdom (Medicine)).")
Wait = Query(0, ge=0, le=MAX_WAIT_DAYS, allow_inf_nan=False, description="Game days before treatment starts.")
Self = Query(False, description="The injured treats themself (self_treatment: disadvantage by default).")
PerSession = odds_party.MAX_PER_SESSION


def _per_session(default: float, what: str) -> Any:
    return Query(default, ge=0, le=PerSession, allow_inf_nan=False, description=f"{what} per session.")


class DropOut(m.Doc):
    table: str
    bands: str
    odds: dict[str, dict[str, Any]]
    campaign: str | None = None


class TreatmentOut(m.Doc):
    table: str
    d20: int
    injury: str
    severity: str
    bonus: int
    healed: float
    lost: float
    never_heals: float
    attempts: list[dict[str, Any]]
    days: list[dict[str, Any]]
    campaign: str | None = None


class PartyOut(m.Doc):
    profile: dict[str, Any]
    base: dict[str, Any]
    variants: list[dict[str, Any]]
    campaign: str | None = None


def _defaults(request: Request) -> tuple[Any, dict[str, Any], Any]:
    with open_service(web(request)) as service:
        rules = service.rules_for()
    return rules, effective_options(rules, {}), None


def _party(rules: "Rules", options: dict[str, Any], drops: float, types: str | None, bonus: int, wait: float,
           self_treatment: bool, npc_drops: float, critical_failures: float, compare: str | None) -> dict[str, Any]:
    from ....presentation.damage_types import parse_types

    parsed = parse_types(types)  # (refuses with a UsageError where "types", in its Message)
    if types is not None and len(types) > 400:
        raise UsageError(msg("types: at most 400 characters"), "types")
    wanted = None if compare == "all" else [c.strip() for c in compare.split(",") if c.strip()] if compare else []
    profile = odds_party.Profile(drops=drops, types=parsed, bonus=bonus, wait_days=wait, self_treatment=self_treatment,
                                 npc_drops=npc_drops, critical_failures=critical_failures)
    doc = odds_party.what_if(rules, options, profile, wanted, keep=_checked)
    return {**doc, "not_compared": [{**n, "why": say(n["why"])} for n in doc["not_compared"]]}


def _checked(options: dict[str, Any]) -> Any:
    """Between two option sets compared: stop when the client has left (costly.py)."""
    from contextlib import nullcontext

    checkpoint()
    return nullcontext()


@router.get("/odds/injuries/{damage_type}", responses=BUSY, response_model=DropOut, tags=["rules"],
            summary="One drop to 0 with a damage type: exact chance of each severity and row, standard and lenient")
@costly
def drop(request: Request, damage_type: str = DamageType):
    rules, options, _ = _defaults(request)
    return {**drop_doc(rules, options, damage_type.lower()), "campaign": None}


@router.get("/campaigns/{campaign}/odds/injuries/{damage_type}", responses=BUSY, response_model=DropOut, tags=["rules"],
            summary="One drop to 0 with a damage type, with the campaign's options")
@costly
def campaign_drop(request: Request, damage_type: str = DamageType, gm: GmAccess = Depends(gm_read)):
    with gm.open() as service:
        ctx = service.context(service.load(gm.campaign))
        return {**drop_doc(ctx.rules, ctx.options, damage_type.lower()), "campaign": gm.campaign}


@router.get("/odds/injuries/{damage_type}/treatment", responses=BUSY, response_model=TreatmentOut, tags=["rules"],
            summary="Healing an injury by treatment: attempts, game time, deadline (default options)")
@costly
def treatment(request: Request, damage_type: str = DamageType, d20: int = D20, bonus: int = HealerBonus,
              wait: float = Wait, self_treatment: bool = Self):
    rules, options, _ = _defaults(request)
    with odds_cache.kept(rules, options):
        doc = treatment_doc(rules, options, damage_type.lower(), d20, bonus, wait_days=wait,
                            self_treatment=self_treatment)
    return {**doc, "campaign": None}


@router.get("/campaigns/{campaign}/odds/injuries/{damage_type}/treatment", responses=BUSY, response_model=TreatmentOut,
            tags=["rules"], summary="Healing an injury by treatment, with the campaign's options")
@costly
def campaign_treatment(request: Request, damage_type: str = DamageType, d20: int = D20, bonus: int = HealerBonus,
                       wait: float = Wait,
                       self_treatment: bool = Self, gm: GmAccess = Depends(gm_read)):
    with gm.open() as service:
        ctx = service.context(service.load(gm.campaign))
        with odds_cache.kept(ctx.rules, ctx.options):
            doc = treatment_doc(ctx.rules, ctx.options, damage_type.lower(), d20, bonus, wait_days=wait,
                                self_treatment=self_treatment)
        return {**doc, "campaign": gm.campaign}


Types = Query(None, max_length=400, description="Damage types met, with weights: fire,slashing=2 (default: all alike).")
Compare = Query(None, max_length=400, description="Options to compare side by side, comma-separated, or all (every "
                                                  "injury option that is a choice or a switch; slow). Default: none.")


@router.get("/odds/party", responses=BUSY, response_model=PartyOut, tags=["rules"],
            summary="A party profile's injuries per session, and under the options compared (default options)")
@costly
def party(request: Request, drops: float = _per_session(1, "Player characters dropping to 0"),
          types: str | None = Types,
          bonus: int = HealerBonus, wait: float = Wait, self_treatment: bool = Self,
          npc_drops: float = _per_session(0, "NPCs dropping to 0"),
          critical_failures: float = _per_session(0, "Critical failures"), compare: str | None = Compare):
    rules, options, _ = _defaults(request)
    with odds_cache.kept(rules, options):
        doc = _party(rules, options, drops, types, bonus, wait, self_treatment, npc_drops, critical_failures, compare)
    return {**doc, "campaign": None}


@router.get("/campaigns/{campaign}/odds/party", responses=BUSY, response_model=PartyOut, tags=["rules"],
            summary="A party profile's injuries per session, with the campaign's options and the ones compared")
@costly
def campaign_party(request: Request, drops: float = _per_session(1, "Player characters dropping to 0"),
                   types: str | None = Types,
                   bonus: int = HealerBonus, wait: float = Wait, self_treatment: bool = Self,
                   npc_drops: float = _per_session(0, "NPCs dropping to 0"),
                   critical_failures: float = _per_session(0, "Critical failures"), compare: str | None = Compare,
                   gm: GmAccess = Depends(gm_read)):
    with gm.open() as service:
        ctx = service.context(service.load(gm.campaign))
        with odds_cache.kept(ctx.rules, ctx.options):
            doc = _party(ctx.rules, ctx.options, drops, types, bonus, wait, self_treatment, npc_drops,
                         critical_failures, compare)
        return {**doc, "campaign": gm.campaign}
