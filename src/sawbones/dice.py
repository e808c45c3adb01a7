"""A small dice roller: ``NdM``, ``NdMkhK`` / ``NdMklK`` (advantage), ``+``/``-`` terms, constants.

The random generator is always passed in; a roll returns every face. Hostile formulas
(``99999d99999``) are rejected before anything is rolled.
"""

from __future__ import annotations

import random
import re
from functools import cached_property, lru_cache

from .frozen import frozen
from .errors import DiceError
from .message import msg

MAX_DICE = 100
MAX_SIDES = 1000
MAX_TERMS = 20
MAX_LENGTH = 64

_TERM = re.compile(r"([+-])?\s*(?:(\d*)d(\d+)(?:(kh|kl)(\d+))?|(\d+))", re.IGNORECASE)


@frozen
class Term:
    sign: int
    count: int  # 0 for a constant
    sides: int  # the constant's value when count == 0
    keep: str | None = None  # "kh" or "kl"
    keep_n: int = 0

    @property
    def is_constant(self) -> bool:
        return self.count == 0


@frozen
class TermRoll:
    term: Term
    faces: tuple[int, ...]
    kept: tuple[int, ...]

    @property
    def value(self) -> int:
        if self.term.is_constant:
            return self.term.sign * self.term.sides
        return self.term.sign * sum(self.kept)


@frozen
class Roll:
    formula: str
    total: int
    parts: tuple[TermRoll, ...]

    @property
    def faces(self) -> tuple[int, ...]:
        return tuple(f for p in self.parts for f in p.faces)

    def as_dict(self) -> dict:
        return {"formula": self.formula, "total": self.total, "faces": list(self.faces)}


@frozen
class Formula:
    text: str
    terms: tuple[Term, ...]

    @cached_property  # a parsed formula is shared (`parse` is cached): its bounds are counted once
    def minimum(self) -> int:
        return sum(_bound(t, low=True) for t in self.terms)

    @cached_property
    def maximum(self) -> int:
        return sum(_bound(t, low=False) for t in self.terms)

    def roll(self, rng: random.Random) -> Roll:
        parts = tuple(_roll_term(t, rng) for t in self.terms)
        return Roll(self.text, sum(p.value for p in parts), parts)

    def with_value(self, total: int) -> Roll:
        """A roll the GM typed in (the player's physical dice): checked against the formula's range."""
        if not self.minimum <= total <= self.maximum:
            raise DiceError(msg("{total} is not a possible result of {formula} ({low}..{high})", total=total, formula=self.text,
                                low=self.minimum, high=self.maximum))
        return Roll(self.text, total, ())


def _bound(t: Term, low: bool) -> int:
    if t.is_constant:
        return t.sign * t.sides
    n = t.keep_n if t.keep else t.count
    one = 1 if (low == (t.sign > 0)) else t.sides
    return t.sign * n * one


def _roll_term(t: Term, rng: random.Random) -> TermRoll:
    if t.is_constant:
        return TermRoll(t, (), ())
    faces = tuple(rng.randint(1, t.sides) for _ in range(t.count))
    if t.keep:
        ordered = sorted(faces, reverse=(t.keep == "kh"))
        kept = tuple(ordered[: t.keep_n])
    else:
        kept = faces
    return TermRoll(t, faces, kept)


@lru_cache(maxsize=512)
def parse(text: str) -> Formula:
    """Parse a formula, or raise DiceError saying what is wrong."""
    if not isinstance(text, str):
        raise DiceError(msg("a dice formula must be text, not {type_name}", type_name=type(text).__name__))
    source = text.strip()
    if not source:
        raise DiceError(msg("empty dice formula"))
    if len(source) > MAX_LENGTH:
        raise DiceError(msg("dice formula too long ({length} characters, at most {most})", length=len(source),
                            most=MAX_LENGTH))
    terms: list[Term] = []
    pos = 0
    while pos < len(source):
        while pos < len(source) and source[pos].isspace():
            pos += 1
        match = _TERM.match(source, pos)
        if not match or match.end() == pos or (terms and not match.group(1)):
            raise DiceError(msg("bad dice formula {text}: cannot read {rest}", text=repr(text), rest=repr(source[pos:])))
        sign = -1 if match.group(1) == "-" else 1
        if match.group(6) is not None:
            terms.append(Term(sign, 0, int(match.group(6))))
        else:
            count = int(match.group(2)) if match.group(2) else 1
            sides = int(match.group(3))
            keep = match.group(4).lower() if match.group(4) else None
            keep_n = int(match.group(5)) if match.group(5) else 0
            if count < 1 or count > MAX_DICE:
                raise DiceError(msg("bad dice formula {text}: {count} dice (1..{most} allowed)", text=repr(text), count=count,
                                    most=MAX_DICE))
            if sides < 1 or sides > MAX_SIDES:
                raise DiceError(msg("bad dice formula {text}: d{sides} (d1..d{most} allowed)", text=repr(text), sides=sides,
                                    most=MAX_SIDES))
            if keep and not 1 <= keep_n <= count:
                raise DiceError(msg("bad dice formula {text}: cannot keep {keep_n} of {count} dice", text=repr(text),
                                    keep_n=keep_n, count=count))
            terms.append(Term(sign, count, sides, keep, keep_n))
        if len(terms) > MAX_TERMS:
            raise DiceError(msg("bad dice formula {text}: more than {most} terms", text=repr(text), most=MAX_TERMS))
        pos = match.end()
    return Formula(source, tuple(terms))


def roll(text: str, rng: random.Random) -> Roll:
    return parse(text).roll(rng)


def d20(rng: random.Random, mode: str = "normal") -> Roll:
    """A d20 with 'advantage', 'disadvantage' or 'normal'."""
    formula = {"advantage": "2d20kh1", "disadvantage": "2d20kl1"}.get(mode, "1d20")
    return parse(formula).roll(rng)


@lru_cache(maxsize=256)
def distribution(text: str) -> tuple[tuple[int, "Fraction"], ...]:
    """The exact distribution of a formula's total: ((total, probability), ...) in increasing order.

    Every term is counted face by face (keep-highest/lowest over every combination of its dice), so it
    is meant for the small formulas the rules use (2d4, 4d4, 2d20kl1); at most 10^6 combinations a term."""
    from fractions import Fraction
    from itertools import product

    totals: dict[int, Fraction] = {0: Fraction(1)}
    for t in parse(text).terms:
        if t.is_constant:
            term = {t.sign * t.sides: Fraction(1)}
        elif t.keep:
            if t.sides ** t.count > 10 ** 6:
                raise DiceError(msg("{text}: too many combinations to count exactly", text=repr(text)))
            term = {}
            share = Fraction(1, t.sides ** t.count)
            for faces in product(range(1, t.sides + 1), repeat=t.count):
                kept = sorted(faces, reverse=(t.keep == "kh"))[: t.keep_n]
                value = t.sign * sum(kept)
                term[value] = term.get(value, 0) + share
        else:
            term = {0: Fraction(1)}
            die = Fraction(1, t.sides)
            for _ in range(t.count):
                nxt: dict[int, Fraction] = {}
                for a, p in term.items():
                    for face in range(1, t.sides + 1):
                        nxt[a + t.sign * face] = nxt.get(a + t.sign * face, 0) + p * die
                term = nxt
        combined: dict[int, Fraction] = {}
        for a, p in totals.items():
            for b, q in term.items():
                combined[a + b] = combined.get(a + b, 0) + p * q
        totals = combined
    return tuple(sorted(totals.items()))
