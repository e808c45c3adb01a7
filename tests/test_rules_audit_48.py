"""The fourth rules audit: prone, a lost action kept for the turn, speed, a track's poison damage that drops a 5e
character, and the mechanisms where two rules meet (magic tiers of lost parts, remedies, nights of rest, Sepsis'
24 hours, the Animal stage).

Each test is written from the seed's words (seed 000: lingering injuries, 5e; seed 004: progression tracks), quoted
in its docstring.
"""

from __future__ import annotations

import pytest

from test_tracks_helpers import ok


def _campaign(cli, system: str = "dnd5e", *options: str) -> None:
    ok(cli("campaign", "create", "t", "--system", system, "--seed", "11"))
    for pair in options:
        key, _, value = pair.partition("=")
        ok(cli("campaign", "set", key, value))


def _add(cli, name: str, max_hp: int = 20, *extra: str) -> None:
    ok(cli("character", "add", name, "--max-hp", str(max_hp), "--saves", "con=0,dex=0,fortitude=0", *extra))


def _sheet(cli, name: str) -> dict:
    return ok(cli("--json", "status", name)).json["characters"][0]


def _log(cli) -> list[dict]:
    return [e for e in ok(cli("--json", "log", "--limit", "1000")).json["events"] if not e.get("undone")]


def _results(doc: dict) -> list[dict]:
    return [r for e in doc["events"] if e["type"] == "noted" for r in e["data"]["results"]]


def _conditions(cli, name: str) -> list[str]:
    return [c["id"] for c in _sheet(cli, name)["conditions"]]


# ================================================================ 1. prone


def test_a_failed_leg_injury_dash_save_leaves_the_character_prone(cli):
    """Seed 000, Blessure à la jambe: « Si vous utilisez l'action Courir, vous devez réussir un jet de sauvegarde
    de Dextérité DD 10 ou tomber. » The fall is recorded: the sheet says prone, the roll query has the condition."""
    _campaign(cli)
    _add(cli, "Ana")
    ok(cli("injure", "Ana", "--type", "slashing", "--d20", "19"))
    ok(cli("dash", "Ana", "--save", "1"))
    sheet = _sheet(cli, "Ana")
    assert sheet["prone"] is True and "prone" in _conditions(cli, "Ana")
    attack = ok(cli("--json", "mods", "Ana", "attack")).json
    assert attack["mode"] == "disadvantage"  # 5e prone: its attack rolls have disadvantage
    assert "Ana falls prone (Leg Injury)" in ok(cli("log")).out
    assert "Ana tombe à terre (Blessure à la jambe)" in ok(cli("--lang", "fr", "log")).out
    ok(cli("stand", "Ana"))
    assert _sheet(cli, "Ana")["prone"] is False and "prone" not in _conditions(cli, "Ana")


def test_a_lost_foot_falls_after_the_dash(cli):
    """Seed 000, Perte d'un pied: « S'il s'agit d'un pied, vous tombez après une action de Course »."""
    _campaign(cli)
    _add(cli, "Ana")
    ok(cli("injure", "Ana", "--type", "slashing", "--d20", "1", "--site", "foot"))
    ok(cli("dash", "Ana"))
    assert _sheet(cli, "Ana")["prone"] is True


def test_puncture_wound_costs_nothing_while_prone(cli):
    """Seed 000, Plaie perforante: « Vous perdez 1 point de vie à la fin de chaque tour tant que vous êtes
    debout »: prone (the GM's `turn --prone`, or `prone`), the turn costs nothing; standing again, it does."""
    _campaign(cli)
    _add(cli, "Ana")
    ok(cli("injure", "Ana", "--type", "piercing", "--d20", "12"))
    ok(cli("turn", "Ana", "--prone"))
    assert _sheet(cli, "Ana")["hp"] == 20
    ok(cli("turn", "Ana"))  # still prone
    assert _sheet(cli, "Ana")["hp"] == 20
    ok(cli("stand", "Ana"))
    ok(cli("turn", "Ana"))
    assert _sheet(cli, "Ana")["hp"] == 19
    ok(cli("prone", "Ana"))
    ok(cli("turn", "Ana"))
    assert _sheet(cli, "Ana")["hp"] == 19


