"""Players roll their own saves, through their own link (issue 12): the player API as the table plays it.

The GM exposes two characters to a disease with "players roll", advances 3 days; each player's token answers
its own pending save (one "roll for me", one typed d20) and the advance completes. Any other answer (another
character's roll, twice, a roll that never was, a revoked link) is refused with the one error shape and
changes nothing. An affliction the GM keeps secret shows its symptoms, never its name, until revealed.
"""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from sawbones.application.service import Service
from sawbones.interfaces.web import create_app


@pytest.fixture
def client(db):
    app = create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=3)
    with TestClient(app, base_url="http://testserver") as c:
        yield c


def gm(client, secret, action, body, status=200):
    made = client.post(f"/api/campaigns/Table/{action}", json=body, headers={"Authorization": f"Bearer {secret}"})
    assert made.status_code == status, made.text
    return made.json()


def token_of(client, secret, character):
    made = client.get(f"/api/campaigns/Table/characters/{character}/player-link",
                      headers={"Authorization": f"Bearer {secret}"})
    assert made.status_code == 200, made.text
    return made.json()["url"].rsplit("/", 1)[1]


def head(client, secret):
    return client.get("/api/campaigns/Table/dashboard", headers={"Authorization": f"Bearer {secret}"}).json()["head"]


@pytest.fixture
def table(client):
    """A pf1e table: Cora and Dain (player characters) and an NPC; the GM lets players roll."""
    made = client.post("/api/campaigns", json={"name": "Table", "system": "pf1e", "seed": 5})
    assert made.status_code == 201, made.text
    secret = made.json()["gm_secret"]
    for name, fort in (("Cora", 3), ("Dain", 1)):
        gm(client, secret, "characters", {"name": name, "max_hp": 20, "saves": {"fortitude": fort}}, 201)
    put = client.put("/api/campaigns/Table/options/who_rolls", json={"value": "players"},
                     headers={"Authorization": f"Bearer {secret}"})
    assert put.status_code == 200, put.text
    return secret, {c: token_of(client, secret, c) for c in ("Cora", "Dain")}


def test_two_players_answer_their_own_saves_and_the_advance_completes(client, table):
    secret, tokens = table
    for name in ("Cora", "Dain"):  # the initial saves fail: both catch filth fever
        gm(client, secret, "expose", {"character": name, "affliction": "filth_fever", "save": 1})
    advanced = gm(client, secret, "advance", {"duration": "3d"})
    assert advanced["clock"] < 3 * 86400  # it stopped: the saves wait for the players' dice
    cora = client.get(f"/api/player/{tokens['Cora']}/prompts").json()["prompts"]
    dain = client.get(f"/api/player/{tokens['Dain']}/prompts").json()["prompts"]
    assert len(cora) == 1 and len(dain) == 1
    assert cora[0]["against"] == "Filth Fever" and cora[0]["dc"] == 12 and cora[0]["bonus"] == 3
    assert cora[0]["awaiting"] == "player" and cora[0]["breakdown"]["sheet"] == 3
    ladder = client.get(f"/api/player/{tokens['Cora']}").json()["character"]["afflictions"][0]["tracks"][0]
    assert [s["current"] for s in ladder["ladder"]].index(True) == 1 and ladder["stage_name"]

    # Cora's player asks the server to roll; the breakdown of the roll comes back
    rolled = client.post(f"/api/player/{tokens['Cora']}/answer", json={"pending": cora[0]["id"], "roll": True})
    assert rolled.status_code == 200, rolled.text
    assert rolled.json()["status"] == "applied" and rolled.json()["roll"]["bonus"] == 3
    assert 1 <= rolled.json()["roll"]["d20"] <= 20 and rolled.json()["roll"]["breakdown"]["sheet"] == 3
    # Dain's player typed the d20 of their own die
    typed = client.post(f"/api/player/{tokens['Dain']}/answer", json={"pending": dain[0]["id"], "d20": 17})
    assert typed.status_code == 200, typed.text
    assert typed.json()["roll"]["total"] == 18

    log = client.get("/api/campaigns/Table/log?limit=200", headers={"Authorization": f"Bearer {secret}"}).json()
    cleared = [e["data"] for e in log["events"] if e["type"] == "pending_cleared"]
    assert {(c["by"], c["how"]) for c in cleared[:2]} == {("player", "rolled"), ("player", "d20")}
    # keep answering whatever comes up until the advance has reached its 3 days
    for _ in range(10):
        waiting = [(name, p) for name in tokens
                   for p in client.get(f"/api/player/{tokens[name]}/prompts").json()["prompts"]]
        if not waiting:
            break
        name, p = waiting[0]
        assert client.post(f"/api/player/{tokens[name]}/answer", json={"pending": p["id"], "roll": True}).status_code == 200
    view = client.get(f"/api/player/{tokens['Cora']}").json()
    assert view["clock"]["at"] == 3 * 86400 and view["prompts"] == []
    assert any("the player answered the save waiting" in line["line"] for line in view["since"]["lines"])


