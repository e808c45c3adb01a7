"""Exact injury odds (issue 17): one drop to 0, treatment, deadlines, a party's sessions.

Expected numbers come from the seed's words (seed 000) counted by hand or by icepool, never from the
odds code, and from 10,000 seeded plays of the real engine (tests/odds_injury_plays.py)."""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest

from sawbones.content.loader import load_rules
from sawbones.domain.injuries import odds as odds_injury, odds_drop, odds_party, odds_treatment
from sawbones.domain.engine.options import effective_options
from sawbones.errors import UsageError

from odds_injury_plays import play

RULES = load_rules()
DEFAULTS = effective_options(RULES, {})
LENIENT = {**DEFAULTS, "severity_bands": "lenient"}
# Seed 000: standard bands 11-20 minor, 06-10 moderate, 03-05 severe, 01-02 critical ("Sérieuse");
# "moins aggravantes": critical 01, severe 02-03, moderate 04-10 (minor stays 11-20).
STANDARD_SEVERITY = {"minor": F(10, 20), "moderate": F(5, 20), "severe": F(3, 20), "critical": F(2, 20)}
LENIENT_SEVERITY = {"minor": F(10, 20), "moderate": F(7, 20), "severe": F(2, 20), "critical": F(1, 20)}
# The 01-02 rows that take a part at once: "Perte d'un œil" (acid, lightning, piercing) and
# "Perte d'un pied ou d'une main" (slashing). The burns, frostbite and necrosis take it only after 1d4 days.
LOSE_AT_ONCE = {"acid": "eyes", "lightning": "eyes", "piercing": "eyes", "slashing": "hand_or_foot"}


def p_check(bonus: int, dc: int, mode: str = "normal") -> F:
    """A Wisdom (Medicine) check: d20 + bonus >= dc, no natural 1 or 20 rule (5e ability checks)."""
    one = F(max(0, min(20, 21 + bonus - dc)), 20)
    return one * one if mode == "disadvantage" else one


@pytest.mark.parametrize("table", sorted(RULES.damage_tables))
def test_one_drop_severity_rows_and_losses_match_the_seed(table):
    doc = odds_drop.drop_doc(RULES, DEFAULTS, table, exact=True)
    standard, lenient = doc["odds"]["standard"], doc["odds"]["lenient"]
    assert standard["severity"] == STANDARD_SEVERITY
    assert lenient["severity"] == LENIENT_SEVERITY
    widths = {}
    for row in RULES.damage_tables[table].rows:  # each row's share is its d20 range over 20 (standard)
        low, _, high = row.d20.partition("-")
        widths[row.d20] = F(int(high or low) - int(low) + 1, 20)
    assert {r["d20"]: r["p"] for r in standard["rows"]} == widths
    assert sum(r["p"] for r in lenient["rows"]) == 1
    at_once = F(2, 20) if table in LOSE_AT_ONCE else 0
    assert standard["permanent_loss"] == at_once
    assert lenient["permanent_loss"] == at_once / 2  # only the 01 is critical, the row of the lost part
    if LOSE_AT_ONCE.get(table) == "hand_or_foot":  # the hand or the foot, one chance in two
        assert standard["lost"] == {"eyes": 0, "hands": F(1, 20), "feet": F(1, 20)}


def test_lenient_by_raw_roll_keeps_the_row_and_changes_the_severity():
    doc = odds_drop.drop(RULES, {**LENIENT, "lenient_row_mapping": "by_raw_roll"}, "acid", exact=True)
    eye = [r for r in doc["rows"] if r["d20"] == "1-2"]
    assert {r["severity"]: r["p"] for r in eye} == {"critical": F(1, 20), "severe": F(1, 20)}
    assert doc["permanent_loss"] == F(2, 20)  # the raw 02 still takes an eye


def test_treatment_of_a_severe_injury_against_icepool():
    """Slashing 03-05, torn ligament: DC 20, +2 per failure, 2d4 days of bed rest per attempt."""
    icepool = pytest.importorskip("icepool")
    for bonus in (-1, 0, 5, 12, 15):
        t = odds_treatment.treatment_cached(RULES, DEFAULTS, "slashing", 4)
        doc = odds_treatment.solve(t, bonus, exact=True, timeline=True)
        stay, attempts, days = F(1), {}, {}
        bed = icepool.d4 + icepool.d4
        for k in range(40):
            p = p_check(bonus, 20 + 2 * k)
            if p == 0:
                break
            attempts[k + 1] = stay * p
            for total, q in _sum_of(bed, k + 1).items():
                days[F(total)] = days.get(F(total), F(0)) + stay * p * q
            stay *= 1 - p
        assert doc["attempts"] == attempts
        assert doc["healed"] == sum(attempts.values())
        assert doc["never_heals"] == doc["beyond_reach"] == stay
        assert doc["days"] == {d: q for d, q in days.items() if q}
        fast = odds_treatment.solve(t, bonus)
        assert math.isclose(fast["healed"], float(doc["healed"]), abs_tol=1e-12)
        if doc["healed"]:
            assert math.isclose(fast["expected_days"], float(doc["expected_days"]), rel_tol=1e-12)


