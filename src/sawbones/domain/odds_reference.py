"""Reference computations for the odds (tests and benchmarks only): icepool and a Monte Carlo.

Both rebuild the chain from the engine on their own, with none of `odds.build` or its solver:
each node's successors come straight from `odds.exposure` (the engine's `expose`) and
`afflictions.step`, the success chance from `own_save_modifier` and the d20. Only the canonical
form of a state (the engine's state without the clock) is shared.

icepool (a dev dependency) is imported when used.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from .afflictions import ACTIVE, kills, own_save_modifier, step
from .odds import DEFAULT_SYSTEM, Dose, canonical, exposure, save_chance, sortable, stage_label


class EngineMoves:
    """Node -> (success chance in twentieths, next node on a success, on a failure), asked of the engine
    on first use and remembered (the chain is the same for every bonus)."""

    def __init__(self, rules: Any, options: dict[str, Any], affliction_id: str, *, from_stage: str | None = None,
                 doses: int = 0) -> None:
        self.rules, self.options, self.affliction = rules, options, affliction_id
        self.defn = rules.afflictions[affliction_id]
        self.moves: dict[Any, tuple[int, Any, Any]] = {}
        if from_stage is None:
            self.start: Any = Dose(1 + doses, None)
        else:
            first = canonical(exposure(rules, options, affliction_id, None, False, deadly=from_stage)[0])
            self.start = Dose(doses, first) if doses else first

    @staticmethod
    def absorbing(node: Any) -> bool:
        return not isinstance(node, Dose) and (node is None or node.status != ACTIVE)

    def move(self, node: Any) -> tuple[int, Any, Any]:
        """(own save modifier, next on success, next on failure) of a transient node."""
        hit = self.moves.get(node)
        if hit is None:
            rules, options, save = self.rules, self.options, self.defn.save
            if isinstance(node, Dose):
                after = [canonical(exposure(rules, options, self.affliction, node.state, ok)[0])
                         for ok in (True, False)]
                nxt = [Dose(node.left - 1, a) if node.left > 1 else a for a in after]
                mod = own_save_modifier(node.state, save, rules, options) if node.state is not None else 0
            else:
                nxt = [canonical(step(node, ok, rules, options)[0]) for ok in (True, False)]
                mod = own_save_modifier(node, save, rules, options)
            hit = self.moves[node] = (mod, nxt[0], nxt[1])
        return hit

    def faces(self, mod: int, bonus: int, system: str) -> int:
        """How many d20 faces make the save."""
        return int(save_chance(bonus + mod, self.defn.dc, system, exact=True) * 20)

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
        mod, ok, ko = moves.move(node)
        n = moves.faces(mod, bonus, system)
        if ok == ko:
            return key(ok)
        weights = {key(ok): n, key(ko): 20 - n}
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
    """`runs` seeded plays, a d20 per save: {"final": {stage: share}, "death": share, "saves": mean}."""
    rng = random.Random(seed)
    randint = rng.randrange
    counts: dict[str, int] = {}
    deaths = 0
    saves = 0
    cache: dict[Any, tuple[int, Any, Any]] = {}
    for _ in range(runs):
        node = moves.start
        made = 0
        while not moves.absorbing(node) and made < max_saves:
            hit = cache.get(node)
            if hit is None:
                mod, ok, ko = moves.move(node)
                hit = cache[node] = (moves.faces(mod, bonus, system), ok, ko)
            n, ok, ko = hit
            if not isinstance(node, Dose):
                made += 1
            node = ok if randint(20) < n else ko
        saves += made
        label = moves.label(node.state if isinstance(node, Dose) else node)
        counts[label] = counts.get(label, 0) + 1
        deaths += moves.dead(node) if not isinstance(node, Dose) else 0
    return {"final": {k: v / runs for k, v in counts.items()}, "death": deaths / runs, "saves": saves / runs}