def test_any_other_answer_is_refused_and_nothing_changes(client, table):
    secret, tokens = table
    gm(client, secret, "expose", {"character": "Cora", "affliction": "filth_fever", "save": 1})
    gm(client, secret, "advance", {"duration": "3d"})
    pending = client.get(f"/api/player/{tokens['Cora']}/prompts").json()["prompts"][0]["id"]
    before = head(client, secret)

    other = client.post(f"/api/player/{tokens['Dain']}/answer", json={"pending": pending, "d20": 20})
    assert other.status_code == 404 and other.json()["error"]["code"]  # as one never made (issue 41: no oracle)
    never = client.post(f"/api/player/{tokens['Cora']}/answer", json={"pending": "p99", "d20": 20})
    assert never.status_code == 404 and "error" in never.json()
    nothing = client.post(f"/api/player/{tokens['Cora']}/answer", json={"pending": pending})
    assert nothing.status_code == 422
    assert head(client, secret) == before

    assert client.post(f"/api/player/{tokens['Cora']}/answer", json={"pending": pending, "d20": 20}).status_code == 200
    after = head(client, secret)
    twice = client.post(f"/api/player/{tokens['Cora']}/answer", json={"pending": pending, "d20": 1})
    assert twice.status_code == 409 and "error" in twice.json()
    assert head(client, secret) == after


def test_a_save_routed_to_the_gm_is_not_the_players(client, table):
    secret, tokens = table
    gm(client, secret, "expose", {"character": "Cora", "affliction": "filth_fever", "save": 1})
    gm(client, secret, "advance", {"duration": "3d", "rolls": "gm"})
    waiting = client.get("/api/campaigns/Table/pending", headers={"Authorization": f"Bearer {secret}"}).json()
    assert waiting["pending"][0]["to"] == "gm"
    assert client.get(f"/api/player/{tokens['Cora']}/prompts").json()["prompts"] == []
    refused = client.post(f"/api/player/{tokens['Cora']}/answer", json={"pending": waiting["pending"][0]["id"],
                                                                        "d20": 20})
    assert refused.status_code == 409


def test_the_gm_confirms_or_rejects_a_players_answer(client, table):
    secret, tokens = table
    client.put("/api/campaigns/Table/options/confirm_player_answers", json={"value": "true"},
               headers={"Authorization": f"Bearer {secret}"})
    gm(client, secret, "expose", {"character": "Cora", "affliction": "filth_fever"})  # the player rolls the exposure
    prompt = client.get(f"/api/player/{tokens['Cora']}/prompts").json()["prompts"][0]
    assert prompt["kind"] == "exposure"
    proposed = client.post(f"/api/player/{tokens['Cora']}/answer", json={"pending": prompt["id"], "d20": 19})
    assert proposed.json()["status"] == "awaiting_gm"
    again = client.post(f"/api/player/{tokens['Cora']}/answer", json={"pending": prompt["id"], "d20": 2})
    assert again.status_code == 409  # answered once: it waits for the GM
    gm(client, secret, "answer", {"pending": prompt["id"], "reject": True})
    assert client.get(f"/api/player/{tokens['Cora']}/prompts").json()["prompts"][0]["awaiting"] == "player"
    client.post(f"/api/player/{tokens['Cora']}/answer", json={"pending": prompt["id"], "d20": 19})
    gm(client, secret, "answer", {"pending": prompt["id"], "confirm": True})
    log = client.get("/api/campaigns/Table/log", headers={"Authorization": f"Bearer {secret}"}).json()["events"]
    exposed = [e["data"] for e in log if e["type"] == "affliction_exposed"][-1]
    assert exposed["d20"] == 19 and exposed["total"] == 22 and exposed["succeeded"]