def _sum_of(die, n):
    """n dice summed, as {total: Fraction} (icepool)."""
    total = die
    for _ in range(n - 1):
        total = total + die
    return {outcome: F(q, total.denominator()) for outcome, q in total.items()}


def test_self_treatment_has_disadvantage_and_a_critical_injury_takes_4d4_days():
    icepool = pytest.importorskip("icepool")
    t = odds_treatment.treatment_cached(RULES, DEFAULTS, "bludgeoning", 1, self_treatment=True)  # broken ribs
    doc = odds_treatment.solve(t, 8, exact=True, timeline=True)
    worst = icepool.lowest(icepool.d20, icepool.d20)
    first = F(sum(q for face, q in worst.items() if face + 8 >= 25), worst.denominator())
    assert first == p_check(8, 25, "disadvantage") == F(16, 400)
    second = (1 - first) * p_check(8, 27, "disadvantage")  # a 19 or a 20 on both dice; 29 is beyond a d20 + 8
    assert doc["attempts"] == {1: first, 2: second}
    days: dict[F, F] = {}
    for n, p in ((4, first), (8, second)):  # 4d4 days of extended bed rest per attempt
        for d, q in _sum_of(icepool.d4, n).items():
            days[F(d)] = days.get(F(d), F(0)) + p * q
    assert doc["days"] == days


@pytest.mark.parametrize("wait", [0, 1, 2, 3, 4])
def test_severe_burn_deadline_by_the_seed(wait):
    """Fire 01-02: lost if not treated within 1d4 days. Treatment started in time protects the limb until the
    check (deadline_satisfied_by: treatment_started); the extended bed rest (4d4 >= 4 days) always outlasts
    the deadline, so a failed check then takes the hand or foot at once."""
    bonus = 5
    doc = odds_treatment.solve(odds_treatment.treatment_cached(RULES, DEFAULTS, "fire", 1, wait), bonus, exact=True)
    too_late = F(min(wait, 4), 4)  # the deadline (1d4 days) fell during the wait
    made = p_check(bonus, 25)
    assert doc["lost"] == too_late + (1 - too_late) * (1 - made)
    assert doc["healed"] == (1 - too_late) * made


@pytest.mark.parametrize("wait", [0, 2, 5])
def test_the_document_names_the_injury_the_drop_gave_with_its_dc(wait):
    """A GM asks how a frostbite (cold 03-05, severe: DD20) heals when the healer comes after `wait` days. The
    seed's frostbite "évolue en blessure sérieuse" if untreated within 1d4 days, so the wait may have made it a
    critical injury (DC 25): the numbers count that; the header still names the frostbite with its own DC."""
    doc = odds_treatment.treatment_doc(RULES, DEFAULTS, "cold", 4, 5, wait_days=wait)
    assert (doc["injury"], doc["severity"]) == ("frostbite", "severe")
    assert doc["dc"] == RULES.severities["severe"].treatment.dc == 20


def test_deadline_met_only_by_healing_loses_the_limb_to_bed_rest():
    options = {**DEFAULTS, "deadline_satisfied_by": "healed"}
    doc = odds_treatment.solve(odds_treatment.treatment_cached(RULES, options, "necrotic", 2), 15, exact=True)
    assert doc["lost"] == 1  # 4d4 days of bed rest never end before a 1d4-day deadline


def test_rests_heal_minor_and_moderate_for_free():
    minor = odds_treatment.rest_healing(odds_treatment.treatment_cached(RULES, DEFAULTS, "fire", 15))
    moderate = odds_treatment.rest_healing(odds_treatment.treatment_cached(RULES, DEFAULTS, "fire", 7))
    severe = odds_treatment.rest_healing(odds_treatment.treatment_cached(RULES, DEFAULTS, "acid", 4))
    assert (minor["hit_die"], minor["long_rests"]) == (1, {1: 1})
    assert (moderate["hit_die"], moderate["long_rests"]) == (0, {1: 1})
    assert severe["never"] == 1
    options = {**DEFAULTS, "unflagged_severe_natural_recovery": "long_rests:3"}  # acid 03-05 has no flag
    assert odds_treatment.rest_healing(odds_treatment.treatment_cached(RULES, options, "acid", 4))["long_rests"] == {3: 1}


