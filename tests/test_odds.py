"""Exact odds (issue 6): our chain solver against icepool's exact absorbing chain for every catalog
affliction, and against the engine itself (seeded auto-play of the real decisions, 5 sigma)."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from sawbones.application.service import Context
from sawbones.domain.afflictions import odds
from sawbones.domain.afflictions.rules import ACTIVE, CURED, interval
from sawbones.domain.afflictions.decide import expose
from sawbones.domain.engine.campaign import add_character
from sawbones.domain.engine.evolve import fold
from sawbones.domain.afflictions.odds_reference import EngineMoves, icepool_odds, monte_carlo
from sawbones.domain.engine.options import effective_options
from sawbones.domain.engine.rolls import Roller
from sawbones.domain.engine.state import UNIT_SECONDS
from sawbones.domain.engine.timeline import advance
from sawbones.errors import RuleViolation, SawbonesError

BONUSES = (-5, 3, 9, 25)


@pytest.fixture(scope="module")
def options(rules):
    return effective_options(rules, {})


def _nonzero(final):
    return {k: v for k, v in final.items() if v}


# ---------------------------------------------------------------- by hand


def test_scorpion_venom_by_hand(rules, options):
    """1 + 6 saves on the Strength track at +5 against DC 17 in pf1e: p = 9/20 (see test_tracks_odds)."""
    doc = odds.odds(rules, options, "giant_scorpion_venom", 5, system="pf1e", exact=True)
    p, q = Fraction(9, 20), Fraction(11, 20)
    assert doc["dc"] == 17 and doc["bonus"] == 5
    assert doc["final"] == {"healthy": p, "weakened": q * p, "impaired": q ** 2 * p, "staggered": q ** 3 * p,
                            "immobile": q ** 4 * p, "dead": q ** 5}
    assert doc["death"] == q ** 5 and doc["outcome"]["never_afflicted"] == p
    # a save per round while the poison runs: after weakened, one save per stage until a success or death
    saves = sum(q ** k for k in range(1, 5))  # the k-th save is made if the first k-1 saves and the initial failed
    assert doc["expected_duration"] == {"value": saves, "unit": "round", "saves": saves, "first_save_after": 1,
                                        "every": 1}


def test_natural_1_and_20_only_in_pf1e():
    assert odds.save_chance(30, 17, "pf1e") == 0.95 and odds.save_chance(30, 17, "dnd5e") == 1.0
    assert odds.save_chance(-30, 17, "pf1e") == 0.05 and odds.save_chance(-30, 17, "dnd5e") == 0.0
    assert odds.save_chance(5, 17, "pf1e", exact=True) == Fraction(9, 20)
    assert odds.DEFAULT_SYSTEM == "dnd5e"  # the engine's default campaign system
    with pytest.raises(SawbonesError):
        odds.save_chance(0, 10, "gurps")


def test_a_second_exposure_to_a_disease_is_a_second_chance_to_catch_it(rules, options):
    """The engine ignores an exposure to a disease the victim already has (RuleViolation): doses of a disease
    only add chances to catch it."""
    one = odds.odds(rules, options, "filth_fever", 0, system="pf1e", exact=True)
    three = odds.odds(rules, options, "filth_fever", 0, system="pf1e", doses=2, exact=True)
    p = Fraction(9, 20)
    assert one["outcome"]["never_afflicted"] == p and three["outcome"]["never_afflicted"] == p ** 3
    assert three["death"] == one["death"] * (1 - p ** 3) / (1 - p)


def test_extra_doses_of_a_poison_use_the_engines_extra_dose(rules, options):
    """An extra dose (TRK-16): a failed save moves one stage and adds half the duration."""
    ours = odds.odds(rules, options, "giant_scorpion_venom", 5, system="pf1e", doses=1, exact=True)
    p = Fraction(9, 20)
    # both saves made: never afflicted; the initial made then the extra failed: a fresh exposure (weakened)
    assert ours["outcome"]["never_afflicted"] == p * p
    assert ours["death"] > odds.odds(rules, options, "giant_scorpion_venom", 5, system="pf1e", exact=True)["death"]
    assert sum(ours["final"].values()) == 1
    # the engine: after the initial and an extra failed save, impaired with 6 + 3 saves left
    first, _ = odds.exposure(rules, options, "giant_scorpion_venom", None, False)
    second, _ = odds.exposure(rules, options, "giant_scorpion_venom", first, False)
    assert (first.stages, first.saves_left) == ((1,), 6) and (second.stages, second.saves_left) == ((2,), 9)


def test_from_stage_starts_where_a_deadly_start_would(rules, options):
    doc = odds.odds(rules, options, "filth_fever", 0, system="pf1e", from_stage="comatose", exact=True)
    assert doc["outcome"]["never_afflicted"] == 0 and doc["start"]["from"] == "stage"
    worse = odds.odds(rules, options, "filth_fever", 0, system="pf1e", exact=True)
    assert doc["death"] > worse["death"]
    with pytest.raises(SawbonesError, match="no stage"):
        odds.odds(rules, options, "filth_fever", 0, from_stage="nowhere")


def test_a_save_proof_disease_at_a_sure_save_never_ends(rules, options):
    """dnd5e has no natural 1: at +13 against DC 14 every save succeeds; dementia dust is cured only by magic,
    so from its latent stage it never moves: it never ends, and the expected duration is null."""
    doc = odds.odds(rules, options, "dementia_dust", 13, system="dnd5e", from_stage="latent", exact=True)
    assert doc["outcome"]["never_ends"] == 1 and _nonzero(doc["final"]) == {"latent": 1}
    assert doc["expected_duration"]["value"] is None
    pf = odds.odds(rules, options, "dementia_dust", 13, system="pf1e", from_stage="latent", exact=True)
    # 6 stages down: from latent only a natural 1 fails (1 in 20 a week: 20 weeks); from weakened on the
    # victim is shaken, -2 on saves: a 1 or a 2 fails (1 in 10: 10 weeks each)
    assert pf["death"] == 1 and pf["expected_duration"]["value"] == 20 + 5 * 10
    assert pf["chance"] == {"0": Fraction(19, 20), "-2": Fraction(18, 20)}


def test_onset_is_part_of_the_duration(rules, options):
    """Id moss: 10 minutes of onset, then a save per minute: a victim who fails the initial save and then
    makes the first periodic save has been poisoned 10 minutes."""
    doc = odds.odds(rules, options, "id_moss", 30, system="pf1e", exact=True)
    p = Fraction(19, 20)
    assert doc["expected_duration"]["first_save_after"] == 10 and doc["expected_duration"]["unit"] == "minute"
    saves = doc["expected_duration"]["saves"]
    assert doc["expected_duration"]["value"] == saves + (1 - p) * (10 - 1)
    lotus = odds.odds(rules, options, "black_lotus_extract", 0, system="pf1e", exact=True)
    assert lotus["expected_duration"]["first_save_after"] == 10  # 1 minute = 10 rounds


def test_campaign_options_change_the_chain(rules):
    base = effective_options(rules, {})
    counts = effective_options(rules, {"initial_save_counts_toward_duration": True})
    q = Fraction(11, 20)
    assert odds.odds(rules, base, "giant_scorpion_venom", 5, system="pf1e", exact=True)["death"] == q ** 5
    # 5 periodic saves instead of 6: dead (5 stages down) still needs 5 failures in a row
    assert odds.odds(rules, counts, "giant_scorpion_venom", 5, system="pf1e", exact=True)["death"] == q ** 5
    deadly = effective_options(rules, {"deadly_start": {"giant_scorpion_venom": "staggered"}})
    assert odds.odds(rules, deadly, "giant_scorpion_venom", 5, system="pf1e", exact=True)["death"] == q ** 3
    # the first step lands when the onset ends: the victim is healthy until then
    after = effective_options(rules, {"first_step_timing": "after_onset"})
    doc = odds.curve(rules, after, "id_moss", 5, system="pf1e", exact=True, steps=1)
    assert doc["rows"][0]["stages"]["healthy"] == 1
    assert odds.odds(rules, after, "id_moss", 5, system="pf1e", exact=True)["final"] == \
        odds.odds(rules, base, "id_moss", 5, system="pf1e", exact=True)["final"]


def test_odds_from_an_instance(rules, options):
    """From a character's current instance (what the web page shows next to it)."""
    first, _ = odds.exposure(rules, options, "deathblade", None, False)
    doc = odds.odds(rules, options, "deathblade", 4, system="pf1e", state=first, exact=True)
    full = odds.odds(rules, options, "deathblade", 4, system="pf1e", exact=True)
    p = Fraction(5, 20)
    assert full["death"] == (1 - p) * doc["death"]