def test_prone_and_stand_are_refused_when_they_change_nothing_or_the_state_forbids_it(cli):
    """Seed 004, Alité: « il ne peut pas se tenir debout seul »: `stand` is refused whole, with the reason."""
    _campaign(cli, "pf1e")
    _add(cli, "Bo", 30)
    refused = cli("stand", "Bo")
    assert refused.code == 1 and refused.err.strip() == "error: Bo is already standing"
    ok(cli("prone", "Bo"))
    assert cli("prone", "Bo").err.strip() == "error: Bo is already prone"
    ok(cli("expose", "Bo", "filth_fever", "--save", "1", "--deadly", "bedridden"))
    before = len(_log(cli))
    refused = cli("stand", "Bo")
    assert refused.code == 1 and refused.err.strip() == "error: Bo can't stand up: Bedridden (Filth Fever)"
    assert len(_log(cli)) == before and _sheet(cli, "Bo")["prone"] is True


# ================================================================ 2. a track's poison damage drops a 5e character


def test_exposure_poison_damage_that_drops_a_5e_character_gives_a_poison_injury(cli):
    """Seed 004: « la victime subit un montant de dégâts de poison égal à (DD du poison - 10)/2 »; seed 000:
    « Lorsqu'un joueur tombe à 0 point de vie, il reçoit désormais une blessure … Le type de blessure dépend du
    dernier type de dégât subit. » Deathblade (DC 20): 5 poison damage to a 5 HP character."""
    _campaign(cli)
    _add(cli, "Ana", 5)
    ok(cli("expose", "Ana", "deathblade", "--save", "1"))
    sheet = _sheet(cli, "Ana")
    assert sheet["hp"] == 0 and [i["table"] for i in sheet["injuries"]] == ["poison"]


def test_the_con_tracks_per_save_poison_damage_gives_the_injury_too(cli):
    """Seed 004, Constitution poison, Affaibli: « Chaque fois qu'il tente un jet de sauvegarde contre le poison,
    qu'il réussisse ou échoue, il subit des dégâts comme lors de l'exposition initiale. »"""
    _campaign(cli)
    _add(cli, "Ana", 10)
    ok(cli("expose", "Ana", "deathblade", "--save", "1"))  # 5 damage: 5 HP left, no injury
    assert _sheet(cli, "Ana")["injuries"] == []
    ok(cli("advance", "1 round", "--auto"))  # the periodic save: 5 more poison damage, saved or not
    sheet = _sheet(cli, "Ana")
    assert sheet["hp"] == 0 and [i["table"] for i in sheet["injuries"]] == ["poison"]


def test_option_poison_damage_injury_off_gives_none(cli):
    _campaign(cli, "dnd5e", "poison_damage_injury=false")
    _add(cli, "Ana", 5)
    ok(cli("expose", "Ana", "deathblade", "--save", "1"))
    assert _sheet(cli, "Ana")["hp"] == 0 and _sheet(cli, "Ana")["injuries"] == []


# ================================================================ 3. a lost action is kept for the turn


def test_broken_ribs_lost_action_and_reaction_hold_until_the_next_turn(cli):
    """Seed 000, Côtes cassées: « vous devez réussir un jet de sauvegarde de Constitution DD 10 ou perdre votre
    action et votre réaction jusqu'au début du prochain tour »: a second action is refused with the reason (no
    second save), the loss shows in `status` and `mods`, and the next turn gives them back."""
    _campaign(cli)
    _add(cli, "Ana")
    ok(cli("injure", "Ana", "--type", "bludgeoning", "--d20", "1"))
    ok(cli("action", "Ana", "--save", "1"))
    before = len(_log(cli))
    refused = cli("action", "Ana", "--save", "20")
    assert refused.code == 1
    assert refused.err.strip() == ("error: Ana can't take an action: its action is lost until the start of its next "
                                   "turn (Broken Ribs)")
    assert len(_log(cli)) == before
    assert cli("dash", "Ana").code == 1  # 5e: the Dash is an action
    lost = _sheet(cli, "Ana")["lost"]
    assert (lost["action"], lost["reaction"], lost["source"]) == (True, True, "Broken Ribs")
    text = ok(cli("status", "Ana")).out
    assert "action and reaction lost until the start of its next turn (Broken Ribs)" in text
    mods = ok(cli("--json", "mods", "Ana", "attack")).json
    assert {"action_lost", "reaction_lost"} <= {r.get("restriction") for r in mods["restrictions"]}
    ok(cli("turn", "Ana"))
    assert _sheet(cli, "Ana")["lost"] is None
    doc = ok(cli("--json", "action", "Ana", "--save", "20")).json
    assert [r["applies"] for r in _results(doc)] == [False]


