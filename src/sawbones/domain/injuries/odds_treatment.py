"""Solving the treatment chains of `odds_injury` for a healer's bonus (issue 17): attempts, game time, ends.

Two ways through the same chain: `solve(..., timeline=True)` pushes the probability forward attempt by
attempt and keeps it per game time (the exact distribution of the time until it heals: 2d4 and 4d4 days
counted face by face, never averaged); without it, `_summary` goes backwards from the ends, one value per
node and bonus, shared by every injury whose chain meets that node (the fast path of tables and profiles).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ...errors import RuleViolation, UsageError
from ...message import Option, msg
from . import care as injury_care
from .table import pick_row
from ..engine.odds_engine import ScriptRoller, campaign, context, per_options_read, victim
from .odds import MAX_BONUS, MIN_BONUS, UNTREATED_DAYS, Treatment, rebuild, treatment_cached
from .odds_check import check_formula
from ..engine.state import DAY, with_fields

if TYPE_CHECKING:
    from ...content.rules import Rules


def solve(t: Treatment, bonus: int, exact: bool = False, timeline: bool = False) -> dict[str, Any]:
    """The odds of healing by treatment at this healer's bonus. Attempts and game time are counted until the
    injury heals; the mass that cannot (magic only, a part lost, no check can reach the DC) ends there.

    Attempts go layer by layer (each attempt adds one: a topological order). With `timeline` the mass is
    kept per game time, exactly (the time distribution); without it, only its probability-weighted sum."""
    if not MIN_BONUS <= bonus <= MAX_BONUS:
        raise UsageError(msg("{option}: a healer's check bonus from {low} to {high}, not {bonus}", option=Option("bonus"),
                             low=MIN_BONUS, high=MAX_BONUS, bonus=bonus))
    key = (bonus, exact, timeline)
    hit = t.solved.get(key)
    if hit is not None:
        return hit
    while True:
        try:
            doc = _solve(t, bonus, exact, timeline)
        except (UsageError, RuleViolation):
            if t.serving():
                raise  # the engine's refusal under these very options
            rebuild(t)  # a refusal under the options of the graph shared with others: not these options' answer
            continue
        if t.serving():
            break
        rebuild(t)  # the shared graph's engine read an option these options set apart
    t.solved[key] = doc
    return doc


def _solve(t: Treatment, bonus: int, exact: bool, timeline: bool) -> dict[str, Any]:
    g = t.graph
    if not timeline:
        return _summary(t, bonus, exact)
    num = Fraction if exact else float
    zero, one = num(0), num(1)
    ends_of = g.ends
    # layer: (node, seconds so far, or 0 without timeline) -> [probability, probability x seconds]
    layer: dict[tuple[int, int], list[Any]] = {}
    for w, k, seconds in t.start:
        cell = layer.setdefault((k, seconds if timeline else 0), [zero, zero])
        cell[0] += num(w)
        cell[1] += num(w) * seconds
    healed: dict[int, Any] = {}
    healed_time: dict[int, Any] = {}  # seconds -> probability (timeline)
    weighted = zero  # probability x seconds of the healed mass
    ends = {"healed": zero, "lost": zero, "magic": zero, "beyond": zero}
    lost_beyond = zero
    attempts = 0
    while layer:
        nxt: dict[tuple[int, int], list[Any]] = {}
        for (k, seconds), (m, tm) in layer.items():
            end = ends_of[k]
            if end is not None:
                ends[end] += m
                if end == "healed":
                    healed[attempts] = healed.get(attempts, zero) + m
                    weighted += tm
                    if timeline:
                        healed_time[seconds] = healed_time.get(seconds, zero) + m
                continue
            p = t.chance(g.nodes[k].dc, bonus, exact)
            if p == 0:
                ends["beyond"] += m
                lost_beyond += m * sum((num(w) for w, j in g.left_alone(k) if ends_of[j] == "lost"), zero)
                continue
            miss = one - p
            for made, j, w, spent in g.merged(k, exact, timeline):
                pq = p if made else miss
                if not pq:
                    continue
                key2 = (j, seconds + spent) if timeline else (j, 0)
                into = nxt.get(key2)
                if into is None:
                    into = nxt[key2] = [zero, zero]
                into[0] += m * w * pq
                # timeline: `spent` is this branch's seconds; else the branches' sum of w x seconds
                into[1] += (tm * w + m * (w * spent if timeline else spent)) * pq
        layer = nxt
        attempts += 1
    heal = ends["healed"]
    doc = {
        "bonus": bonus, "healed": heal, "lost": ends["lost"] + lost_beyond,
        "never_heals": ends["lost"] + ends["magic"] + ends["beyond"], "magic_only": ends["magic"],
        "beyond_reach": ends["beyond"], "attempts": dict(sorted(healed.items())),
        "expected_attempts": sum((n * q for n, q in healed.items()), zero) / heal if heal else None,
        "expected_days": weighted / heal / DAY if heal else None,
    }
    if timeline:
        doc["days"] = {(Fraction(s, DAY) if exact else s / DAY): q for s, q in sorted(healed_time.items())}
    return doc


_HEAL, _ATTEMPTS, _SECONDS, _LOST, _MAGIC, _BEYOND, _LOST_LATER = range(7)


def _value(t: Treatment, k: int, bonus: int, exact: bool, memo: dict[int, tuple[Any, ...]]) -> tuple[Any, ...]:
    """From node k on, at this bonus: (P(healed), E[attempts; healed], E[seconds; healed], P(part lost),
    P(magic only), P(beyond reach), P(beyond reach, then the part lost when left alone)). Memoized per
    node, shared by every chain of the graph (nodes after an attempt are the same wherever they came from)."""
    hit = memo.get(k)
    if hit is not None:
        return hit
    g = t.graph
    num = Fraction if exact else float
    zero, one = num(0), num(1)
    end = g.ends[k]
    v: tuple[Fraction | float, ...]
    if end == "healed":
        v = (one, zero, zero, zero, zero, zero, zero)
    elif end == "lost":
        v = (zero, zero, zero, one, zero, zero, zero)
    elif end == "magic":
        v = (zero, zero, zero, zero, one, zero, zero)
    else:
        p = t.chance(g.nodes[k].dc, bonus, exact)
        if p == 0:
            later = sum((num(w) for w, j in g.left_alone(k) if g.ends[j] == "lost"), zero)
            v = (zero, zero, zero, zero, zero, one, later)
        else:
            acc = [zero] * 7
            for made, j, w, ws in g.merged(k, exact, False):
                pq = p if made else one - p
                if not pq:
                    continue
                vj = _value(t, j, bonus, exact, memo)
                f = pq * w
                acc[_HEAL] += f * vj[_HEAL]
                acc[_ATTEMPTS] += f * (vj[_ATTEMPTS] + vj[_HEAL])
                acc[_SECONDS] += f * vj[_SECONDS] + pq * ws * vj[_HEAL]
                for i in (_LOST, _MAGIC, _BEYOND, _LOST_LATER):
                    acc[i] += f * vj[i]
            v = tuple(acc)
    memo[k] = v
    return v


def _summary(t: Treatment, bonus: int, exact: bool) -> dict[str, Any]:
    """`solve` without the time distribution: backwards from the ends, node values shared across chains."""
    num = Fraction if exact else float
    zero = num(0)
    memo = t.graph.values.setdefault((t.formula, bonus, exact), {})
    acc = [zero] * 7
    for w, k, seconds in t.start:
        v = _value(t, k, bonus, exact, memo)
        weight = num(w)
        for i in range(7):
            acc[i] += weight * v[i]
        acc[_SECONDS] += weight * seconds * v[_HEAL]
    heal = acc[_HEAL]
    return {
        "bonus": bonus, "healed": heal, "lost": acc[_LOST] + acc[_LOST_LATER],
        "never_heals": acc[_LOST] + acc[_MAGIC] + acc[_BEYOND], "magic_only": acc[_MAGIC],
        "beyond_reach": acc[_BEYOND], "expected_attempts": acc[_ATTEMPTS] / heal if heal else None,
        "expected_days": acc[_SECONDS] / heal / DAY if heal else None,
    }


def _exact_or_float(doc: Any, exact: bool) -> Any:
    if exact:
        return doc
    if isinstance(doc, dict):
        return {(float(k) if isinstance(k, Fraction) else k): _exact_or_float(v, exact) for k, v in doc.items()}
    if isinstance(doc, Fraction):
        return float(doc)
    return doc


def rest_healing(t: Treatment) -> dict[str, Any]:
    """What heals the injury for free, by the engine's `_heals_by_rest`: a Hit Die on a short rest (1 hour),
    a long rest (8 hours; with `unflagged_severe_natural_recovery: long_rests:N`, the Nth), or nothing."""
    if t.rested is not None:
        return t.rested
    out: dict[str, Any] = {"hit_die": Fraction(0), "long_rests": {}, "never": Fraction(0)}
    for w, k, _ in t.start:
        hit_die, long_rests = _rested(t, k)
        if hit_die:
            out["hit_die"] += w
        if long_rests is None:
            out["never"] += w
        else:
            out["long_rests"][long_rests] = out["long_rests"].get(long_rests, Fraction(0)) + w
    t.rested = out
    return out


def _rested(t: Treatment, k: int) -> tuple[bool, int | None]:
    """`_rests` for node k under `t`'s options, asked once for all the option sets that agree on the options
    the engine read (a what-if's 40-odd sets differ mostly in what rests do not read)."""
    answer: tuple[bool, int | None] = per_options_read(t.graph.rests.setdefault(k, []), t.options,
                                                       lambda options: _rests(t, k, options))
    return answer


def _rests(t: Treatment, k: int, options: dict[str, Any]) -> tuple[bool, int | None]:
    """(a Hit Die heals it, the long rest that heals it or None) for node k, by the engine's `_heals_by_rest`."""
    inj = t.graph.nodes[k].injury
    if inj is None or t.graph.ends[k] is not None:
        return False, None
    ctx = context(campaign(victim()), t.graph.rules, options, ScriptRoller())
    hit_die = injury_care._heals_by_rest(ctx, inj, "hit_die")
    for n in range(1, UNTREATED_DAYS + 1):
        if injury_care._heals_by_rest(ctx, with_fields(inj, long_rests=n - 1), "long_rest"):
            return hit_die, n
    return hit_die, None


def treatment_doc(rules: Rules, options: dict[str, Any], table: str, d20: int, bonus: int, *, wait_days: float = 0,
                  self_treatment: bool = False, exact: bool = False) -> dict[str, Any]:
    """`sawbones odds --injury TYPE --d20 N --bonus B [--wait D] [--self]`: one JSON-ready document.

    `attempts` and `days` are lists of {"n"|"days", "p"} (the probability of healing at that attempt, at that
    game time since the drop); `per_attempt` the game days one attempt takes, as the engine rolls them."""
    table = rules.resolve("damage_tables", table)
    t = treatment_cached(rules, options, table, d20, wait_days, self_treatment)
    solved = solve(t, bonus, exact, timeline=True)  # first: it gives `t` a graph that serves its options
    g = t.graph
    pick = pick_row(rules, table, d20, options.get("severity_bands", "standard"),
                    options.get("lenient_row_mapping", "by_tier"))
    open_ = [k for _, k, _ in t.start if g.ends[k] is None]  # where treatment can start (no part lost yet)
    # the DC shown is the injury's as the drop gave it (the one the document names): a wait may change it
    # (a frostbite past its deadline is a critical injury), which the numbers count
    gained = t if not wait_days else treatment_cached(rules, options, table, d20, 0, self_treatment)
    first = gained.graph.nodes[gained.start[0][1]].injury
    per_attempt: dict[Any, Fraction] = {}
    if open_:
        for made, _, w, seconds in g.attempt(open_[0]):
            if made:
                days = Fraction(seconds, DAY)
                per_attempt[days] = per_attempt.get(days, Fraction(0)) + w
    rest = rest_healing(t)
    doc = dict(solved)
    num = (lambda x: x) if exact else float
    doc["attempts"] = [{"n": n, "p": q} for n, q in doc["attempts"].items()]
    doc["days"] = [{"days": d, "p": q} for d, q in doc["days"].items()]
    return {
        "table": table, "d20": d20, "injury": pick.injury.id, "severity": pick.severity,
        "dc": first.dc if first else None, "wait_days": wait_days, "self_treatment": self_treatment,
        "check": check_formula(rules, options, self_treatment),
        "per_attempt": [{"days": num(d), "p": num(q)} for d, q in sorted(per_attempt.items())],
        "rest": {"hit_die": num(rest["hit_die"]), "never": num(rest["never"]),
                 "long_rests": [{"n": n, "p": num(q)} for n, q in rest["long_rests"].items()]},
        **doc,
    }