def test_party_profile_by_hand():
    """Slashing only, 2 drops a session, a healer who never fails (+30)."""
    p = odds_party.Profile(drops=2, types=(("slashing", 1),), bonus=30)
    doc = odds_party.what_if(RULES, DEFAULTS, p, ["severity_bands", "apply_to_npcs"])
    base = doc["base"]
    assert base["injuries"] == pytest.approx({"minor": 1.0, "moderate": 0.5, "severe": 0.3, "critical": 0.2})
    assert base["healed_by_rest"] == pytest.approx(1.5)  # minor and moderate: a rest
    assert base["bed_rest_days"] == pytest.approx(2 * 3 / 20 * 5)  # torn ligament: 2d4 days, healed at once
    assert base["magic_only"] == pytest.approx(0.2)  # the lost foot or hand
    assert base["permanent_losses_per_10"] == pytest.approx(10 * 2 * 2 / 20)
    lenient = next(v["profile"] for v in doc["variants"] if v["option"] == "severity_bands")
    assert lenient["permanent_losses_per_10"] == pytest.approx(1.0)
    assert lenient["bed_rest_days"] == pytest.approx(2 * 2 / 20 * 5)
    assert {u["option"] for u in doc["unchanged"]} == {"apply_to_npcs"}  # no NPC drops in this profile


def test_bounds_are_clear_errors():
    t = odds_treatment.treatment_cached(RULES, DEFAULTS, "fire", 1)
    for bad in (-11, 31):
        with pytest.raises(UsageError, match="bonus"):
            odds_treatment.solve(t, bad)
    for wait in (float("nan"), float("inf"), 1e308, -1):
        with pytest.raises(UsageError, match="wait"):
            odds_injury.treatment(RULES, DEFAULTS, "fire", 1, wait_days=wait)
    with pytest.raises(UsageError, match="drops"):
        odds_party.profile(RULES, DEFAULTS, odds_party.Profile(drops=float("nan")))


def test_ten_thousand_plays_of_the_engine_within_five_sigma():
    """Fire, healer +5, treatment a day after the drop: the deadline of a severe burn may already be gone."""
    bonus, wait, runs = 5, 1, 10_000
    expected = {"healed": 0.0, "lost": 0.0, "never": 0.0}
    attempts = days = 0.0
    for face in range(1, 21):
        doc = odds_treatment.solve(odds_treatment.treatment_cached(RULES, DEFAULTS, "fire", face, wait), bonus)
        expected["healed"] += doc["healed"] / 20
        expected["lost"] += doc["lost"] / 20
        expected["never"] += (doc["never_heals"] - doc["lost"]) / 20
        if doc["healed"]:
            attempts += doc["healed"] * doc["expected_attempts"] / 20
            days += doc["healed"] * doc["expected_days"] / 20
    counts = {"healed": 0, "lost": 0, "never": 0}
    tries, spent, spent2 = [], 0.0, 0.0
    for seed in range(runs):
        end, n, d = play(RULES, DEFAULTS, "fire", bonus, seed, wait_days=wait)
        counts[end] += 1
        if end == "healed":
            tries.append(n)
            spent += d
            spent2 += d * d
    for end, p in expected.items():
        sigma = math.sqrt(p * (1 - p) / runs) or 1 / runs
        assert abs(counts[end] / runs - p) <= 5 * sigma, (end, counts[end] / runs, p)
    healed = len(tries)
    mean_tries = sum(tries) / healed
    sd_tries = math.sqrt(sum((x - mean_tries) ** 2 for x in tries) / healed)
    assert abs(mean_tries - attempts / expected["healed"]) <= 5 * sd_tries / math.sqrt(healed)
    mean_days = spent / healed
    sd_days = math.sqrt(max(spent2 / healed - mean_days ** 2, 0))
    assert abs(mean_days - days / expected["healed"]) <= 5 * sd_days / math.sqrt(healed)


@pytest.mark.parametrize("option, value", [("deadline_satisfied_by", "healed"), ("carry_failures", True),
                                           ("critical_bedrest", "2d4"), ("apply_to_npcs", True)])
