"""The saves the engine rolls itself take what the roll query says (saves.py): conditions included,
advantage/disadvantage (5e), automatic failure; the odds read each state's save the same way."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from sawbones.content.loader import load_rules
from sawbones.domain.afflictions import odds
from sawbones.domain.engine.options import effective_options
from sawbones.domain.engine.rolls import Roller
from sawbones.domain.engine.saves import SaveReading, SaveTerms, chance, roll
from test_tracks_helpers import expose, ok, setup

RULES = load_rules()

F = 1  # a typed total that fails every save here


def _saved(doc: dict) -> dict:
    return next(e for e in doc["events"] if e["type"] == "affliction_saved")["data"]


def _line(breakdown: dict, kind: str, ident: str) -> dict:
    """The line from a condition (its id) or another source (its content id)."""
    key = "id" if kind == "condition" else "content_id"
    return next(x for x in breakdown["lines"] if x["source"]["kind"] == kind and x["source"][key] == ident)


# ---------------------------------------------------------------- periodic saves (afflictions_decide)


def test_pf1e_physical_weakened_is_sickened_minus_two_on_the_next_auto_save(cli):
    setup(cli, "pf1e", 5)
    expose(cli, "Aria", "filth_fever", F, "--deadly", "weakened")
    doc = ok(cli("--json", "advance", "1d", "--auto")).json
    save = _saved(doc)
    assert save["bonus"] == 5 - 2 and save["total"] == save["d20"] + 3
    breakdown = save["breakdown"]
    assert (breakdown["sheet"], breakdown["modifier"], breakdown["mode"]) == (5, -2, "normal")
    sickened = _line(breakdown, "condition", "sickened")
    assert sickened["value"] == -2 and sickened["source"]["from"][0]["content_id"] == "filth_fever"
    # fatigued is there too, but its -2 Str/Dex do not touch a Fortitude save
    assert [x["source"]["id"] for x in breakdown["lines"]] == ["sickened"]
    assert "Sickened -2" in " ".join(doc["summary"]["lines"])


def test_pf1e_sickened_and_shaken_stack_on_fortitude(cli):
    """Physical Weakened (sickened) and mental Weakened (shaken): -2 each on the next save of either."""
    setup(cli, "pf1e", 5)
    expose(cli, "Aria", "filth_fever", F, "--deadly", "weakened")
    expose(cli, "Aria", "mindfire", F, "--deadly", "weakened")
    save = _saved(ok(cli("--json", "advance", "1d", "--auto")).json)
    assert save["bonus"] == 5 - 4
    assert {x["source"]["id"]: x["value"] for x in save["breakdown"]["lines"]} == {"sickened": -2, "shaken": -2}


def test_exposure_takes_the_conditions_already_there(cli):
    """The initial save against a new affliction is a save too: a sickened victim takes -2 on it."""
    setup(cli, "pf1e", 5)
    expose(cli, "Aria", "filth_fever", F, "--deadly", "weakened")
    doc = expose(cli, "Aria", "giant_scorpion_venom", None, "--d20", "10")
    assert doc["exposure"]["bonus"] == 3 and doc["exposure"]["total"] == 13
    assert doc["exposure"]["breakdown"]["lines"][0]["source"]["id"] == "sickened"


def test_dnd5e_exhausted_gives_disadvantage_the_engine_rolls_2d20kl1(cli):
    """Physical Impaired is exhausted; read in 5e, disadvantage on saving throws (condition_readings.yaml)."""
    setup(cli, "dnd5e", 5)
    expose(cli, "Aria", "filth_fever", F, "--deadly", "impaired")
    save = _saved(ok(cli("--json", "advance", "1d", "--auto")).json)
    die = save["rolls"][0]
    assert die["formula"] == "2d20kl1" and len(die["faces"]) == 2 and save["d20"] == min(die["faces"])
    assert save["mode"] == "disadvantage" and save["bonus"] == 5 and save["total"] == save["d20"] + 5
    exhausted = _line(save["breakdown"], "condition", "exhausted")
    assert exhausted["type"] == "disadvantage"


def test_dnd5e_the_same_stage_in_pf1e_is_no_disadvantage(cli):
    """pf1e exhausted: -6 Str and Dex, nothing on Fortitude; the sickened of Weakened stays (-2)."""
    setup(cli, "pf1e", 5)
    expose(cli, "Aria", "filth_fever", F, "--deadly", "impaired")
    save = _saved(ok(cli("--json", "advance", "1d", "--auto")).json)
    assert save["rolls"][0]["formula"] == "1d20" and "mode" not in save and save["bonus"] == 3


def test_the_onset_step_lands_before_the_save_it_precedes(cli):
    """first_step_timing=after_onset: the first stage lands as the onset ends, and the save that follows is
    made on it (Con poison Weakened: -2), as an answered save would be."""
    setup(cli, "pf1e", 5, "Aria", 40, "first_step_timing=after_onset")
    ok(cli("--json", "expose", "Aria", "black_lotus_extract", "--save", "1"))
    save = _saved(ok(cli("--json", "advance", "1min", "--auto")).json)
    assert save["bonus"] == 3 and save["breakdown"]["lines"][0]["value"] == -2


# ---------------------------------------------------------------- moments (turns.py)


@pytest.fixture
def bob(cli):
    """A 5e campaign: Bob (Con 10, no save bonus) with Nausea (acid 19: a DC 8 Con save each turn)."""
    ok(cli("campaign", "create", "T5", "--seed", "5"))
    ok(cli("character", "add", "Bob", "--max-hp", "40"))
    ok(cli("injure", "Bob", "--type", "acid", "--d20", "19"))
    return cli


def _turn(cli, *args: str) -> dict:
    return ok(cli("--json", "turn", "Bob", *args)).json["events"][0]["data"]["results"][0]


def test_nausea_save_takes_a_con_poisons_fortitude_penalty(bob):
    """Deathblade's Weakened stage is -2 on Fortitude saves; in a 5e campaign that is the Con save."""
    assert _turn(bob)["bonus"] == 0
    ok(bob("--json", "expose", "Bob", "deathblade", "--save", "1"))
    r = _turn(bob)
    assert r["save"] == "con" and r["dc"] == 8 and r["bonus"] == -2 and r["total"] == r["d20"] - 2
    assert r["failed"] == (r["total"] < 8)
    assert _line(r["breakdown"], "affliction", "deathblade")["value"] == -2
    assert _turn(bob, "--save", "8")["failed"] is False  # a typed total is the total


