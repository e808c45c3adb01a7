"""Every action's answer says what happened in sentences, and no document people read carries the store's bookkeeping.

The user's steps (follow-up of issues 36, 39, 41): a GM wounds Vex through the API (or the Discord bot, which shows
the API's `lines`): the answer had `lines: []` while the log had the sentence. An action sent with an
Idempotency-Key, then undone: `reverted` said "the action is recorded under its idempotency key", and the
dashboard's log showed it too.
"""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sawbones.application.service import Service
from sawbones.interfaces.web import create_app
from sawbones.interfaces.web.api.actions import ACTIONS

KEYED_SENTENCES = ("idempotency key", "clé d'idempotence")

# every action whose answer has `lines`, in an order a table plays them: (campaign, action, body); "{pending}" is
# the id of the save waiting for a player's die
SESSION = [
    ("Alpha", "damage", {"character": "Borin", "parts": [{"amount": 35, "type": "fire"}], "d20": 12}),
    ("Alpha", "stabilize", {"character": "Borin"}),
    ("Alpha", "injure", {"character": "Borin", "type": "slashing", "d20": 3}),
    ("Alpha", "treat", {"character": "Borin", "injury": "i2", "check": 30, "healer": "Aria"}),
    ("Alpha", "heal", {"character": "Borin", "spell": "cure_wounds", "hp": 5}),
    ("Alpha", "rest", {"kind": "long"}),
    ("Alpha", "turn", {"character": "Aria"}),
    ("Alpha", "dash", {"character": "Aria"}),
    ("Alpha", "action", {"character": "Aria"}),
    ("Alpha", "prone", {"character": "Aria"}),
    ("Alpha", "stand", {"character": "Aria"}),
    ("Alpha", "combat_end", None),
    ("Alpha", "expose", {"character": "Cora", "affliction": "filth_fever", "rolls": "players"}),
    ("Alpha", "answer", {"pending": "{pending}", "total": 1}),
    ("Alpha", "reveal", {"character": "Cora", "affliction": "filth_fever"}),
    ("Alpha", "diagnose", {"character": "Cora", "affliction": "filth_fever", "check": 30}),
    ("Alpha", "cure", {"character": "Cora", "affliction": "filth_fever", "spell": "remove_disease", "cl_check": 40}),
    ("Alpha", "expose", {"character": "Aria", "affliction": "giant_scorpion_venom", "save": 1}),
    ("Alpha", "advance", {"duration": "2d", "auto": True, "rolls": "gm"}),
    ("Alpha", "recover", {"character": "Aria", "how": "bed_rest"}),
    ("Alpha", "import_characters", {"files": [{"filename": "party.csv", "content": "name,max_hp\nDara,12\n"}]}),
    ("Pf", "wound", {"character": "Vex", "part": "hand", "side": "left", "damage": 3}),
    ("Pf", "firstaid", {"character": "Vex", "wound": "w1", "check": 30}),
    ("Pf", "wound", {"character": "Vex", "part": "arm", "side": "right", "damage": 8}),
    ("Pf", "wound_heal", {"character": "Vex", "wounds": ["w2"], "gm": True}),
]


@pytest.fixture()
def table(db):
    with TestClient(create_app(lambda: Service.open(db)), base_url="http://testserver") as client:
        secrets = {}
        for name, system in (("Alpha", "dnd5e"), ("Pf", "pf1e")):
            made = client.post("/api/campaigns", json={"name": name, "system": system, "seed": 7}).json()
            secrets[name] = {"Authorization": f"Bearer {made['gm_secret']}"}
        for name, who, sheet in (("Alpha", "Aria", {"max_hp": 24, "skills": {"medicine": 5}, "saves": {"con": 12},
                                                     "abilities": {"str": 18, "dex": 18, "con": 18},
                                                     "proficiencies": ["medicine", "herbalism_kit"]}),
                                 ("Alpha", "Borin", {"max_hp": 31}), ("Alpha", "Cora", {"max_hp": 20}),
                                 ("Pf", "Vex", {"max_hp": 30})):
            added = client.post(f"/api/campaigns/{name}/characters", json={"name": who, **sheet},
                                headers=secrets[name])
            assert added.status_code in (200, 201), added.text
        yield client, secrets


