"""The general rules of seed 004 (TRK-1..TRK-16), one test each, with typed dice."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from sawbones.application.service import Context
from sawbones.content import models
from sawbones.content.loader import load_rules
from sawbones.domain.afflictions.rules import AfflictionState, poison_damage, step
from sawbones.domain.engine.effects import active_effects
from sawbones.domain.engine.evolve import fold
from sawbones.domain.engine.options import effective_options
from sawbones.domain.engine.rolls import Roller
from test_tracks_helpers import affliction, character, expose, ok, saves, setup, stages

RULES = load_rules()
OPTIONS = effective_options(RULES, {})
F, S = 1, 30


def state(affliction_id: str, stage: int | tuple[int, ...] = 1, **changes) -> AfflictionState:
    defn = RULES.afflictions[affliction_id]
    stages_ = stage if isinstance(stage, tuple) else tuple(stage for _ in defn.tracks)
    base = AfflictionState(id="a1", affliction=affliction_id, kind=defn.kind, dc=defn.dc, tracks=tuple(defn.tracks),
                           stages=stages_, next_save_at=6,
                           saves_left=defn.frequency.count if defn.kind == "poison" else None)
    return replace(base, **changes)


# ---------------------------------------------------------------- step (pure)


def test_failed_save_advances_one_stage_and_resets_streak():
    new, facts = step(state("filth_fever", 2, streak=1), False, RULES, OPTIONS)
    assert new.stages == (3,) and new.streak == 0 and facts[0]["to"] == "impaired"


def test_disease_cure_is_one_step_back_per_fulfilment():
    a, _ = step(state("filth_fever", 3), True, RULES, OPTIONS)
    assert (a.stages, a.streak) == ((3,), 1)
    a, facts = step(a, True, RULES, OPTIONS)
    assert (a.stages, a.streak) == ((2,), 0) and {"what": "cure_step"} in facts


def test_latent_fulfilment_cures():
    a, facts = step(state("filth_fever", 1, streak=1), True, RULES, OPTIONS)
    assert a.status == "cured" and {"what": "cured"} in facts


def test_poison_cure_eliminates_and_stays_on_stage():
    a, facts = step(state("giant_scorpion_venom", 2), True, RULES, OPTIONS)
    assert a.status == "eliminated" and a.stages == (2,) and a.next_save_at is None
    assert {"what": "eliminated", "why": "cure"} in facts


def test_poison_duration_runs_out():
    a, facts = step(state("giant_scorpion_venom", 1, saves_left=1), False, RULES, OPTIONS)
    assert a.status == "eliminated" and a.stages == (2,) and {"what": "eliminated", "why": "duration"} in facts


def test_end_state_absorbs():
    a, facts = step(state("giant_scorpion_venom", 4), False, RULES, OPTIONS)
    assert a.status == "end_state" and {"what": "death"} in facts
    with pytest.raises(ValueError):
        step(a, True, RULES, OPTIONS)


def test_no_end_state_caps_and_keeps_saving():
    a, facts = step(state("blue_whinnis", 2), False, RULES, OPTIONS)
    assert a.status == "active" and a.stages == (2,) and not facts


def _slow_cure_rules():
    """The catalog with a centipede poison that needs 3 saves to cure (so successes can come between failures)."""
    defn = RULES.afflictions["small_centipede_poison"]
    slow = models.replace(defn, cure=models.replace(defn.cure, consecutive_saves=3))
    return replace(RULES, sections={**RULES.sections, "afflictions": {**RULES.afflictions, slow.id: slow}})


@pytest.mark.parametrize("consecutive, banked", [(False, 1), (True, 0)])
def test_centipede_failures_banked(consecutive, banked):
    rules = _slow_cure_rules()
    opts = OPTIONS | {"centipede_failures_consecutive": consecutive}
    a, facts = step(state("small_centipede_poison", 1), False, rules, opts)
    assert a.stages == (1,) and a.failures == 1 and facts[0]["what"] == "failure_banked"
    a, _ = step(a, True, rules, opts)
    assert a.failures == banked
    a, _ = step(a, False, rules, opts)
    assert a.stages == ((2,) if not consecutive else (1,))


def test_mummy_rot_advances_both_tracks():
    a, facts = step(state("mummy_rot", 2), False, RULES, OPTIONS)
    assert a.stages == (3, 3) and len([f for f in facts if f["what"] == "stage"]) == 2


def test_con_weakened_modifier_counts_for_odds():
    """The odds read each state's save as the engine does (the roll query on a victim with only that state)."""
    from sawbones.domain.afflictions.odds import save_terms
    from sawbones.domain.engine.saves import SaveTerms

    def terms(affliction_id, stage, system="pf1e"):
        return save_terms(RULES, OPTIONS, system, "fortitude", state(affliction_id, stage))

    assert terms("deathblade", 2) == SaveTerms(-4)
    assert terms("deathblade", 2, "dnd5e") == SaveTerms(-4)  # Fortitude is the Con save
    assert terms("black_lotus_extract", 2) == SaveTerms(-2)  # skips impaired
    assert terms("giant_scorpion_venom", 3) == SaveTerms(0)
    assert terms("filth_fever", 2) == SaveTerms(-2)  # physical Weakened: sickened
    assert terms("filth_fever", 3, "dnd5e") == SaveTerms(0, "disadvantage")  # Impaired: exhausted, 5e reading


