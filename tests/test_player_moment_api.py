"""A moment's rolls through the player API (issue 12): the GM runs a turn or an action with "players roll"; the
character's player token answers the roll its moment waits for, and the moment goes on. Another character's token
is refused (403), an answer given twice or to a roll no longer waiting is refused (409); the state is unchanged.

Seed 000: Nausée, "un jet de sauvegarde de Constitution DD 8 à chaque tour ou passer son action à vomir".
Seed 004, Diminué (physical disease): "À chaque fois qu'il effectue une action standard, il doit réussir un jet
de Vigueur avec le même DD que le DD de la maladie ou perdre l'action et gagner l'état Nauséeux pendant 1 minute".
"""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from test_player_api import client, gm, head, token_of  # noqa: F401  (client: the in-process app)


def put_option(client, secret, name, value):
    made = client.put(f"/api/campaigns/Table/options/{name}", json={"value": value},
                      headers={"Authorization": f"Bearer {secret}"})
    assert made.status_code == 200, made.text


def answer(client, token, body):
    return client.post(f"/api/player/{token}/answer", json=body)


def noted(client, secret):
    log = client.get("/api/campaigns/Table/log?limit=1000", headers={"Authorization": f"Bearer {secret}"}).json()
    return [r for e in log["events"] if e["type"] == "noted" and not e.get("undone") for r in e["data"]["results"]]


@pytest.fixture
def table(client):  # noqa: F811
    """5e: Aria has Nausea, Bran is another player's character; the GM says who rolls each time."""
    made = client.post("/api/campaigns", json={"name": "Table", "seed": 5})
    assert made.status_code == 201, made.text
    secret = made.json()["gm_secret"]
    for name in ("Aria", "Bran"):
        gm(client, secret, "characters", {"name": name, "max_hp": 20, "saves": {"con": 2}}, 201)
    gm(client, secret, "injure", {"character": "Aria", "type": "acid", "d20": 19})
    return secret, {c: token_of(client, secret, c) for c in ("Aria", "Bran")}


def test_the_players_token_answers_its_own_turns_save_and_no_other_can(client, table):  # noqa: F811
    secret, tokens = table
    done = gm(client, secret, "turn", {"character": "Aria", "rolls": "players"})
    assert [e["type"] for e in done["events"]] == ["save_pending"]
    [prompt] = client.get(f"/api/player/{tokens['Aria']}/prompts").json()["prompts"]
    assert (prompt["kind"], prompt["against"], prompt["save_name"], prompt["dc"], prompt["bonus"]) == \
        ("moment", "Nausea: start of the turn", "Constitution save", 8, 2)
    fr = client.get(f"/api/player/{tokens['Aria']}/prompts?lang=fr").json()["prompts"][0]
    assert fr["against"] == "Nausée : début du tour" and fr["save_name"] == "jet de sauvegarde de Constitution"
    assert client.get(f"/api/player/{tokens['Bran']}/prompts").json()["prompts"] == []

    before = head(client, secret)
    refused = answer(client, tokens["Bran"], {"pending": prompt["id"], "roll": True})
    assert refused.status_code == 404 and refused.json()["error"]["code"] == "not_found"  # as one never made (issue 41)
    assert head(client, secret) == before and noted(client, secret) == []

    rolled = answer(client, tokens["Aria"], {"pending": prompt["id"], "roll": True})
    assert rolled.status_code == 200, rolled.text
    roll = rolled.json()["roll"]
    assert roll["bonus"] == 2 and roll["total"] == roll["d20"] + 2 and roll["succeeded"] == (roll["total"] >= 8)
    assert [(r["on"], r["total"]) for r in noted(client, secret)] == [("turn_start", roll["total"])]
    assert rolled.json()["prompts"] == []

    after = head(client, secret)
    again = answer(client, tokens["Aria"], {"pending": prompt["id"], "d20": 20})
    assert again.status_code == 409 and head(client, secret) == after


def test_a_player_answer_waits_for_the_gms_confirmation_before_the_turn_goes_on(client, table):  # noqa: F811
    secret, tokens = table
    put_option(client, secret, "confirm_player_answers", "true")
    gm(client, secret, "turn", {"character": "Aria", "rolls": "players"})
    [prompt] = client.get(f"/api/player/{tokens['Aria']}/prompts").json()["prompts"]
    sent = answer(client, tokens["Aria"], {"pending": prompt["id"], "d20": 3})
    assert sent.status_code == 200 and sent.json()["status"] == "awaiting_gm"
    assert noted(client, secret) == []  # nothing applied yet
    assert answer(client, tokens["Aria"], {"pending": prompt["id"], "d20": 19}).status_code == 409
    gm(client, secret, "answer", {"pending": prompt["id"], "confirm": True})
    assert [(r["total"], r["applies"]) for r in noted(client, secret)] == [(5, True)]  # 3 + 2 < 8: vomits


