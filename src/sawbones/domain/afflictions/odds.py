"""Exact odds for diseases and poisons (issue 6): an absorbing Markov chain per affliction, solved, not simulated.

The chain is built from the engine's own rules code, never from a copy of them:

- exposure (the initial save, the first stage or a deadly start, the schedule, extra doses) calls
  `afflictions_decide.expose` itself, with a typed total that makes the save succeed or fail;
- every periodic save calls `afflictions.step(state, succeeded)`, the engine's per-save transition;
- each save is read as the engine reads it (`saves.py`): the roll query's answer for that save on a
  victim who carries only the chain's state (`save_terms`): modifiers and conditions through their
  readings (Con poison Weakened: -2 Fortitude; PF1 sickened and shaken: -2 on saves), 5e
  advantage/disadvantage (5e exhausted: disadvantage on saves) and automatic failure. It succeeds
  with p = P(d20 + bonus + modifier >= DC), 1 - (1 - p)^2 with advantage, p^2 with disadvantage,
  0 on an automatic failure; in a pf1e campaign a natural 1 fails and a natural 20 succeeds (as
  `saves.roll` does). A state's reading depends on the system; it is asked once per system and set
  of effects, shared by the chains of the same rules and options (`Chain.terms`). `bonus` is the
  rest: the sheet and other sources' flat modifiers (`instance_bonus`).

States are the engine's `AfflictionState`s modulo the clock (`canonical`): the schedule, the
instance id, rest progress and rolled ability damage are zeroed, none of which changes what the
next save does (rolled ability damage would if it hit the save's own ability, Con for Fortitude:
no catalog affliction does; a content pack's would be left out of the odds). A chain is built
once per (rules, options, affliction, start) by breadth-first search and reused for every bonus:
only the success chances change. It is solved by eliminating its transient states one by one (the
fundamental matrix, without building it), following a program recorded once per chain, for
Fractions (exact) or floats (fast) alike.

Readings:

- `final`: the stage the victim ends on. Poisons: when the poison is eliminated (a successful
  cure) or runs out (duration over): the victim stays there and recovers by rest later (not
  modelled). Diseases: healthy once cured, or the end state. Healthy includes "never afflicted"
  (the initial save made). A chain that can never end (a save-proof disease at a chance of
  exactly 1, only possible without pf1e's natural 1) ends on the stage where it stalls, counted
  in `never_ends`, and its expected duration is null.
- `death`: the probability of ending on a stage that imposes the `dead` condition. Hit point loss
  from poison damage is not modelled (no hit points are known here).
- `expected_duration`: the expected game time from exposure to the save that ends the affliction,
  in the affliction's frequency unit: the first periodic save comes after the onset (poisons with
  an onset; diseases with `disease_onset: delay_first_save_by_core_onset`) or one interval, then
  one per interval. Never afflicted counts 0. `saves` is the expected number of periodic saves.
- `curve`: the probability of each stage after t periodic saves (t = 0: just after exposure),
  each row with its game time.

The default system for a query without a campaign is the engine's own default (`Campaign.system`,
dnd5e: no natural 1 / natural 20 rule on saves).
"""

from __future__ import annotations

import json
import random
import threading
from dataclasses import fields, replace
from fractions import Fraction
from collections import deque
from typing import Any, Iterable

from ...errors import RuleViolation, UsageError
from ...message import msg
from .odds_chain import _VICTIM, DEFAULT_SYSTEM, Chain, Dose, save_chance, save_terms
from .rules import ACTIVE, CURED, END_STATE, AfflictionState, from_dict, interval, kills, land_onset, step
from .decide import expose
from ..engine.rolls import Roller
from ..engine.odds_engine import _freeze
from ..engine.saves import SaveTerms
from ..engine.state import DAY, SYSTEMS, UNIT_SECONDS, Campaign, Character
from ..engine.context import Context, Ctx
from ...content.rules import Rules

HEALTHY = "healthy"
DEFAULT_CURVE = 365  # saves in a curve without a horizon (it stops earlier once it is all over)
MAX_CURVE = 10_000  # saves in any curve
NEVER = None  # the absorbing outcome "never afflicted" (the initial save was made)
_RNG = random.Random(0)  # only for dice the odds ignore (rolled ability damage): typed saves roll nothing


# ---------------------------------------------------------------- the engine, state by state


