"""Reference computations for the odds (tests and benchmarks only): icepool and a Monte Carlo.

Both rebuild the chain from the engine on their own, with none of `odds.build` or its solver:
each node's successors come straight from `odds.exposure` (the engine's `expose`) and
`afflictions.step`, each save's reading from `odds.save_terms` (the roll query, as the engine's
saves read it: modifier, advantage/disadvantage, automatic failure). The chance of a save is
counted here from the d20's faces: icepool weighs the two outcomes over 20 faces, or over the
400 pairs of faces with advantage or disadvantage; the Monte Carlo rolls one d20, or two and keeps
the higher or the lower. Only the canonical form of a state (the engine's state without the clock)
and the reading are shared.

icepool (a dev dependency) is imported when used.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .rules import ACTIVE, kills, land_onset, step
from .odds import canonical, exposure, sortable, stage_label
from .odds_chain import DEFAULT_SYSTEM, Dose, save_terms
from ..engine.saves import SaveTerms

if TYPE_CHECKING:
    from ...content.rules import Rules


class EngineMoves:
    """Node -> (the save's reading, next node on a success, on a failure), asked of the engine on first
    use and remembered (the chain is the same for every bonus; the reading, for every bonus of a system)."""

    def __init__(self, rules: Rules, options: dict[str, Any], affliction_id: str, *, from_stage: str | None = None,
                 doses: int = 0) -> None:
        self.rules, self.options, self.affliction = rules, options, affliction_id
        self.defn = rules.afflictions[affliction_id]
        self.moves: dict[Any, tuple[Any, Any, Any]] = {}
        self.readings: dict[tuple[str, Any], SaveTerms] = {}
        if from_stage is None:
            self.start: Any = Dose(1 + doses, None)
        else:
            first = canonical(exposure(rules, options, affliction_id, None, False, deadly=from_stage)[0])
            self.start = Dose(doses, first) if doses else first

    @staticmethod
    def absorbing(node: Any) -> bool:
        return not isinstance(node, Dose) and (node is None or node.status != ACTIVE)

    def move(self, node: Any, system: str = DEFAULT_SYSTEM) -> tuple[SaveTerms, Any, Any]:
        """(the save's reading, next on success, next on failure) of a transient node."""
        hit = self.moves.get(node)
        if hit is None:
            rules, options = self.rules, self.options
            if isinstance(node, Dose):
                after = [canonical(exposure(rules, options, self.affliction, node.state, ok)[0])
                         for ok in (True, False)]
                nxt = [Dose(node.left - 1, a) if node.left > 1 else a for a in after]
                made_with = node.state  # an extra dose's save: the instance as it stands
            else:
                nxt = [canonical(step(node, ok, rules, options)[0]) for ok in (True, False)]
                made_with = land_onset(node, rules, options)[0]  # the onset's step lands before the save
            hit = self.moves[node] = (made_with, nxt[0], nxt[1])
        made_with, ok, ko = hit
        key = (system, made_with)
        terms = self.readings.get(key)
        if terms is None:
            terms = self.readings[key] = save_terms(self.rules, self.options, system, self.defn.save, made_with)
        return terms, ok, ko

    def faces(self, terms: SaveTerms, bonus: int, system: str) -> tuple[int, int]:
        """(faces that make the save, faces in all): one d20 (20 faces), or two d20s (400 pairs) with advantage
        or disadvantage; an automatic failure makes it on none."""
        if terms.auto_fail:
            return 0, 20
        need = self.defn.dc - bonus - terms.modifier  # the lowest face that makes it
        made = [face for face in range(1, 21) if face >= need]
        if system == "pf1e":  # a natural 1 fails, a natural 20 succeeds
            made = [face for face in range(1, 21) if face == 20 or (face != 1 and face >= need)]
        if terms.mode == "normal":
            return len(made), 20
        ok = set(made)
        keep = max if terms.mode == "advantage" else min
        return sum(1 for a in range(1, 21) for b in range(1, 21) if keep(a, b) in ok), 400

    def label(self, node: Any) -> str:
        return stage_label(self.rules, node)

    def dead(self, node: Any) -> bool:
        return node is not None and any(kills(self.rules, self.rules.tracks[t], i)
                                        for t, i in zip(node.tracks, node.stages))


def icepool_odds(moves: EngineMoves, bonus: int, system: str = DEFAULT_SYSTEM,
                 mean_time: bool = True) -> dict[str, Any]:
    """icepool's absorbing chain (`map(..., repeat='inf')`): {"final": {stage: Fraction}, "death", "steps"}.

    "steps" is icepool's mean time to absorption: the periodic saves plus the exposure phase's doses.
    """
    import icepool

    decode: dict[Any, Any] = {}

    def key(node: Any) -> Any:
        k = sortable(node)
        decode[k] = node
        return k

    def transition(k: Any) -> Any:
        node = decode[k]
        if moves.absorbing(node):
            return k
        terms, ok, ko = moves.move(node, system)
        n, out_of = moves.faces(terms, bonus, system)
        if ok == ko:
            return key(ok)
        weights = {key(ok): n, key(ko): out_of - n}
        return icepool.Die({o: w for o, w in weights.items() if w})

    start = key(moves.start)
    die = icepool.map(transition, start, repeat="inf")
    total = die.denominator()
    final: dict[str, Fraction] = {}
    death = Fraction(0)
    for outcome, quantity in die.items():
        node = decode[outcome]
        q = Fraction(quantity, total)
        label = moves.label(node.state if isinstance(node, Dose) else node)
        final[label] = final.get(label, Fraction(0)) + q
        if not isinstance(node, Dose) and moves.dead(node):
            death += q
    out: dict[str, Any] = {"final": final, "death": death}
    if mean_time:
        out["steps"] = icepool.function.mean_time_to_absorb(transition, start)
    return out


def monte_carlo(moves: EngineMoves, bonus: int, runs: int, system: str = DEFAULT_SYSTEM, seed: int = 1,
                max_saves: int = 100_000) -> dict[str, Any]:
    """`runs` seeded plays, a d20 per save (two, the higher or the lower kept, with advantage or disadvantage):
    {"final": {stage: share}, "death": share, "saves": mean}."""
    rng = random.Random(seed)
    randint = rng.randint
    counts: dict[str, int] = {}
    deaths = 0
    saves = 0
    cache: dict[Any, tuple[Any, Any, Any]] = {}
    for _ in range(runs):
        node = moves.start
        made = 0
        while not moves.absorbing(node) and made < max_saves:
            hit = cache.get(node)
            if hit is None:
                terms, ok, ko = moves.move(node, system)
                hit = cache[node] = (_d20_check(terms, bonus, moves.defn.dc, system), ok, ko)
            check, ok, ko = hit
            if not isinstance(node, Dose):
                made += 1
            node = ok if check(randint) else ko
        saves += made
        label = moves.label(node.state if isinstance(node, Dose) else node)
        counts[label] = counts.get(label, 0) + 1
        deaths += moves.dead(node) if not isinstance(node, Dose) else 0
    return {"final": {k: v / runs for k, v in counts.items()}, "death": deaths / runs, "saves": saves / runs}


def _d20_check(terms: SaveTerms, bonus: int, dc: int, system: str) -> Any:
    """A function that rolls one save (with `randint`) and says whether it is made."""
    if terms.auto_fail:
        return lambda randint: False
    total = bonus + terms.modifier

    def made(face: int) -> bool:
        if system == "pf1e" and face in (1, 20):
            return face == 20
        return face + total >= dc

    if terms.mode == "advantage":
        return lambda randint: made(max(randint(1, 20), randint(1, 20)))
    if terms.mode == "disadvantage":
        return lambda randint: made(min(randint(1, 20), randint(1, 20)))
    return lambda randint: made(randint(1, 20))