def test_permanent_blindness_is_reported(rules, options):
    doc = odds.odds(rules, options, "blinding_sickness", 5, system="pf1e")
    assert 0 < doc["permanent"]["blinded"] < 1
    assert doc["permanent"]["blinded"] >= doc["death"]  # the dead went through impaired


# ---------------------------------------------------------------- icepool, every catalog affliction


def _variants(rules):
    for affliction_id in rules.afflictions:
        yield affliction_id, {}
    yield "giant_scorpion_venom", {"doses": 2}
    yield "deathblade", {"doses": 1}
    yield "mindfire", {"doses": 1}
    yield "devil_chills", {"from_stage": "bedridden"}
    yield "dementia_dust", {"from_stage": "latent"}


def test_exact_odds_equal_icepools_for_every_affliction(rules, options):
    for affliction_id, start in _variants(rules):
        moves = EngineMoves(rules, options, affliction_id, **start)
        for system in ("pf1e", "dnd5e"):
            for bonus in BONUSES:
                ours = odds.odds(rules, options, affliction_id, bonus, system=system, exact=True, **start)
                fast = odds.odds(rules, options, affliction_id, bonus, system=system, **start)
                ice = icepool_odds(moves, bonus, system)
                where = (affliction_id, start, system, bonus)
                assert _nonzero(ours["final"]) == ice["final"], where
                assert ours["death"] == ice["death"], where
                assert sum(ours["final"].values()) == 1, where
                assert abs(sum(fast["final"].values()) - 1) <= 1e-12, where
                for stage, p in ours["final"].items():
                    assert abs(fast["final"][stage] - float(p)) <= 1e-9, where
                assert abs(fast["death"] - float(ice["death"])) <= 1e-9, where
                saves = ours["expected_duration"]["saves"]
                if saves is not None:  # icepool's mean time also counts the doses taken at exposure
                    doses = start.get("doses", 0) + (0 if "from_stage" in start else 1)
                    assert saves + doses == ice["steps"], where
                    assert abs(fast["expected_duration"]["saves"] - float(saves)) <= 1e-9, where