def test_an_unknown_affliction_shows_symptoms_and_no_name_until_revealed(client, table):
    secret, tokens = table
    client.put("/api/campaigns/Table/options/afflictions_known", json={"value": "false"},
               headers={"Authorization": f"Bearer {secret}"})
    gm(client, secret, "expose", {"character": "Cora", "affliction": "filth_fever", "save": 1})
    gm(client, secret, "advance", {"duration": "1d", "rolls": "players"})
    view = client.get(f"/api/player/{tokens['Cora']}")
    text = view.text
    assert "Filth Fever" not in text and "filth_fever" not in text and "Fièvre" not in text
    secret_one = view.json()["character"]["afflictions"][0]
    assert secret_one["known"] is False and "dc" not in secret_one and "tracks" not in secret_one
    assert view.json()["prompts"][0]["against"] == "a sickness you cannot name"
    assert view.json()["prompts"][0]["dc"] is None
    fr = client.get(f"/api/player/{tokens['Cora']}?lang=fr").json()
    assert fr["prompts"][0]["against"] == "un mal que vous ne savez pas nommer"

    gm(client, secret, "reveal", {"character": "Cora", "affliction": "filth_fever"})
    shown = client.get(f"/api/player/{tokens['Cora']}").json()
    assert shown["character"]["afflictions"][0]["name"] == "Filth Fever"
    assert shown["prompts"][0]["dc"] == 12


def test_a_heal_check_reveals_the_affliction_with_the_option(client, table):
    secret, tokens = table
    for key, value in (("afflictions_known", "false"), ("check_reveals_affliction", "true")):
        client.put(f"/api/campaigns/Table/options/{key}", json={"value": value},
                   headers={"Authorization": f"Bearer {secret}"})
    gm(client, secret, "expose", {"character": "Cora", "affliction": "filth_fever", "save": 1})
    gm(client, secret, "diagnose", {"character": "Cora", "affliction": "filth_fever", "healer": "Dain", "check": 11})
    assert client.get(f"/api/player/{tokens['Cora']}").json()["character"]["afflictions"][0]["known"] is False
    gm(client, secret, "diagnose", {"character": "Cora", "affliction": "filth_fever", "healer": "Dain", "check": 12})
    assert client.get(f"/api/player/{tokens['Cora']}").json()["character"]["afflictions"][0]["known"] is True


def test_a_revoked_link_stops_at_once(client, table):
    secret, tokens = table
    gm(client, secret, "expose", {"character": "Cora", "affliction": "filth_fever", "save": 1})
    gm(client, secret, "advance", {"duration": "3d"})
    pending = client.get(f"/api/player/{tokens['Cora']}/prompts").json()["prompts"][0]["id"]
    revoked = client.delete("/api/campaigns/Table/characters/Cora/player-link",
                            headers={"Authorization": f"Bearer {secret}"})
    assert revoked.status_code == 200
    before = head(client, secret)
    for method, path, body in (("GET", "", None), ("GET", "/prompts", None),
                               ("POST", "/answer", {"pending": pending, "d20": 20})):
        refused = client.request(method, f"/api/player/{tokens['Cora']}{path}", json=body)
        assert refused.status_code == 403 and refused.json()["error"]["code"], (path, refused.text)
    assert head(client, secret) == before
    assert client.get(f"/api/player/{'x' * 24}").status_code == 403


def test_the_view_keeps_the_gms_secrets_and_shares_the_party_only_with_the_option(client, table):
    secret, tokens = table
    gm(client, secret, "characters", {"name": "Goblin", "max_hp": 5, "npc": True}, 201)
    view = client.get(f"/api/player/{tokens['Cora']}").json()
    assert view["party"] is None and "Dain" not in str(view)
    assert {r["roll"] for r in view["rolls"]} >= {"attack_left", "attack_right", "attack_ranged", "save_fortitude",
                                                  "save_reflex", "save_will", "perception", "check_dex", "check_str",
                                                  "initiative"}
    client.put("/api/campaigns/Table/options/share_party_view", json={"value": "true"},
               headers={"Authorization": f"Bearer {secret}"})
    party = client.get(f"/api/player/{tokens['Cora']}").json()["party"]
    assert [p["name"] for p in party] == ["Dain"]  # the other player characters, not the NPC


def test_removing_a_character_kills_its_link_and_a_new_one_does_not_inherit_it(client, table):
    secret, tokens = table
    assert client.get(f"/api/player/{tokens['Dain']}").status_code == 200
    removed = client.delete("/api/campaigns/Table/characters/Dain", headers={"Authorization": f"Bearer {secret}"})
    assert removed.status_code == 200, removed.text
    assert client.get(f"/api/player/{tokens['Dain']}").status_code == 403
    gm(client, secret, "characters", {"name": "Dain", "max_hp": 12}, 201)  # a new Dain, maybe the same id
    assert client.get(f"/api/player/{tokens['Dain']}").status_code == 403
    assert client.get(f"/api/player/{token_of(client, secret, 'Dain')}").json()["character"]["max_hp"] == 12


