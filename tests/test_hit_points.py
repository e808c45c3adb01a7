"""One hit point model per system (content: hit_point_models), as the seeds and RULES-NOTES read it.

Seed 004, Disabled (physical disease and Constitution poison): "S'il effectue une action standard, ses
points de vie diminuent de 1 ou jusqu'à -1, selon le pire des deux", and then the normal dying rules
(AMB-4-11). Seed 000: an injury when a character drops to 0 HP, but not when the damage kills outright
(AMB-0-34: 5e massive damage).
"""

from __future__ import annotations

from test_tracks_helpers import ok


def _campaign(cli, system: str, *options: str) -> None:
    ok(cli("campaign", "create", "t", "--system", system, "--seed", "11"))
    for pair in options:
        key, _, value = pair.partition("=")
        ok(cli("campaign", "set", key, value))


def _add(cli, name: str, system: str, max_hp: int, hp: int | None = None, con: int = 10) -> None:
    save = "fortitude" if system == "pf1e" else "con"
    args = ["character", "add", name, "--max-hp", str(max_hp), "--abilities", f"con={con}", "--saves", f"{save}=0"]
    if hp is not None:
        args += ["--hp", str(hp)]
    ok(cli(*args))


def _sheet(cli, name: str) -> dict:
    return ok(cli("--json", "status", name)).json["characters"][0]


def _types(doc: dict) -> list[str]:
    return [e["type"] for e in doc["events"]]


# ---------------------------------------------------------------- seed 004: the Disabled stage


def test_disabled_standard_action_takes_a_healthy_victim_to_minus_one_and_dying(cli):
    # a guard struck by a deathblade-coated dagger starts at Disabled (a truly deadly poison, TRK-3)
    _campaign(cli, "pf1e")
    _add(cli, "Garde", "pf1e", 25)
    ok(cli("expose", "Garde", "deathblade", "--save", "1", "--deadly", "disabled"))
    before = _sheet(cli, "Garde")["hp"]
    assert before == 25 - 5  # (20 - 10) / 2 poison damage
    ok(cli("action", "Garde"))
    sheet = _sheet(cli, "Garde")
    assert sheet["hp"] == -1 and not sheet["stable"] and not sheet["dead"]  # "1 or down to -1, the worse"


def test_disabled_standard_action_never_heals_a_victim_already_below_zero(cli):
    # a fever-ridden sailor at -3 HP, stabilized, still tries to pull a rope (a standard action)
    _campaign(cli, "pf1e")
    _add(cli, "Marin", "pf1e", 30, hp=-3, con=14)
    ok(cli("expose", "Marin", "filth_fever", "--save", "1", "--deadly", "disabled"))
    ok(cli("stabilize", "Marin"))
    ok(cli("action", "Marin", "--save", "30"))
    sheet = _sheet(cli, "Marin")
    assert sheet["hp"] == -4 and not sheet["stable"]  # one worse, and dying again


def test_disabled_stage_without_dying_rules_leaves_the_track_in_control(cli):
    _campaign(cli, "pf1e", "disabled_stage_dying=false")
    _add(cli, "Garde", "pf1e", 25)
    ok(cli("expose", "Garde", "black_lotus_extract", "--save", "1", "--deadly", "disabled"))
    ok(cli("action", "Garde"))
    sheet = _sheet(cli, "Garde")
    assert sheet["hp"] == -1 and sheet["stable"]
    doc = ok(cli("--json", "turn", "Garde")).json
    assert _sheet(cli, "Garde")["hp"] == -1 and "character_stabilized" not in _types(doc)  # no bleeding


def test_disabled_stage_in_5e_stops_at_zero_without_an_injury(cli):
    # 5e has no negative hit points: "down to -1" is 0 HP there, unconscious and dying; not damage, no injury
    _campaign(cli, "dnd5e")
    _add(cli, "Brune", "dnd5e", 18)
    ok(cli("expose", "Brune", "filth_fever", "--save", "1", "--deadly", "disabled"))
    ok(cli("action", "Brune", "--save", "30"))
    sheet = _sheet(cli, "Brune")
    assert sheet["hp"] == 0 and not sheet["stable"] and not sheet["dead"] and sheet["injuries"] == []


# ---------------------------------------------------------------- pf1e: negative HP, dying, dead at -Con


def test_pf1e_damage_goes_below_zero_and_kills_at_minus_constitution(cli):
    _campaign(cli, "pf1e")
    _add(cli, "Orc", "pf1e", 12, con=13)
    ok(cli("damage", "Orc", "20", "slashing"))
    sheet = _sheet(cli, "Orc")
    assert sheet["hp"] == -8 and not sheet["dead"]
    doc = ok(cli("--json", "damage", "Orc", "5", "slashing")).json
    assert _sheet(cli, "Orc")["dead"] and "character_died" in _types(doc)  # -13 = minus its Con 13


def test_pf1e_poison_damage_kills_at_minus_constitution_too(cli):
    _campaign(cli, "pf1e")
    _add(cli, "Nain", "pf1e", 20, hp=-6, con=10)
    ok(cli("stabilize", "Nain"))
    doc = ok(cli("--json", "expose", "Nain", "deathblade", "--save", "30")).json  # 5 poison damage, save or not
    assert doc["dead"] and _sheet(cli, "Nain")["hp"] == -11