@pytest.mark.parametrize("dc, floor, ceil, nearest", [(11, 0, 1, 1), (14, 2, 2, 2), (15, 2, 3, 3), (17, 3, 4, 4),
                                                      (18, 4, 4, 4), (20, 5, 5, 5)])
def test_poison_damage_rounding(dc, floor, ceil, nearest):
    got = [poison_damage(dc, {"initial_damage_rounding": m}) for m in ("floor", "ceil", "nearest")]
    assert got == [floor, ceil, nearest]


# ---------------------------------------------------------------- effects


def _character_with(a: AfflictionState, options=OPTIONS):
    from sawbones.domain.engine.state import Character

    return Character(id="x", name="X", max_hp=10, hp=10, afflictions=(a,))


def _conditions(a: AfflictionState, options=OPTIONS) -> list[str]:
    return sorted(e.effect.condition for e in active_effects(_character_with(a), RULES, options)
                  if e.effect.type == "condition")


def test_effects_are_cumulative_and_sourced():
    assert _conditions(state("filth_fever", 3)) == ["exhausted", "fatigued", "sickened"]
    effect = next(e for e in active_effects(_character_with(state("filth_fever", 2)), RULES, OPTIONS)
                  if e.effect.type == "condition")
    assert effect.kind == "affliction" and effect.detail["track"] == "physical_disease"
    assert effect.detail["stage"] == "weakened" and effect.detail["symptom"] is True


def test_mental_weakened_fatigued_seed_and_original():
    assert _conditions(state("mindfire", 2)) == ["fatigued", "shaken"]
    original = effective_options(RULES, {"follow_original_text": True})
    assert _conditions(state("mindfire", 2), original) == ["shaken"]


def test_custom_track_inherits():
    conditions = _conditions(state("leprosy", 3))
    assert conditions == ["flat_footed"]
    kinds = [e.effect.type for e in active_effects(_character_with(state("leprosy", 3)), RULES, OPTIONS)]
    assert "modifier" in kinds  # sluggish's -2 from the Dexterity poison track


# ---------------------------------------------------------------- through the CLI


def test_natural_one_and_twenty_in_pf1e(cli):
    setup(cli)
    doc = expose(cli, "Aria", "filth_fever", 30, "--d20", "1")
    assert doc["exposure"]["succeeded"] is False
    doc = expose(cli, "Aria", "giant_scorpion_venom", 3, "--d20", "20")
    assert doc["exposure"]["succeeded"] is True and doc["exposure"]["damage"] == 3


