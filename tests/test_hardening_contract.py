"""Issue 41, item 9: the API's contract says what the server does. The client's steps: read the OpenAPI
document and send what it allows (an If-Match it declares valid, headers on the routes that declare them);
ask HEAD where GET answers; read a 405's Allow and a 429's Retry-After; name a campaign as the command line
does (any case); reach an open server on the network through a rebound DNS name."""

from __future__ import annotations

import re
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sawbones.application.service import Service
from sawbones.interfaces.cli.web import server_settings
from sawbones.interfaces.web import create_app
from sawbones.interfaces.web.app import load_areas

load_areas()


@pytest.fixture
def api(db):
    client = TestClient(create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=1))
    client.__enter__()
    made = client.post("/api/campaigns", json={"name": "Alpha", "seed": 7})
    client.headers["Authorization"] = f"Bearer {made.json()['gm_secret']}"
    assert client.post("/api/campaigns/Alpha/characters", json={"name": "Aria", "max_hp": 30}).status_code == 201
    yield client
    client.__exit__(None, None, None)


def _headers_of(operation: dict) -> dict[str, dict]:
    return {p["name"]: p for p in operation.get("parameters", []) if p.get("in") == "header"}


def test_if_match_is_declared_as_the_server_reads_it_and_only_where_honoured(api):
    paths = api.get("/api/openapi.json").json()["paths"]
    declaring = 0
    for path, operations in paths.items():
        for method, operation in operations.items():
            headers = _headers_of(operation)
            if "If-Match" in headers:
                declaring += 1
                schema = headers["If-Match"]["schema"]
                pattern = schema.get("pattern") or next(s.get("pattern") for s in schema["anyOf"] if s.get("pattern"))
                assert re.fullmatch(pattern, '"13"') and re.fullmatch(pattern, "W/\"13\"") and re.fullmatch(pattern, "13")
                assert not re.search(pattern, "²") and not re.search(pattern, "abc")
            if method == "get" or path.endswith(("/player-link", "/sign-in-link", "/end-sessions", "/gm-secret")):
                assert "Idempotency-Key" not in headers and "If-Match" not in headers, (method, path)
    assert declaring > 20


def test_head_answers_where_get_does_without_a_body(api):
    for path in ("/tables", "/api/tables", "/api/campaigns/Alpha/characters/Aria"):
        got, head = api.get(path), api.head(path)
        assert head.status_code == got.status_code == 200, (path, head.status_code)
        assert head.content == b"" and head.headers["content-type"] == got.headers["content-type"]


def test_a_pages_405_names_the_methods_allowed(api):
    for method, path in (("POST", "/tables"), ("DELETE", "/"), ("PUT", "/api/tables")):
        refused = api.request(method, path)
        assert refused.status_code == 405
        allowed = {m.strip() for m in refused.headers["Allow"].split(",")}
        assert {"GET", "HEAD"} <= allowed, (path, refused.headers["Allow"])


def test_too_many_streams_says_when_to_come_back(api, monkeypatch):
    monkeypatch.setenv("SAWBONES_STREAMS_PER_TOKEN", "1")
    from sawbones.interfaces.web.live import hub

    monkeypatch.setattr(hub, "PER_TOKEN", 1, raising=False)
    with api.stream("GET", "/api/campaigns/Alpha/events") as first:
        assert first.status_code == 200
        second = api.get("/api/campaigns/Alpha/events")
        if second.status_code == 200:
            pytest.skip("this hub reads its caps once per process")
        assert second.status_code == 429 and int(second.headers["Retry-After"]) >= 1


def test_a_campaign_name_reads_in_any_case_as_on_the_command_line(api, db, cli):
    assert api.get("/api/campaigns/alpha/characters/Aria").status_code == 200
    assert api.get("/api/campaigns/ALPHA/characters/Aria").json()["name"] == "Aria"
    hit = api.post("/api/campaigns/alpha/damage", json={"character": "Aria", "parts": [{"amount": 3, "type": "fire"}]})
    assert hit.status_code == 200, hit.text
    assert api.get("/api/campaigns/Alpha/characters/Aria").json()["hp"] == 27
    assert cli("--campaign", "alpha", "--json", "status").code == 0
    from tests.test_web_api import sign_in

    sign_in(api, secret=api.headers["Authorization"].split()[1])
    page = api.get("/c/ALPHA", follow_redirects=False)
    assert page.status_code == 303 and page.headers["location"] == "/c/Alpha"


def test_an_open_server_on_the_network_answers_only_its_own_names(db):
    settings = server_settings("0.0.0.0", "open", (), 1_000_000)
    app = create_app(lambda: Service.open(db), closed=settings["closed"], allowed_hosts=tuple(settings["allowed_hosts"]))
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        assert client.get("/api/tables").status_code == 200
        rebound = client.get("/api/tables", headers={"Host": "rebind.attacker.example:8000"})
        assert rebound.status_code == 400 and rebound.json()["error"]["code"] == "host_refused"
