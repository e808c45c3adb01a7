"""The absorbing Markov chain of one affliction for the odds (afflictions/odds.py builds it; seed 004, RULES-NOTES §3.3).

One save's chance under the game system's rules, the chain's nodes and edges (`Chain`), the program that
solves it for a save bonus (`_Program`), and the order nodes are eliminated in.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ...errors import UsageError
from ...message import Listed, msg
from ..engine import saves
from ..engine.saves import SaveTerms
from ..engine.state import SYSTEMS, Campaign, Character
from .rules import AfflictionState, effects_key

if TYPE_CHECKING:
    from ...content.rules import Rules

DEFAULT_SYSTEM: str = Campaign.system  # the field's default
_VICTIM = "victim"


# ---------------------------------------------------------------- one save


def _system(system: str) -> str:
    if system not in SYSTEMS:
        raise UsageError(msg("unknown game system {system} ({systems})", system=repr(system), systems=Listed(SYSTEMS, "or")))
    return system


def save_chance(bonus: int, dc: int, system: str = DEFAULT_SYSTEM, exact: bool = False,
                terms: SaveTerms = saves.SaveTerms()) -> Any:
    """P(the save succeeds): d20 + bonus + the terms' modifier >= dc, one d20 (2d20 kept high or low with
    advantage or disadvantage: 1 - (1 - p)^2, p^2), 0 on an automatic failure; in pf1e a natural 1 always
    fails and a natural 20 always succeeds (`saves.chance`, as `saves.roll` rolls it)."""
    return saves.chance(terms, bonus, dc, _system(system), exact)


def save_terms(rules: Rules, options: dict[str, Any], system: str, save: str,
               a: AfflictionState | None) -> SaveTerms:
    """What the roll query says about this save for a victim who carries only `a` (nothing: None): the
    engine's own reading (`saves.save_terms`), conditions, advantage/disadvantage and automatic failure
    included, on a character with every ability at 10 and no sheet bonus (the odds' `bonus` is the rest)."""
    afflictions = () if a is None else (replace(a, id="a1"),)
    victim = Character(id=_VICTIM, name=_VICTIM, max_hp=10 ** 9, hp=10 ** 9, afflictions=afflictions)
    return saves.save_terms(victim, rules, options, system, save)


# ---------------------------------------------------------------- the chain


@dataclass(frozen=True)
class Dose:
    """A transient node of the exposure phase: `left` doses still to take, on top of `state`."""

    left: int
    state: AfflictionState | None


@dataclass
class Chain:
    """An affliction's absorbing Markov chain, built once, solved for any bonus."""

    affliction: str
    kind: str
    dc: int
    save: str
    unit: str
    every: int
    delay: int  # seconds from exposure to the first periodic save
    nodes: list[Any]  # Dose | AfflictionState (active: transient; else absorbing) | None (never afflicted)
    start: int
    exposure_nodes: list[int]  # the Dose nodes, in topological order
    periodic: list[int]  # transient nodes that make a periodic save
    absorbing: list[int]
    save_states: list[Any]  # the instance each transient node's save is made with (None: none; absorbing: None)
    succ: list[int]  # next node on a success (-1: absorbing)
    fail: list[int]  # next node on a failure
    labels: list[str]  # stage label of each node
    ladder: list[str]  # the labels, best to worst
    dead: list[bool]  # absorbing node where the victim is dead
    stuck: frozenset[int]  # transient nodes from which the chain can never end, whatever the chances
    meta: dict[str, Any] = field(default_factory=dict)
    rules: Any = field(default=None, repr=False, compare=False)
    options: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    readings: dict[tuple[Any, ...], SaveTerms] = field(default_factory=dict, repr=False, compare=False)  # shared (`_readings`)
    _programs: dict[frozenset[int], "_Program"] = field(default_factory=dict, repr=False)
    _memo: dict[tuple[Any, ...], tuple[Any, ...]] = field(default_factory=dict, repr=False)
    _terms: dict[str, list[SaveTerms]] = field(default_factory=dict, repr=False)
    _classes: dict[str, list[SaveTerms]] = field(default_factory=dict, repr=False)
    _class_of: dict[str, list[int]] = field(default_factory=dict, repr=False)
    _labels: dict[str, list[str]] = field(default_factory=dict, repr=False)

    # ------------------------------------------------------------ chances
    def terms(self, system: str) -> list[SaveTerms]:
        """What the roll query says about each node's save in this system (`save_terms`), asked once per
        system and set of effects (`afflictions.effects_key`), shared by the chains of the same rules and
        options (`_readings`)."""
        hit = self._terms.get(system)
        if hit is None:
            _system(system)
            read = self.readings
            hit = []
            for k, a in enumerate(self.save_states):
                if self.succ[k] < 0:  # absorbing: no save
                    hit.append(saves.SaveTerms())
                    continue
                key = (system, self.save, None if a is None else effects_key(a))
                terms = read.get(key)
                if terms is None:
                    terms = read[key] = save_terms(self.rules, self.options, system, self.save, a)
                hit.append(terms)
            self._terms[system] = hit
        return hit

    def classes(self, system: str) -> list[SaveTerms]:
        """The save readings met on the chain (each its own success chance), in a fixed order."""
        hit = self._classes.get(system)
        if hit is None:
            hit = sorted(set(self.terms(system)))
            position = {t: i for i, t in enumerate(hit)}
            self._class_of[system] = [position[t] for t in self.terms(system)]
            self._classes[system] = hit  # last: another thread seeing it finds _class_of set
        return hit

    def labels_of(self, system: str) -> list[str]:
        """The classes' labels ("0", "-2", "-2 disadvantage", "auto_fail"), in the order of `classes`."""
        hit = self._labels.get(system)
        if hit is None:
            hit = self._labels[system] = [t.label() for t in self.classes(system)]
        return hit

    def chances(self, bonus: int, system: str, exact: bool) -> dict[SaveTerms, Any]:
        """Success chance for each save reading the chain has (in the order of `classes`)."""
        chance, dc = saves.chance, self.dc
        return {t: chance(t, bonus, dc, system, exact) for t in self.classes(system)}

    def node_chances(self, p: dict[SaveTerms, Any], system: str) -> list[Any]:
        """The success chance of each node's save (p: `chances`)."""
        self.classes(system)
        values = list(p.values())
        return [values[i] for i in self._class_of[system]]

    def weights(self, k: int, pn: list[Any]) -> list[tuple[int, Any]]:
        """The out-edges of transient node k with their probabilities (pn: `node_chances`)."""
        s, f = self.succ[k], self.fail[k]
        if s == f:
            return [(s, 1)]
        ps = pn[k]
        return [(s, ps), (f, 1 - ps)]

    def entry(self, pn: list[Any]) -> dict[int, Any]:
        """The distribution over nodes once the exposure phase is over."""
        mass: dict[int, Any] = {self.start: 1}
        for k in self.exposure_nodes:
            m = mass.pop(k, 0)
            if m:
                for j, w in self.weights(k, pn):
                    mass[j] = mass.get(j, 0) + m * w
        return mass

    # ------------------------------------------------------------ solving
    def solve(self, bonus: int, system: str = DEFAULT_SYSTEM, exact: bool = False) -> tuple[Any, ...]:
        """(probability of each absorbing node, expected periodic saves, P(at least one save), stalled nodes,
        the success chances)."""
        p = self.chances(bonus, system, exact)
        key = (system, tuple(p.values()), exact)  # the classes come in a fixed order
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        pn = self.node_chances(p, system)
        stuck = self.stuck
        if any(v == 0 or v == 1 for v in p.values()):
            stuck = self._stuck_under(pn)
        program = self._programs.get(stuck)
        if program is None:
            program = self._programs[stuck] = _Program.record(self, stuck)
        entry = self.entry(pn)
        started = sum((m for j, m in entry.items() if j in program.index and j not in stuck), 0)
        probs, expected = program.run(self, pn, entry, exact)
        result = (probs, expected, started, stuck, p)
        self._memo[key] = result
        return result

    def _stuck_under(self, pn: list[Any]) -> frozenset[int]:
        """Transient nodes that can no longer reach an absorbing node once impossible outcomes are cut."""
        alive = set(self.absorbing)
        back: dict[int, list[int]] = {}
        for k in self.periodic:
            for j, w in self.weights(k, pn):
                if w != 0:
                    back.setdefault(j, []).append(k)
        todo = list(alive)
        while todo:
            j = todo.pop()
            for k in back.get(j, ()):
                if k not in alive:
                    alive.add(k)
                    todo.append(k)
        return frozenset(k for k in self.periodic if k not in alive)


@dataclass
class _Program:
    """The elimination of a chain's transient states, recorded once: slots hold (probability, saves) of
    paths; eliminating node k turns every path i -> k (loops) -> j into a slot i -> j."""

    index: dict[int, int]  # periodic node -> its position (not stalled)
    slots: dict[tuple[int, int], int]
    edges: list[tuple[int, int, int, int]]  # (slot, node, target, which: 0 success / 1 failure / 2 both)
    # one per eliminated node: (its loop slot, [(in slot, [(out slot, target slot)])])
    steps: list[tuple[int, list[tuple[int, list[tuple[int, int]]]]]]
    results: list[tuple[int, int]]  # (absorbing node, slot from the source)
    source: dict[int, int]  # entry node -> slot from the source

    SOURCE = -1

    @classmethod
    def record(cls, chain: Chain, stuck: frozenset[int]) -> "_Program":
        order = [k for k in chain.periodic if k not in stuck]
        index = {k: i for i, k in enumerate(order)}
        slots: dict[tuple[int, int], int] = {}

        def slot(i: int, j: int) -> int:
            if (i, j) not in slots:
                slots[(i, j)] = len(slots)
            return slots[(i, j)]

        out: dict[int, set[int]] = {cls.SOURCE: set()}
        into: dict[int, set[int]] = {}
        edges = []
        for k in order:
            s, f = chain.succ[k], chain.fail[k]
            out.setdefault(k, set())
            for target, which in (((s, 2),) if s == f else ((s, 0), (f, 1))):
                edges.append((slot(k, target), k, target, which))
                out[k].add(target)
                into.setdefault(target, set()).add(k)
        source = {}
        for j in chain.absorbing + order + sorted(stuck):
            source[j] = slot(cls.SOURCE, j)
            out[cls.SOURCE].add(j)
            into.setdefault(j, set()).add(cls.SOURCE)
        steps = []
        for k in _elimination_order(chain, order):
            loop = slots.get((k, k), -1)
            ins = sorted(i for i in into.get(k, ()) if i != k)
            outs = sorted(j for j in out.get(k, ()) if j != k)
            plan = []
            for i in ins:
                pairs = []
                for j in outs:
                    pairs.append((slots[(k, j)], slot(i, j)))
                    out[i].add(j)
                    into.setdefault(j, set()).add(i)
                plan.append((slots[(i, k)], pairs))
                out[i].discard(k)
            for j in outs:
                into[j].discard(k)
            out.pop(k, None)
            into.pop(k, None)
            steps.append((loop, plan))
        results = [(j, slots[(cls.SOURCE, j)]) for j in chain.absorbing + sorted(stuck)]
        return cls(index, slots, edges, steps, results, source)

    def run(self, chain: Chain, pn: list[Any], entry: dict[int, Any], exact: bool) -> tuple[dict[int, Any], Any]:
        zero = Fraction(0) if exact else 0.0
        n = len(self.slots)
        P = [zero] * n
        T = [zero] * n
        for s, k, _, which in self.edges:
            if which == 2:
                P[s] = zero + 1
            else:
                q = pn[k]
                P[s] = q if which == 0 else 1 - q
        for j, m in entry.items():
            at = self.source.get(j)
            if at is not None:
                P[at] = m
        f: Fraction | float
        g: Fraction | float
        for loop, plan in self.steps:
            if loop >= 0:
                f = 1 / (1 - P[loop])
                g = f * f * (1 + T[loop])
            else:
                f = g = zero + 1
            for a, pairs in plan:
                pa, ta = P[a], T[a]
                if not pa:
                    continue
                fpa, fta, gpa = f * pa, f * ta, g * pa
                for b, t in pairs:
                    pb = P[b]
                    if pb:
                        P[t] += fpa * pb
                        T[t] += fta * pb + fpa * T[b] + gpa * pb
        probs = {j: P[s] for j, s in self.results}
        expected = sum((T[s] for _, s in self.results), zero)
        return probs, expected


def _elimination_order(chain: Chain, order: list[int]) -> list[int]:
    """Strongly connected components in topological order (a DAG is then plain forward propagation),
    each in breadth-first order: the fill-in stays local."""
    members = set(order)
    position = {k: i for i, k in enumerate(order)}
    succ = {k: [j for j in {chain.succ[k], chain.fail[k]} if j in members] for k in order}
    # Tarjan, iterative
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on: set[int] = set()
    stack: list[int] = []
    comps: list[list[int]] = []
    counter = 0
    for root in order:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on.add(v)
            recurse = False
            for w in succ[v][i:]:
                i += 1
                if w not in index:
                    work.append((v, i))
                    work.append((w, 0))
                    recurse = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if recurse:
                continue
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                comps.append(sorted(comp, key=position.__getitem__))
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
    comps.reverse()  # Tarjan finds sinks first
    return [k for comp in comps for k in comp]