def test_death_never_rises_with_the_bonus(rules, options):
    for row in odds.table(rules, options, range(-5, 26), system="pf1e"):
        deaths = [doc["death"] for doc in row["odds"]]
        assert all(a >= b - 1e-12 for a, b in zip(deaths, deaths[1:])), row["affliction"]


# ---------------------------------------------------------------- the engine itself, auto-played


def _victim(rules, options, system, bonus):
    state = fold([{"type": "campaign_created", "data": {"name": "odds", "system": system, "seed": 1}}])
    return fold(add_character(Context(state, rules, options, Roller(random.Random(0))), "Vic",
                              {"saves": {"fortitude": bonus}, "max_hp": 10_000}), state)


def _play(rules, options, start, affliction_id, seed, doses=0, deadly=None):
    """One victim: the exposures (decisions), then the clock advanced with every save auto-rolled.

    With a deadly start (the odds' from_stage) the initial save is a typed failure."""
    defn = rules.afflictions[affliction_id]
    roller = Roller(random.Random(seed))
    state = start
    for dose in range(1 + doses):
        failed = defn.dc - 1 if deadly and dose == 0 else None
        try:
            state = fold(expose(Context(state, rules, options, roller), "Vic", affliction_id, total=failed,
                                deadly=deadly), state)
        except RuleViolation:  # a disease already caught
            pass
    saves, last = 0, 0
    chunk = 40 * interval(defn) + 3600
    while True:
        victim = state.characters[0]
        a = victim.afflictions[0] if victim.afflictions else None
        if a is None or a.status != ACTIVE or victim.dead:
            break
        events = advance(Context(state, rules, options, roller), chunk, auto=True)
        for e in events:
            if e["type"] == "affliction_saved":
                saves, last = saves + 1, e["data"]["at"]
        state = fold(events, state)
    label = odds.stage_label(rules, a) if a is not None and a.status != CURED else "healthy"
    return label, victim.dead, saves, last


