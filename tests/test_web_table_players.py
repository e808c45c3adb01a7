"""The player's page as a player uses it (issue 12), in-process: "since you last looked" counts from this
browser's previous visit; a prompt is answered from the page, and any answer that is not theirs to give
is refused on the page with nothing applied; an affliction the GM keeps secret never reaches the page's
HTML; with confirm_player_answers the GM's saves-waiting part shows the proposal to confirm."""

from __future__ import annotations

import re
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from test_web_table import app, csrf_of, flash_text  # noqa: F401 - the app fixture


@pytest.fixture
def table(app):
    """Cora and Dain, each with a player's browser on their link; players roll."""
    api = TestClient(app, base_url="http://testserver")
    made = api.post("/api/campaigns", json={"name": "Table", "seed": 5}).json()
    gm = {"Authorization": f"Bearer {made['gm_secret']}"}
    links = {}
    for name in ("Cora", "Dain"):
        assert api.post("/api/campaigns/Table/characters", json={"name": name, "max_hp": 20}, headers=gm).status_code == 201
        links[name] = api.get(f"/api/campaigns/Table/characters/{name}/player-link", headers=gm).json()["url"]
    assert api.put("/api/campaigns/Table/options/who_rolls", json={"value": "players"}, headers=gm).status_code == 200
    players = {name: TestClient(app, base_url="http://testserver") for name in links}
    return api, gm, made, links, players


def act(api, gm, action, body):
    done = api.post(f"/api/campaigns/Table/{action}", json=body, headers=gm)
    assert done.status_code == 200, done.text
    return done.json()


def head(api, gm) -> int:
    return api.get("/api/campaigns/Table/dashboard", headers=gm).json()["head"]


def since_lines(html: str) -> list[str]:
    section = re.search(r'<section class="panel since" id="since">(.*?)</section>', html, re.S).group(1)
    return [re.sub(r"<[^>]+>", "", line).strip() for line in re.findall(r"<li>(.*?)</li>", section, re.S)]


def test_since_you_last_looked_counts_from_the_previous_visit(table):
    api, gm, _, links, players = table
    cora = players["Cora"]
    first = cora.get(links["Cora"])
    seen = head(api, gm)
    assert "/sheet?since=" not in first.text  # a first visit: no previous one
    act(api, gm, "damage", {"character": "cora", "parts": [{"amount": 3, "type": "fire"}]})
    act(api, gm, "damage", {"character": "dain", "parts": [{"amount": 4, "type": "cold"}]})
    again = cora.get(links["Cora"])
    assert f'/sheet?since={seen}"' in again.text
    lines = since_lines(again.text)
    assert len(lines) == 1 and "Cora" in lines[0] and "17" in lines[0]  # hers, not Dain's
    assert since_lines(cora.get(links["Cora"]).text) == []  # nothing since this last look
    assert "nothing new" in cora.get(links["Cora"]).text
    assert since_lines(cora.get(links["Cora"] + f"/sheet?since={seen}").text) == lines  # the live reload's view


def pending_of(api, gm) -> dict[str, str]:
    return {p["character"]: p["id"] for p in api.get("/api/campaigns/Table/dashboard", headers=gm).json()["pending"]}


def answer(player, link, lang="en", **form):
    """The prompt card's form as the player's browser posts it (its CSRF token is the session's)."""
    if not hasattr(player, "csrf"):
        player.csrf = csrf_of(player.get(link).text)
    return player.post(f"{link}/answer?lang={lang}", data={"csrf": player.csrf, **form})


def test_a_player_answers_only_their_own_roll_once_from_the_page(table):
    api, gm, _, links, players = table
    for name in ("cora", "dain"):
        act(api, gm, "expose", {"character": name, "affliction": "filth_fever", "save": 1})
    act(api, gm, "advance", {"duration": "3d"})
    pending = pending_of(api, gm)
    page = players["Cora"].get(links["Cora"]).text
    assert f'data-prompt="{pending["cora"]}"' in page and f'data-prompt="{pending["dain"]}"' not in page
    before = head(api, gm)

    refusals = [answer(players["Cora"], links["Cora"], pending=pending["dain"], d20="20"),  # Dain's roll
                answer(players["Cora"], links["Cora"], pending="p99", d20="20"),  # never was
                answer(players["Cora"], links["Cora"], pending=pending["cora"], d20="25"),  # no d20 has 25
                answer(players["Cora"], links["Cora"], pending=pending["cora"], how="typed")]  # nothing typed
    for refused in refusals:
        assert refused.status_code == 200 and flash_text(refused.text)[0] == "error", refused.text[:300]
    assert "d20" in flash_text(refusals[2].text)[1]
    assert head(api, gm) == before  # nothing applied

    done = answer(players["Cora"], links["Cora"], pending=pending["cora"], how="roll")
    kind, text = flash_text(done.text)
    assert kind == "done" and re.search(r"Your roll: d20 \d+ [+-]\d+ = -?\d+", text)
    twice = answer(players["Cora"], links["Cora"], pending=pending["cora"], d20="1")
    assert flash_text(twice.text)[0] == "error" and "no longer pending" in flash_text(twice.text)[1]
    french = answer(players["Dain"], links["Dain"], "fr", pending=pending["dain"], d20="17")
    assert flash_text(french.text)[1].startswith("Votre jet\u00a0: d20 17")


def test_a_secret_affliction_never_reaches_the_page(table):
    api, gm, _, links, players = table
    api.put("/api/campaigns/Table/options/afflictions_known", json={"value": "false"}, headers=gm)
    act(api, gm, "expose", {"character": "cora", "affliction": "filth_fever", "save": 1})
    act(api, gm, "advance", {"duration": "3d"})
    for lang, unknown in (("en", "a sickness you cannot name"), ("fr", "un mal que vous ne savez pas nommer")):
        page = players["Cora"].get(links["Cora"] + f"?lang={lang}").text
        assert unknown in page
        for secret in ("Filth Fever", "Fièvre des marais", "filth_fever", "DC 12", "DD 12", "ladder"):
            assert secret not in page, (lang, secret)
    act(api, gm, "reveal", {"character": "cora", "affliction": "filth_fever"})
    assert "Filth Fever" in players["Cora"].get(links["Cora"] + "?lang=en").text


def test_the_gm_confirms_a_players_answer_from_the_saves_waiting(table, app):
    api, gm, made, links, players = table
    api.put("/api/campaigns/Table/options/confirm_player_answers", json={"value": "true"}, headers=gm)
    act(api, gm, "expose", {"character": "cora", "affliction": "filth_fever", "save": 1})
    act(api, gm, "advance", {"duration": "3d"})
    pending = pending_of(api, gm)["cora"]
    sent = answer(players["Cora"], links["Cora"], pending=pending, d20="15")
    assert "waiting for the GM to confirm" in flash_text(sent.text)[1]
    assert "waiting for the GM to confirm" in players["Cora"].get(links["Cora"]).text  # the prompt says so
    browser = TestClient(app, base_url="http://testserver")
    browser.get(made["gm_link"].split("testserver", 1)[-1])
    part = browser.get("/c/Table/part/pending").text
    assert "the player proposes" in part and "d20 15" in part and 'name="confirm"' in part
    confirmed = browser.post("/c/Table/act/answer", data={"csrf": csrf_of(part), "pending": pending, "confirm": "on",
                                                          "back": "pending"})
    assert flash_text(confirmed.text)[0] == "done"
    assert pending not in pending_of(api, gm).values()
