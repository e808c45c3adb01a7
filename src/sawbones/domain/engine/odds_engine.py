"""Running the engine's own decisions over every outcome of their dice (issue 17): the base of the injury odds.

A decision is run with a roller that follows a script of results. When it asks for a roll past the
script, the run stops and is tried again once per possible result of that formula (`dice.distribution`),
each branch weighted by its exact probability. So the odds never copy a rule: whatever the engine rolls
(the injury d20 and its rerolls, the hand or foot, the 1d4-day deadline, the treatment time, a frostbite's
new deadline) is followed, and whatever it decides with the results is what the odds count.

Rolls the odds do not follow, because the odds know no hit points: hit point maximum and ability losses
("... loss") take their formula's minimum, on a victim whose hit points and scores are too large to matter.
"""

from __future__ import annotations

import random
from copy import deepcopy
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable

from ... import dice
from .context import Ctx  # what a decision reads from its context: state, rules, options, roller
from .rolls import Roller
from .state import Body, Campaign, Character, Injury
from .timeline import resuming

if TYPE_CHECKING:
    from ...content.rules import Rules
    from .context import Context


VICTIM = "victim"
HEALER = "healer"
HUGE = 10 ** 9
_RNG = random.Random(0)  # never used: every roll is scripted or fixed


class Branch(Exception):
    """A roll past the script: the run is tried again for every result of `formula`."""

    def __init__(self, formula: str, why: str) -> None:
        super().__init__(formula)
        self.formula, self.why = formula, why


class ScriptRoller(Roller):
    """Rolls from a script; past it, raises Branch. Losses of hit points or scores take their minimum."""

    def __init__(self, script: tuple[int, ...] = ()) -> None:
        super().__init__(_RNG)
        self.script = script
        self.used = 0

    def roll(self, formula: str, why: str, given: int | None = None) -> int:
        if given is None:
            parsed = dice.parse(formula)
            if why.endswith(" loss") or parsed.minimum == parsed.maximum:
                given = parsed.minimum
            elif self.used < len(self.script):
                given = self.script[self.used]
                self.used += 1
            else:
                raise Branch(formula, why)
        return super().roll(formula, why, given)


def every_outcome(run: Callable[[Roller], Any]) -> list[tuple[Fraction, Any]]:
    """[(probability, what `run` returned)] over every result of every roll `run` makes (see the module doc).

    The runs share their advances of the clock (`Resumes`): a treatment of 4d4 days advances 16 days once,
    and the branches of 4 to 15 days stop on the way, instead of living the same days again each."""
    _ASKED[0] += 1
    out: list[tuple[Fraction, Any]] = []
    # (script, numerator, denominator): the weight's product kept in integers, made a Fraction once per outcome
    todo: list[tuple[tuple[int, ...], int, int]] = [((), 1, 1)]
    with resuming(Resumes()):
        while todo:
            script, num, den = todo.pop()
            try:
                result = run(ScriptRoller(script))
            except Branch as branch:
                for value, q in reversed(dice.distribution(branch.formula)):
                    todo.append((script + (value,), num * q.numerator, den * q.denominator))
                continue
            out.append((Fraction(num, den), result))
    return out


_ASKED = [0]  # how many times `every_outcome` ran in this process


def outcomes_asked() -> int:
    """How many times the odds ran the engine over every outcome in this process: a cache that saw the same
    number before and after an answer knows nothing new was computed."""
    return _ASKED[0]


# (target reached, its state, its events, the scripted dice taken, the rolls recorded after, and before)
_Kept = tuple[int, Campaign, tuple[dict[str, Any], ...], tuple[int, ...], list[Any], list[Any]]