def _within(count, n, p, what):
    p = float(p)
    sigma = math.sqrt(n * p * (1 - p))
    assert abs(count - n * p) <= 5 * sigma + 1, (what, count, n * p, sigma)


def _cases(rules):
    for i, (affliction_id, defn) in enumerate(rules.afflictions.items()):
        runs = 400 if defn.kind == "disease" else 800
        yield affliction_id, "pf1e", defn.dc - 11 + (i % 5) - 2, {}, runs
    yield "deathblade", "dnd5e", 12, {}, 800
    yield "giant_scorpion_venom", "pf1e", 30, {}, 800  # only a natural 1 fails
    yield "filth_fever", "pf1e", -20, {}, 300  # only a natural 20 succeeds
    yield "filth_fever", "dnd5e", -20, {}, 50  # nothing succeeds
    yield "giant_scorpion_venom", "pf1e", 5, {"doses": 1}, 800
    yield "devil_chills", "pf1e", 4, {"from_stage": "disabled"}, 400
    yield "filth_fever", "dnd5e", 4, {"from_stage": "impaired"}, 400  # 5e exhausted: disadvantage on saves
    yield "mummy_rot", "dnd5e", 10, {}, 300  # 5e shaken -2, then disadvantage too


def test_auto_played_engine_matches_the_exact_odds(rules, options):
    for affliction_id, system, bonus, start, runs in _cases(rules):
        doc = odds.odds(rules, options, affliction_id, bonus, system=system, **start)
        start_state = _victim(rules, options, system, bonus)
        unit = UNIT_SECONDS[doc["expected_duration"]["unit"]]
        counts: dict[str, int] = {}
        deaths = 0
        saves, times = [], []
        for i in range(runs):
            label, dead, made, last = _play(rules, options, start_state, affliction_id, f"{affliction_id}:{i}",
                                            doses=start.get("doses", 0), deadly=start.get("from_stage"))
            counts[label] = counts.get(label, 0) + 1
            deaths += dead
            saves.append(made)
            times.append(last / unit)
        where = (affliction_id, system, bonus, start)
        assert set(counts) <= set(doc["final"]), where
        for stage, p in doc["final"].items():
            _within(counts.get(stage, 0), runs, p, (where, stage))
        _within(deaths, runs, doc["death"], (where, "death"))
        for sample, expected in ((saves, doc["expected_duration"]["saves"]),
                                 (times, doc["expected_duration"]["value"])):
            mean = sum(sample) / runs
            spread = math.sqrt(sum((x - mean) ** 2 for x in sample) / (runs - 1))
            assert abs(mean - expected) <= 5 * spread / math.sqrt(runs) + 1e-9, (where, mean, expected)


def test_instance_bonus_takes_the_instances_own_penalty_out(rules, options):
    """A character at Con poison Weakened saves at -2: the odds get the bonus without it and add it back."""
    state = _victim(rules, options, "pf1e", 4)
    state = fold(expose(Context(state, rules, options, Roller(random.Random(0))), "Vic", "deathblade", total=1), state)
    victim = state.characters[0]
    a = victim.afflictions[0]
    ctx = Context(state, rules, options, Roller(random.Random(0)))
    assert a.stages == (1,) and odds.instance_bonus(ctx, victim, a) == 4
    mine = odds.odds(rules, options, "deathblade", odds.instance_bonus(ctx, victim, a), system="pf1e", state=a)
    assert mine["start"]["from"] == "state" and mine["outcome"]["never_afflicted"] == 0


def test_monte_carlo_reference_agrees(rules, options):
    moves = EngineMoves(rules, options, "devil_chills")
    sampled = monte_carlo(moves, 3, 4000, "pf1e", seed=7)
    exact = odds.odds(rules, options, "devil_chills", 3, system="pf1e")
    for stage, p in exact["final"].items():
        _within(sampled["final"].get(stage, 0) * 4000, 4000, p, stage)


# ---------------------------------------------------------------- curve


def test_curve_rows_sum_to_one_and_end_on_the_final_odds(rules, options):
    for affliction_id in ("giant_scorpion_venom", "mindfire", "mummy_rot", "id_moss"):
        doc = odds.curve(rules, options, affliction_id, 6, system="pf1e", exact=True)
        final = odds.odds(rules, options, affliction_id, 6, system="pf1e", exact=True)
        for row in doc["rows"]:
            assert sum(row["stages"].values()) == 1
        deaths = [row["death"] for row in doc["rows"]]
        assert deaths == sorted(deaths)
        last = doc["rows"][-1]
        assert last["running"] <= Fraction(1, 10 ** 9)
        for stage, p in final["final"].items():
            assert abs(last["stages"][stage] - p) <= Fraction(1, 10 ** 9)