def canonical(a: AfflictionState | None) -> AfflictionState | None:
    """The engine's state without the clock and the bookkeeping that does not change what happens next."""
    if a is None:
        return None
    if a.status == ACTIVE:
        return replace(a, id="a1", contracted_at=0, next_save_at=0, rest=0, rest_at=0, ability_damage=(), spells=())
    # absorbing: only where the victim stands (and what stays for good) matters
    return replace(a, id="a1", contracted_at=0, next_save_at=None, saves_left=None, streak=0, failures=0,
                   onset_stages=(), rest=0, rest_at=0, ability_damage=(), spells=())


def exposure(rules: Rules, options: dict[str, Any], affliction_id: str, existing: AfflictionState | None,
             succeeded: bool, deadly: str | None = None) -> tuple[AfflictionState | None, int | None]:
    """One exposure (a dose) run by the engine's `expose` with a save that succeeds or fails.

    Returns the instance afterwards (None: never afflicted) and, for a new instance, the delay in
    seconds to its first periodic save. An exposure the engine refuses (a disease the victim already
    has, a poison at its end state) has no effect.

    The instance afterwards does not depend on the system, but whether a save can succeed does (an
    automatic failure is read in the system): a success is asked in each system until one allows it.
    One that none allows has chance 0 everywhere, and then no effect.
    """
    huge = 10 ** 9
    afflictions = () if existing is None else (replace(existing, id="a1"),)
    victim = Character(id=_VICTIM, name=_VICTIM, max_hp=huge, hp=huge, afflictions=afflictions)
    dc = rules.afflictions[affliction_id].dc
    for system in sorted(SYSTEMS, key=lambda x: x != DEFAULT_SYSTEM):
        state = Campaign(name="odds", system=system, characters=(victim,), counter=len(afflictions))
        try:
            events = expose(Ctx(state, rules, options, Roller(_RNG)), _VICTIM, affliction_id,
                            total=dc if succeeded else dc - 1, deadly=deadly)
        except RuleViolation:
            return existing, None
        if events[0]["data"]["succeeded"] == succeeded:
            break
    else:
        return existing, None
    after = next((e["data"]["state"] for e in reversed(events)
                  if e["type"] in ("affliction_contracted", "affliction_changed")), None)
    if after is None:
        return existing, None
    new = from_dict(after)
    delay = new.next_save_at - new.contracted_at if existing is None and new.next_save_at is not None else None
    return new, delay


# ---------------------------------------------------------------- building


def stage_label(rules: Rules, a: AfflictionState | None) -> str:
    """The stage a victim stands on: the stage id, or one per track joined by '+' when the tracks differ."""
    if a is None:
        return HEALTHY
    ids = []
    for track_id, index in zip(a.tracks, a.stages):
        stage_id = rules.tracks[track_id].stages[index].id
        if stage_id not in ids:
            ids.append(stage_id)
    return "+".join(ids)


