"""Every page reads a campaign's name as the API and the CLI do: case- and accent-blind (one resolver,
pages_common.page_campaign over security.stored_name); every whole number of a query goes through numbers.parse_int.

The user's steps: the GM of "Éloïse" types /c/eloise: the dashboard answered, but its player-link and secret forms
(POST /c/eloise/player-link/nia, /c/eloise/api-secret), its live parts and its actions said "no campaign named".
"""

from __future__ import annotations

import re
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sawbones.application.service import Service
from sawbones.interfaces.web import create_app


def csrf_of(page) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)


@pytest.fixture()
def gm(db):
    with TestClient(create_app(lambda: Service.open(db)), base_url="http://testserver") as client:
        made = client.post("/api/campaigns", json={"name": "Éloïse", "seed": 7}).json()
        auth = {"Authorization": f"Bearer {made['gm_secret']}"}
        client.post("/api/campaigns/eloise/characters", json={"name": "Nia", "max_hp": 9}, headers=auth)
        assert client.get(made["gm_link"].split("testserver", 1)[-1]).status_code == 200  # signed in
        yield client, auth


@pytest.mark.parametrize("typed", ["eloise", "ELOÏSE", "Eloise"])
def test_every_gm_page_takes_the_name_as_the_api_does(gm, typed):
    client, auth = gm
    page = client.get(f"/c/{typed}")
    assert page.status_code == 200 and "Nia" in page.text
    csrf = csrf_of(page)
    renewed = client.post(f"/c/{typed}/player-link/nia", data={"csrf": csrf, "do": "renew"})
    assert renewed.status_code == 200 and re.search(r'id="shown-secret">http://testserver/p/', renewed.text), \
        renewed.text[-800:]
    secret = client.post(f"/c/{typed}/api-secret", data={"csrf": csrf})
    assert secret.status_code == 200 and auth["Authorization"].split()[1] in secret.text
    for part in ("party", "bar", "pending", "log"):
        assert client.get(f"/c/{typed}/part/{part}").status_code == 200, part
    done = client.post(f"/c/{typed}/act/damage", data={"csrf": csrf, "character": "nia", "parts.0.amount": "2",
                                                       "parts.0.type": "fire"}, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"].startswith("/c/%C3%89lo%C3%AFse")
    assert client.get("/api/campaigns/Éloïse/characters/Nia", headers=auth).json()["hp"] == 7
    link = client.post(f"/c/{typed}/sign-in-link", data={"csrf": csrf})
    assert link.status_code == 200 and "code=" in link.text


def test_a_name_that_means_no_campaign_is_still_refused(gm):
    client, _ = gm
    page = client.get("/c/eloise")
    refused = client.post("/c/nobody/player-link/nia", data={"csrf": csrf_of(page), "do": "renew"})
    assert refused.status_code == 404 and "nobody" in refused.text


def _query_params(dependant):
    yield from dependant.query_params
    for sub in dependant.dependencies:
        yield from _query_params(sub)


def test_every_integer_query_parameter_is_read_by_parse_int(db):
    """A walk of every route: a query parameter that is a whole number is declared params.Whole."""
    from fastapi.routing import APIRoute

    from sawbones.interfaces.web.http.params import whole

    app = create_app(lambda: Service.open(db))
    found, loose = [], []

    def routes(items):
        for route in items:
            inner = getattr(route, "original_router", None)
            yield from routes(inner.routes) if inner is not None else [route]

    for route in routes(app.router.routes):
        if not isinstance(route, APIRoute):
            continue
        for param in _query_params(route.dependant):
            if param.field_info.annotation in (int, int | None):
                found.append(f"{route.path}?{param.alias}")
                if not any(getattr(m, "func", None) is whole for m in param.field_info.metadata):
                    loose.append(f"{route.path}?{param.alias}")
    assert len(found) >= 10, found
    assert not loose, loose


@pytest.mark.parametrize("query", ["limit=1_0", "limit=10.0", "limit=٣", "limit=1e1"])
def test_a_query_number_is_digits(gm, query):
    client, auth = gm
    refused = client.get(f"/api/campaigns/eloise/log?{query}", headers=auth)
    assert refused.status_code == 422 and refused.json()["error"]["where"] == "query.limit", refused.text
    assert client.get("/api/campaigns/eloise/log?limit=10", headers=auth).status_code == 200
    assert client.get("/api/rules/tables/fire/roll?d20=1_2").status_code in (404, 422)


@pytest.mark.parametrize("field, typed", [("parts.0.amount", "1_0"), ("parts.0.amount", "2.0"), ("d20", "1_2")])
def test_a_forms_number_is_digits_too(gm, field, typed):
    """A dashboard form's whole numbers are read as the query's are: "1_0" is not ten."""
    client, auth = gm
    page = client.get("/c/eloise")
    form = {"csrf": csrf_of(page), "character": "nia", "parts.0.amount": "2", "parts.0.type": "fire", field: typed}
    done = client.post("/c/eloise/act/damage", data=form)
    assert "a whole number, not" in done.text, done.text[-1500:]
    assert client.get("/api/campaigns/eloise/characters/Nia", headers=auth).json()["hp"] == 9


def test_every_campaign_page_route_reads_its_name_through_the_one_resolver(db):
    """A walk of the GM pages under /c/{campaign}/…: each reads its campaign through page_campaign (the dashboard
    itself, /c/{campaign}, calls the same security.stored_name and redirects to the stored name)."""
    from fastapi.routing import APIRoute

    from sawbones.interfaces.web.pages.pages_common import page_campaign

    app = create_app(lambda: Service.open(db))

    def routes(items):
        for route in items:
            inner = getattr(route, "original_router", None)
            yield from routes(inner.routes) if inner is not None else [route]

    pages = [r for r in routes(app.router.routes) if isinstance(r, APIRoute) and r.path.startswith("/c/{campaign}/")]
    assert len(pages) >= 7, [r.path for r in pages]
    loose = [r.path for r in pages if not any(d.call is page_campaign for d in r.dependant.dependencies)]
    assert not loose, loose
