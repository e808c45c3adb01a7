"""A character's document is whole whichever command or route makes it, in a process that has run nothing
else: its wounds and afflictions are there even when the command's own module is not theirs (the CLI imports
only the module of the command it runs; a web worker only what its requests needed so far)."""

from __future__ import annotations

import json
import subprocess
import sys

from sawbones.interfaces.cli import main

STEPS = (["campaign", "create", "Tale", "--seed", "5"], ["character", "add", "Aria", "--max-hp", "20"],
         ["wound", "Aria", "hand", "--damage", "6", "--side", "left"],
         ["expose", "Aria", "giant_scorpion_venom", "--save", "5"])


def _fresh(db: str, *args: str) -> str:
    """The CLI in a new process (no module imported by an earlier command)."""
    done = subprocess.run([sys.executable, "-m", "sawbones", "--db", db, *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _wounded_and_poisoned(tmp_path) -> str:
    db = str(tmp_path / "c.db")
    for step in STEPS:
        assert main(["--db", db, *step]) == 0, step
    return db


def _aria(characters: list) -> dict:
    return next(c for c in characters if c["name"] == "Aria")


def test_status_shows_the_wound_and_the_poison_in_both_languages(tmp_path):
    db = _wounded_and_poisoned(tmp_path)
    text = _fresh(db, "status")
    assert "w1 Hand (left)" in text and "Giant Scorpion Venom" in text and "no injuries" not in text
    french = _fresh(db, "--lang", "fr", "status")
    assert "w1 Main (côté gauche)" in french and "Venin de scorpion géant" in french
    aria = _aria(json.loads(_fresh(db, "--json", "status"))["characters"])
    assert [w["id"] for w in aria["wounds"]] == ["w1"] and [a["id"] for a in aria["afflictions"]] == ["t2"]


def test_every_command_that_shows_a_character_shows_all_of_it(tmp_path):
    db = _wounded_and_poisoned(tmp_path)
    shown = [json.loads(_fresh(db, "--json", *args)) for args in
             (["damage", "Aria", "1", "fire"], ["character", "add", "Borin", "--max-hp", "9"], ["status"])]
    whole = set(_aria(shown[2]["characters"]))
    assert {"wounds", "wound_conditions", "afflictions", "injuries", "timed_conditions"} <= whole
    assert set(_aria(shown[0]["characters"])) | {"conditions"} == whole  # (status adds the conditions in force)
    assert set(shown[1]) | {"conditions"} == whole


def test_the_first_answer_of_a_new_web_worker_is_whole(tmp_path):
    db = _wounded_and_poisoned(tmp_path)
    secret = json.loads(_fresh(db, "--json", "gm-link", "--api-secret"))["gm_secret"]
    script = f"""
import json, warnings
warnings.simplefilter("ignore")
from fastapi.testclient import TestClient
from sawbones.application.service import Service
from sawbones.interfaces.web import create_app
with TestClient(create_app(lambda: Service.open({db!r})), base_url="http://testserver") as client:
    answer = client.post("/api/campaigns/Tale/damage", json={{"character": "Aria", "parts": [{{"amount": 1, "type": "cold"}}]}},
                         headers={{"Authorization": "Bearer {secret}"}})
    print(answer.status_code, json.dumps(answer.json()))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    status, _, doc = out.stdout.partition(" ")
    assert status == "200", out.stdout + out.stderr
    aria = _aria(json.loads(doc)["characters"])
    assert [w["id"] for w in aria["wounds"]] == ["w1"] and [a["id"] for a in aria["afflictions"]] == ["t2"]
