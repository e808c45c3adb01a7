"""Exact odds of lingering injuries (5e, seed 000; issue 17): one drop to 0, treatment, deadlines.

Nothing here knows a rule: every number comes from running the engine's own decisions over every
outcome of their dice (`odds_engine.every_outcome`):

- **One drop to 0**: odds_drop.py.
- **Treatment**: `injury_care.treat` with a typed check that makes or misses the injury's current DC, its
  treatment time (10 minutes, 2d4 or the `critical_bedrest` days) enumerated, the clock advanced by the
  engine (a deadline that falls meanwhile, a frostbite that becomes a critical injury, a part lost on a
  failed check after the deadline). The states after each attempt form a chain (the injury without the
  clock: its DC, failures, deadline left, site; the body), built once and solved for any healer's bonus.
- **The check**: the engine rolls it for a healer (`treat` with a named healer): its formula (1d20, or
  2d20kl1 when self-treatment has disadvantage) is read from the engine, and the chance of making DC d
  with bonus b is counted exactly from that formula's distribution (ability checks: no natural 1 or 20).
- **Rest**: `injury_care._heals_by_rest`, the engine's own test, says what a Hit Die or a long rest heals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from fractions import Fraction
from math import lcm
from typing import Any

from ... import dice
from ...errors import UsageError
from . import care as injury_care, odds_check, rules as injuries
from ..engine.campaign import find_character
from ..engine.evolve import fold
from ..engine.odds_engine import (VICTIM, ReadOptions, _freeze, campaign, context, every_outcome, per_options_read,
                                  victim)
from ..engine.state import DAY, Body, Injury, with_fields
from ..engine.odds_symbolic import Marker, Sym, Template, Trace, plain, symbolic
from ..engine.timeline import advance_folded
from ...content.rules import Rules
from ...message import Option, msg

MAX_WAIT_DAYS = 30  # a deadline is 1d4 days (a frostbite's two: 8): later, nothing more happens to the limb
UNTREATED_DAYS = 30  # how long an injury is left alone when no check can heal it (its deadlines run out)
MAX_BONUS = 30  # a healer's check bonus the odds accept (a d20 + 30 meets any DC the chain reaches)
MIN_BONUS = -10
_PARTS = ("eyes", "hands", "feet")
TEMPLATES = True  # one engine run per ladder of DCs (`Graph._asked`); off: one per state (tests compare the two)


def _number(x: Fraction, exact: bool) -> Any:
    return x if exact else float(x)


def _lost(body: Body) -> dict[str, int]:
    whole = Body()
    return {p: getattr(whole, p) - getattr(body, p) for p in _PARTS if getattr(body, p) < getattr(whole, p)}


# ---------------------------------------------------------------- treatment: the chain


def canonical(injury: Injury | None, clock: int) -> Injury | None:
    """The injury without the clock (times relative to now) and what the odds do not follow."""
    if injury is None:
        return None
    def rel(t: int | None) -> int | None:
        return None if t is None else t - clock

    # the d20 that gave it is only shown (no decision reads it after the gain): one node per row, not per face
    return with_fields(injury, id="i1", d20=0, gained_at=0, deadline_at=rel(injury.deadline_at),
                   next_tick_at=rel(injury.next_tick_at), max_hp_lost=0, ability_lost=(), long_rests=0)


@dataclass(frozen=True)
class Node:
    injury: Injury | None
    body: Body

    @property
    def dc(self) -> int:
        """The treatment DC of a node treatment goes on from (`end` None: it holds an injury)."""
        assert self.injury is not None, "a node without an injury is an end: no treatment from it"
        return self.injury.dc

    def state(self) -> Any:
        inj = self.injury
        return campaign(victim(inj, self.body), counter=1)

    @property
    def end(self) -> str | None:
        """None while treatment can go on; else "healed", "lost" (a part gone) or "magic" (magic only)."""
        if self.injury is None:
            return "lost" if _lost(self.body) else "healed"
        if _lost(self.body):
            return "lost"
        return "magic" if self.injury.magic_only else None


def _after(events: list[dict[str, Any]], state: Any, since: int | None = None, folded: Any = None) -> tuple[Node, int]:
    """The node `events` lead to from `state`, and the seconds they took since `since` (default: state's clock);
    `folded`: the state they fold to, when the engine has already folded them (an advance of the clock)."""
    after = fold(events, state) if folded is None else folded
    character = find_character(after, VICTIM)
    current = character.injuries[0] if character.injuries else None
    return Node(canonical(current, after.clock), character.body), after.clock - (state.clock if since is None else since)


def _moment(state: Any) -> tuple[Any, ...]:
    """A state as the treatment check after the time spent reads it, without the clock: the injuries' times made
    relative to it (as `canonical`, the ids kept), the time of day kept (`daily_tick: dawn` reads it), the counts
    of events and ids left out. A `Sym` is told apart from a plain int by what it stands for."""
    clock = state.clock
    shapes = tuple(_relative(injury, clock) for c in state.characters for injury in c.injuries)
    rest = with_fields(state, clock=clock % DAY, counter=0, version=0,
                       characters=tuple(with_fields(c, injuries=()) for c in state.characters))
    return shapes, rest


def _relative(injury: Injury, clock: int) -> tuple[Any, ...]:
    relative = with_fields(canonical(injury, clock), id=injury.id)
    return tuple((k, _shape(v)) for k, v in relative.__dict__.items())


def _shape(value: Any) -> Any:
    if isinstance(value, Sym):  # (its coefficient and offset: no comparison made, none recorded)
        return ("sym", value.var, value.coef, value.off, int.__int__(value))
    return value


@dataclass
class Graph:
    """The treatment states met so far under one (rules, options), numbered as they are met (`node`), each
    one's attempt asked of the engine once: shared by every injury's chain (an arm injury is the same on
    every table)."""
    rules: Rules
    options: dict[str, Any]
    nodes: list[Node] = field(default_factory=list)
    ids: dict[Node, int] = field(default_factory=dict)
    ends: list[str | None] = field(default_factory=list)
    edges: dict[int, list[tuple[bool, int, Fraction, int]]] = field(default_factory=dict)
    untreated: dict[int, list[tuple[Fraction, int]]] = field(default_factory=dict)
    _merged: dict[tuple[Any, ...], list[Any]] = field(default_factory=dict)
    values: dict[tuple[Any, ...], dict[int, tuple[Any, ...]]] = field(default_factory=dict)  # (check, bonus, exact) -> node -> `_value`
    # (question, the injury's fields but its variables, their names, the body) -> the engine's answers for the
    # rungs they hold on (`_asked`)
    templates: dict[tuple[Any, ...], list[Template]] = field(default_factory=dict)
    # node -> [(the options the engine read and their values, (a Hit Die heals it, the long rest that does))]:
    # odds_treatment.rest_healing
    rests: dict[int, list[tuple[dict[str, Any], tuple[bool, int | None]]]] = field(default_factory=dict)

    def serves(self, options: dict[str, Any]) -> bool:
        """Every option the engine read while building this graph has the same value in `options`."""
        own = self.options
        return all(dict.get(own, k) == options.get(k) for k in list(getattr(own, "read", ())))

    def node(self, x: Node) -> int:
        k = self.ids.get(x)
        if k is None:
            k = self.ids[x] = len(self.nodes)
            self.nodes.append(x)
            self.ends.append(x.end)
        return k

    def _asked(self, question: str, k: int, run: Any) -> Any:
        """`run(node k)`, the engine's answer about a state; one run answers for every rung of its ladder that
        the engine treats alike: the run sees the injury's DC and failures as `Sym`s (engine/odds_symbolic.py),
        and its answer, kept as a template, is given again to any DC and failures on which every comparison
        it made comes out the same (a run that used them otherwise stands for itself)."""
        node = self.nodes[k]
        if node.injury is None or not TEMPLATES:
            return run(node)
        env = {"dc": node.injury.dc, "failures": node.injury.failures}
        if node.injury.deadline_at is not None:  # (1 to 4 days: the deadline's rungs, which the same run may answer)
            env["deadline_at"] = node.injury.deadline_at
        # (the shape's key: the injury's other fields as a tuple, cheaper to hash and compare than the shape)
        key = (question, tuple([v for k, v in node.injury.__dict__.items() if k not in env]), tuple(env), node.body)
        kept = self.templates.setdefault(key, [])
        for known in kept:
            if known.holds(env):
                return known.instantiate(env)
        shape = Node(with_fields(node.injury, **{k: Marker((k, 1, 0)) for k in env}), node.body)
        trace = Trace()
        result = run(symbolic(shape, env, trace))
        made = Template.of(result, trace)
        if made is None:
            return plain(result)
        kept.append(made)
        return made.instantiate(env)

    def attempt(self, k: int) -> list[tuple[bool, int, Fraction, int]]:
        """(made, node after, probability given made or missed, seconds) of one attempt, by the engine."""
        hit = self.edges.get(k)
        if hit is None:
            found = self._asked("attempt", k, self._attempt)
            hit = self.edges[k] = [(made, self.node(after), w, seconds) for made, after, w, seconds in found]
        return hit

    def _attempt(self, node: Node) -> list[tuple[bool, Node, Fraction, int]]:
        state = node.state()

        def spend(roller: Any) -> injury_care.TreatmentSpent:
            return injury_care.spend_treatment_time(context(state, self.rules, self.options, roller), VICTIM,
                                                    "i1", check=node.dc)

        # `treat` in its two halves: the time spent (the costly part: the clock advanced, day by day) is run
        # once for both checks, made (the DC) and missed (one less); each check from the state it left
        spent = every_outcome(spend)
        found: list[tuple[bool, Node, Fraction, int]] = []
        checked: dict[tuple[Any, ...], list[tuple[Fraction, tuple[Node, int]]]] = {}
        for made in (True, False):
            total = node.dc if made else node.dc - 1
            for w, half in spent:
                # the halves that left the victim alike but for the clock (a 2d4-day treatment's 7 sums, when no
                # deadline falls between them) make the same check: it is run once, its seconds from the half's
                key = (made, half.injury, half.healer is None, _moment(half.state))
                outcomes = checked.get(key)
                if outcomes is None:

                    def check(roller: Any, half: Any = half, total: int = total) -> tuple[Node, int]:
                        events = injury_care.treatment_check(context(state, self.rules, self.options, roller), half,
                                                             check=total)
                        return _after(events, half.state)

                    outcomes = checked[key] = every_outcome(check)
                before = half.state.clock - state.clock
                found += [(made, after, w * q, before + seconds) for q, (after, seconds) in outcomes]
        return found

    def merged(self, k: int, exact: bool, timed: bool) -> list[tuple[bool, int, Any, Any]]:
        """`attempt` with the branches that end alike added up (Fractions, or floats): (made, node, w, s).
        timed: per (made, node, seconds), s the seconds; else per (made, node), s = sum of w x seconds."""
        hit = self._merged.get((k, exact, timed))
        if hit is None:
            branches = self.attempt(k)
            # summed in integers over the branches' common denominator: the same fractions, fewer reductions
            den = lcm(*(w.denominator for _, _, w, _ in branches)) if branches else 1
            sums: dict[tuple[bool, int, int], list[int]] = {}
            for made, after, w, seconds in branches:
                cell = sums.get((made, after, seconds if timed else 0))
                if cell is None:
                    cell = sums[(made, after, seconds if timed else 0)] = [0, 0]
                n = w.numerator * (den // w.denominator)
                cell[0] += n
                cell[1] += n * seconds
            num = (lambda x: x) if exact else float
            hit = self._merged[(k, exact, timed)] = [
                (made, after, num(Fraction(w, den)), seconds if timed else num(Fraction(ws, den)))
                for (made, after, seconds), (w, ws) in sums.items()]
        return hit

    def left_alone(self, k: int) -> list[tuple[Fraction, int]]:
        """Where an injury no check can heal ends when left untreated (its deadlines run their course)."""
        hit = self.untreated.get(k)
        if hit is None:
            hit = self.untreated[k] = [(w, self.node(x)) for w, x in self._asked("untreated", k, self._left_alone)]
        return hit

    def _left_alone(self, node: Node) -> list[tuple[Fraction, Node]]:
        state = node.state()

        def run(roller: Any) -> Node:
            ctx = context(state, self.rules, self.options, roller)
            events, after = advance_folded(ctx, UNTREATED_DAYS * DAY, auto=True)
            return _after(events, state, folded=after)[0]

        return every_outcome(run)


@dataclass
class Treatment:
    """One injury's chain: where treatment starts (after the drop and the wait) and the engine's check."""
    graph: Graph
    start: tuple[tuple[Fraction, int, int], ...]  # (probability, node, seconds already spent)
    check: tuple[tuple[int, Fraction], ...]  # the engine's check formula without the bonus: its distribution
    formula: str = ""  # that formula (1d20+0, 2d20kl1+0)
    options: dict[str, Any] = field(default_factory=dict)  # the options it was asked for (the graph may share)
    args: tuple[Any, ...] = ()  # (table, d20, wait_days, self_treatment): to build it again on a graph of its own
    solved: dict[tuple[Any, ...], dict[Any, Any]] = field(default_factory=dict)  # (bonus, exact, timeline) -> doc
    # (the graph, how many options its engine had read) when it was last found to serve `options`
    served: tuple[Any, int] | None = None
    rested: dict[str, Any] | None = None  # what rests heal (odds_treatment.rest_healing), once asked

    def serving(self) -> bool:
        """`self.graph.serves(self.options)`, asked again only when the graph or the options it read changed
        (a solve per bonus asks it: a tenth of the warm tables' time)."""
        read = len(getattr(self.graph.options, "read", ()))
        if self.served is not None and self.served[0] is self.graph and self.served[1] == read:
            return True
        if not self.graph.serves(self.options):
            return False
        self.served = (self.graph, read)
        return True

    def chance(self, dc: int, bonus: int, exact: bool = True) -> Any:
        """P(the check's formula + bonus >= dc), from the formula's exact distribution."""
        key = (self.formula, dc - bonus, exact)  # shared by every chain checked with this formula
        hit = _TAILS.get(key)
        if hit is None:
            p = sum((q for total, q in self.check if total >= dc - bonus), Fraction(0))
            if len(_TAILS) > 4096:
                _TAILS.clear()
            hit = _TAILS[key] = p if exact else float(p)
        return hit


_TAILS: dict[tuple[Any, ...], Any] = {}  # (check formula, DC - bonus, exact) -> P(check >= DC)
def treatment(rules: Rules, options: dict[str, Any], table: str, d20: int, *, wait_days: float = 0,
              self_treatment: bool = False, private: Graph | None = None) -> Treatment:
    """The chain for the injury a drop to 0 by `table` with this d20 gives (the engine's `injure`, its hand or
    foot and deadline enumerated), treatment starting `wait_days` game days later (the clock advanced by the
    engine meanwhile: a deadline may pass)."""
    table = rules.resolve("damage_tables", table)
    if not 1 <= d20 <= 20:
        raise UsageError(msg("{option}: a d20 shows 1 to 20, not {d20}", option=Option("d20"), d20=d20))
    if not 0 <= wait_days <= MAX_WAIT_DAYS:
        raise UsageError(msg("{option}: from 0 to {most} days, not {days}", option=Option("wait"), most=MAX_WAIT_DAYS, days=wait_days))
    formula = odds_check.check_formula(rules, options, self_treatment)
    check = dice.distribution(formula)
    wait = round(wait_days * DAY)

    def run(roller: Any, options: dict[str, Any]) -> tuple[Node, int]:
        state = _before_the_drop()
        ctx = context(state, rules, options, roller)
        events = injuries.injure(ctx, VICTIM, table, d20, cause="odds")
        gained = fold(events, state)
        if not wait:
            return _after(events, state, folded=gained)
        waited, after = advance_folded(context(gained, rules, options, roller), wait, auto=True)
        return _after(events + waited, state, folded=after)

    g = graph(rules, options) if private is None else private
    start = tuple((w, g.node(node), seconds) for w, (node, seconds) in _start(rules, options, table, d20, wait, run))
    # (`graph` found it to serve these options, or it is their own: `serving` need not ask again)
    return Treatment(g, start, check, formula, options, (table, d20, wait_days, self_treatment),
                     served=(g, len(getattr(g.options, "read", ()))))


@lru_cache(maxsize=1)
def _before_the_drop() -> Any:
    """The odds' campaign before the drop: the victim unhurt (a frozen value, built once)."""
    return campaign(victim(), counter=0)


Start = tuple[tuple[Fraction, tuple[Node, int]], ...]  # (probability, (node, seconds)): where treatment starts


def _start(rules: Rules, options: dict[str, Any], table: str, d20: int, wait: int, run: Any) -> Start:
    """Where treatment of this drop starts, after `wait` seconds: `run` (the engine's `injure`, then its clock)
    over every outcome, once per (table, d20, wait) and values of the options it read. Option sets that agree
    on those share it (the options of a what-if differ mostly in what treatment reads, not the drop)."""
    key = (id(rules), table, d20, wait)  # the run's inputs: not who treats
    hit = _STARTS.get(key)
    if hit is None or hit[0] is not rules:
        if len(_STARTS) > 2048:
            _STARTS.clear()
        hit = _STARTS[key] = (rules, [])
    start: Start = per_options_read(hit[1], options, lambda read: tuple(every_outcome(lambda roller: run(roller, read))))
    return start


def rebuild(t: Treatment) -> None:
    """Give `t` a graph of its own options, when the shared graph's engine read an option on which they
    differ (found after a solve: `Graph.serves`)."""
    table, d20, wait_days, self_treatment = t.args
    fresh = Graph(t.graph.rules, ReadOptions(t.options))
    add_graph(fresh)
    again = treatment(fresh.rules, t.options, table, d20, wait_days=wait_days, self_treatment=self_treatment,
                      private=fresh)
    t.graph, t.start = again.graph, again.start
    t.solved.clear()
    t.rested = None


# ---------------------------------------------------------------- caches


CHAINS_KEPT = 16_384  # chains kept in memory: a what-if asks 13 tables x 20 faces under 40-odd option sets
_GRAPHS: dict[int, tuple[Any, list[Graph]]] = {}
_SERVING: dict[tuple[Any, ...], tuple[Graph, int]] = {}  # (rules, options frozen) -> (`graph`'s, its options read)
_CACHE: dict[tuple[Any, ...], tuple[Any, Treatment]] = {}
# (rules, table, d20, wait) -> (rules, [(the options the run read and their values, start)])
_STARTS: dict[tuple[Any, ...], tuple[Any, list[tuple[dict[str, Any], Start]]]] = {}


def graphs(rules: Rules) -> list[Graph]:
    """The treatment graphs built so far under these rules, in the order `graph` tries them."""
    hit = _GRAPHS.get(id(rules))
    if hit is None or hit[0] is not rules:
        hit = _GRAPHS[id(rules)] = (rules, [])
    return hit[1]


def add_graph(g: Graph, first: bool = False) -> None:
    """Keep `g` among its rules' graphs (tried first by `graph` when `first`: a persisted cache's)."""
    kept = graphs(g.rules)
    if len(kept) > 32:
        kept.clear()
    if first:
        kept.insert(0, g)
    else:
        kept.append(g)
    _SERVING.clear()


def graph(rules: Rules, options: dict[str, Any]) -> Graph:
    """A treatment graph that serves these options (`Graph.serves`): the first of `graphs` that does, or a new
    one. Remembered per options until the graphs change or the one found reads another option (a graph that
    does not serve some options never will: the options it read only grow)."""
    key = (id(rules), _freeze(options))
    hit = _SERVING.get(key)
    if hit is not None and hit[0].rules is rules and len(getattr(hit[0].options, "read", ())) == hit[1]:
        return hit[0]
    found = next((g for g in graphs(rules) if g.serves(options)), None)
    if found is None:
        found = Graph(rules, ReadOptions(options))
        add_graph(found)
    if len(_SERVING) > 4096:
        _SERVING.clear()
    _SERVING[key] = (found, len(getattr(found.options, "read", ())))
    return found


def treatment_cached(rules: Rules, options: dict[str, Any], table: str, d20: int, wait_days: float = 0,
                     self_treatment: bool = False) -> Treatment:
    """`treatment`, cached per (rules, options, table, d20, wait, self): built once, solved for every bonus."""
    key = (id(rules), _freeze(options), table, d20, wait_days, self_treatment)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    built = treatment(rules, options, table, d20, wait_days=wait_days, self_treatment=self_treatment)
    if len(_CACHE) > CHAINS_KEPT:
        _CACHE.clear()
    _CACHE[key] = (rules, built)
    return built


_GENERATION = [0]  # how many times `clear_cache` emptied the odds' memory


def generation() -> int:
    """Moves when the odds forget what they computed (a persisted cache reads its files again)."""
    return _GENERATION[0]


def clear_cache() -> None:
    """Forget every chain, shared state and solution (benchmarks: a cold start)."""
    _GENERATION[0] += 1
    _CACHE.clear()
    _STARTS.clear()
    _GRAPHS.clear()
    _SERVING.clear()
    _TAILS.clear()
    odds_check.FORMULAS.clear()
