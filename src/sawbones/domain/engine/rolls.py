"""The dice port used by decisions: rolls with the campaign's seeded generator, or takes the GM's number."""

from __future__ import annotations

import random
from typing import Any

from ... import dice
from ...message import msgs


class Roller:
    """Every roll made for one action, so the events can carry them all."""

    def __init__(self, rng: random.Random, typed: tuple[int, ...] = ()) -> None:
        self.rng = rng
        self.made: list[dict[str, Any]] = []
        self.typed = list(typed)  # the GM's own results for the next rolls, in order (`--dice`)

    @classmethod
    def for_campaign(cls, seed: int, version: int, typed: tuple[int, ...] = ()) -> "Roller":
        return cls(random.Random(f"{seed}:{version}"), typed)

    def roll(self, formula: str, why: str, given: int | None = None) -> int:
        """Roll formula, or take `given` (the physical die typed in) after checking it is possible.

        Without `given`, the next value the GM typed for this action (`--dice N`) is used if any:
        every roll the rules call for can come from the table's own dice. A fixed value (a constant, a d1: one
        possible result) is not a roll: it takes no typed value, which stays for the next real roll (issue 40)."""
        parsed = dice.parse(formula)
        if given is None and self.typed and not _fixed(formula):
            given = self.typed.pop(0)
        result = parsed.with_value(given) if given is not None else parsed.roll(self.rng)
        record = {"why": why, **result.as_dict(), "typed": given is not None}
        self.made.append(record)
        return result.total

    def check_all_typed_used(self) -> None:
        if self.typed:
            from ...errors import UsageError

            raise UsageError(msgs("{n} typed die left over ({typed}): this action rolled only {rolled} dice",
                                  "{n} typed dice left over ({typed}): this action rolled only {rolled} dice",
                                  len(self.typed), typed=", ".join(map(str, self.typed)), rolled=self.dice_rolled()))

    def dice_rolled(self) -> int:
        """The real rolls made so far (a fixed value is none)."""
        return sum(1 for made in self.made if not _fixed(made["formula"]))

    def choice(self, options: list[str], why: str) -> str:
        index = self.roll(f"1d{len(options)}", why) - 1
        return options[index]


def _fixed(formula: str) -> bool:
    """One possible result (a constant, a d1): a fixed value, not a roll."""
    parsed = dice.parse(formula)
    return parsed.minimum == parsed.maximum
