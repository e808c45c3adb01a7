"""The dice port used by decisions: rolls with the campaign's seeded generator, or takes the GM's number."""

from __future__ import annotations

import random
from typing import Any

from .. import dice


class Roller:
    """Every roll made for one action, so the events can carry them all."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.made: list[dict[str, Any]] = []

    @classmethod
    def for_campaign(cls, seed: int, version: int) -> "Roller":
        return cls(random.Random(f"{seed}:{version}"))

    def roll(self, formula: str, why: str, given: int | None = None) -> int:
        """Roll formula, or take `given` (the physical die typed in) after checking it is possible."""
        parsed = dice.parse(formula)
        result = parsed.with_value(given) if given is not None else parsed.roll(self.rng)
        record = {"why": why, **result.as_dict(), "typed": given is not None}
        self.made.append(record)
        return result.total

    def choice(self, options: list[str], why: str) -> str:
        index = self.roll(f"1d{len(options)}", why) - 1
        return options[index]
