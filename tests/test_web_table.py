"""The GM's dashboard and the player's page at the table (issue 12): what an action did is shown whole
(never in the cookie), "Undo" says what it will undo and undoes only what the GM saw, the live parts of
the dashboard reload alone, and a revoked player link stops its page's stream at once."""

from __future__ import annotations

import re
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sawbones.application.service import Service
from sawbones.interfaces.web import create_app


@pytest.fixture
def app(db):
    return create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=3)


@pytest.fixture
def api(app):
    with TestClient(app, base_url="http://testserver") as client:
        yield client


def campaign(api, *names: str, max_hp: int = 20) -> tuple[dict, dict]:
    made = api.post("/api/campaigns", json={"name": "Alpha", "seed": 7})
    assert made.status_code == 201, made.text
    made = made.json()
    gm = {"Authorization": f"Bearer {made['gm_secret']}"}
    for name in names:
        added = api.post("/api/campaigns/Alpha/characters", json={"name": name, "max_hp": max_hp}, headers=gm)
        assert added.status_code == 201, added.text
    return made, gm


def signed_in(app, made) -> TestClient:
    """A browser that opened the GM's sign-in link."""
    browser = TestClient(app, base_url="http://testserver")
    assert browser.get(made["gm_link"].split("testserver", 1)[-1]).status_code == 200
    return browser


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)


def flash_text(html: str) -> str:
    found = re.search(r'<div class="flash toast flash-(\w+)"[^>]*>(.*?)</div>', html, re.S)
    assert found, "no flash on the page"
    lines = [re.sub(r"<[^>]+>", "", line).strip() for line in re.findall(r"<p>(.*?)</p>", found.group(2), re.S)]
    return found.group(1), "\n".join(lines)


def test_a_long_french_result_is_shown_whole_and_never_in_the_cookie(app, api):
    """Six characters sick for a month, answered in French from the dashboard: every line reaches the page
    after the redirect, the session cookie stays small and holds none of it."""
    names = ("Aria", "Borin", "Cora", "Dax", "Elspeth", "Fenwick")
    made, gm = campaign(api, *names)
    for name in names:
        exposed = api.post("/api/campaigns/Alpha/expose", headers=gm,
                           json={"character": name.lower(), "affliction": "filth_fever", "save": 1})
        assert exposed.status_code == 200, exposed.text
    browser = signed_in(app, made)
    page = browser.get("/c/Alpha?lang=fr")
    done = browser.post("/c/Alpha/act/advance", data={"csrf": csrf_of(page.text), "duration": "30d", "auto": "on",
                                                       "back": "clock"}, follow_redirects=False)
    assert done.status_code == 303
    cookie = done.headers.get("set-cookie", "")
    assert len(cookie) < 1000 and "Horloge" not in cookie and "Vigueur" not in cookie
    kind, text = flash_text(browser.get(done.headers["location"]).text)
    assert kind == "done"
    assert len(text.encode()) > 4096  # longer than any cookie may be
    assert "…" not in text
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    assert lines[-1].startswith("Horloge\u00a0: ") and "jour 31" in lines[-1]  # the last line made it
    assert sum("Fenwick" in line for line in lines) >= 2  # the last character's saves too


def undo_button(html: str) -> tuple[str, str, str]:
    found = re.search(r'name="expected_version" value="(\d+)"><button[^>]*data-confirm="([^"]+)"[^>]*>([^<]+)</button>',
                      html)
    assert found, "no undo button"
    return found.group(1), found.group(2), found.group(3)


