"""Issue 41, item 8: no oracle. The attacker's steps: a player with their own link asks about other
characters' pending saves (ids p1, p2, ...) and compares the answers; a player rolls against an affliction the
GM keeps secret and reads the total and the success off the answer; a stranger probes a closed server's
campaign names with a made-up secret."""

from __future__ import annotations

import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sawbones.application.service import Service
from sawbones.interfaces.web import create_app
from tests.test_player_api import client, gm, table, token_of  # noqa: F401 (fixtures)


def test_a_player_gets_the_same_answer_for_anothers_save_and_for_none(client, table):  # noqa: F811
    secret, tokens = table
    gm(client, secret, "expose", {"character": "Cora", "affliction": "filth_fever", "save": 1})
    gm(client, secret, "advance", {"duration": "3d"})
    coras = client.get(f"/api/player/{tokens['Cora']}/prompts").json()["prompts"][0]["id"]
    answers = {}
    for pending in (coras, "p999"):
        probe = client.post(f"/api/player/{tokens['Dain']}/answer", json={"pending": pending, "d20": 20})
        answers[pending] = (probe.status_code, probe.json()["error"]["code"],
                            probe.json()["error"]["message"].replace(pending, "ID"))
    assert answers[coras] == answers["p999"], answers
    # Cora answers; Dain asking again about it still learns nothing (not "no longer pending")
    assert client.post(f"/api/player/{tokens['Cora']}/answer", json={"pending": coras, "d20": 20}).status_code == 200
    after = client.post(f"/api/player/{tokens['Dain']}/answer", json={"pending": coras, "d20": 20})
    assert (after.status_code, after.json()["error"]["message"].replace(coras, "ID")) == answers["p999"][::2]


def test_a_secret_afflictions_answer_says_only_what_the_page_says(client, table):  # noqa: F811
    secret, tokens = table
    client.put("/api/campaigns/Table/options/afflictions_known", json={"value": "false"},
               headers={"Authorization": f"Bearer {secret}"})
    gm(client, secret, "expose", {"character": "Cora", "affliction": "filth_fever", "save": 1})
    gm(client, secret, "advance", {"duration": "1d", "rolls": "players"})
    pending = client.get(f"/api/player/{tokens['Cora']}/prompts").json()["prompts"][0]["id"]
    answered = client.post(f"/api/player/{tokens['Cora']}/answer", json={"pending": pending, "d20": 9})
    assert answered.status_code == 200, answered.text
    doc = answered.json()
    assert doc["roll"] is None or not ({"total", "succeeded"} & set(doc["roll"])), doc["roll"]
    assert "Filth Fever" not in answered.text and "12" not in " ".join(doc["lines"])


def test_a_closed_server_answers_the_same_for_an_unknown_and_a_forbidden_campaign(db):
    app = create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=1, closed=True)
    with TestClient(app) as client:
        service = Service.open(db)
        service.create_campaign("Secret Table", "dnd5e", 1)
        service.store.close()
        probe = {"Authorization": "Bearer a-guessed-secret"}
        seen = []
        for name in ("Secret Table", "No Such Table"):
            for path in (f"/api/campaigns/{name}/characters", f"/api/campaigns/{name}/events"):
                answer = client.get(path, headers=probe)
                seen.append((answer.status_code, answer.json()["error"]["message"]))
            page = client.get(f"/c/{name}")
            seen.append((page.status_code, "page"))
        assert seen[:3] == seen[3:], seen
        assert seen[0][0] == 403