def test_nausea_save_with_queasy_rolls_with_disadvantage(bob):
    """Queasy (poison 15-17): disadvantage on Constitution saves (ability_roll_scope: checks_and_saves)."""
    ok(bob("injure", "Bob", "--type", "poison", "--d20", "16"))
    noted = ok(bob("--json", "turn", "Bob")).json["events"][0]["data"]
    r, die = noted["results"][0], noted["rolls"][0]
    assert r["mode"] == "disadvantage" and r["total"] == r["d20"]
    assert die["formula"] == "2d20kl1" and min(die["faces"]) == r["d20"]
    assert _line(r["breakdown"], "injury", "queasy")["type"] == "disadvantage"


def test_pf1e_leaves_a_5e_disadvantage_to_the_gm(cli):
    """In a pf1e campaign advantage and disadvantage are 5e mechanics the GM reads (the roll query notes it):
    the engine rolls one d20 and lists them as not applied. A 5e Con save is the sheet's Fortitude."""
    ok(cli("campaign", "create", "P", "--system", "pf1e", "--seed", "5"))
    ok(cli("character", "add", "Bob", "--max-hp", "40", "--saves", "fortitude=3"))
    ok(cli("injure", "Bob", "--type", "poison", "--d20", "16"))  # queasy
    ok(cli("injure", "Bob", "--type", "acid", "--d20", "19"))  # nausea
    noted = ok(cli("--json", "turn", "Bob")).json["events"][0]["data"]
    r = noted["results"][0]
    assert noted["rolls"][0]["formula"] == "1d20" and "mode" not in r and r["bonus"] == 3
    assert r["breakdown"]["lines"] == [] and r["breakdown"]["not_applied"][0]["source"]["content_id"] == "queasy"