def test_the_limb_deadline_shows_in_the_view_only_with_reveal_deadline(client):
    """Seed 000, Brûlure sévère: "Si cela n'est pas traité dans les 1d4 jours qui suivent, vous perdez une main":
    the GM's secret, unless the option reveal_deadline shows it to the player."""
    secret = client.post("/api/campaigns", json={"name": "Table", "seed": 3}).json()["gm_secret"]
    gm(client, secret, "characters", {"name": "Kit", "max_hp": 20}, 201)
    gm(client, secret, "injure", {"character": "Kit", "type": "fire", "d20": 1, "site": "hand"})
    token = token_of(client, secret, "Kit")
    burn = client.get(f"/api/player/{token}").json()["character"]["injuries"][0]
    assert "deadline_in_text" not in burn and "deadline" not in str(burn).replace("heals_by", "")
    assert burn["next_step"].startswith("treatment DC")
    client.put("/api/campaigns/Table/options/reveal_deadline", json={"value": "true"},
               headers={"Authorization": f"Bearer {secret}"})
    burn = client.get(f"/api/player/{token}").json()["character"]["injuries"][0]
    assert burn["deadline_in_text"].startswith("in ")


def test_a_wounds_fortitude_save_waits_for_the_players_die(client, table):
    """Seed 001 (LOC-7, optional rule): a Fortitude save DC 10 + damage ignores the wound's penalty; with players
    rolling, the wound waits for the player's die and lands with it."""
    secret, tokens = table
    client.put("/api/campaigns/Table/options/allow_fort_ignore", json={"value": "true"},
               headers={"Authorization": f"Bearer {secret}"})
    gm(client, secret, "wound", {"character": "Cora", "part": "arm", "side": "left", "damage": 4})
    prompt = client.get(f"/api/player/{tokens['Cora']}/prompts").json()["prompts"][0]
    assert prompt["kind"] == "wound_fort" and prompt["dc"] == 14 and prompt["against"] == "ignoring a wound (Arm (left))"
    assert client.get(f"/api/player/{tokens['Cora']}").json()["character"]["wounds"] == []  # not yet
    answered = client.post(f"/api/player/{tokens['Cora']}/answer", json={"pending": prompt["id"], "d20": 11})
    assert answered.status_code == 200, answered.text
    wound = client.get(f"/api/player/{tokens['Cora']}").json()["character"]["wounds"][0]
    assert wound["fort"] == {"dc": 14, "total": 14, "success": True} and wound["suppressed"]


def test_a_player_healers_treatment_check_waits_for_their_die(client):
    """Seed 000: a treatment is a Wisdom (Medicine) check against the injury's DC by a healer with Medicine and an
    herbalism kit; with players rolling, the healer's player rolls it, and the treatment is made with their die."""
    secret = client.post("/api/campaigns", json={"name": "Table", "seed": 3}).json()["gm_secret"]
    gm(client, secret, "characters", {"name": "Aria", "max_hp": 20, "proficiencies": ["medicine", "herbalism_kit"],
                                      "skills": {"medicine": 5}}, 201)
    gm(client, secret, "characters", {"name": "Bob", "max_hp": 20}, 201)
    gm(client, secret, "injure", {"character": "Bob", "type": "fire", "d20": 12})
    gm(client, secret, "treat", {"character": "Bob", "injury": "i1", "healer": "Aria", "rolls": "players"})
    aria, bob = token_of(client, secret, "Aria"), token_of(client, secret, "Bob")
    assert client.get(f"/api/player/{bob}/prompts").json()["prompts"] == []  # the healer rolls, not the patient
    prompt = client.get(f"/api/player/{aria}/prompts").json()["prompts"][0]
    assert prompt["kind"] == "treatment" and prompt["bonus"] == 5 and prompt["save_name"] == "Medicine"
    assert prompt["against"] == "treating Bob: Blisters" and prompt["dc"] == 10
    answered = client.post(f"/api/player/{aria}/answer", json={"pending": prompt["id"], "d20": 5})
    assert answered.status_code == 200, answered.text
    assert client.get(f"/api/player/{bob}").json()["character"]["injuries"] == []  # 5 + 5 >= 10: healed


def test_a_secret_poisons_damage_does_not_name_it_in_since_you_last_looked(client, table):
    secret, tokens = table
    client.put("/api/campaigns/Table/options/afflictions_known", json={"value": "false"},
               headers={"Authorization": f"Bearer {secret}"})
    gm(client, secret, "expose", {"character": "Cora", "affliction": "giant_scorpion_venom", "save": 1})
    view = client.get(f"/api/player/{tokens['Cora']}?since=0")
    lines = [x["line"] for x in view.json()["since"]["lines"]]
    assert lines and all("Scorpion" not in line and "scorpion" not in line for line in lines), lines
    assert "Scorpion" not in view.text and "scorpion" not in view.text
    assert any("a sickness you cannot name" in line for line in lines)