def test_shared_chains_never_mix_options(option, value):
    """Chains are shared between option sets that agree on what the engine read: a shared answer equals the
    answer computed alone, on empty caches."""
    other = {**DEFAULTS, option: value}
    cases = [("fire", 1, 0), ("cold", 4, 1), ("slashing", 3, 0), ("cold", 1, 2)]
    odds_injury.clear_cache()
    # the defaults first, on a minor injury only: the engine has not read the deadline options yet, so the
    # other options share that chain, until a deadline makes the engine read them (the chain is then rebuilt)
    odds_treatment.solve(odds_treatment.treatment_cached(RULES, DEFAULTS, "slashing", 12, 0), 9, exact=True)
    shared = [odds_treatment.solve(odds_treatment.treatment_cached(RULES, other, *c), 9, exact=True) for c in cases]
    odds_injury.clear_cache()
    alone = [odds_treatment.solve(odds_treatment.treatment_cached(RULES, other, *c), 9, exact=True) for c in cases]
    assert shared == alone


def test_an_option_the_odds_cannot_follow_does_not_refuse_the_next_one():
    """extremity_site=gm is the GM's call (which hand, which foot): the what-if lists it apart. Rerolling a
    frostbite as any critical injury is still compared (a critical injury may strike a hand: the engine picks
    one at random by default), whatever the process computed before it."""
    profile = odds_party.Profile(types=(("acid", 1.0), ("cold", 1.0)))
    options = effective_options(RULES, {"self_treatment": "allowed"})
    odds_injury.clear_cache()
    doc = odds_party.what_if(RULES, options, profile, ["extremity_site", "frostbite_escalates_to"])
    assert [v["option"] for v in doc["not_compared"]] == ["extremity_site"]
    assert [v["option"] for v in doc["variants"]] == ["frostbite_escalates_to"]
    odds_injury.clear_cache()
    alone = odds_party.what_if(RULES, options, profile, ["frostbite_escalates_to"])
    assert alone["variants"] == doc["variants"]


@pytest.mark.parametrize("overrides", [{}, {"carry_failures": True}, {"retry_requires_time": False},
                                       {"frostbite_escalates_to": "reroll_critical_any"},
                                       {"critical_bedrest": "2d6", "deadline_satisfied_by": "healed"},
                                       {"severity_bands": "lenient", "self_treatment": "allowed"}])
def test_one_run_per_ladder_answers_as_one_run_per_state(overrides, monkeypatch):
    """The engine is asked once for every rung of a DC ladder (odds.Graph._asked, engine/odds_symbolic.py): for
    every row of every table, treated at once or after 2 days, by a healer or by the patient, at every bonus
    from -1 to +15, each state's attempt and untreated month (every branch, its exact weight, where it leads)
    are the answers of asking the engine about that very state, and so is every number solved from them."""
    options = effective_options(RULES, overrides)
    cases = [(t.id, int(r.d20.split("-")[0]), wait, self_) for t in RULES.damage_tables.values() for r in t.rows
             for wait, self_ in ((0, False), (2, False), (0, True))]

    def asked(templates: bool) -> tuple:
        monkeypatch.setattr(odds_injury, "TEMPLATES", templates)
        odds_injury.clear_cache()
        solved = [odds_treatment.solve(odds_treatment.treatment_cached(RULES, options, *case), bonus, exact=True)
                  for case in cases for bonus in range(-1, 16)]
        graphs = odds_injury._GRAPHS[id(RULES)][1]
        runs = sum(len(v) for g in graphs for v in g.templates.values())
        return solved, [(g.nodes, g.edges, g.untreated) for g in graphs], runs

    alone = asked(False)
    laddered = asked(True)
    odds_injury.clear_cache()
    assert laddered[1] == alone[1]  # the same states, attempts and months, found in the same order
    assert laddered[0] == alone[0]
    assert alone[2] == 0 and 0 < laddered[2] < sum(len(g[1]) + len(g[2]) for g in alone[1])  # fewer engine runs


def test_the_graph_found_for_options_is_looked_for_again_once_it_read_another_option():
    """`odds.graph` remembers the graph that serves some options: once that graph's engine has read an option on
    which other options differ, they get another graph, and options that agree still get it."""
    odds_injury.clear_cache()
    other = {**DEFAULTS, "carry_failures": not DEFAULTS["carry_failures"]}
    shared = odds_injury.graph(RULES, DEFAULTS)
    assert odds_injury.graph(RULES, other) is shared  # nothing read yet: one graph serves both
    shared.options.get("carry_failures")  # what a treatment's check reads
    assert odds_injury.graph(RULES, other) is not shared
    assert odds_injury.graph(RULES, dict(DEFAULTS)) is shared
    odds_injury.clear_cache()
