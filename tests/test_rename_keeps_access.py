"""Issue 41, item 7: `campaign rename` keeps every access. The GM's steps: a campaign with its API secret, a
player link and a browser signed in as GM; the GM renames it on the command line; the bot's secret, the
player's link and the GM's browser all still work, under the new name. A new campaign given the old name
inherits none of it."""

from __future__ import annotations

import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sawbones.application.service import Service
from sawbones.interfaces.web import create_app
from sawbones.interfaces.web.app import load_areas

load_areas()


def test_rename_keeps_the_api_secret_the_player_links_and_the_gm_sessions(db, cli):
    from tests.test_web_api import sign_in

    client = TestClient(create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=1))
    with client:
        made = client.post("/api/campaigns", json={"name": "Old Road", "seed": 7}).json()
        bot = {"Authorization": f"Bearer {made['gm_secret']}"}
        assert client.post("/api/campaigns/Old Road/characters", json={"name": "Aria", "max_hp": 30},
                           headers=bot).status_code == 201
        link = client.post("/api/campaigns/Old Road/characters/Aria/player-link", headers=bot).json()["url"]
        sign_in(client, "Old Road", made["gm_secret"])
        assert client.get("/c/Old Road").status_code == 200

        renamed = cli("campaign", "rename", "Old Road", "New Road")
        assert renamed.code == 0, renamed.err

        assert client.get("/api/campaigns/New Road/characters/Aria", headers=bot).status_code == 200, "the secret"
        assert client.get(link).status_code == 200, "the player's link"
        assert "Aria" in client.get(link).text
        dashboard = client.get("/c/New Road")
        assert dashboard.status_code == 200 and "New Road" in dashboard.text, "the GM's browser"
        # the player link is still the one the character had (not a new one)
        again = client.get("/api/campaigns/New Road/characters/Aria/player-link", headers=bot)
        assert again.status_code == 200 and again.json()["url"] == link

        # a new campaign under the old name inherits nothing
        assert cli("campaign", "create", "Old Road").code == 0
        assert client.get("/api/campaigns/Old Road/characters", headers=bot).status_code == 403
        assert client.get("/c/Old Road").status_code == 403
