"""One scenario per catalog entry (seed 004's two tables), through the CLI with typed saves:
from exposure to a cure or an end state. Fortitude +0; a total of 1 fails and 30 succeeds."""

from __future__ import annotations

from test_tracks_helpers import affliction, character, expose, ok, saves, setup, stages

F, S = 1, 30  # a failed and a successful save total


def test_mindfire_weakened_then_two_consecutive_saves_per_step(cli):
    setup(cli)
    expose(cli, "Aria", "mindfire", F)
    assert stages(affliction(cli)) == ["latent"]
    saves(cli, [F], "1d")
    a = affliction(cli)
    assert stages(a) == ["weakened"] and a["streak"] == {"current": 0, "needed": 2}
    doc = saves(cli, [S, S, S, S])
    assert doc["pending"] == [] and affliction(cli) is None  # weakened -> latent -> healthy: cured


def test_devil_chills_needs_three_in_a_row(cli):
    setup(cli)
    expose(cli, "Aria", "devil_chills", F)
    saves(cli, [S, S, F], "3d")  # a failure breaks the streak and advances
    a = affliction(cli)
    assert stages(a) == ["weakened"] and a["streak"]["current"] == 0
    saves(cli, [S, S, S], "3d")
    assert stages(affliction(cli)) == ["latent"]
    saves(cli, [S, S, S], "3d")
    assert affliction(cli) is None


def test_filth_fever_worked_timeline(cli):
    # RULES-NOTES 3.3.6: fail -> latent; day 1 fail -> weakened; 2 successes -> latent; 2 more -> healthy
    setup(cli)
    expose(cli, "Aria", "filth_fever", F)
    doc = saves(cli, [F, S, S, S], "4d")
    assert [line.split("]")[0] for line in doc["summary"]["lines"]][:1] == ["[day 5, 00:00:00"]
    assert stages(affliction(cli)) == ["latent"]
    doc = saves(cli, [S], "1d")
    assert affliction(cli) is None and doc["summary"]["totals"]["cured"] == 1


def test_cackle_fever_to_death(cli):
    setup(cli)
    expose(cli, "Aria", "cackle_fever", F)
    doc = saves(cli, [F] * 6)
    a = affliction(cli)
    assert stages(a) == ["dead"] and a["status"] == "end_state"
    assert character(cli)["dead"] and doc["summary"]["totals"]["deaths"] == 1
    assert doc["pending"] == []
    assert ok(cli("--json", "advance", "4w")).json["summary"]["totals"]["saves"] == 0  # death stops everything


def test_leprosy_weekly_and_stiffened_end_state(cli):
    setup(cli)
    expose(cli, "Aria", "leprosy", F)
    doc = ok(cli("--json", "advance", "6d")).json
    assert doc["pending"] == []  # weekly
    doc = saves(cli, [F, F], "3w")
    a = affliction(cli)
    assert stages(a) == ["stiffened"] and a["status"] == "end_state" and not character(cli)["dead"]
    assert doc["pending"] == []
    r = cli("cure", "Aria", "leprosy", "--spell", "remove_disease", "--cl-check", "30")
    assert r.code == 1 and "Miracle or Wish" in r.err
    ok(cli("cure", "Aria", "leprosy", "--spell", "wish"))
    assert affliction(cli) is None


def test_blinding_sickness_permanent_blindness(cli):
    setup(cli)
    expose(cli, "Aria", "blinding_sickness", F)
    saves(cli, [F, F], "2d")
    a = affliction(cli)
    assert stages(a) == ["impaired"] and [p["condition"] for p in a["permanent"]] == ["blinded"]
    r = cli("cure", "Aria", "d1", "--spell", "remove_blindness_deafness")
    assert r.code == 1 and "once the affliction is gone" in r.err
    saves(cli, [S] * 6, "6d")
    a = affliction(cli)
    assert a["status"] == "cured" and stages(a) == ["healthy"] and a["permanent"][0]["condition"] == "blinded"
    ok(cli("cure", "Aria", "d1", "--spell", "remove_blindness_deafness"))
    assert affliction(cli) is None


