"""Issue 41, item 10: undo names the action it means. The GM's steps: the GM hits Aria (a2); a bot (or a VTT,
or another browser) hits Bram after it (a3); the GM asks to undo a2 — refused, nothing applied, since the last
action is the bot's. Plain undo keeps working. CLI, API and dashboard alike."""

from __future__ import annotations

import re
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sawbones.application.service import Service
from sawbones.interfaces.web import create_app
from sawbones.interfaces.web.app import load_areas

load_areas()


@pytest.fixture
def api(db):
    client = TestClient(create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=3))
    client.__enter__()
    made = client.post("/api/campaigns", json={"name": "Alpha", "seed": 7})
    client.headers["Authorization"] = f"Bearer {made.json()['gm_secret']}"
    client.secret = made.json()["gm_secret"]
    for name in ("Aria", "Bram"):
        assert client.post("/api/campaigns/Alpha/characters", json={"name": name, "max_hp": 30}).status_code == 201
    yield client
    client.__exit__(None, None, None)


def _hit(api, who):
    done = api.post("/api/campaigns/Alpha/damage", json={"character": who, "parts": [{"amount": 4, "type": "fire"}]})
    assert done.status_code == 200, done.text
    return max(e["action"] for e in api.get("/api/campaigns/Alpha/log").json()["events"])


def _hp(api, who):
    return api.get(f"/api/campaigns/Alpha/characters/{who}").json()["hp"]


def test_the_api_refuses_to_undo_an_action_that_is_not_the_last(api):
    mine = _hit(api, "Aria")
    bots = _hit(api, "Bram")
    head = api.get("/api/campaigns/Alpha/log").json()["events"][-1]["version"]
    refused = api.post("/api/campaigns/Alpha/undo", json={"action": f"a{mine}"})
    assert refused.status_code == 409, refused.text
    assert refused.json()["error"]["code"] == "conflict"
    assert f"a{bots}" in refused.json()["error"]["message"]
    assert (_hp(api, "Aria"), _hp(api, "Bram")) == (26, 26), "nothing was undone"
    assert api.get("/api/campaigns/Alpha/log").json()["events"][-1]["version"] == head, "nothing was written"
    # naming the last one undoes it; the number alone is read the same
    done = api.post("/api/campaigns/Alpha/undo", json={"action": f"a{bots}"})
    assert done.status_code == 200 and done.json()["undone_action"] == bots
    assert api.post("/api/campaigns/Alpha/undo", json={"action": mine}).json()["undone_action"] == mine
    assert (_hp(api, "Aria"), _hp(api, "Bram")) == (30, 30)


def test_plain_undo_keeps_working_with_or_without_a_body(api):
    last = _hit(api, "Aria")
    assert api.post("/api/campaigns/Alpha/undo").json()["undone_action"] == last
    last = _hit(api, "Bram")
    assert api.post("/api/campaigns/Alpha/undo", json={}).json()["undone_action"] == last
    bad = api.post("/api/campaigns/Alpha/undo", json={"action": "²"})
    assert bad.status_code == 422 and "error" in bad.json()


def test_the_cli_names_the_action(cli):
    assert cli("campaign", "create", "Old Road").code == 0
    cli("character", "add", "Aria")
    cli("character", "add", "Bram")
    refused = cli("undo", "a2")
    assert refused.code != 0 and "the last action is a3, not a2" in refused.err
    assert len(cli("--json", "character", "list").json["characters"]) == 2
    assert cli("--json", "undo", "a3").json["undone_action"] == 3
    assert cli("--json", "undo", "a2").json["undone_action"] == 2
    assert cli("undo", "x2").code != 0


def test_the_dashboards_undo_button_sends_the_action_it_shows(api):
    from tests.test_web_api import sign_in

    sign_in(api, secret=api.secret)
    mine = _hit(api, "Aria")
    page = api.get("/c/Alpha").text
    shown = re.search(r'name="action" value="a(\d+)"', page)
    assert shown and int(shown.group(1)) == mine
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    _hit(api, "Bram")  # the bot, after the page was shown
    version = api.get("/api/campaigns/Alpha/log").json()["events"][-1]["version"]
    # even with a fresh expected version (another tab's), the named action is what is checked
    api.post("/c/Alpha/act/undo", data={"csrf": csrf, "action": f"a{mine}", "expected_version": str(version),
                                        "back": "log"})
    assert (_hp(api, "Aria"), _hp(api, "Bram")) == (26, 26)


def test_a_write_cut_off_after_its_commit_says_so_and_its_keyed_retry_applies_once(api, monkeypatch):
    """Issue 41, item 10: the database drops the connection just after the action committed (a PostgreSQL
    restart). The bot gets a 503 that says the write may have been applied; it retries with the same key, as
    docs/integrations.md tells it to: the action counts once."""
    from sawbones.adapters.store import SqlEventStore
    from sawbones.errors import StoreError

    appended = SqlEventStore.append
    cut = {"once": True}

    def cut_off(self, *args, **kwargs):
        result = appended(self, *args, **kwargs)
        if cut["once"]:
            cut["once"] = False
            raise StoreError("database unavailable (server closed the connection unexpectedly)")
        return result

    monkeypatch.setattr(SqlEventStore, "append", cut_off)
    hit = {"character": "Aria", "parts": [{"amount": 4, "type": "fire"}]}
    first = api.post("/api/campaigns/Alpha/damage", json=hit, headers={"Idempotency-Key": "bot-17"})
    assert first.status_code == 503, first.text
    error = first.json()["error"]
    assert error["outcome"] == "unknown" and "may have been applied" in error["message"]
    assert "same Idempotency-Key is safe" in error["message"] and first.headers["Retry-After"]
    french = api.post("/api/campaigns/Alpha/damage?lang=fr", json=hit, headers={"Idempotency-Key": "bot-17"})
    retry = api.post("/api/campaigns/Alpha/damage", json=hit, headers={"Idempotency-Key": "bot-17"})
    assert french.status_code == retry.status_code == 200, retry.text
    assert _hp(api, "Aria") == 26, "applied once"