def test_nausea_lost_action_also_ends_when_a_round_goes_by(cli):
    """Seed 000, Nausée: « Faire un jet de sauvegarde de Constitution DD 8 à chaque tour ou passer son action à
    vomir »: the action of that turn is spent; a round later on the clock its next turn has begun."""
    _campaign(cli)
    _add(cli, "Ana")
    ok(cli("injure", "Ana", "--type", "acid", "--d20", "19"))
    ok(cli("turn", "Ana", "--save", "1"))
    lost = _sheet(cli, "Ana")["lost"]
    assert (lost["action"], lost["reaction"], lost["source"]) == (True, False, "Nausea")
    assert cli("action", "Ana").code == 1
    ok(cli("advance", "1r"))
    assert _sheet(cli, "Ana")["lost"] is None
    ok(cli("action", "Ana"))


def test_befuddled_lost_action_is_kept_for_the_turn(cli):
    """Seed 004, Embrouillé: « Il a 50% de chances à chaque tour de ne pouvoir entreprendre aucune action
    pertinente »: once the chance takes the action, a further action that turn is refused."""
    _campaign(cli, "pf1e")
    _add(cli, "Bo", 30)
    ok(cli("expose", "Bo", "cackle_fever", "--save", "1", "--deadly", "befuddled"))
    for _ in range(40):  # the d100 is the server's: play turns until it takes the action
        doc = ok(cli("--json", "turn", "Bo")).json
        if any(r.get("applies") for r in _results(doc)):
            break
    else:
        pytest.fail("the 50% never took the action in 40 turns")
    refused = cli("action", "Bo")
    assert refused.code == 1 and "its action is lost until the start of its next turn" in refused.err


# ================================================================ 4. speed


def _speed(cli, name: str) -> dict:
    return _sheet(cli, name)["speed"]


def test_leg_injury_halves_the_base_speed_and_frostbite_takes_5_feet(cli):
    """Seed 000, Blessure à la jambe: « Vitesse réduite de moitié »; Gelure: « votre vitesse est réduite de
    1,5m ». Changes in feet first, then the halving; the status and the French say it."""
    _campaign(cli)
    _add(cli, "Ana", 20, "--speed", "30")
    assert (_speed(cli, "Ana")["base"], _speed(cli, "Ana")["effective"]) == (30, 30)
    ok(cli("injure", "Ana", "--type", "slashing", "--d20", "19"))
    assert _speed(cli, "Ana")["effective"] == 15
    assert "speed 30 ft (9 m) → 15 ft (4.5 m): halved (Leg Injury)" in ok(cli("status", "Ana")).out
    assert "vitesse 9 m (30 ft) → 4,5 m (15 ft) : réduite de moitié (Blessure à la jambe)" in \
        ok(cli("--lang", "fr", "status", "Ana")).out
    ok(cli("injure", "Ana", "--type", "cold", "--d20", "4"))  # Frostbite
    assert _speed(cli, "Ana")["effective"] == 12  # (30 - 5) / 2, rounded down to the foot


def test_two_halvings_are_one_and_a_character_without_a_base_speed_shows_the_effects(cli):
    """Seed 000, Articulations rigides: « Vitesse de déplacement réduite de moitié », and Blessure à la jambe:
    « Vitesse réduite de moitié »: each says the speed is halved; halved twice it would be a quarter."""
    _campaign(cli)
    _add(cli, "Ana")
    ok(cli("injure", "Ana", "--type", "slashing", "--d20", "19"))
    ok(cli("injure", "Ana", "--type", "cold", "--d20", "19"))  # Stiff Joints
    speed = _speed(cli, "Ana")
    assert speed["base"] is None and speed["effective"] is None and len(speed["effects"]) == 2
    ok(cli("character", "edit", "Ana", "--speed", "30"))
    assert _speed(cli, "Ana")["effective"] == 15


def test_a_lost_foot_halves_the_speed_a_lost_hand_does_not(cli):
    """Seed 000, Perte d'un pied ou d'une main: « votre vitesse est réduite de moitié (si pieds touchés) »."""
    _campaign(cli)
    _add(cli, "Ana", 20, "--speed", "30")
    _add(cli, "Bo", 20, "--speed", "30")
    ok(cli("injure", "Ana", "--type", "slashing", "--d20", "1", "--site", "foot"))
    ok(cli("injure", "Bo", "--type", "slashing", "--d20", "1", "--site", "hand"))
    assert (_speed(cli, "Ana")["effective"], _speed(cli, "Bo")["effective"]) == (15, 30)


