"""10,000 seeded auto-played exposures of giant scorpion venom at Fortitude +5 land on each final stage
within sampling error of the exact odds, computed here by enumerating every sequence of saves."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from itertools import product

from sawbones.application.service import Context
from sawbones.content.loader import load_rules
from sawbones.domain.afflictions.decide import expose
from sawbones.domain.engine.campaign import add_character
from sawbones.domain.engine.evolve import fold
from sawbones.domain.engine.options import effective_options
from sawbones.domain.engine.rolls import Roller
from sawbones.domain.engine.timeline import advance

N = 10_000
BONUS, DC, SAVES, DEAD = 5, 17, 6, 5  # Strength track: healthy 0 .. dead 5


def exact_final_stages() -> dict[int, Fraction]:
    """Independent of the engine: every sequence of 1 + 6 saves, each a success with P(d20 + 5 >= 17)."""
    p = Fraction(sum(1 for face in range(1, 21) if face + BONUS >= DC), 20)
    odds: dict[int, Fraction] = {k: Fraction(0) for k in range(DEAD + 1)}
    for outcome in product((True, False), repeat=1 + SAVES):
        weight = Fraction(1)
        for ok in outcome:
            weight *= p if ok else 1 - p
        initial, rest = outcome[0], outcome[1:]
        if initial:
            odds[0] += weight  # never afflicted
            continue
        stage = 1
        for ok in rest:  # the remaining results past the end of play are summed over
            if ok or stage == DEAD:
                break
            stage += 1
        odds[stage] += weight
    assert sum(odds.values()) == 1
    return odds


def test_exact_odds_by_hand():
    odds = exact_final_stages()
    assert odds[0] == Fraction(9, 20)
    assert odds[1] == Fraction(11, 20) * Fraction(9, 20)
    assert odds[DEAD] == Fraction(11, 20) ** 5


def test_auto_played_venom_matches_the_exact_odds():
    rules = load_rules()
    options = effective_options(rules, {})
    base = fold([{"type": "campaign_created", "data": {"name": "odds", "system": "pf1e", "seed": 1}}])
    base = fold(add_character(Context(base, rules, options, Roller(random.Random(0))), "Vic",
                              {"saves": {"fortitude": BONUS}, "max_hp": 50}), base)
    counts = {k: 0 for k in range(DEAD + 1)}
    for i in range(N):
        roller = Roller(random.Random(f"venom:{i}"))
        state = fold(expose(Context(base, rules, options, roller), "Vic", "giant_scorpion_venom"), base)
        state = fold(advance(Context(state, rules, options, roller), 60, auto=True), state)
        victim = state.characters[0]
        stage = victim.afflictions[0].stages[0] if victim.afflictions else 0
        assert victim.dead == (stage == DEAD)
        counts[stage] += 1
    for stage, p in exact_final_stages().items():
        expected = N * float(p)
        sigma = math.sqrt(N * float(p) * (1 - float(p)))
        assert abs(counts[stage] - expected) <= 5 * sigma + 1, (stage, counts[stage], expected, sigma)