def build(rules: Rules, options: dict[str, Any], affliction_id: str, *, from_stage: str | None = None,
          doses: int = 0, state: AfflictionState | None = None, readings: dict[Any, Any] | None = None) -> Chain:
    """The chain from exposure (default), from a stage a failed initial save puts the victim on (as a deadly
    start would), or from an instance's current state; `doses` extra doses taken at once on top."""
    defn = rules.get("afflictions", affliction_id)
    if doses < 0:
        raise UsageError(msg("doses must be 0 or more"))
    delay = interval(defn)  # from a current state: its next save one interval away
    if state is not None:
        first: Any = canonical(state)
    elif from_stage is not None:
        first, seconds = exposure(rules, options, defn.id, None, False, deadly=from_stage)
        first = canonical(first)
        delay = seconds if seconds is not None else delay
    else:
        first = None
        _, seconds = exposure(rules, options, defn.id, None, False)
        delay = seconds if seconds is not None else delay
    extra = doses + (1 if state is None and from_stage is None else 0)
    start: Any = Dose(extra, first) if extra else first

    nodes: list[Any] = []
    ids: dict[Any, int] = {}

    def node(x: Any) -> int:
        if x not in ids:
            ids[x] = len(nodes)
            nodes.append(x)
            frontier.append(x)
        return ids[x]

    frontier: deque[Any] = deque()
    node(start)
    succ: dict[int, int] = {}
    fail: dict[int, int] = {}
    save_states: dict[int, Any] = {}
    exposures: list[int] = []
    periodic: list[int] = []
    absorbing: list[int] = []
    dose_memo: dict[tuple[Any, bool], Any] = {}
    while frontier:
        x = frontier.popleft()
        k = ids[x]
        if isinstance(x, Dose):
            exposures.append(k)
            save_states[k] = x.state  # an extra dose: the save is made with the instance as it stands
            for ok, into in ((True, succ), (False, fail)):
                memo = (x.state, ok)
                if memo not in dose_memo:
                    dose_memo[memo] = canonical(exposure(rules, options, defn.id, x.state, ok)[0])
                after = dose_memo[memo]
                into[k] = node(Dose(x.left - 1, after) if x.left > 1 else after)
        elif x is not None and x.status == ACTIVE:
            periodic.append(k)
            save_states[k] = land_onset(x, rules, options)[0]  # as resolve_save: the onset's step first
            succ[k] = node(canonical(step(x, True, rules, options)[0]))
            fail[k] = node(canonical(step(x, False, rules, options)[0]))
        else:
            absorbing.append(k)
            save_states[k] = None
    n = len(nodes)
    labels = [stage_label(rules, x.state if isinstance(x, Dose) else x) for x in nodes]
    dead = [False] * n
    for k in absorbing:
        x = nodes[k]
        dead[k] = x is not None and any(kills(rules, rules.tracks[t], i) for t, i in zip(x.tracks, x.stages))
    if len(defn.tracks) == 1:
        ladder = [st.id for st in rules.tracks[defn.tracks[0]].stages]
    else:
        seen: dict[str, int] = {}
        for k, x in enumerate(nodes):
            s = x.state if isinstance(x, Dose) else x
            seen.setdefault(labels[k], sum(s.stages) if s is not None else 0)
        seen.setdefault(HEALTHY, 0)
        ladder = sorted(seen, key=lambda label: (seen[label], label))
    chain = Chain(
        affliction=defn.id, kind=defn.kind, dc=defn.dc, save=defn.save, unit=defn.frequency.unit,
        every=defn.frequency.every, delay=delay, nodes=nodes, start=0, exposure_nodes=exposures,
        periodic=periodic, absorbing=absorbing, save_states=[save_states[k] for k in range(n)],
        succ=[succ.get(k, -1) for k in range(n)], fail=[fail.get(k, -1) for k in range(n)], labels=labels,
        ladder=ladder, dead=dead, stuck=frozenset(),
        meta={"from": "state" if state is not None else "stage" if from_stage else "exposure",
              "stage": from_stage, "doses": doses}, rules=rules, options=options,
        readings=_readings(rules, options) if readings is None else readings)
    chain.stuck = chain._stuck_under([Fraction(1, 2)] * n)
    return chain


# ---------------------------------------------------------------- cache


_CACHE: dict[tuple[Any, ...], tuple[Any, Chain]] = {}
_READINGS: dict[tuple[Any, ...], tuple[Any, dict[tuple[Any, ...], SaveTerms]]] = {}
_CACHE_SIZE = 512
_LOCK = threading.Lock()


def _readings(rules: Rules, options: dict[str, Any], frozen: Any = None) -> dict[tuple[Any, ...], SaveTerms]:
    """The save readings of one (rules, options), shared by their chains: {(system, save, effects key): terms}."""
    key = (id(rules), _freeze(options) if frozen is None else frozen)
    hit = _READINGS.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    with _LOCK:
        while len(_READINGS) >= _CACHE_SIZE:
            _READINGS.pop(next(iter(_READINGS)))
        _READINGS[key] = (rules, {})
    return _READINGS[key][1]


def clear_cache() -> None:
    """Forget every chain and save reading (benchmarks: a cold start)."""
    with _LOCK:
        _CACHE.clear()
        _READINGS.clear()


def chain(rules: Rules, options: dict[str, Any], affliction_id: str, *, from_stage: str | None = None,
          doses: int = 0, state: AfflictionState | None = None) -> Chain:
    """`build`, cached per (rules, options, affliction, start): the graph is made once, every bonus reuses it."""
    frozen, affliction_id = _freeze(options), rules.resolve("afflictions", affliction_id)  # (typed by name)
    key = (id(rules), frozen, affliction_id, from_stage, doses, canonical(state))
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    built = build(rules, options, affliction_id, from_stage=from_stage, doses=doses, state=state,
                  readings=_readings(rules, options, frozen))
    with _LOCK:
        while len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = (rules, built)
    return built