def test_red_ache_strength_damage_on_failed_saves(cli):
    setup(cli)
    expose(cli, "Aria", "red_ache", F)
    assert affliction(cli)["ability_damage"] == {}  # not on the initial save
    saves(cli, [F], "1d")
    damage = affliction(cli)["ability_damage"]["str"]
    assert 1 <= damage <= 6
    saves(cli, [S] * 4, "4d")
    a = affliction(cli)
    assert a["status"] == "cured" and a["ability_damage"] == {"str": damage}
    ok(cli("cure", "Aria", "d1", "--spell", "restoration"))
    assert affliction(cli) is None


def test_red_ache_original_text_has_no_ability_damage(cli):
    setup(cli, "pf1e", 0, "Aria", 40, "follow_original_text=true")
    expose(cli, "Aria", "red_ache", F)
    saves(cli, [F], "1d")
    assert affliction(cli)["ability_damage"] == {}


def test_shakes_dexterity_damage(cli):
    setup(cli)
    expose(cli, "Aria", "shakes", F)
    saves(cli, [F, F], "2d")
    assert 2 <= affliction(cli)["ability_damage"]["dex"] <= 16


def test_slimy_doom_exhausted_becomes_permanent(cli):
    setup(cli)
    expose(cli, "Aria", "slimy_doom", F)
    saves(cli, [F, F], "2d")
    assert [p["condition"] for p in affliction(cli)["permanent"]] == ["exhausted"]
    saves(cli, [S] * 6, "6d")
    a = affliction(cli)
    assert a["status"] == "cured" and [p["condition"] for p in a["permanent"]] == ["exhausted"]
    ok(cli("cure", "Aria", "d1", "--spell", "restoration"))
    assert affliction(cli) is None


def test_slimy_doom_original_text_weakened_penalties(cli):
    setup(cli, "pf1e", 0, "Aria", 40, "follow_original_text=true")
    expose(cli, "Aria", "slimy_doom", F)
    saves(cli, [F, F], "2d")
    assert sorted(p["condition"] for p in affliction(cli)["permanent"]) == ["fatigued", "sickened"]


def test_bubonic_plague_cured(cli):
    setup(cli)
    expose(cli, "Aria", "bubonic_plague", F)
    saves(cli, [S, S], "2d")
    assert affliction(cli) is None


def test_demon_fever_heal_cures_and_lifts_the_permanent_effect(cli):
    setup(cli)
    expose(cli, "Aria", "demon_fever", F, "--deadly", "impaired")
    a = affliction(cli)
    assert stages(a) == ["impaired"] and [p["condition"] for p in a["permanent"]] == ["exhausted"]
    saves(cli, [F], "1d")
    ok(cli("cure", "Aria", "demon_fever", "--spell", "heal"))
    assert affliction(cli) is None


def test_dementia_dust_magic_only_and_stage_does_not_improve(cli):
    setup(cli)
    expose(cli, "Aria", "dementia_dust", F)
    saves(cli, [F, S, S, S], "4w")
    a = affliction(cli)
    assert stages(a) == ["weakened"] and a["streak"]["needed"] is None  # successes never cure
    r = cli("cure", "Aria", "d1", "--spell", "remove_disease")
    assert r.code == 2 and "caster level check" in r.err
    doc = ok(cli("--json", "cure", "Aria", "d1", "--spell", "remove_disease", "--cl-check", "5")).json
    assert doc["facts"] == [{"what": "cl_check_failed"}] and affliction(cli)["status"] == "active"
    ok(cli("cure", "Aria", "d1", "--spell", "remove_disease", "--cl-check", "20"))
    a = affliction(cli)
    assert a["status"] == "eliminated" and stages(a) == ["weakened"] and a["next_save"] is None
    assert ok(cli("--json", "advance", "4w")).json["summary"]["totals"]["saves"] == 0
    assert cli("recover", "Aria", "--bed-rest").code == 1  # a disease does not recover by rest
    ok(cli("cure", "Aria", "d1", "--spell", "greater_restoration"))
    assert affliction(cli) is None


