"""A closed server tells a stranger nothing and keeps nothing for them. The attacker's steps: open sign-in links
with a made-up code for a campaign that exists (in any case or accents) and for one that does not, and compare
the answers; post forms over and over from fresh browsers (a stranger's, a player link holder's) and count the
rows the server keeps."""

from __future__ import annotations

import re
import sqlite3
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sawbones.application.service import Service
from sawbones.interfaces.web import create_app
from sawbones.interfaces.web.access import security


@pytest.fixture
def closed(db):
    app = create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=3, closed=True)
    service = Service.open(db)
    admin = security.new_admin_secret(service.store)
    service.store.close()
    with TestClient(app, base_url="http://testserver") as client:
        made = client.post("/api/campaigns", json={"name": "Élan", "seed": 7},
                           headers={"Authorization": f"Bearer {admin}"})
        assert made.status_code == 201, made.text
        yield client, made.json()["gm_secret"]


def _fresh(client) -> TestClient:
    client.cookies.clear()
    return client


def test_a_missing_campaign_answers_as_a_wrong_code(closed):
    client, _ = closed
    answers = set()
    for name in ("Élan", "élan", "ELAN", "Nowhere"):
        got = _fresh(client).get(f"/c/{name}?code=WrongCodeWrongCode1234", follow_redirects=False)
        text = re.sub(r"(Élan|élan|ELAN|Nowhere)", "NAME", got.text)
        answers.add((got.status_code, text))
    assert len(answers) == 1, [a[0] for a in answers]
    assert answers.pop()[0] == 403


def _flash_rows(db: str) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT count(*) FROM meta WHERE key LIKE 'flash:%'").fetchone()[0]


def _csrf(page: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', page).group(1)


def test_a_strangers_and_a_players_form_posts_keep_no_row(closed, db):
    client, secret = closed
    auth = {"Authorization": f"Bearer {secret}"}
    assert client.post("/api/campaigns/Élan/characters", json={"name": "Aria", "max_hp": 30},
                       headers=auth).status_code == 201
    assert client.put("/api/campaigns/Élan/options/who_rolls", json={"value": "players"},
                      headers=auth).status_code == 200
    client.post("/api/campaigns/Élan/expose", json={"character": "Aria", "affliction": "filth_fever", "save": 1},
                headers=auth)
    client.post("/api/campaigns/Élan/advance", json={"duration": "3d"}, headers=auth)
    token = client.get("/api/campaigns/Élan/characters/Aria/player-link", headers=auth).json()["url"].rsplit("/", 1)[1]
    for _ in range(10):  # each time a fresh browser: a new session
        page = _fresh(client).get(f"/p/{token}").text
        done = client.post(f"/p/{token}/answer", data={"csrf": _csrf(page), "pending": "p999", "d20": "99"})
        assert done.status_code == 200
        assert 'id="flash"' in done.text  # the message is still shown once (it rode in the cookie)
    for _ in range(10):
        page = _fresh(client).get("/").text
        client.post("/campaigns", data={"csrf": _csrf(page), "name": "", "system": "dnd5e"})
    assert _flash_rows(db) == 0


def test_a_gms_flash_row_is_deleted_once_read(closed, db):
    from tests.test_web_api import sign_in

    client, secret = closed
    _fresh(client)
    sign_in(client, "Élan", secret)
    page = client.get("/c/%C3%89lan").text
    client.post("/c/%C3%89lan/act/add", data={"csrf": _csrf(page), "name": "Borin", "max_hp": "20", "back": "party"},
                follow_redirects=False)
    assert _flash_rows(db) == 1
    shown = client.get("/c/%C3%89lan")
    assert 'id="flash"' in shown.text
    assert _flash_rows(db) == 0
