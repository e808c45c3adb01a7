"""What an answer may carry. The attacker's steps: make the server's database unavailable and read its 503s (no
file path, no PostgreSQL URL, one wording that does not contradict itself); read the OpenAPI document and send
every `lang` it allows (the server accepts exactly those); post a dashboard form with a 100 KB `back` and read
the Location."""

from __future__ import annotations

import re
import shutil
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sawbones.application.service import Service
from sawbones.interfaces.web import create_app
from sawbones.presentation.locale import languages


@pytest.fixture
def api(tmp_path):
    folder = tmp_path / "private-folder"
    folder.mkdir()
    db = str(folder / "table.db")
    with TestClient(create_app(lambda: Service.open(db)), base_url="http://testserver") as client:
        made = client.post("/api/campaigns", json={"name": "Alpha", "seed": 7})
        assert made.status_code == 201, made.text
        client.secret = made.json()["gm_secret"]
        yield client, folder


def test_a_503_names_no_path_and_says_one_thing(api):
    client, folder = api
    auth = {"Authorization": f"Bearer {client.secret}"}
    shutil.rmtree(folder)  # the database's folder is gone (an unmounted disk)
    answers = [client.get("/api/campaigns/Alpha/status", headers=auth),
               client.post("/api/campaigns/Alpha/characters", json={"name": "Aria", "max_hp": 10}, headers=auth),
               client.get("/api/campaigns", headers=auth), client.get("/c/Alpha")]
    assert answers[1].status_code == 503, answers[1].text[:300]  # (reads may still be served from memory)
    for answer in (a for a in answers if a.status_code == 503):
        assert "private-folder" not in answer.text and "table.db" not in answer.text, answer.text[:500]
        assert answer.headers["Retry-After"]
        text = answer.text.lower()
        assert not ("nothing was written" in text and "may have been applied" in text), answer.text[:500]
    said = answers[1].json()["error"]
    assert said["where"] == "POST /api/campaigns/Alpha/characters" and "may have been applied" in said["message"]


def test_the_openapi_document_says_exactly_which_lang_is_accepted(api):
    client, _ = api
    spec = client.get("/api/openapi.json").json()
    declared = []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", []):
                if parameter["name"] == "lang":
                    strings = [s for s in parameter["schema"].get("anyOf", [parameter["schema"]])
                               if s.get("type") == "string"]
                    assert strings and all(s.get("enum") == list(languages()) for s in strings), (path, parameter)
                    declared.append((method, path))
    assert declared
    auth = {"Authorization": f"Bearer {client.secret}"}
    path = next(p for m, p in declared if m == "get" and "{" not in p.replace("{campaign}", ""))
    path = path.replace("{campaign}", "Alpha")
    for lang in languages():
        assert client.get(path, params={"lang": lang}, headers=auth).status_code == 200
    assert client.get(path, params={"lang": ""}, headers=auth).status_code == 422


def test_back_is_bounded_in_the_location(api):
    from tests.test_web_api import sign_in

    client, _ = api
    sign_in(client, "Alpha", client.secret)
    csrf = re.search(r'name="csrf" value="([^"]+)"', client.get("/c/Alpha").text).group(1)
    for back in ("x" * 100_000, "party\r\nSet-Cookie: a=b", "log"):
        done = client.post("/c/Alpha/act/add", data={"csrf": csrf, "name": "Aria", "max_hp": "10", "back": back},
                           follow_redirects=False)
        location = done.headers["location"]
        assert len(location) < 200 and location.endswith("#party" if back != "log" else "#log"), location[:300]