def test_every_action_with_lines_is_in_the_session(table):
    """A new action whose answer has `lines` must be played here too (the app declares them all)."""
    with_lines = {name for name, act in ACTIONS.items() if act.api and "lines" in act.response.model_fields}
    assert with_lines and with_lines <= {action for _, action, _ in SESSION}, with_lines - {a for _, a, _ in SESSION}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_action_answer_that_changed_something_says_it(table, lang):
    client, secrets = table
    key = 0
    for campaign, action, body in SESSION:
        if body and body.get("pending") == "{pending}":
            waiting = client.get(f"/api/campaigns/{campaign}/pending", headers=secrets[campaign]).json()["pending"]
            assert waiting, "the exposure left no save waiting for a player's die"
            body = {**body, "pending": waiting[0]["id"]}
        path = ACTIONS[action].path or f"/{action}"
        key += 1
        answer = client.post(f"/api/campaigns/{campaign}{path}?lang={lang}", json=body,
                             headers={**secrets[campaign], "Idempotency-Key": f"{lang}-{key}"})
        assert answer.status_code in (200, 201), f"{action}: {answer.text}"
        doc = answer.json()
        if doc.get("events") or doc.get("added") or doc.get("updated"):
            assert doc["lines"], f"{action} changed something and said nothing: {doc}"
        assert not _keyed([answer.text]), (action, answer.text)  # its lines, an advance's story: no bookkeeping


def test_the_wound_answer_says_what_the_log_says(table):
    client, secrets = table
    wound = client.post("/api/campaigns/Pf/wound", json={"character": "Vex", "part": "hand", "side": "left",
                                                         "damage": 3}, headers=secrets["Pf"]).json()
    log = client.get("/api/campaigns/Pf/log", headers=secrets["Pf"]).json()["events"]
    assert wound["lines"] == [log[-1]["text"]] == ["Vex: wounded, Hand (left) (3 damage, superficial)"]


def test_no_document_people_read_carries_the_idempotency_record(table, db):
    """A keyed action, undone: neither `reverted`, the log, the dashboard nor the feed tells its key."""
    client, secrets = table
    auth = secrets["Alpha"]
    done = client.post("/api/campaigns/Alpha/damage", json={"character": "Borin", "parts": [{"amount": 4,
                                                                                             "type": "fire"}]},
                       headers={**auth, "Idempotency-Key": "k-1"}).json()
    assert done["lines"]
    undone = client.post("/api/campaigns/Alpha/undo", headers={**auth, "Idempotency-Key": "k-2"}).json()
    assert undone["reverted"] and not _keyed(undone["reverted"]), undone
    log = client.get("/api/campaigns/Alpha/log", headers=auth).json()["events"]
    assert log and not _keyed(e["text"] for e in log)  # (the record stays, versions whole, without a sentence)
    assert all(e["text"] == "" for e in log if e["type"] == "request_keyed")
    assert [e["version"] for e in log] == list(range(1, len(log) + 1))
    dashboard = client.get("/api/campaigns/Alpha/dashboard", headers=auth)
    assert dashboard.status_code == 200 and not _keyed([dashboard.text])
    assert all(e["line"] for e in dashboard.json()["log"])
    from sawbones.interfaces.web.live.event_docs import event_documents

    from contextlib import closing

    from sawbones.presentation.locale import speaking

    with closing(Service.open(db)) as service:
        with speaking("en"):
            docs = event_documents(service, service.store.campaign_id("Alpha"), 0)
    assert docs and not _keyed(line for doc in docs for line in doc["lines"])
    assert all(e["type"] != "request_keyed" for doc in docs for e in doc["events"])


def _keyed(lines) -> bool:
    return any(word in line for line in lines for word in KEYED_SENTENCES)