def test_curve_first_rows(rules, options):
    doc = odds.curve(rules, options, "giant_scorpion_venom", 5, system="pf1e", exact=True, steps=2)
    p, q = Fraction(9, 20), Fraction(11, 20)
    assert [r["t"] for r in doc["rows"]] == [0, 1, 2] and [r["time"] for r in doc["rows"]] == [0, 1, 2]
    assert doc["rows"][0]["stages"]["weakened"] == q and doc["rows"][1]["stages"]["impaired"] == q * q
    assert doc["rows"][1]["stages"]["weakened"] == q * p
    week = odds.curve(rules, options, "filth_fever", 5, system="pf1e", days=7)
    assert [r["t"] for r in week["rows"]] == list(range(8)) and week["rows"][-1]["time"] == 7
    moss = odds.curve(rules, options, "id_moss", 5, system="pf1e", steps=2)
    assert [r["time"] for r in moss["rows"]] == [0, 10, 11]


# ---------------------------------------------------------------- CLI


def test_cli_odds_json(cli):
    result = cli("--json", "odds", "giant_scorpion_venom", "--bonus", "5", "--system", "pf1e")
    assert result.code == 0, result.err
    doc = result.json
    assert doc["affliction"] == "giant_scorpion_venom" and doc["dc"] == 17 and doc["bonus"] == 5
    assert abs(sum(doc["final"].values()) - 1) <= 1e-12
    assert abs(doc["death"] - (11 / 20) ** 5) <= 1e-12
    assert doc["expected_duration"]["unit"] == "round" and doc["expected_duration"]["value"] > 0
    dnd = cli("--json", "odds", "giant_scorpion_venom", "--bonus", "5").json
    assert dnd["system"] == "dnd5e" and dnd["final"]["healthy"] == 0.45


def test_cli_odds_terminal_bars_curve_and_table(cli):
    shown = cli("odds", "giant_scorpion_venom", "--bonus", "5", "--system", "pf1e")
    assert shown.code == 0 and "Dead" in shown.out and "█" in shown.out
    curve = cli("--json", "odds", "mindfire", "--bonus", "2", "--curve", "--days", "5")
    assert curve.code == 0 and len(curve.json["curve"]["rows"]) == 6
    assert cli("odds", "mindfire", "--bonus", "2", "--curve").code == 0
    table = cli("--json", "odds", "--all", "--bonus", "-5..25", "--system", "pf1e")
    assert table.code == 0
    assert table.json["bonuses"] == list(range(-5, 26)) and len(table.json["afflictions"]) == 22
    assert cli("odds", "--all", "--bonus", "0..10").code == 0
    ranged = cli("--json", "odds", "deathblade", "--bonus", "0..3")
    assert [d["bonus"] for d in ranged.json["odds"]] == [0, 1, 2, 3]


def test_cli_odds_uses_the_campaigns_system_and_options(cli):
    assert cli("campaign", "create", "Pf", "--system", "pf1e").code == 0
    assert cli("campaign", "set", "deadly_start", "giant_scorpion_venom=staggered").code == 0
    doc = cli("--json", "odds", "giant_scorpion_venom", "--bonus", "30").json
    assert doc["system"] == "pf1e" and doc["final"]["healthy"] == 0.95 and doc["campaign"] == "Pf"
    assert abs(doc["death"] - 0.05 ** 3) <= 1e-15  # the initial save and two more failed: staggered -> dead
    assert cli("--json", "odds", "giant_scorpion_venom", "--bonus", "30", "--system", "dnd5e").json["death"] == 0


def test_cli_odds_errors(cli):
    unknown = cli("odds", "no_such_poison", "--bonus", "1")
    assert unknown.code == 2 and unknown.err.startswith("error:")
    assert cli("odds", "--bonus", "1").code == 2
    assert cli("odds", "mindfire", "--bonus", "x..y").code == 2
    assert cli("odds", "mindfire", "--bonus", "3", "--doses", "-1").code == 2