def test_an_imported_foundry_sheet_fills_the_base_speed(cli, tmp_path):
    import json
    from pathlib import Path

    actor = json.loads((Path(__file__).parent / "fixtures" / "import" / "fvtt-Actor-brena.json").read_text())
    key = "system" if "system" in actor else "data"
    actor[key]["attributes"]["movement"] = {"walk": 25, "units": "ft"}
    path = tmp_path / "brena.json"
    path.write_text(json.dumps(actor))
    _campaign(cli)
    ok(cli("character", "import", str(path)))
    assert _speed(cli, "Brena Hollowbrook")["base"] == 25


# ================================================================ the API and the dashboard


@pytest.fixture
def web(db):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from sawbones.application.service import Service
    from sawbones.interfaces.web import create_app
    from sawbones.interfaces.web.app import load_areas

    load_areas()
    with TestClient(create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=3),
                    base_url="http://testserver") as client:
        created = client.post("/api/campaigns", json={"name": "Alpha", "seed": 7})
        client.headers["Authorization"] = f"Bearer {created.json()['gm_secret']}"
        yield client


def _api(response, status=200):
    assert response.status_code == status, response.text
    return response.json()


def test_the_api_sets_and_clears_prone_and_shows_lost_actions_and_speed(web):
    """The same as the CLI: `turn` with `prone`, `prone` and `stand`, the character's `prone`, `lost`, `speed`."""
    _api(web.post("/api/campaigns/Alpha/characters", json={"name": "Ana", "max_hp": 20, "speed": 30,
                                                            "saves": {"con": 0}}), 201)
    _api(web.post("/api/campaigns/Alpha/injure", json={"character": "Ana", "type": "piercing", "d20": 12}))
    turn = _api(web.post("/api/campaigns/Alpha/turn", json={"character": "Ana", "prone": True}))
    ana = turn["characters"][0]
    assert ana["prone"] is True and ana["hp"] == 20  # « tant que vous êtes debout »
    refused = web.post("/api/campaigns/Alpha/prone", json={"character": "Ana"})
    assert refused.status_code == 409 and refused.json()["error"]["message"] == "Ana is already prone"
    assert _api(web.post("/api/campaigns/Alpha/stand", json={"character": "Ana"}))["characters"][0]["prone"] is False
    _api(web.post("/api/campaigns/Alpha/injure", json={"character": "Ana", "type": "bludgeoning", "d20": 1}))
    _api(web.post("/api/campaigns/Alpha/action", json={"character": "Ana", "saves": [1]}))
    refused = web.post("/api/campaigns/Alpha/action", json={"character": "Ana", "saves": [20]})
    assert refused.status_code == 409 and "its action is lost" in refused.json()["error"]["message"]
    shown = _api(web.get("/api/campaigns/Alpha/characters/ana"))
    assert shown["lost"]["action"] and shown["lost"]["reaction"] and shown["speed"]["base"] == 30


def test_the_dashboard_card_has_a_prone_button_and_shows_the_lost_action(web, cli):
    import re

    ok(cli("character", "add", "Ana", "--max-hp", "20", "--saves", "con=0"))  # (the same database as the server's)
    link = _api(web.post("/api/campaigns/Alpha/sign-in-link"))["gm_link"]
    web.get(link, follow_redirects=False)
    page = web.get("/c/Alpha")
    assert 'data-action="prone"' in page.text and 'data-action="stand"' not in page.text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
    web.post("/c/Alpha/act/prone", data={"csrf": csrf, "character": "ana"})
    page = web.get("/c/Alpha")
    assert 'data-action="stand"' in page.text
    web.post("/c/Alpha/act/stand", data={"csrf": csrf, "character": "ana"})
    web.post("/c/Alpha/act/turn", data={"csrf": csrf, "character": "ana", "prone": "on"})  # the turn form's box
    assert _api(web.get("/api/campaigns/Alpha/characters/ana"))["prone"] is True
    ok(cli("--campaign", "Alpha", "injure", "Ana", "--type", "bludgeoning", "--d20", "1"))
    ok(cli("--campaign", "Alpha", "action", "Ana", "--save", "1"))
    assert "action and reaction lost until the start of its next turn (Broken Ribs)" in web.get("/c/Alpha").text


# ================================================================ 5. critical_magic reaches lost parts