def test_mummy_rot_both_tracks_and_the_two_spells(cli):
    setup(cli)
    expose(cli, "Aria", "mummy_rot", F)
    assert stages(affliction(cli)) == ["weakened", "weakened"]  # no latent state
    saves(cli, [F, S, S], "3d")
    a = affliction(cli)
    assert stages(a) == ["impaired", "impaired"] and a["streak"]["needed"] is None
    r = cli("cure", "Aria", "d1", "--spell", "heal")
    assert r.code == 1
    ok(cli("cure", "Aria", "d1", "--spell", "remove_disease", "--cl-check", "20"))
    assert affliction(cli)["status"] == "eliminated"  # halted (TRK-12)
    ok(cli("advance", "2min", "--auto"))
    ok(cli("cure", "Aria", "d1", "--spell", "remove_curse", "--cl-check", "20"))
    assert affliction(cli)["status"] == "eliminated"  # more than a minute apart: no cure
    ok(cli("advance", "3r", "--auto"))
    ok(cli("cure", "Aria", "d1", "--spell", "remove_disease", "--cl-check", "20"))
    assert affliction(cli) is None


def test_mummy_rot_heal_option(cli):
    setup(cli, "pf1e", 0, "Aria", 40, "mummy_rot_heal_cures=true")
    expose(cli, "Aria", "mummy_rot", F)
    ok(cli("cure", "Aria", "d1", "--spell", "heal"))
    assert affliction(cli) is None


def test_mummy_rot_kills(cli):
    setup(cli)
    expose(cli, "Aria", "mummy_rot", F)
    saves(cli, [F] * 5)
    assert stages(affliction(cli)) == ["dead", "dead"] and character(cli)["dead"]


def test_blue_whinnis_no_end_state(cli):
    setup(cli)
    expose(cli, "Aria", "blue_whinnis", F)  # 2 damage
    doc = saves(cli, [F, F], "1min")
    a = affliction(cli)
    assert stages(a) == ["unconscious"] and a["status"] == "eliminated" and not character(cli)["dead"]
    assert character(cli)["hp"] == 40 - 2 - 2 - 2  # Con Weakened: damage on every save
    assert doc["summary"]["totals"]["end_states"] == 0
    ok(cli("advance", "1d", "--auto"))
    ok(cli("recover", "Aria", "--bed-rest"))
    assert stages(affliction(cli)) == ["weakened"]
    ok(cli("advance", "1d", "--auto"))
    ok(cli("recover", "Aria", "--bed-rest"))
    assert affliction(cli) is None


def test_id_moss_onset(cli):
    setup(cli)
    expose(cli, "Aria", "id_moss", F)
    assert stages(affliction(cli)) == ["weakened"]  # first step at once (first_step_timing=immediate)
    doc = ok(cli("--json", "advance", "1h")).json
    assert doc["pending"][0]["at"] == 600  # after the 10-minute onset
    doc = ok(cli("--json", "answer", doc["pending"][0]["id"], str(S))).json
    assert affliction(cli)["status"] == "eliminated" and doc["pending"] == []


def test_insanity_mist_to_death(cli):
    setup(cli)
    expose(cli, "Aria", "insanity_mist", F)
    saves(cli, [F, F, F, F], "1min")
    assert stages(affliction(cli)) == ["dead"] and character(cli)["dead"]


def test_ungol_dust_seed_rule(cli):
    setup(cli)
    expose(cli, "Aria", "ungol_dust", F)
    saves(cli, [F, F, S], "1min")
    a = affliction(cli)
    assert stages(a) == ["pliable"] and a["status"] == "eliminated"
    ok(cli("advance", "1d", "--auto"))
    doc = ok(cli("--json", "recover", "Aria", "--bed-rest", "--care")).json
    assert stages(affliction(cli)) == ["pliable"] and doc["recovered"][0]["facts"][-1]["what"] == "floor"
    ok(cli("cure", "Aria", "t1", "--spell", "restoration"))
    assert affliction(cli) is None


def test_ungol_dust_original_rule_floor_weakened(cli):
    setup(cli, "pf1e", 0, "Aria", 40, "follow_original_text=true")
    expose(cli, "Aria", "ungol_dust", F)
    saves(cli, [F, S], "1min")
    ok(cli("advance", "1d", "--auto"))
    ok(cli("recover", "Aria", "--bed-rest", "--care"))
    assert stages(affliction(cli)) == ["weakened"]
    ok(cli("advance", "1d", "--auto"))
    assert cli("recover", "Aria", "--bed-rest").code == 0
    assert stages(affliction(cli)) == ["weakened"]
    ok(cli("cure", "Aria", "t1", "--spell", "heal"))
    assert affliction(cli) is None