def test_no_natural_rule_in_dnd5e_and_fortitude_is_con(cli):
    setup(cli, "dnd5e", 7)
    doc = expose(cli, "Aria", "filth_fever", 30, "--d20", "1")
    assert doc["exposure"]["succeeded"] is True
    doc = expose(cli, "Aria", "giant_scorpion_venom", None, "--d20", "9")
    assert doc["exposure"]["total"] == 16 and doc["exposure"]["bonus"] == 7  # the Con save bonus


def test_d20_alone_adds_the_bonus_and_rejects_impossible_faces(cli):
    setup(cli, "pf1e", 4)
    assert expose(cli, "Aria", "filth_fever", None, "--d20", "8")["exposure"]["total"] == 12
    assert cli("expose", "Aria", "shakes", "--d20", "21").code == 2


def test_auto_roll_uses_the_save_bonus_and_stage_modifiers(cli):
    setup(cli, "pf1e", 6)
    expose(cli, "Aria", "deathblade", F, "--deadly", "impaired")
    doc = ok(cli("--json", "advance", "1r", "--auto")).json
    save = next(e for e in doc["events"] if e["type"] == "affliction_saved")["data"]
    assert save["bonus"] == 6 - 4 and save["total"] == save["d20"] + 2


def test_poison_damage_whatever_the_save(cli):
    setup(cli)
    assert expose(cli, "Aria", "deathblade", S)["hp"] == 40 - 5
    assert affliction(cli) is None


def test_first_stage_timing_after_onset(cli):
    setup(cli, "pf1e", 0, "Aria", 40, "first_step_timing=after_onset")
    expose(cli, "Aria", "id_moss", F)
    assert stages(affliction(cli)) == ["healthy"] and affliction(cli)["status"] == "active"
    doc = ok(cli("--json", "advance", "10min")).json
    assert stages(affliction(cli)) == ["weakened"] and doc["pending"][0]["at"] == 600


def test_initial_save_counts_toward_duration(cli):
    setup(cli, "pf1e", 0, "Aria", 40, "initial_save_counts_toward_duration=true")
    expose(cli, "Aria", "giant_scorpion_venom", F)
    assert affliction(cli)["remaining"]["saves"] == 5


def test_disease_first_save_one_interval_later(cli):
    setup(cli)
    ok(cli("advance", "5h"))
    expose(cli, "Aria", "filth_fever", F)
    assert affliction(cli)["next_save"]["at"] == 5 * 3600 + 86400


def test_deadly_start_flag_and_option(cli):
    setup(cli, "pf1e", 0, "Aria", 40, "deadly_start=giant_scorpion_venom=staggered")
    expose(cli, "Aria", "giant_scorpion_venom", F)
    assert stages(affliction(cli)) == ["staggered"]
    expose(cli, "Aria", "filth_fever", F, "--deadly", "disabled")
    assert stages(affliction(cli, "Aria", "filth_fever")) == ["disabled"]
    r = cli("expose", "Aria", "shakes", "--save", "1", "--deadly", "nowhere")
    assert r.code == 2 and "no stage" in r.err


def test_extra_dose(cli):
    setup(cli)
    expose(cli, "Aria", "giant_scorpion_venom", F)
    doc = expose(cli, "Aria", "giant_scorpion_venom", S)
    assert doc["exposure"]["dose"] == "extra" and doc["exposure"]["damage"] == 0
    assert stages(affliction(cli)) == ["weakened"] and affliction(cli)["remaining"]["saves"] == 6
    doc = expose(cli, "Aria", "giant_scorpion_venom", F)
    a = affliction(cli)
    assert stages(a) == ["impaired"] and a["remaining"]["saves"] == 9 and doc["exposure"]["dc"] == 17
    assert character(cli)["hp"] == 40 - 3


def test_extra_dose_damage_option(cli):
    setup(cli, "pf1e", 0, "Aria", 40, "extra_dose_damage=true")
    expose(cli, "Aria", "giant_scorpion_venom", F)
    assert expose(cli, "Aria", "giant_scorpion_venom", S)["exposure"]["damage"] == 3