@pytest.mark.parametrize("table, d20, site, part", [("acid", "1", None, "eyes"), ("slashing", "1", "hand", "hands"),
                                                    ("slashing", "1", "foot", "feet")])
def test_critical_magic_heal_heals_a_lost_part_and_regenerate_does_not(cli, table, d20, site, part):
    """Seed 000, Sérieuse: « Soin magique: Guérison ou Régénération (choix du DM) »; Perte d'un œil, Perte d'un
    pied ou d'une main are critical rows. With critical_magic heal, Heal heals them (the part back) and
    Regenerate is refused; lost_part_magic regenerate keeps the other reading."""
    _campaign(cli, "dnd5e", "critical_magic=heal")
    _add(cli, "Ana")
    ok(cli("injure", "Ana", "--type", table, "--d20", d20, *(["--site", site] if site else [])))
    refused = cli("heal", "Ana", "--spell", "regenerate")
    assert refused.code == 1 and "needs Heal" in refused.err
    ok(cli("heal", "Ana", "--spell", "heal"))
    sheet = _sheet(cli, "Ana")
    assert sheet["injuries"] == [] and sheet["body"][part] == 2
    ok(cli("campaign", "set", "lost_part_magic", "regenerate"))
    ok(cli("injure", "Ana", "--type", table, "--d20", d20, *(["--site", site] if site else [])))
    assert cli("heal", "Ana", "--spell", "heal").code == 1


# ================================================================ 6. a remedy that can never apply


@pytest.mark.parametrize("value, said", [
    ('{"nausea": ["antitoxin"]}', "unknown spell 'antitoxin'"),
    ('{"nausea": ["neutralize_poison"]}', "Neutralize Poison does not exist in dnd5e"),
    ('{"nausee_x": ["heal"]}', "unknown injury 'nausee_x'"),
])
def test_relevant_remedies_refuses_what_can_never_be_applied(cli, value, said):
    """Seed 000, Modérée / Sévère: « Restauration partielle ou un remède pertinent »: a remedy the GM names must
    be something `heal --spell` can apply in the campaign's system, for an injury that exists."""
    _campaign(cli)
    refused = cli("campaign", "set", "relevant_remedies", value)
    assert refused.code == 2 and said in refused.err and "relevant_remedies" in refused.err
    ok(cli("campaign", "set", "relevant_remedies", '{"Nausée": ["Restauration partielle"]}'))  # either language
    assert ok(cli("--json", "campaign", "show")).json["options"]["relevant_remedies"] == \
        {"nausea": ["lesser_restoration"]}


def test_blinding_removers_refuse_an_unknown_spell_too(cli):
    _campaign(cli, "pf1e")
    assert cli("campaign", "set", "blinding_removers", "heal,eye_drops").code == 2


# ================================================================ 7. two nights are two nights


def test_two_rests_of_one_night_are_not_two_nights(cli):
    """Seed 004: « Pour chaque journée complète de repos au lit (ou 2 nuits de repos normal), une victime récupère
    un cran »: a second night 8 hours after the first is the same night's day, not another night."""
    from test_tracks_helpers import affliction, expose, saves, setup, stages

    setup(cli)
    expose(cli, "Aria", "giant_scorpion_venom", 1)
    saves(cli, [1, 30], "1min")  # Impaired, then cured: out of the system
    ok(cli("advance", "8h", "--auto"))
    ok(cli("recover", "Aria", "--night"))
    assert stages(affliction(cli)) == ["impaired"]  # half a step
    ok(cli("advance", "8h", "--auto"))
    refused = cli("recover", "Aria", "--night")
    assert refused.code == 1 and "only 8 h of game time since the last rest" in refused.err
    assert stages(affliction(cli)) == ["impaired"]
    ok(cli("advance", "16h", "--auto"))
    ok(cli("recover", "Aria", "--night"))  # the next night: 2 nights, one step
    assert stages(affliction(cli)) == ["weakened"]


# ================================================================ 8. Sepsis counts 24 hours