def test_pf1e_dying_character_checks_each_turn_to_stabilize_or_bleed(cli):
    _campaign(cli, "pf1e")
    _add(cli, "Elfe", "pf1e", 10, con=12)
    ok(cli("damage", "Elfe", "13", "piercing"))  # -3: dying
    assert _sheet(cli, "Elfe")["dying"] and "mourant" in ok(cli("--lang", "fr", "status", "Elfe")).out
    ok(cli("turn", "Elfe", "--save", "9"))  # the Con check's total: failed, 1 HP lost
    assert _sheet(cli, "Elfe")["hp"] == -4
    ok(cli("turn", "Elfe", "--save", "10"))
    sheet = _sheet(cli, "Elfe")
    assert sheet["hp"] == -4 and sheet["stable"] and not sheet["dying"]
    ok(cli("turn", "Elfe"))  # stable: no more checks, no more bleeding
    assert _sheet(cli, "Elfe")["hp"] == -4


def test_5e_has_no_dying_check_on_its_turn(cli):
    _campaign(cli, "dnd5e")
    _add(cli, "Brune", "dnd5e", 18)
    ok(cli("damage", "Brune", "18", "fire", "--d20", "15"))
    ok(cli("turn", "Brune"))
    assert _sheet(cli, "Brune")["hp"] == 0


# ---------------------------------------------------------------- 5e: killed outright (AMB-0-34)


def test_5e_massive_damage_kills_outright_and_gives_no_injury(cli):
    _campaign(cli, "dnd5e")
    _add(cli, "Pip", "dnd5e", 12, hp=8)
    out = ok(cli("--lang", "fr", "damage", "Pip", "20", "bludgeoning", "--d20", "15")).out  # 12 left over = max HP
    sheet = _sheet(cli, "Pip")
    assert sheet["dead"] and sheet["injuries"] == [] and "tué sur le coup" in out


def test_5e_damage_just_short_of_massive_drops_to_zero_with_an_injury(cli):
    _campaign(cli, "dnd5e")
    _add(cli, "Pip", "dnd5e", 12, hp=8)
    ok(cli("damage", "Pip", "19", "bludgeoning", "--d20", "15"))  # 11 left over < 12
    sheet = _sheet(cli, "Pip")
    assert not sheet["dead"] and sheet["hp"] == 0 and len(sheet["injuries"]) == 1


def test_5e_damage_at_zero_hp_reaching_the_maximum_kills(cli):
    _campaign(cli, "dnd5e")
    _add(cli, "Pip", "dnd5e", 12, hp=0)
    ok(cli("damage", "Pip", "11", "fire"))
    assert not _sheet(cli, "Pip")["dead"]
    ok(cli("damage", "Pip", "12", "fire"))
    assert _sheet(cli, "Pip")["dead"]


def test_a_character_added_with_its_hit_points_alone_is_at_full_health(cli):
    """`character add Vex --hp 20`: the GM gave the character's hit points; they are its maximum too (not 20 cut
    to a maximum of 10 nobody gave)."""
    _campaign(cli, "dnd5e")
    ok(cli("character", "add", "Vex", "--hp", "20"))
    assert (_sheet(cli, "Vex")["hp"], _sheet(cli, "Vex")["max_hp"]) == (20, 20)
    ok(cli("character", "add", "Bo"))  # nothing given: 10 of 10
    assert (_sheet(cli, "Bo")["hp"], _sheet(cli, "Bo")["max_hp"]) == (10, 10)


def test_hit_points_above_the_maximum_are_refused_and_nothing_is_written(cli):
    """More hit points than the maximum given with them, on adding or editing: a clear error, exit 2, nothing
    changed; a lower maximum takes the hit points above it away (the rule), the hit points unchanged or not
    given."""
    _campaign(cli, "dnd5e")
    refused = cli("character", "add", "Ana", "--hp", "20", "--max-hp", "12")
    assert refused.code == 2 and "the hit points given, 20, are more than the maximum, 12" in refused.err
    assert "Ana" not in cli("character", "list").out
    _add(cli, "Vex", "dnd5e", 20)
    refused = cli("--lang", "fr", "character", "edit", "Vex", "--hp", "30")
    assert refused.code == 2 and "les points de vie donnés, 30, dépassent le maximum, 20" in refused.err
    assert (_sheet(cli, "Vex")["hp"], _sheet(cli, "Vex")["max_hp"]) == (20, 20)
    ok(cli("character", "edit", "Vex", "--max-hp", "15"))
    assert (_sheet(cli, "Vex")["hp"], _sheet(cli, "Vex")["max_hp"]) == (15, 15)
    ok(cli("character", "edit", "Vex", "--hp", "15", "--max-hp", "12"))  # the hit points as they were, sent again
    assert (_sheet(cli, "Vex")["hp"], _sheet(cli, "Vex")["max_hp"]) == (12, 12)  # (the dashboard's form does)