def instance_bonus(ctx: Context, character: Any, instance: AfflictionState) -> int:
    """The bonus to give `odds(..., state=instance)` for a character's own instance: the engine's flat save
    bonus (the sheet and everything the roll query adds) less what this instance alone adds (`save_terms`),
    which the chain adds back state by state.

    Only the flat part carries over: advantage, disadvantage or an automatic failure from other sources (an
    injury, another affliction) have no place in the odds' bonus."""
    from .decide import save_bonus

    save = ctx.rules.afflictions[instance.affliction].save
    own = save_terms(ctx.rules, ctx.options, ctx.state.system, save, instance)
    return save_bonus(ctx, character, save) - own.modifier


# ---------------------------------------------------------------- readings


def _number(x: Any, exact: bool) -> Any:
    return x if exact else float(x)


def result(c: Chain, bonus: int, system: str = DEFAULT_SYSTEM, exact: bool = False) -> dict[str, Any]:
    """The odds document for one bonus (floats; Fractions with exact=True)."""
    probs, expected, started, stuck, p = c.solve(bonus, system, exact)
    zero = Fraction(0) if exact else 0.0
    final = {label: zero for label in c.ladder}
    outcome = {"never_afflicted": zero, "cured": zero, "eliminated": zero, "end_state": zero, "never_ends": zero}
    permanent: dict[str, Any] = {}
    death = zero
    for j, q in probs.items():
        final[c.labels[j]] = final.get(c.labels[j], zero) + q
        x = c.nodes[j]
        if j in stuck:
            outcome["never_ends"] += q
        elif x is None:
            outcome["never_afflicted"] += q
        else:
            outcome["cured" if x.status == CURED else "end_state" if x.status == END_STATE else "eliminated"] += q
        if c.dead[j]:
            death += q
        if x is not None:
            for perm in x.permanent:
                permanent[perm.condition] = permanent.get(perm.condition, zero) + q
    unit_seconds = UNIT_SECONDS[c.unit]
    delay = Fraction(c.delay, unit_seconds) if exact else c.delay / unit_seconds
    if outcome["never_ends"]:
        value = None
    else:
        value = expected * c.every + started * (delay - c.every)
    return {
        "affliction": c.affliction, "kind": c.kind, "dc": c.dc, "save": c.save, "bonus": bonus, "system": system,
        "start": dict(c.meta), "chance": dict(zip(c.labels_of(system), p.values())),
        "final": final, "death": death, "outcome": outcome, "permanent": permanent,
        "expected_duration": {"value": value, "unit": c.unit, "saves": None if value is None else expected,
                              "first_save_after": delay, "every": c.every},
    }


def odds(rules: Rules, options: dict[str, Any], affliction_id: str, bonus: int, *, system: str = DEFAULT_SYSTEM,
         from_stage: str | None = None, doses: int = 0, state: AfflictionState | None = None,
         exact: bool = False) -> dict[str, Any]:
    """JSON-ready odds of one affliction at one save bonus (see the module doc for the readings).

    {"affliction", "dc", "bonus", "final": {stage: p}, "death": p, "expected_duration": {"value", "unit", ...},
    "outcome": {never_afflicted, cured, eliminated, end_state, never_ends}, "permanent": {condition: p}, ...}
    """
    c = chain(rules, options, affliction_id, from_stage=from_stage, doses=doses, state=state)
    return result(c, bonus, system, exact)