@pytest.mark.parametrize("tick", ["dawn", "long_rest"])
def test_sepsis_counts_24_hours_whatever_daily_tick_says(cli, tick):
    """Seed 000, Septicémie: « Votre Force, Dextérité et Constitution diminuent de 1 par tranche de 24 heures »:
    gained at 20:00, nothing at the next dawn (06:00) nor at a long rest; 1 each at 20:00 the next day."""
    _campaign(cli, "dnd5e", f"daily_tick={tick}")
    ok(cli("character", "add", "Ana", "--max-hp", "20", "--abilities", "str=12,dex=12,con=12"))
    ok(cli("advance", "20h"))
    ok(cli("injure", "Ana", "--type", "poison", "--d20", "1"))
    ok(cli("advance", "11h"))  # 07:00 the next day: dawn has passed
    if tick == "long_rest":
        ok(cli("rest", "Ana", "--long"))  # 15:00
    assert not _sheet(cli, "Ana")["injuries"][0].get("ability_lost")
    ok(cli("advance", "14h"))  # 24 h after the injury (and a little more)
    assert _sheet(cli, "Ana")["injuries"][0]["ability_lost"] == {"str": 1, "dex": 1, "con": 1}


def test_rot_still_follows_daily_tick_dawn(cli):
    """Seed 000, Pourrissement: « réduits de 1d4 puis de 1d4 pour chaque journée suivante »: a day, the option's
    reading (dawn here)."""
    _campaign(cli, "dnd5e", "daily_tick=dawn")
    _add(cli, "Ana", 30)
    ok(cli("advance", "20h"))
    ok(cli("injure", "Ana", "--type", "necrotic", "--d20", "4"))
    lost = 30 - _sheet(cli, "Ana")["max_hp"]
    ok(cli("advance", "11h"))
    assert 30 - _sheet(cli, "Ana")["max_hp"] > lost


# ================================================================ 9. the Animal stage sets Intelligence


def test_the_animal_stage_sets_intelligence_to_1(cli):
    """Seed 004, Animal: « le personnage subit les mêmes effets qu'un sort de Débilité, sauf que le charisme et les
    compétences basées sur le charisme ne sont pas affectés »: feeblemind's Intelligence 1 (a modifier of -5 from
    +3: -8 on Int rolls), Charisma untouched."""
    from sawbones.content.loader import load_rules
    from sawbones.content import schema as s

    stage = next(st for st in load_rules().tracks["intelligence_poison"].stages if st.id == "animalistic")
    assert [(e.ability, e.set_) for e in stage.effects if isinstance(e, s.AbilityChange)] == [("int", 1)]
    _campaign(cli, "pf1e")
    ok(cli("character", "add", "Bo", "--max-hp", "30", "--abilities", "int=16,cha=14", "--saves", "fortitude=0"))
    ok(cli("expose", "Bo", "amnesite", "--save", "1", "--deadly", "animalistic"))
    lines = ok(cli("--json", "mods", "Bo", "check", "--ability", "int")).json["modifiers"]
    assert [m["value"] for m in lines if m["source"].get("stage") == "animalistic"] == [-8]
    cha = ok(cli("--json", "mods", "Bo", "check", "--ability", "cha")).json["modifiers"]
    assert not [m for m in cha if m["source"].get("stage") == "animalistic"]


@pytest.mark.parametrize("effect, refused", [("{type: ability, ability: int, set: 1}", False),
                                              ("{type: ability, ability: int, change: -2}", False),
                                              ("{type: ability, ability: int}", True),
                                              ("{type: ability, ability: int, change: -2, set: 1}", True)])
def test_an_ability_effect_has_change_or_set(tmp_path, effect, refused):
    """The schema: an ability effect sets a score (`set`) as well as changes it (`change`), one of the two."""
    import textwrap

    from sawbones.content.loader import load_rules
    from sawbones.errors import ContentError

    directory = tmp_path / "pack"
    directory.mkdir()
    (directory / "i.yaml").write_text(textwrap.dedent(f"""
        injuries:
          - id: dull
            name: {{fr: a, en: a}}
            text: {{fr: a, en: a}}
            effects: [{effect}]
        """), encoding="utf-8")
    if not refused:
        load_rules([str(directory)])
        return
    with pytest.raises(ContentError) as info:
        load_rules([str(directory)])
    assert "injuries[dull].effects[0]" in str(info.value) and "either change or set" in str(info.value)


# ================================================================ also seen


def test_a_healed_injury_keeps_its_name_in_the_log_beyond_the_tail(cli):
    """The log names an injury by its name once it has healed, even when it was gained before the lines shown."""
    _campaign(cli)
    _add(cli, "Ana")
    ok(cli("injure", "Ana", "--type", "fire", "--d20", "12"))  # Blisters
    ok(cli("advance", "1h"))
    ok(cli("rest", "--long"))
    assert "Ana: i1 Blisters heals (a long rest)" in ok(cli("log", "--limit", "3")).out


