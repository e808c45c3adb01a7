"""Issue 41, items 5 and 8: what a client sends is a 4xx in the one JSON error shape, never a 500; the log never
holds a player's token. The attacker's steps: numbers that `str.isdigit()` takes but `int()` does not ("²") in
every place the server reads an integer (If-Match, Last-Event-ID, ?after=, ?since=, the seen cookie, a form's
expected_version, Content-Length), JSON nested 2,000 deep on every path that reads a body, and a 500 provoked
on a player's page."""

from __future__ import annotations

import json
import logging
import re
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sawbones.application.service import Service
from sawbones.interfaces.web import create_app
from sawbones.interfaces.web.pages import pages_player
from sawbones.interfaces.web.app import load_areas
from sawbones.numbers import parse_int

load_areas()
SUPERSCRIPT, ARABIC = "²", "٣"
DEEP = "[" * 2000 + "]" * 2000
HIT = {"character": "Aria", "parts": [{"amount": 2, "type": "fire"}]}


@pytest.fixture
def api(db):
    client = TestClient(create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=1),
                        raise_server_exceptions=False)
    client.__enter__()
    made = client.post("/api/campaigns", json={"name": "Alpha", "seed": 7})
    client.headers["Authorization"] = f"Bearer {made.json()['gm_secret']}"
    client.secret = made.json()["gm_secret"]
    assert client.post("/api/campaigns/Alpha/characters", json={"name": "Aria", "max_hp": 30}).status_code == 201
    yield client
    client.__exit__(None, None, None)


def _one_shape(answer, status=422):
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/json"), answer.text
    error = answer.json()["error"]
    assert set(error) >= {"code", "message", "where"}
    return error


def test_the_one_integer_parser_takes_ascii_digits_only():
    assert parse_int("12") == 12 and parse_int(" 7 ") == 7 and parse_int("-3", signed=True) == -3
    for text in (SUPERSCRIPT, ARABIC, "1_000", "", "-3", "1" * 19, "12a", None, 3):
        assert parse_int(text) is None, text
    assert parse_int("50", 1, 40) is None


@pytest.mark.parametrize("value", [b"\xb2", b'"\xb2"', b'W/"\xb9"', b"1_0"])  # ², ¹ in latin-1, as headers come
def test_if_match_that_is_not_ascii_digits_is_a_422(api, value):
    # the action's short way, and FastAPI's own (a query parameter sends it there)
    _one_shape(api.post("/api/campaigns/Alpha/damage", json=HIT, headers={"If-Match": value}))
    _one_shape(api.post("/api/campaigns/Alpha/damage?lang=fr&x=1", json=HIT, headers={"If-Match": value}))
    _one_shape(api.post("/api/campaigns/Alpha/undo", headers={"If-Match": value}))


def test_the_events_stream_answers_a_bad_resume_point_in_the_json_shape(api):
    for headers, query in (({"Last-Event-ID": b"\xb2"}, ""), ({}, f"?after={SUPERSCRIPT}"),
                           ({}, f"?after={ARABIC}"), ({"Last-Event-ID": b"\xb3"}, "")):
        error = _one_shape(api.get(f"/api/campaigns/Alpha/events{query}", headers=headers))
        assert error["code"] == "usage"


def test_a_player_page_ignores_a_seen_cookie_or_since_it_cannot_read(api):
    token = api.post("/api/campaigns/Alpha/characters/Aria/player-link").json()["url"].rsplit("/", 1)[1]
    cookie = pages_player.SEEN_COOKIE.encode() + b"=\xb2"
    assert api.get(f"/p/{token}", headers={"Cookie": cookie}).status_code == 200
    assert api.get(f"/p/{token}/sheet?since={SUPERSCRIPT}").status_code == 200


def test_a_form_with_an_unreadable_expected_version_is_no_500(api):
    from tests.test_web_api import sign_in

    sign_in(api, secret=api.secret)
    page = api.get("/c/Alpha").text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    done = api.post("/c/Alpha/act/damage", data={"csrf": csrf, "expected_version": SUPERSCRIPT, "character": "Aria",
                                                  "parts.0.amount": "2", "parts.0.type": "fire", "back": "party"})
    assert done.status_code < 500


def test_content_length_that_is_not_ascii_digits_is_a_400():
    from sawbones.interfaces.web.http.guard import refused

    assert refused({"content-length": SUPERSCRIPT}, None, 1000)[0] == 400


@pytest.mark.parametrize("path,headers", [
    ("/api/campaigns/Alpha/damage", {}),  # an action's short way
    ("/api/campaigns/Alpha/damage?x=1", {}),  # FastAPI's own way
    ("/api/campaigns/Alpha/undo", {"Idempotency-Key": "k-1"}),  # the key's digest reads the body
    ("/api/campaigns", {}),
])
def test_json_nested_2000_deep_is_one_422_on_every_path(api, path, headers):
    answer = api.post(path, content=DEEP, headers={"Content-Type": "application/json", **headers})
    error = _one_shape(answer)
    assert "64 deep" in error["message"]
    nested_in_a_string = json.dumps({"character": "Aria", "parts": [{"amount": 2, "type": "fire"}],
                                     "note": "[" * 500})
    assert api.post("/api/campaigns/Alpha/damage", content=nested_in_a_string,
                    headers={"Content-Type": "application/json"}).status_code == 422  # (unknown field: the model's)
    assert api.get("/api/campaigns/Alpha/characters/Aria").json()["hp"] == 30


def test_a_deep_body_to_a_path_no_route_serves_is_its_405_unread(api):
    answer = api.post("/api/campaigns/Alpha/options", content=DEEP,
                      headers={"Content-Type": "application/json", "Idempotency-Key": "k-2"})
    assert _one_shape(answer, 405)["code"] == "method_not_allowed"


def test_a_deep_body_of_another_type_with_a_key_is_no_500(api):
    answer = api.post("/api/campaigns/Alpha/undo", content="[" * 100_000,
                      headers={"Content-Type": "text/plain", "Idempotency-Key": "k-3"})
    assert answer.status_code < 500 and "error" in answer.json()


def test_a_500_on_a_player_page_never_writes_the_token_to_the_log(api, monkeypatch, caplog):
    token = api.post("/api/campaigns/Alpha/characters/Aria/player-link").json()["url"].rsplit("/", 1)[1]

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(pages_player, "player_doc", broken)
    with caplog.at_level(logging.ERROR, logger="sawbones.web"):
        answer = api.get(f"/p/{token}/sheet")
    assert answer.status_code == 500
    assert "internal error on GET /p/…/sheet" in caplog.text
    assert token not in caplog.text and token not in answer.text
