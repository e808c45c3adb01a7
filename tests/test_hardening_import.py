"""Issue 41, items 1 and 3: nothing a file holds stops the table. The attacker's steps: a GM (or anyone with
the API secret) imports a crafted sheet; a dnd5e actor with an empty `hp.max` and absurd class levels, a YAML
party file of nested aliases, a CSV of huge numbers. Each is refused in one line, nothing written, and the
import runs off the event loop (other requests are served meanwhile)."""

from __future__ import annotations

import json
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sawbones.adapters import sheets
from sawbones.application.service import Service
from sawbones.errors import UsageError
from sawbones.interfaces.web import create_app
from sawbones.interfaces.web.http import writers_lane
from sawbones.interfaces.web.app import load_areas

load_areas()


def _actor(levels, hp_max="") -> str:
    return json.dumps({
        "name": "Loop", "type": "character", "_stats": {"systemId": "dnd5e"},
        "system": {"abilities": {a: {"value": 10} for a in ("str", "dex", "con", "int", "wis", "cha")},
                   "attributes": {"hp": {"max": hp_max, "value": ""}}},
        "items": [{"type": "class", "name": "Fighter", "system": {"levels": levels, "hitDice": "d10"}}]})


def _nested_aliases(depth: int) -> str:
    lines = ['a0: &a0 "' + "x" * 100 + '"']
    for i in range(1, depth + 1):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    return "\n".join(lines) + f"\ncharacters:\n  - name: Bomb\n    notes: *a{depth}\n"


@pytest.fixture
def gm(db):
    client = TestClient(create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=3))
    client.__enter__()
    created = client.post("/api/campaigns", json={"name": "Alpha", "seed": 7})
    client.headers["Authorization"] = f"Bearer {created.json()['gm_secret']}"
    yield client
    client.__exit__(None, None, None)


def _import(gm, filename, content):
    return gm.post("/api/campaigns/Alpha/characters/import", json={"files": [{"filename": filename,
                                                                              "content": content}]})


def _party(gm) -> list:
    return gm.get("/api/campaigns/Alpha/characters").json()["characters"]


def test_an_actor_with_absurd_levels_and_no_max_hp_is_refused_at_once():
    # 10 million levels looped over, one by one, before (1e18 hung the worker for good)
    with pytest.raises(UsageError, match="out of range"):
        sheets.parse("fvtt-Actor-loop.json", _actor(10_000_000))
    with pytest.raises(UsageError, match="out of range"):
        sheets.parse("fvtt-Actor-loop.json", _actor(1e18))
    with pytest.raises(UsageError, match="add up to 41 levels"):
        sheets.parse("fvtt-Actor-loop.json", json.dumps({**json.loads(_actor(20)), "items": [
            {"type": "class", "name": c, "system": {"levels": n, "hitDice": "d8"}} for c, n in (("A", 20), ("B", 21))]}))


def test_every_number_of_a_sheet_is_bounded_as_the_api_bounds_it(gm):
    answer = _import(gm, "fvtt-Actor-loop.json", _actor(5, hp_max="1" * 50))
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "usage", answer.text
    csv = "name,max_hp,hit_dice,proficiencies\nHuge,100000000000000000000000000000000000000000000000000,3000000,x\n"
    assert _import(gm, "party.csv", csv).status_code == 422
    said = _import(gm, "party.csv", "name,max_hp,hit_dice\nHuge,20,3000000\n").json()["error"]["message"]
    assert "hit_dice" in said and "3000000" in said
    said = _import(gm, "party.csv", "name,max_hp,hit_dice\nHuge,20,41\n").json()["error"]["message"]
    assert "hit_dice goes from 0 to 40" in said
    many = ";".join(f"p{i}" for i in range(20_000))
    assert "at most 60 proficiencies" in _import(gm, "party.csv", f"name,proficiencies\nMany,{many}\n").json()["error"]["message"]
    assert _import(gm, "party.yaml", "characters:\n  - name: Long\n    notes: " + "y" * 4001 + "\n").status_code == 422
    assert _import(gm, "party.csv", "name,max_hp\nSuper,²\n").status_code == 422
    assert _party(gm) == [], "nothing was written"
    # the same values the API takes are taken
    fine = _import(gm, "party.csv", "name,max_hp,hit_dice,proficiencies\nFine,10000,40,medicine;medicine\n")
    assert fine.status_code == 200, fine.text
    assert fine.json()["characters"][0]["proficiencies"] == ["medicine"]


def test_yaml_aliases_that_expand_beyond_a_small_size_are_refused(gm):
    bomb = _nested_aliases(5)  # 1 KB that stood for 10 MB of notes
    assert len(bomb) < 2000
    answer = _import(gm, "party.yaml", bomb)
    assert answer.status_code == 422, answer.text
    assert "YAML aliases" in answer.json()["error"]["message"]
    assert _party(gm) == []


def test_a_file_nested_too_deep_is_one_line_not_a_500(gm):
    deep = "[" * 5000 + "]" * 5000
    answer = _import(gm, "fvtt-Actor-deep.json", deep)
    assert answer.status_code == 422, answer.text


def test_an_import_never_runs_on_the_event_loop(gm, monkeypatch):
    handed = []
    original = writers_lane.run_in_threadpool

    async def counted(work, *args, **kwargs):
        handed.append(work)
        return await original(work, *args, **kwargs)

    monkeypatch.setattr(writers_lane, "run_in_threadpool", counted)
    done = _import(gm, "party.csv", "name,max_hp\nIlse,20\n")
    assert done.status_code == 200, done.text
    assert len(handed) == 1, "the import was handed to a thread"