def curve(rules: Rules, options: dict[str, Any], affliction_id: str, bonus: int, *, system: str = DEFAULT_SYSTEM,
          from_stage: str | None = None, doses: int = 0, state: AfflictionState | None = None,
          steps: int | None = None, days: float | None = None, exact: bool = False) -> dict[str, Any]:
    """The stage distribution after t periodic saves, t = 0 (just after exposure) .. steps.

    `days`: the horizon in game days instead (the saves that fall within it). Without either, the curve
    goes on until at most 1e-9 of the victims are still running, or DEFAULT_CURVE saves. Rows stop early
    once at most 1e-12 are still running (later rows would repeat the last), and never go past MAX_CURVE.
    Each row: {"t", "time" (in the frequency unit), "stages": {stage: p}, "death": p, "running": p}.
    """
    c = chain(rules, options, affliction_id, from_stage=from_stage, doses=doses, state=state)
    p = c.node_chances(c.chances(bonus, system, exact), system)
    zero = Fraction(0) if exact else 0.0
    unit_seconds = UNIT_SECONDS[c.unit]
    if days is not None:
        horizon = days * DAY
        steps = 0 if horizon < c.delay else 1 + int((horizon - c.delay) // (c.every * unit_seconds))
    limit, enough = (min(steps, MAX_CURVE), 1e-12) if steps is not None else (DEFAULT_CURVE, 1e-9)
    mass = {j: (m if exact else float(m)) for j, m in c.entry(p).items()}
    periodic = set(c.periodic)
    edges = {k: c.weights(k, p) for k in c.periodic}
    rows = []
    t = 0
    while True:
        stages = {label: zero for label in c.ladder}
        death = running = zero
        for j, m in mass.items():
            stages[c.labels[j]] = stages.get(c.labels[j], zero) + m
            if j in periodic:
                running += m
            elif c.dead[j]:
                death += m
        time = 0 if t == 0 else (Fraction(c.delay, unit_seconds) + (t - 1) * c.every)
        rows.append({"t": t, "time": time if exact else float(time), "stages": stages, "death": death,
                     "running": running})
        if t >= limit or running <= enough:
            break
        new: dict[int, Any] = {}
        for j, m in mass.items():
            if j in periodic:
                for target, w in edges[j]:
                    new[target] = new.get(target, zero) + m * w
            else:
                new[j] = new.get(j, zero) + m
        mass = new
        t += 1
    return {"affliction": c.affliction, "dc": c.dc, "bonus": bonus, "system": system, "unit": c.unit,
            "every": c.every, "stages": list(c.ladder), "rows": rows}


def table(rules: Rules, options: dict[str, Any], bonuses: Iterable[int], *, system: str = DEFAULT_SYSTEM,
          afflictions: Iterable[str] | None = None, exact: bool = False) -> list[dict[str, Any]]:
    """Every affliction (the catalog by default) at every bonus: one odds document each, per affliction."""
    ids = list(afflictions) if afflictions is not None else list(rules.afflictions)
    bonuses = list(bonuses)
    out = []
    for affliction_id in ids:
        c = chain(rules, options, affliction_id)
        out.append({"affliction": affliction_id, "dc": c.dc, "kind": c.kind,
                    "odds": [result(c, b, system, exact) for b in bonuses]})
    return out


def to_json(doc: Any) -> Any:
    """Fractions to floats, recursively (exact documents made JSON-ready)."""
    if isinstance(doc, dict):
        return {k: to_json(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [to_json(v) for v in doc]
    if isinstance(doc, Fraction):
        return float(doc)
    return doc


def sortable(value: Any) -> Any:
    """A totally ordered, hashable image of a node (icepool sorts its outcomes)."""
    if value is None:
        return (0,)
    if isinstance(value, bool):
        return (1, int(value))
    if isinstance(value, int):
        return (2, value)
    if isinstance(value, str):
        return (3, value)
    if isinstance(value, tuple):
        return (4, tuple(sortable(v) for v in value))
    if hasattr(value, "__dataclass_fields__"):
        return (5, type(value).__name__, tuple(sortable(getattr(value, f.name)) for f in fields(value)))
    return (6, json.dumps(value, sort_keys=True, default=str))


__all__ = ["DEFAULT_SYSTEM", "Chain", "Dose", "build", "canonical", "chain", "clear_cache", "curve", "exposure",
           "instance_bonus", "odds", "result", "save_chance", "save_terms", "sortable", "stage_label", "table",
           "to_json"]


def table_doc(rules: Rules, options: dict[str, Any], bonuses: list[int], system: str,
              campaign: str | None = None) -> dict[str, Any]:
    """`odds --all`: for every affliction, death chance, healthy chance and duration at each bonus."""
    rows = table(rules, options, bonuses, system=system)
    return {"system": system, "campaign": campaign, "bonuses": bonuses, "afflictions": [
        {"affliction": r["affliction"], "dc": r["dc"], "kind": r["kind"], "death": [d["death"] for d in r["odds"]],
         "healthy": [d["final"].get("healthy", 0.0) for d in r["odds"]],
         "expected_duration": [d["expected_duration"]["value"] for d in r["odds"]],
         "unit": r["odds"][0]["expected_duration"]["unit"]} for r in rows]}