def test_exposure_after_elimination_is_a_new_exposure(cli):
    setup(cli)
    expose(cli, "Aria", "giant_scorpion_venom", F)
    saves(cli, [S], "1r")
    doc = expose(cli, "Aria", "giant_scorpion_venom", F)
    a = affliction(cli)
    assert doc["exposure"]["dose"] == "renewed" and doc["exposure"]["damage"] == 3
    assert stages(a) == ["impaired"] and a["status"] == "active" and a["remaining"]["saves"] == 6


def test_con_track_damage_on_extra_dose_saves(cli):
    setup(cli)
    expose(cli, "Aria", "deathblade", F)
    expose(cli, "Aria", "deathblade", S)
    assert character(cli)["hp"] == 40 - 5 - 5


def test_same_disease_again_has_no_effect(cli):
    setup(cli)
    expose(cli, "Aria", "filth_fever", F)
    r = cli("expose", "Aria", "filth_fever", "--save", "1")
    assert r.code == 1 and "no effect" in r.err


def test_saves_in_chronological_order_across_characters(cli):
    setup(cli)
    ok(cli("character", "add", "Bob", "--saves", "fortitude=0"))
    expose(cli, "Aria", "filth_fever", F)
    ok(cli("advance", "12h"))
    expose(cli, "Bob", "shakes", F)
    expose(cli, "Bob", "insanity_mist", F)
    doc = ok(cli("--json", "advance", "3d", "--auto")).json
    timed = [(e["data"]["at"], e["data"]["character"]) for e in doc["events"] if e["type"] == "affliction_saved"]
    assert timed == sorted(timed, key=lambda t: t[0]) and len(timed) >= 5
    assert [c for _, c in timed[:1]] == ["bob"]  # the mist's first round comes first
    days = [t for t in timed if t[0] >= 86400]
    assert days[0][1] == "aria" and days[1][1] == "bob"


def test_pending_and_answer(cli):
    setup(cli)
    expose(cli, "Aria", "giant_scorpion_venom", F)
    doc = ok(cli("--json", "advance", "1min")).json
    assert doc["clock"] == 6 and doc["pending"][0]["target"] == 60
    assert ok(cli("--json", "pending")).json["pending"][0]["id"] == doc["pending"][0]["id"]
    r = cli("advance", "1r")
    assert r.code == 1 and "answer" in r.err
    assert cli("answer", "p99", "3").code == 2
    assert cli("answer", doc["pending"][0]["id"]).code == 2
    doc = ok(cli("--json", "answer", doc["pending"][0]["id"], "1", "--auto")).json
    assert doc["clock"] == 60 and doc["pending"] == []
    assert ok(cli("--json", "pending")).json["pending"] == []


def test_answer_with_d20_adds_bonus_and_natural_rule(cli):
    setup(cli, "pf1e", 30)
    expose(cli, "Aria", "giant_scorpion_venom", F)
    doc = ok(cli("--json", "advance", "1r")).json
    doc = ok(cli("--json", "answer", doc["pending"][0]["id"], "--d20", "1")).json
    assert [e["data"]["succeeded"] for e in doc["events"] if e["type"] == "affliction_saved"] == [False]


def test_death_kills_and_stops(cli):
    setup(cli)
    expose(cli, "Aria", "giant_scorpion_venom", F, "--deadly", "immobile")
    doc = saves(cli, [F], "1r")
    assert any(e["type"] == "character_died" for e in doc["events"]) and character(cli)["dead"]
    r = cli("expose", "Aria", "filth_fever", "--save", "1")
    assert r.code == 1 and "dead" in r.err


def test_track_conditions_resist_condition_removers(cli):
    setup(cli)
    expose(cli, "Aria", "filth_fever", F, "--deadly", "weakened")
    r = cli("cure", "Aria", "filth_fever", "--spell", "lesser_restoration")
    assert r.code == 1 and "TRK-11" in r.err
    r = cli("cure", "Aria", "filth_fever", "--spell", "neutralize_poison", "--cl-check", "30")
    assert r.code == 1 and "poison" in r.err
    assert cli("cure", "Aria", "filth_fever", "--spell", "fireball").code == 2


