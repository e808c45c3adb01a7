"""A campaign's view of lingering injuries (issue 17): what a party profile can expect, per session, and
the same under each option that changes it: a what-if to read before choosing the options.

Every number is a sum over the engine's own outcomes (`odds_injury`, `odds_treatment`): for each damage
type met and each face of the injury d20, the injury the engine gives (under the options: bands, mapping),
then its treatment chain at the healer's bonus. Nothing is estimated.

A profile: drops to 0 per session (player characters; NPCs' only count with `apply_to_npcs`; critical
failures only with `trigger_on_critical_failure`), the damage types met (weights), the healer's Medicine
bonus, whether the healer treats themself, and the days before treatment starts.
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, ContextManager

from ...errors import UsageError
from .odds import MAX_WAIT_DAYS, treatment_cached
from .odds_treatment import rest_healing, solve
from ...message import Option, msg

if TYPE_CHECKING:
    from ...content.rules import Rules


MAX_PER_SESSION = 20  # drops to 0, NPC drops or critical failures per session the profile accepts
PER = 10  # permanent losses are counted per ten sessions


@dataclass(frozen=True)
class Profile:
    drops: float = 1.0  # player characters dropping to 0, per session
    types: tuple[tuple[str, float], ...] = ()  # damage type -> weight (empty: every type alike)
    bonus: int = 5  # the healer's check bonus
    self_treatment: bool = False
    wait_days: float = 0.0
    npc_drops: float = 0.0
    critical_failures: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict, compare=False)


def check_profile(rules: Rules, p: Profile) -> None:
    """Bounds: what the rules can use, finite; one clear error naming the field."""
    for name in ("drops", "npc_drops", "critical_failures"):
        value = getattr(p, name)
        if not (0 <= value <= MAX_PER_SESSION):  # also refuses nan
            raise UsageError(msg("{option}: from 0 to {most} per session, not {value}", option=Option(name),
                                 most=MAX_PER_SESSION, value=value))
    if not (0 <= p.wait_days <= MAX_WAIT_DAYS):
        raise UsageError(msg("{option}: from 0 to {most} days, not {days}", option=Option("wait"), most=MAX_WAIT_DAYS,
                             days=p.wait_days))
    for table, weight in p.types:
        rules.get("damage_tables", table)
        if not (0 < weight <= 1000):
            raise UsageError(msg("{option}: a weight is above 0 and at most 1000, not {weight} ({table})",
                                 option=Option("types"), weight=weight, table=table))


def _weights(rules: Rules, p: Profile) -> dict[str, Fraction]:
    pairs = tuple((rules.resolve("damage_tables", t), w) for t, w in p.types) or \
        tuple((t, 1.0) for t in rules.damage_tables)
    total = sum(Fraction(w) for _, w in pairs)
    out: dict[str, Fraction] = {}
    for table, w in pairs:
        out[table] = out.get(table, Fraction(0)) + Fraction(w) / total
    return out


def per_injury(rules: Rules, options: dict[str, Any], p: Profile) -> dict[str, Any]:
    """What one injury brings, averaged over the damage types and the d20 (floats): by severity, the share a
    rest heals for free (a Hit Die or long rests, `rest_healing`), and for the others, treated at once by the
    healer: the chance it never heals without magic, that a part is lost, and the expected bed-rest days."""
    severity = {sid: 0.0 for sid in rules.severities}
    rest = never = lost = days = 0.0
    for table, w in _weights(rules, p).items():
        share = float(w) / 20
        for face in range(1, 21):
            t = treatment_cached(rules, options, table, face, p.wait_days, p.self_treatment)
            first = t.graph.nodes[t.start[0][1]].injury
            if first is not None:
                severity[first.severity] += share
            free = 1 - float(rest_healing(t)["never"])
            doc = solve(t, p.bonus)
            rest += share * free
            never += share * (1 - free) * doc["never_heals"]
            lost += share * doc["lost"]
            if first is not None and rules.severities[first.severity].treatment.time.bed_rest and doc["healed"]:
                days += share * (1 - free) * doc["healed"] * doc["expected_days"]
    return {"severity": severity, "rest": rest, "never_heals": never, "lost": lost, "bed_rest_days": days}


def profile(rules: Rules, options: dict[str, Any], p: Profile) -> dict[str, Any]:
    """Per session: injuries by severity, bed-rest days, injuries that only magic heals; permanent losses per
    ten sessions. NPC injuries and critical failures count only when their options are on."""
    check_profile(rules, p)
    one = per_injury(rules, options, p)
    events = p.drops + (p.critical_failures if options.get("trigger_on_critical_failure") else 0.0)
    npc = p.npc_drops if options.get("apply_to_npcs") else 0.0
    return {
        "injuries": {sid: events * q for sid, q in one["severity"].items()},
        "injuries_total": events, "npc_injuries": npc,
        "healed_by_rest": events * one["rest"], "bed_rest_days": events * one["bed_rest_days"],
        "magic_only": events * one["never_heals"],
        "permanent_losses_per_10": PER * events * one["lost"],
    }


def _alternatives(rules: Rules, options: dict[str, Any], compare: list[str] | None) -> list[tuple[str, Any]]:
    """(option, value) pairs to try: every other value of each injuries option of type bool or choice (or
    the listed options)."""
    ids = compare if compare is not None else [o.id for o in rules.options.values()
                                              if o.group == "injuries" and o.type in ("bool", "choice")]
    out = []
    for oid in ids:
        opt = rules.get("options", oid)
        values = [True, False] if opt.type == "bool" else list(opt.choices or ())
        if not values:
            raise UsageError(msg("{option}: option {option_id} has no choices to compare", option=Option("compare"),
                                 option_id=oid))
        out += [(oid, v) for v in values if v != options.get(oid)]
    return out


def _differs(a: dict[str, Any], b: dict[str, Any]) -> bool:
    for key, value in a.items():
        other = b[key]
        if isinstance(value, dict):
            if _differs(value, other):
                return True
        elif abs(value - other) > 1e-9:
            return True
    return False


def what_if(rules: Rules, options: dict[str, Any], p: Profile, compare: list[str] | None = None,
            keep: Callable[[dict[str, Any]], ContextManager[Any]] | None = None) -> dict[str, Any]:
    """The profile under the campaign's options, and under each other value of each option that changes it
    (options whose change moves no number are listed in `unchanged`). `keep(options)`: a context each option
    set is computed in (the adapters' persisted cache: what an earlier process computed under it is read, what
    this one adds is kept); none by default."""
    keeping = keep or (lambda _: nullcontext())
    with keeping(options):
        base = profile(rules, options, p)
    variants, unchanged, apart = [], [], []
    for oid, value in _alternatives(rules, options, compare):
        try:
            variant = {**options, oid: value}
            with keeping(variant):
                doc = profile(rules, variant, p)
        except UsageError as exc:  # a GM's call the odds cannot make (extremity_site: gm)
            apart.append({"option": oid, "value": value, "why": exc.text})  # (a Message: said by the reader)
            continue
        if _differs(doc, base):
            variants.append({"option": oid, "value": value, "profile": doc})
        else:
            unchanged.append({"option": oid, "value": value})
    return {"profile": {"drops": p.drops, "types": {t: float(w) for t, w in _weights(rules, p).items()},
                        "bonus": p.bonus, "self_treatment": p.self_treatment, "wait_days": p.wait_days,
                        "npc_drops": p.npc_drops, "critical_failures": p.critical_failures},
            "base": base, "variants": variants, "unchanged": unchanged, "not_compared": apart}