def test_the_sepsis_line_says_which_abilities_and_how_much(cli):
    """Seed 000, Septicémie: « Votre Force, Dextérité et Constitution diminuent de 1 par tranche de 24 heures »."""
    _campaign(cli)
    _add(cli, "Ana")
    ok(cli("injure", "Ana", "--type", "poison", "--d20", "1"))
    out = ok(cli("advance", "1d")).out
    assert "abilities lost in all: Strength −1, Dexterity −1, Constitution −1" in out
    assert "caractéristiques perdues en tout : Force −1, Dextérité −1, Constitution −1" in \
        ok(cli("--lang", "fr", "log")).out


def test_status_lists_a_condition_once_per_source(cli):
    """Seed 004, Putréfaction de la momie: « la victime subit tous les effets en progressant sur les échelles
    physique et mentale »: both Weakened stages make it Fatigued (the French mental Weakened: « Secoué et Fatigué »);
    one source, one line."""
    _campaign(cli, "pf1e")
    _add(cli, "Bo", 30)
    ok(cli("expose", "Bo", "mummy_rot", "--save", "1", "--deadly", "weakened"))
    conditions = _sheet(cli, "Bo")["conditions"]
    assert [c["id"] for c in conditions].count("fatigued") == 1
    assert ok(cli("status", "Bo")).out.count("Fatigued") == 1


def test_a_dead_characters_rot_shows_no_next_daily_effect(cli):
    """Seed 000, Pourrissement: « Si votre maximum atteint 0, vous mourrez »: once dead, nothing more falls due."""
    _campaign(cli)
    _add(cli, "Ana", 2)
    ok(cli("injure", "Ana", "--type", "necrotic", "--d20", "4"))  # Rot: -1d4 max HP; 2 HP: it may kill at once
    for _ in range(5):
        if _sheet(cli, "Ana")["dead"]:
            break
        ok(cli("advance", "1d"))
    sheet = _sheet(cli, "Ana")
    assert sheet["dead"] and "next_daily_effect_at" not in sheet["injuries"][0]["timers"]
    assert "next daily effect" not in ok(cli("status", "Ana")).out


# ================================================================ every structured effect is read


def test_every_effect_field_the_content_sets_is_read_by_the_engine():
    """RULES-NOTES' decision 4, « Nothing silently dropped »: every effect the content structures (each field an
    effect of the content sets to something other than its default) is read somewhere in the engine or its
    presentation (a note is shown). A field nothing reads — a speed's `change_ft` before the engine computed
    speed — fails here, named with the first entry that sets it."""
    import dataclasses
    import re
    from pathlib import Path

    import sawbones
    from sawbones.content import schema_effects
    from sawbones.content.loader import load_rules

    rules = load_rules()
    effect_classes = {c for c in vars(schema_effects).values() if isinstance(c, type) and dataclasses.is_dataclass(c)}
    found: dict[tuple[str, str], str] = {}
    seen: set[int] = set()

    def walk(value, path):
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            if id(value) in seen:
                return
            seen.add(id(value))
            for f in dataclasses.fields(value):
                item = getattr(value, f.name)
                default = f.default if f.default is not dataclasses.MISSING else (
                    f.default_factory() if f.default_factory is not dataclasses.MISSING else object())
                if type(value) in effect_classes and f.name != "type" and item != default:
                    found.setdefault((type(value).__name__, f.name), path)
                walk(item, f"{path}.{f.name}")
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(item, f"{path}[{key}]")
        elif isinstance(value, (list, tuple)):
            for n, item in enumerate(value):
                walk(item, f"{path}[{n}]")

    for section in rules.sections:
        walk(rules.section(section), section)
    root = Path(sawbones.__file__).parent
    code = "\n".join(p.read_text(encoding="utf-8") for area in ("domain", "presentation")
                     for p in (root / area).rglob("*.py"))
    unread = [f"{cls}.{field} (first set at {path})" for (cls, field), path in sorted(found.items())
              if not re.search(rf"\.{field}\b|[\"']{field}[\"']", code)]
    assert len(found) > 50 and unread == []


# ================================================================ the two ambiguities' options