def test_spells_remove_disease_and_neutralize_poison(cli):
    setup(cli)
    expose(cli, "Aria", "filth_fever", F, "--deadly", "bedridden")
    ok(cli("cure", "Aria", "filth_fever", "--spell", "remove_disease", "--cl-check", "12"))
    assert affliction(cli) is None
    expose(cli, "Aria", "deathblade", F)
    doc = ok(cli("--json", "cure", "Aria", "deathblade", "--spell", "neutralize_poison", "--cl", "5")).json
    check = doc["cl_check"]
    assert check["total"] == check["d20"] + 5 and check["succeeded"] == (check["total"] >= 20)


def test_cl_check_option_off(cli):
    setup(cli, "pf1e", 0, "Aria", 40, "require_cl_check=false")
    expose(cli, "Aria", "deathblade", F)
    ok(cli("cure", "Aria", "deathblade", "--spell", "neutralize_poison"))
    assert affliction(cli) is None


def test_recovery_multiplier(cli):
    setup(cli, "pf1e", 0, "Aria", 40, "recovery_multiplier=giant_scorpion_venom=2")
    expose(cli, "Aria", "giant_scorpion_venom", S)
    expose(cli, "Aria", "giant_scorpion_venom", F)  # new exposure after a success: weakened
    saves(cli, [S], "1r")
    ok(cli("advance", "1d", "--auto"))
    ok(cli("recover", "Aria", "--bed-rest"))
    assert stages(affliction(cli)) == ["weakened"]
    ok(cli("advance", "1d", "--auto"))
    ok(cli("recover", "Aria", "--bed-rest"))
    assert affliction(cli) is None


def test_recover_refuses_active_poison(cli):
    setup(cli)
    expose(cli, "Aria", "giant_scorpion_venom", F)
    r = cli("recover", "Aria", "--night")
    assert r.code == 1 and "still in the system" in r.err
    assert cli("recover", "Aria").code == 2


def test_status_ladder_and_json(cli):
    setup(cli)
    expose(cli, "Aria", "giant_scorpion_venom", F)
    a = affliction(cli)
    ladder = a["tracks"][0]["ladder"]
    assert [s["id"] for s in ladder if s["current"]] == ["weakened"] and ladder[-1]["end_state"]
    assert a["next_save"]["in"] == 6 and a["remaining"] == {"saves": 6, "seconds": 36, "text": "6 rounds"}
    out = ok(cli("status")).out
    assert "Healthy › [Weakened] › Impaired" in out and "stage now: Weakened" in out and "next save" in out \
        and "saves left: 6" in out
    out = ok(cli("--lang", "fr", "status")).out
    assert "Sain › [Affaibli] › Diminué" in out and "prochain jet" in out


def test_long_advance_summary_for_a_party(cli):
    setup(cli, "pf1e", 2)
    for name in ("Bob", "Cyd", "Dee"):
        ok(cli("character", "add", name, "--saves", "fortitude=2"))
    for name, aff in (("Aria", "filth_fever"), ("Bob", "leprosy"), ("Cyd", "mindfire"), ("Dee", "devil_chills")):
        expose(cli, name, aff, F)
    r = ok(cli("advance", "30d", "--auto"))
    assert "Summary:" in r.out and "saves" in r.out
    doc = ok(cli("--json", "advance", "30d", "--auto")).json
    totals = doc["summary"]["totals"]
    assert set(totals) >= {"saves", "stages_changed", "cured", "deaths"}
    r = ok(cli("--lang", "fr", "advance", "1d", "--auto"))
    assert "Bilan :" in r.out


def test_replayed_roller_is_deterministic():
    base = fold([{"type": "campaign_created", "data": {"name": "x", "system": "pf1e", "seed": 1}},
                 {"type": "character_added", "data": {"id": "a", "name": "A", "max_hp": 10, "hp": 10}}])
    from sawbones.domain.afflictions.decide import expose as decide

    one = decide(Context(base, RULES, OPTIONS, Roller(random.Random(3))), "A", "filth_fever")
    two = decide(Context(base, RULES, OPTIONS, Roller(random.Random(3))), "A", "filth_fever")
    assert one == two and one[0]["data"]["rolls"]