def test_undo_says_what_it_undoes_and_only_undoes_what_the_gm_saw(app, api):
    made, gm = campaign(api, "Cora")
    browser = signed_in(app, made)
    page = browser.get("/c/Alpha").text
    version, confirm, label = undo_button(page)
    assert "Cora" in confirm and label.strip() == "↶ Undo"  # what it undoes said in words, no action id (issue 39)
    assert confirm.startswith("Undo: ")
    first = confirm

    # another action arrives (the API) after the page was shown: the page's undo is refused, nothing undone
    hit = api.post("/api/campaigns/Alpha/damage", headers=gm, json={"character": "cora", "parts": [{"amount": 5, "type": "fire"}]})
    assert hit.status_code == 200, hit.text
    refused = browser.post("/c/Alpha/act/undo", data={"csrf": csrf_of(page), "expected_version": version, "back": "log"})
    kind, text = flash_text(refused.text)
    assert kind == "error" and "changed since this page was shown" in text
    assert api.get("/api/campaigns/Alpha/characters/cora", headers=gm).json()["hp"] == 15

    # the page now offers to undo the damage, and does
    version, confirm, label = undo_button(refused.text)
    assert "Cora" in confirm and confirm != first
    undone = browser.post("/c/Alpha/act/undo", data={"csrf": csrf_of(refused.text), "expected_version": version,
                                                      "back": "log"})
    kind, text = flash_text(undone.text)
    assert kind == "done" and "undone" in text
    assert api.get("/api/campaigns/Alpha/characters/cora", headers=gm).json()["hp"] == 20


def test_the_french_dashboard_asks_before_new_links_and_undo(app, api):
    made, _ = campaign(api, "Cora")
    page = signed_in(app, made).get("/c/Alpha?lang=fr").text
    _, confirm, label = undo_button(page)
    assert label.strip() == "↶ Annuler" and confirm.startswith("Annuler : ")
    for action in ("sign-in-link", "new-api-secret"):
        assert re.search(rf'data-access="{action}" data-confirm="[^"]+"', page), action
    assert page.count('data-confirm="Révoquer ce lien') == 1 and page.count('data-confirm="Créer un nouveau lien de joueur') == 1


def test_the_bar_and_pending_saves_reload_alone_for_the_gm_only(app, api):
    made, gm = campaign(api, "Cora")
    api.post("/api/campaigns/Alpha/expose", headers=gm, json={"character": "cora", "affliction": "filth_fever", "save": 1})
    browser = signed_in(app, made)
    assert "no_pending" not in browser.get("/c/Alpha/part/pending").text
    advanced = api.post("/api/campaigns/Alpha/advance", headers=gm, json={"duration": "3d"})
    pending = advanced.json()["pending"][0]["id"]
    part = browser.get("/c/Alpha/part/pending")
    assert part.status_code == 200 and f'data-pending="{pending}"' in part.text and "<html" not in part.text
    bar = browser.get("/c/Alpha/part/bar").text
    assert re.search(r'class="count">1</span> save waiting', bar) and "day 2" in bar  # (issue 39: not "1 saves")
    stranger = TestClient(app, base_url="http://testserver")
    assert stranger.get("/c/Alpha/part/pending").status_code == 403
    assert browser.get("/c/Alpha/part/nothing").status_code == 404
    assert stranger.get("/c/Alpha/part/party").status_code == 403 and stranger.get("/c/Alpha/part/log").status_code == 403
    assert 'id="char-cora"' in browser.get("/c/Alpha/part/party").text  # (issue 39: the cards and the log live too)
    assert "<li" in browser.get("/c/Alpha/part/log").text


def test_a_revoked_player_link_ends_its_stream_at_once_and_says_so(app, api):
    """No action needs to happen: revoking alone ends the player's stream with `event: gone`."""
    made, gm = campaign(api, "Cora")
    link = api.get("/api/campaigns/Alpha/characters/cora/player-link", headers=gm).json()["url"]
    seen = []
    with TestClient(app) as player:
        assert 'data-gone="This link no longer works' in player.get(link).text
        with player.stream("GET", link + "/events") as stream:
            for line in stream.iter_lines():
                seen.append(line)
                if line == "event: hello":
                    api.delete("/api/campaigns/Alpha/characters/cora/player-link", headers=gm)
        assert player.get(link + "/sheet").status_code == 404
    assert seen.count("event: gone") == 1 and "event: change" not in seen