@pytest.mark.parametrize("rule, table", [(None, "fire"), ("last_listed", "cold")])
def test_a_hit_of_two_unequal_types_uses_the_largest_share_or_the_last_listed(cli, rule, table):
    """Seed 000: « Le type de blessure dépend du dernier type de dégât subit »: for one hit of 15 fire and 5 cold,
    the largest share (the default reading) or, option multi_type_rule, the type listed last."""
    _campaign(cli, "dnd5e", *([f"multi_type_rule={rule}"] if rule else []))
    _add(cli, "Ana")
    ok(cli("damage", "Ana", "15", "fire", "5", "cold", "--d20", "12"))
    assert [i["table"] for i in _sheet(cli, "Ana")["injuries"]] == [table]


def test_a_5e_character_falls_prone_at_0_hp_and_wakes_prone(cli):
    """5e unconscious « tombe à terre » (condition_readings.yaml): healed, the character is still prone, so Puncture
    Wound's « tant que vous êtes debout » costs nothing until it stands."""
    _campaign(cli)
    _add(cli, "Ana", 10)
    ok(cli("injure", "Ana", "--type", "piercing", "--d20", "12"))
    assert "unconscious and prone" in ok(cli("damage", "Ana", "10", "fire", "--d20", "18")).out
    ok(cli("character", "edit", "Ana", "--hp", "5"))
    assert _sheet(cli, "Ana")["prone"] is True
    ok(cli("turn", "Ana"))
    assert _sheet(cli, "Ana")["hp"] == 5
    ok(cli("stand", "Ana"))
    ok(cli("turn", "Ana"))
    assert _sheet(cli, "Ana")["hp"] == 4


# ================================================================ the log: the new events replay


def test_the_new_events_and_fields_replay_to_the_live_state(cli, db):
    """Events are stored forever: prone_changed, actions_lost, a loss's `prone`, an affliction's `rested` and a
    sheet's `speed` fold from the whole log to the state the actions left, and undo gives the state back."""
    from sawbones.application.folding import replay
    from sawbones.application.service import Service

    _campaign(cli)
    _add(cli, "Ana", 10, "--speed", "30")
    for args in (("injure", "Ana", "--type", "slashing", "--d20", "19"), ("dash", "Ana", "--save", "1"),
                 ("injure", "Ana", "--type", "bludgeoning", "--d20", "1"), ("action", "Ana", "--save", "1"),
                 ("stand", "Ana"), ("expose", "Ana", "deathblade", "--save", "1"), ("damage", "Ana", "9", "fire"),
                 ("turn", "Ana", "--prone")):
        ok(cli(*args))
    service = Service.open(db)
    live = service.load("t").state
    stored = service.store.events(service.store.campaign_id("t"))
    replayed, _ = replay(stored)
    assert replayed.characters == live.characters and replayed.clock == live.clock
    ana = live.characters[0]
    assert ana.prone and ana.lost is None and ana.speed == 30  # the turn gave the action back
    ok(cli("undo"))
    assert service.load("t").state.characters[0].lost is not None


@pytest.mark.parametrize("option, value, said", [
    ("recovery_multiplier", "scorpion=2", "unknown affliction 'scorpion'"),
    ("deadly_start", "filth=impaired", "unknown affliction 'filth'"),
    ("extra_affected_rolls", '{"tail": ["check"]}', "unknown body part 'tail'"),
])
def test_the_other_options_keyed_by_content_refuse_an_unknown_key(cli, option, value, said):
    """The same fault where else it was: an option keyed by afflictions or body parts took any key, and the
    entry it meant never applied."""
    _campaign(cli, "pf1e")
    refused = cli("campaign", "set", option, value)
    assert refused.code == 2 and said in refused.err


def test_nausea_at_the_end_of_the_turn_takes_the_next_turns_action(cli):
    """Seed 000, Nausée, with nausea_timing end: the save at the end of the turn; on a failure « l'action perdue est
    celle du tour suivant » (the content's note): this turn's action stays, the next one's is refused."""
    _campaign(cli, "dnd5e", "nausea_timing=end")
    _add(cli, "Ana")
    ok(cli("injure", "Ana", "--type", "acid", "--d20", "19"))
    ok(cli("turn", "Ana", "--save", "1"))
    assert _sheet(cli, "Ana")["lost"]["next_turn"] is True
    assert "its next turn's action is lost (Nausea)" in ok(cli("status", "Ana")).out
    ok(cli("action", "Ana"))  # still this turn's
    ok(cli("turn", "Ana", "--save", "20"))  # the next turn: its action is the one lost
    refused = cli("action", "Ana")
    assert refused.code == 1 and "its action is lost until the start of its next turn (Nausea)" in refused.err
    ok(cli("turn", "Ana", "--save", "20"))
    ok(cli("action", "Ana"))