def test_an_automatic_failure_fails_without_a_die(bob):
    """5e unconscious (Con poison Unconscious) fails Dexterity saves: the Leg Injury's Dex save fails, no die. An
    unconscious character takes no Dash (issue 40: refused, nothing applied), so the save is read and rolled as the
    moment would."""
    from sawbones.domain.afflictions import decide
    from sawbones.domain.engine import saves
    from sawbones.domain.injuries import rules as injuries
    from test_rules_audit import act, campaign, ctx, with_character

    ok(bob("injure", "Bob", "--type", "force", "--d20", "19"))  # leg injury: DC 10 Dex save on a Dash
    ok(bob("--json", "expose", "Bob", "deathblade", "--save", "1", "--deadly", "unconscious"))
    refused = bob("dash", "Bob")
    assert refused.code == 1 and "Bob can't take the Dash action: Unconscious (Deathblade)" in refused.err
    state = with_character(campaign("dnd5e"), "Bob")
    state = fold_all(state, injuries.gain(ctx(state), state.character("bob"), "force", d20=19))
    state = act(state, decide.expose, "Bob", "deathblade", 1, None, "unconscious")
    bob_now = state.character("bob")
    options = effective_options(RULES, state.option_overrides())
    reading = saves.read(bob_now, RULES, options, "dnd5e", "dex")
    r = roll(Roller(random.Random(0)), "dnd5e", reading, 10, "leg injury: dex save")
    assert r["auto_fail"] and not r["succeeded"] and r["total"] is None and "d20" not in r
    assert _line(r["breakdown"], "condition", "unconscious")["type"] == "auto_fail"
    typed = roll(Roller(random.Random(0)), "dnd5e", reading, 10, "leg injury: dex save", 25)
    assert not typed["succeeded"] and typed["total"] == 25


def fold_all(state, events):
    from sawbones.domain.engine.evolve import fold

    return fold(events, state)


# ---------------------------------------------------------------- the die and the chance


def test_roll_and_chance_agree_on_every_reading():
    """saves.roll (the engine) against saves.chance (the odds): every d20 face, or pair of faces."""
    for system in ("dnd5e", "pf1e"):
        for terms in (SaveTerms(0), SaveTerms(-2), SaveTerms(1, "advantage"), SaveTerms(-3, "disadvantage"),
                      SaveTerms(0, "normal", True)):
            for bonus, dc in ((3, 15), (30, 15), (-30, 15)):
                reading = SaveReading("fortitude", bonus, terms)
                faces = range(1, 21)
                if terms.mode == "normal":
                    made = sum(_roll_with(reading, system, dc, [f]) for f in faces)
                    out_of = 20
                else:
                    made = sum(_roll_with(reading, system, dc, [a, b]) for a in faces for b in faces)
                    out_of = 400
                assert chance(terms, bonus, dc, system, exact=True) == Fraction(made, out_of), (system, terms)