def test_black_lotus_extract_onset_and_death(cli):
    setup(cli)
    doc = expose(cli, "Aria", "black_lotus_extract", F)
    assert doc["exposure"]["damage"] == 5
    pending = ok(cli("--json", "advance", "5min")).json["pending"]
    assert pending[0]["at"] == 60
    saves_doc = ok(cli("--json", "answer", pending[0]["id"], str(F))).json
    assert stages(affliction(cli)) == ["disabled"]
    ok(cli("--json", "answer", saves_doc["pending"][0]["id"], str(F)))
    assert stages(affliction(cli)) == ["dead"] and character(cli)["dead"]
    assert character(cli)["hp"] <= 0


def test_green_lotus_second_pliable_end_state(cli):
    setup(cli)
    doc = expose(cli, "Aria", "green_lotus", F)
    assert doc["exposure"]["damage"] == 4
    saves(cli, [F, F, F], "5min")
    a = affliction(cli)
    assert stages(a) == ["pliable_2"] and a["status"] == "end_state" and not character(cli)["dead"]
    r = cli("cure", "Aria", "t1", "--spell", "neutralize_poison", "--cl-check", "40")
    assert r.code == 1 and "TRK-10" in r.err
    assert cli("recover", "Aria", "--bed-rest").code == 1
    ok(cli("cure", "Aria", "t1", "--spell", "miracle"))
    assert affliction(cli) is None


def test_deathblade_two_consecutive_and_con_damage(cli):
    setup(cli)
    expose(cli, "Aria", "deathblade", F)  # 5 damage
    saves(cli, [S, F, S, S], "1min")
    a = affliction(cli)
    assert stages(a) == ["impaired"] and a["status"] == "eliminated"
    assert character(cli)["hp"] == 40 - 5 - 4 * 5


def test_small_centipede_two_failures_per_step(cli):
    setup(cli)
    doc = expose(cli, "Aria", "small_centipede_poison", F)
    assert doc["exposure"]["damage"] == 0
    saves(cli, [F], "1r")
    a = affliction(cli)
    assert stages(a) == ["sluggish"] and a["failures"] == {"banked": 1, "needed": 2, "after": "sluggish"}
    saves(cli, [F, F, F], "1min")
    a = affliction(cli)
    assert stages(a) == ["staggered"] and a["status"] == "eliminated"  # 4 saves: staggered is the worst


def test_giant_scorpion_venom_worked_timeline(cli):
    setup(cli)
    doc = expose(cli, "Aria", "giant_scorpion_venom", F)
    assert doc["exposure"]["damage"] == 3 and stages(affliction(cli)) == ["weakened"]
    saves(cli, [F, S], "1min")
    a = affliction(cli)
    assert stages(a) == ["impaired"] and a["status"] == "eliminated"
    r = cli("recover", "Aria", "--bed-rest")
    assert r.code == 1 and "advance the clock" in r.err
    ok(cli("advance", "1d", "--auto"))
    ok(cli("recover", "Aria", "--bed-rest"))
    assert stages(affliction(cli)) == ["weakened"]
    ok(cli("advance", "1d", "--auto"))
    ok(cli("recover", "Aria", "--bed-rest"))
    assert affliction(cli) is None


def test_giant_scorpion_venom_long_term_care_and_nights(cli):
    setup(cli)
    expose(cli, "Aria", "giant_scorpion_venom", F)
    saves(cli, [F, S], "1min")
    ok(cli("advance", "8h", "--auto"))
    ok(cli("recover", "Aria", "--night"))
    assert stages(affliction(cli)) == ["impaired"]  # half a step
    ok(cli("advance", "1d", "--auto"))
    ok(cli("recover", "Aria", "--night"))
    assert stages(affliction(cli)) == ["weakened"]  # 2 nights: one step
    ok(cli("advance", "1d", "--auto"))
    ok(cli("recover", "Aria", "--bed-rest", "--care"))
    assert affliction(cli) is None  # doubled: 2 steps (only one was left)
