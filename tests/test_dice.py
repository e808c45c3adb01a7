import random
from collections import Counter

import pytest
from hypothesis import given, strategies as st

from sawbones import dice
from sawbones.errors import DiceError


@pytest.mark.parametrize("text, low, high", [
    ("1d20", 1, 20), ("2d6+3", 5, 15), ("1d4-1", 0, 3), ("-1d6", -6, -1), ("2d20kh1", 1, 20),
    ("4d6kh3", 3, 18), ("3", 3, 3), ("d8", 1, 8), ("1d6 + 1d4 - 2", 0, 8),
])
def test_bounds(text, low, high):
    formula = dice.parse(text)
    assert (formula.minimum, formula.maximum) == (low, high)
    rng = random.Random(3)
    for _ in range(200):
        assert low <= formula.roll(rng).total <= high


@pytest.mark.parametrize("text, message", [
    ("99999d99999", "99999 dice"), ("1d99999", "d99999"), ("", "empty"), ("abc", "cannot read"),
    ("1d4+", "cannot read"), ("2d6kh3", "cannot keep 3 of 2"), ("1d0", "d0"), ("0d6", "0 dice"),
    ("1d4" + "+1" * 30, "more than 20 terms"), ("1d4" + " + 1" * 30, "too long"), ("1d6 1d6", "cannot read"),
])
def test_bad_formulas_are_errors(text, message):
    with pytest.raises(DiceError, match=message):
        dice.parse(text)


def test_every_face_is_returned():
    result = dice.roll("4d6kh3", random.Random(5))
    assert len(result.faces) == 4
    assert result.total == sum(sorted(result.faces)[1:])


def test_advantage_keeps_highest_and_disadvantage_lowest():
    rng = random.Random(11)
    for _ in range(100):
        high = dice.d20(rng, "advantage")
        assert high.total == max(high.faces)
        low = dice.d20(rng, "disadvantage")
        assert low.total == min(low.faces)


def test_d20_is_uniform():
    """20,000 seeded rolls: each face within 5 standard deviations of 1,000."""
    rng = random.Random(2024)
    counts = Counter(dice.roll("1d20", rng).total for _ in range(20000))
    assert set(counts) == set(range(1, 21))
    sd = (20000 * (1 / 20) * (19 / 20)) ** 0.5
    assert all(abs(c - 1000) < 5 * sd for c in counts.values())


def test_advantage_distribution_matches_theory():
    rng = random.Random(7)
    n = 40000
    counts = Counter(dice.d20(rng, "advantage").total for _ in range(n))
    for face in (1, 10, 20):
        p = (face**2 - (face - 1) ** 2) / 400
        sd = (n * p * (1 - p)) ** 0.5
        assert abs(counts[face] - n * p) < 5 * sd


def test_typed_value_is_checked_against_the_formula():
    assert dice.parse("2d4").with_value(8).total == 8
    with pytest.raises(DiceError, match="not a possible result"):
        dice.parse("2d4").with_value(9)


@given(st.integers(1, 100), st.integers(1, 1000), st.integers(0, 2**32))
def test_any_legal_formula_rolls_within_bounds(count, sides, seed):
    formula = dice.parse(f"{count}d{sides}")
    total = formula.roll(random.Random(seed)).total
    assert formula.minimum <= total <= formula.maximum