class Resumes:
    """Where the advances of the clock made by the runs of one `every_outcome` stopped (`timeline.resuming`):
    per start (the state, the content, the options), each target reached with its state and events, the
    scripted dice it took and the rolls its roller had recorded (before and after). A later advance from the
    same start goes on from the furthest target not past its own whose dice its script repeats, its roller
    having recorded the same rolls (else it starts afresh)."""

    def __init__(self) -> None:
        self.kept: dict[tuple[Any, ...], list[_Kept]] = {}

    def start(self, ctx: Context, target: int) -> "_Run | None":
        roller = ctx.roller
        if not isinstance(roller, ScriptRoller):
            return None
        key = (ctx.state, id(ctx.rules), id(ctx.options))
        try:
            kept = self.kept.setdefault(key, [])
        except TypeError:  # a state that holds a value with no hash (an option's list): advance afresh
            return None
        run = _Run(kept, roller, target)
        best = None
        for reached, state, events, taken, made, made_before in kept:
            ahead = roller.script[roller.used:roller.used + len(taken)]
            if reached <= target and ahead == taken and made_before == roller.made and \
                    (best is None or reached > best[0]):
                best = (reached, state, events, taken, made)
        if best is not None:
            roller.used += len(best[3])
            roller.made[:] = best[4]
            run.resumed = (best[1], best[2])
        return run


class _Run:
    def __init__(self, kept: list[_Kept], roller: ScriptRoller, target: int) -> None:
        self.kept, self.roller, self.target, self.first = kept, roller, target, roller.used
        self.made_before = list(roller.made)  # the rolls recorded when the advance started
        self.resumed: tuple[Campaign, tuple[dict[str, Any], ...]] | None = None

    def keep(self, state: Campaign, events: list[dict[str, Any]]) -> None:
        r = self.roller
        self.kept.append((self.target, state, tuple(events), r.script[self.first:r.used], list(r.made),
                          self.made_before))


def victim(injury: Injury | None = None, body: Body = Body(), medic: bool = True) -> Character:
    """The odds' victim: hit points and scores too large to matter; proficient in Medicine with a kit (to
    treat themself), with a Medicine bonus of 0 (the odds add the healer's bonus)."""
    return Character(id=VICTIM, name=VICTIM, max_hp=HUGE, hp=HUGE, abilities=tuple((a, HUGE) for a in
                     ("str", "dex", "con", "int", "wis", "cha")), skills=(("medicine", 0), ("herbalism_kit", 0)),
                     proficiencies=("medicine", "herbalism_kit") if medic else (), body=body,
                     injuries=() if injury is None else (injury,))


@lru_cache(maxsize=1)
def healer() -> Character:
    """The healer (the victim's sheet, by another name): a frozen value, built once."""
    return replace(victim(), id=HEALER, name=HEALER)


def campaign(character: Character, clock: int = 0, counter: int = 1) -> Campaign:
    return Campaign(name="odds", characters=(character, healer()), clock=clock, counter=counter)


def context(state: Campaign, rules: Rules, options: dict[str, Any], roller: Roller) -> Ctx:
    return Ctx(state, rules, options, roller)


def _freeze(value: Any) -> Any:
    """A hashable copy of options (dicts and lists as sorted tuples), for the odds' cache keys. The same options
    object asked again, unchanged (equal to a deep copy kept of it), gets the copy made the first time."""
    if not isinstance(value, dict):
        return _frozen(value)
    hit = _FROZEN.get(id(value))
    if hit is not None and hit[0] is value and hit[1] == value:
        return hit[2]
    frozen = _frozen(value)
    if len(_FROZEN) > 64:
        _FROZEN.clear()
    _FROZEN[id(value)] = (value, deepcopy(value), frozen)
    return frozen


freeze = _freeze  # public: adapters/odds_cache.py keys its files with it


_FROZEN: dict[int, tuple[Any, Any, Any]] = {}  # id(options) -> (options, a deep copy of them, frozen)


def _frozen(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return value


class ReadOptions(dict[Any, Any]):
    """Options that remember which ones the engine read: a graph built under them serves any options that
    agree on those (the options that only choose the injury, or count NPCs, share one graph)."""

    def __init__(self, values: dict[str, Any]) -> None:
        super().__init__(values)
        self.read: set[str] = set()

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.read.add(str(key))
        return super().__contains__(key)


def per_options_read(kept: list[tuple[dict[str, Any], Any]], options: dict[str, Any],
                     run: Callable[[dict[str, Any]], Any]) -> Any:
    """`run(options)`, asked once for all the option sets that agree on the options it read: `kept` holds
    [(the options read and their values, the answer)] (ReadOptions records them)."""
    for read, answer in kept:
        if all(options.get(k) == v for k, v in read.items()):
            return answer
    reading = ReadOptions(options)
    answer = run(reading)
    kept.append(({k: dict.get(reading, k) for k in reading.read}, answer))
    return answer