class _Dice(random.Random):
    def __init__(self, faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


def _roll_with(reading, system, dc, faces) -> bool:
    roller = Roller(_Dice(faces))
    return roll(roller, system, reading, dc, "test")["succeeded"]


def test_advantage_and_disadvantage_chances_by_hand():
    p = Fraction(9, 20)  # d20 + 5 >= 17
    assert chance(SaveTerms(), 5, 17, "pf1e", exact=True) == p
    assert chance(SaveTerms(0, "advantage"), 5, 17, "dnd5e", exact=True) == 1 - (1 - p) ** 2
    assert chance(SaveTerms(0, "disadvantage"), 5, 17, "dnd5e", exact=True) == p ** 2
    assert chance(SaveTerms(2, "disadvantage"), 3, 17, "dnd5e") == float(p ** 2)
    assert chance(SaveTerms(0, "normal", True), 50, 17, "pf1e", exact=True) == 0  # no natural 20 either


# ---------------------------------------------------------------- the odds


@pytest.fixture(scope="module")
def options(rules):
    return effective_options(rules, {})


def test_odds_read_each_state_as_the_engine(rules, options):
    def terms(system, affliction_id, stage):
        state, _ = odds.exposure(rules, options, affliction_id, None, False, deadly=stage)
        return odds.save_terms(rules, options, system, "fortitude", state)

    assert terms("pf1e", "filth_fever", "latent") == SaveTerms(0)
    assert terms("pf1e", "filth_fever", "weakened") == SaveTerms(-2)  # sickened
    assert terms("pf1e", "mindfire", "weakened") == SaveTerms(-2)  # shaken
    assert terms("pf1e", "filth_fever", "impaired") == SaveTerms(-2)  # exhausted: nothing on Fortitude
    assert terms("dnd5e", "filth_fever", "weakened") == SaveTerms(0)  # 5e sickened: checks and attacks
    assert terms("dnd5e", "filth_fever", "impaired") == SaveTerms(0, "disadvantage")
    assert terms("dnd5e", "deathblade", "impaired") == SaveTerms(-4)


def test_one_save_with_disadvantage_by_hand(rules, options):
    """Filth fever (DC 12) from Impaired at +5: the next save succeeds with p = 12/20 in pf1e (a 9 or more: -2,
    sickened), and with (14/20)^2 in dnd5e (a 7 or more, no penalty, but disadvantage); a failure moves to
    Disabled. Before, both were 14/20."""
    pf = odds.curve(rules, options, "filth_fever", 5, system="pf1e", from_stage="impaired", steps=1, exact=True)
    dnd = odds.curve(rules, options, "filth_fever", 5, system="dnd5e", from_stage="impaired", steps=1, exact=True)
    assert pf["rows"][1]["stages"]["disabled"] == 1 - Fraction(12, 20)
    assert dnd["rows"][1]["stages"]["disabled"] == 1 - Fraction(14, 20) ** 2
    assert dnd["rows"][1]["stages"]["impaired"] == Fraction(14, 20) ** 2


def test_mummy_rot_by_hand(rules, options):
    """Mummy rot (DC 16) from Weakened on both tracks, at +10: no cure by saves, every failure one stage down
    both tracks, 5 failures to death. pf1e: sickened and shaken, -4 on every save: p = 11/20 (a 10 or more).
    dnd5e: shaken's -2 (its 5e reading), then from Impaired exhausted's disadvantage: p = 13/20 at Weakened
    (an 8 or more), (13/20)^2 from Impaired on. Expected saves: one failure per stage, 1 / (1 - p) saves each."""
    pf = odds.odds(rules, options, "mummy_rot", 10, system="pf1e", from_stage="weakened", exact=True)
    assert pf["death"] == 1 and pf["expected_duration"]["saves"] == 5 * Fraction(20, 9)
    assert pf["chance"] == {"-4": Fraction(11, 20), "0": Fraction(15, 20)}  # "0": the end state (no save)
    dnd = odds.odds(rules, options, "mummy_rot", 10, system="dnd5e", from_stage="weakened", exact=True)
    p = Fraction(13, 20)
    assert dnd["death"] == 1 and dnd["expected_duration"]["saves"] == 1 / (1 - p) + 4 / (1 - p ** 2)
    assert dnd["chance"]["-2 disadvantage"] == p ** 2


def test_instance_bonus_keeps_other_sources_and_takes_the_instances_own_reading_out(rules, options):
    """A pf1e victim (Fortitude +4) at deathblade Weakened (-2) who is also sickened by filth fever (-2): the
    engine saves at +0; the odds of the deathblade instance get +2 and add its own -2 back state by state."""
    from sawbones.application.service import Context
    from sawbones.domain.afflictions.decide import expose, save_bonus
    from sawbones.domain.engine.campaign import add_character
    from sawbones.domain.engine.evolve import fold

    state = fold([{"type": "campaign_created", "data": {"name": "t", "system": "pf1e", "seed": 1}}])

    def ctx(state):
        return Context(state, rules, options, Roller(random.Random(0)))

    state = fold(add_character(ctx(state), "Vic", {"saves": {"fortitude": 4}, "max_hp": 100}), state)
    state = fold(expose(ctx(state), "Vic", "deathblade", total=1), state)
    state = fold(expose(ctx(state), "Vic", "filth_fever", total=1, deadly="weakened"), state)
    victim = state.characters[0]
    blade = next(a for a in victim.afflictions if a.affliction == "deathblade")
    assert save_bonus(ctx(state), victim, "fortitude") == 0
    assert odds.instance_bonus(ctx(state), victim, blade) == 2
    doc = odds.odds(rules, options, "deathblade", 2, system="pf1e", state=blade, exact=True)
    assert doc["chance"]["-2"] == Fraction(1, 20)  # d20 + 2 - 2 >= 20: a natural 20
