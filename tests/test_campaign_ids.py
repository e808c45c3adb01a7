"""A campaign's id is read once per piece of work (a web request asks for it by name three or four times): a
name that another program renames or deletes meanwhile is read as it is then at the next piece of work, on
every backend; and within one piece, what this store renamed or deleted is never answered from before."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from sawbones.application.service import Service
from sawbones.errors import NotFound
from sawbones.interfaces.web.app import create_app, load_areas

load_areas()


def test_within_a_piece_of_work_the_id_is_read_once_and_the_next_piece_reads_it_again(store_url):
    server, cli = Service.open(store_url), Service.open(store_url)  # (the CLI: another program)
    server.create_campaign("Alpha", "dnd5e", 1)
    reads = []
    rows = server.store._rows
    server.store._rows = lambda sql, params=(): (reads.append(sql), rows(sql, params))[1]
    with server.store.names_read_once():
        first = server.store.campaign_id("Alpha")
        assert server.store.campaign_id("Alpha") == first
    assert sum("FROM campaigns WHERE name" in sql for sql in reads) == 1
    cli.rename_campaign("Alpha", "Omega")
    with server.store.names_read_once():
        with pytest.raises(NotFound, match="Omega"):
            server.store.campaign_id("Alpha")
        assert server.store.campaign_id("Omega") == first


def test_what_this_store_renamed_or_deleted_is_not_answered_from_before(store_url):
    service = Service.open(store_url)
    service.create_campaign("Alpha", "dnd5e", 1)
    service.create_campaign("Beta", "dnd5e", 1)
    with service.store.names_read_once():
        service.store.campaign_id("Alpha")
        service.rename_campaign("Alpha", "Omega")
        with pytest.raises(NotFound):
            service.store.campaign_id("Alpha")
        service.store.campaign_id("Beta")
        service.store.delete_campaign("Beta")
        with pytest.raises(NotFound):
            service.store.campaign_id("Beta")


def test_a_campaign_renamed_by_the_cli_while_the_server_runs_is_found_by_its_new_name(tmp_path):
    db = str(tmp_path / "ids.db")
    app = create_app(lambda: Service.open(db))
    with TestClient(app, base_url="http://testserver") as client:
        secret = client.post("/api/campaigns", json={"name": "Alpha", "seed": 1}).json()["gm_secret"]
        gm = {"Authorization": f"Bearer {secret}"}
        assert client.post("/api/campaigns/Alpha/characters", json={"name": "Aria", "max_hp": 20},
                           headers=gm).status_code == 201
        for _ in range(3):  # the server's threads keep their services from one request to the next
            assert client.get("/api/campaigns/Alpha", headers=gm).status_code == 200
        Service.open(db).rename_campaign("Alpha", "Omega")  # `sawbones campaign rename`, meanwhile
        assert client.get("/api/campaigns/Alpha", headers=gm).status_code in (401, 404)
        answer = client.post("/api/campaigns/Omega/damage", json={"character": "Aria", "parts": [
            {"amount": 3, "type": "fire"}]}, headers=gm)
        assert answer.status_code == 200, answer.text
        assert client.get("/api/campaigns/Omega", headers=gm).json()["name"] == "Omega"