def test_a_secret_diseases_standard_action_save_is_a_sickness_the_player_cannot_name(client):  # noqa: F811
    made = client.post("/api/campaigns", json={"name": "Table", "system": "pf1e", "seed": 5})
    secret = made.json()["gm_secret"]
    gm(client, secret, "characters", {"name": "Cora", "max_hp": 20, "saves": {"fortitude": 3}}, 201)
    put_option(client, secret, "afflictions_known", "false")
    put_option(client, secret, "who_rolls", "players")
    gm(client, secret, "expose", {"character": "Cora", "affliction": "filth_fever", "save": 1, "deadly": "impaired"})
    token = token_of(client, secret, "Cora")
    gm(client, secret, "action", {"character": "Cora"})
    [prompt] = client.get(f"/api/player/{token}/prompts").json()["prompts"]
    assert prompt["against"] == "a sickness you cannot name: a standard action" and prompt["dc"] is None
    assert prompt["save_name"] == "Fortitude" and not prompt["known"]
    view = client.get(f"/api/player/{token}?since=0")
    assert "Filth" not in view.text and "filth" not in view.text
    done = answer(client, token, {"pending": prompt["id"], "total": 5})
    assert done.status_code == 200 and "Filth" not in done.text and "filth" not in done.text
    conditions = [c["id"] for c in client.get(f"/api/player/{token}").json()["character"]["conditions"]]
    assert "nauseated" in conditions  # failed: nauseated for 1 minute


def test_the_dashboards_turn_form_says_who_rolls(db):
    """The GM's form: "the character's player" makes the turn wait for Aria's die; the campaign's default (gm)
    rolls it on the server, as before."""
    from sawbones.application.service import Service
    from sawbones.interfaces.web import create_app
    from test_web_table import campaign, csrf_of, signed_in

    app = create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=3)
    with TestClient(app, base_url="http://testserver") as api:
        made, headers = campaign(api, "Aria")
        api.post("/api/campaigns/Alpha/injure", headers=headers, json={"character": "aria", "type": "acid", "d20": 19})
        browser = signed_in(app, made)
        page = browser.get("/c/Alpha")
        assert 'name="rolls"' in page.text and "the character&#39;s player" in page.text
        form = {"csrf": csrf_of(page.text), "character": "aria", "saves": "", "back": "actions"}
        done = browser.post("/c/Alpha/act/turn", data={**form, "rolls": "players"}, follow_redirects=False)
        assert done.status_code == 303
        waiting = api.get("/api/campaigns/Alpha/dashboard", headers=headers).json()["pending"]
        assert [(p["kind"], p["to"], p["about"]) for p in waiting] == [
            ("moment", "player", "Nausea: start of the turn")]
        assert 'Nausea: start of the turn' in browser.get("/c/Alpha/part/pending").text
        api.post("/api/campaigns/Alpha/answer", headers=headers, json={"pending": waiting[0]["id"], "total": 9})
        browser.post("/c/Alpha/act/turn", data={**form, "csrf": csrf_of(browser.get("/c/Alpha").text), "rolls": ""})
        assert api.get("/api/campaigns/Alpha/dashboard", headers=headers).json()["pending"] == []


def test_an_answer_to_a_turn_the_gm_undid_is_refused_and_changes_nothing(client, table):  # noqa: F811
    secret, tokens = table
    gm(client, secret, "turn", {"character": "Aria", "rolls": "players"})
    [prompt] = client.get(f"/api/player/{tokens['Aria']}/prompts").json()["prompts"]
    gm(client, secret, "undo", None)
    before = head(client, secret)
    stale = answer(client, tokens["Aria"], {"pending": prompt["id"], "d20": 15})
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "rule_violation"
    assert head(client, secret) == before and noted(client, secret) == []


def test_a_dying_characters_check_is_rolled_for_the_player_and_applies_once_the_gm_confirms(client):  # noqa: F811
    """Pf1e (hit_points.yaml): a dying character's check is DC 10 Constitution, minus its negative hit points."""
    made = client.post("/api/campaigns", json={"name": "Table", "system": "pf1e", "seed": 5})
    secret = made.json()["gm_secret"]
    gm(client, secret, "characters", {"name": "Cora", "max_hp": 20, "hp": -3, "abilities": {"con": 14}}, 201)
    put_option(client, secret, "confirm_player_answers", "true")
    token = token_of(client, secret, "Cora")
    gm(client, secret, "turn", {"character": "Cora", "rolls": "players"})
    [prompt] = client.get(f"/api/player/{token}/prompts").json()["prompts"]
    assert (prompt["kind"], prompt["against"], prompt["save_name"], prompt["dc"], prompt["bonus"]) == \
        ("dying", "dying: stabilize", "Constitution check", 10, -1)  # +2 (Con 14), -3 (3 HP below 0)
    assert "Hit points (Pathfinder 1e) -3" in prompt["modifiers_text"]
    fr = client.get(f"/api/player/{token}/prompts?lang=fr").json()["prompts"][0]
    assert fr["against"] == "mourant : se stabiliser" and fr["save_name"] == "test de Constitution"
    sent = answer(client, token, {"pending": prompt["id"], "roll": True})
    assert sent.status_code == 200 and sent.json()["status"] == "awaiting_gm"
    d20 = sent.json()["proposed"]["d20"]
    assert noted(client, secret) == []
    gm(client, secret, "answer", {"pending": prompt["id"], "confirm": True})
    [check] = noted(client, secret)
    assert (check["on"], check["d20"], check["total"], check["succeeded"]) == ("dying", d20, d20 - 1, d20 - 1 >= 10)
