"""API: the rule tables and rolling on them, with or without a campaign (presentation/tables.py's documents)."""

from typing import Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi import Path as PathParam

from ....presentation import views
from ....presentation.tables import index_doc, table_doc
from ....domain.engine.options import effective_options
from . import models as m
from ..http.language import Language
from ..http.deps import GmAccess, gm_read, open_service, web
from ..http.params import WholeQuery

router = APIRouter()
TableId = PathParam(..., min_length=1, max_length=60, description="A table id: severity, body_parts, fire, a track, "
                                                                    "a disease or a poison.")


@router.get("/tables", dependencies=[Language], response_model=m.TablesIndex, tags=["rules"], summary="Every table of the three rules")
def tables(request: Request):
    with open_service(web(request)) as service:
        return index_doc(service.rules_for())


@router.get("/tables/{table}", dependencies=[Language], response_model=m.TableOut, tags=["rules"], summary="One table")
def table(request: Request, table: str = TableId):
    with open_service(web(request)) as service:
        return table_doc(service.rules_for(), table)


@router.get("/options", dependencies=[Language], response_model=m.OptionsOut, tags=["rules"], summary="Every ruleset option and its default")
def options(request: Request):
    with open_service(web(request)) as service:
        rules = service.rules_for()
        return views.options_doc(rules, effective_options(rules, {}))


D20 = WholeQuery(None, ge=1, le=20, description="The d20 the player rolled (default: rolled for you).")
Bands = Query(None, description="Severity bands (default: the campaign's, else standard).")


@router.get("/roll/{table}", dependencies=[Language], response_model=m.RollOut, tags=["rules"],
            summary="Roll one injury on a damage type's table (default options)")
def roll(request: Request, table: str = TableId, d20: int | None = D20,
         bands: Literal["standard", "lenient"] | None = Bands):
    with open_service(web(request)) as service:
        rules = service.rules_for()
        return views.roll_doc(rules, effective_options(rules, {}), table, d20, bands)


@router.get("/campaigns/{campaign}/roll/{table}", dependencies=[Language], response_model=m.RollOut, tags=["rules"],
            summary="Roll one injury on a damage type's table, with the campaign's options")
def campaign_roll(table: str = TableId, d20: int | None = D20, bands: Literal["standard", "lenient"] | None = Bands,
                  gm: GmAccess = Depends(gm_read)):
    with gm.open() as service:
        ctx = service.context(service.load(gm.campaign))
        return views.roll_doc(ctx.rules, ctx.options, table, d20, bands)
