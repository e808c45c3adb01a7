"""Exact odds of one drop to 0 (5e lingering injuries, seed 000; issue 17): `injuries.gain`, the decision a drop
to 0 runs, with its d20 (and any reroll, and the hand or foot) enumerated by the engine (`every_outcome`): the
severity, the row, the flags and the parts lost at once are the engine's (odds.py: treatment and deadlines)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from . import rules as injuries
from ..engine.campaign import find_character
from ..engine.odds_engine import VICTIM, campaign, context, every_outcome, victim
from .odds import _PARTS, _number
from .table import pick_row

if TYPE_CHECKING:
    from ...content.rules import Rules


def drop(rules: Rules, options: dict[str, Any], table: str, exact: bool = False) -> dict[str, Any]:
    """One drop to 0 with damage type `table`: {"severity": {id: p}, "rows": [{d20, injury, severity, p}],
    "magic_only", "no_natural_healing", "lost": {part: p}, "permanent_loss": p} under these options."""
    table = rules.resolve("damage_tables", table)
    state = campaign(victim(), counter=0)

    def run(roller: Any) -> list[dict[str, Any]]:
        ctx = context(state, rules, options, roller)
        return injuries.gain(ctx, find_character(state, VICTIM), table, cause="odds")

    bands, mapping = options.get("severity_bands", "standard"), options.get("lenient_row_mapping", "by_tier")
    severity = {sid: Fraction(0) for sid in rules.severities}
    rows: dict[tuple[int, str], Fraction] = {}
    flags = {"magic_only": Fraction(0), "no_natural_healing": Fraction(0)}
    lost = {p: Fraction(0) for p in _PARTS}
    permanent = Fraction(0)
    for w, events in every_outcome(run):
        gained = events[0]["data"]
        severity[gained["severity"]] += w
        index = pick_row(rules, table, gained["d20"], bands, mapping).row_index
        rows[(index, gained["severity"])] = rows.get((index, gained["severity"]), Fraction(0)) + w
        for flag in flags:
            flags[flag] += w if gained.get(flag) else 0
        parts = {e["data"]["part"] for e in events if e["type"] == "body_changed" and e["data"]["change"] < 0}
        for part in parts:
            lost[part] += w
        permanent += w if parts else 0
    defn = rules.damage_tables[table]
    return {
        "table": table, "bands": bands, "mapping": mapping,
        "severity": {k: _number(v, exact) for k, v in severity.items()},
        "rows": [{"d20": defn.rows[i].d20, "injury": defn.rows[i].injury, "severity": sev, "p": _number(p, exact)}
                 for (i, sev), p in sorted(rows.items(), key=lambda kv: -int(defn.rows[kv[0][0]].d20.split("-")[0]))],
        "magic_only": _number(flags["magic_only"], exact),
        "no_natural_healing": _number(flags["no_natural_healing"], exact),
        "lost": {k: _number(v, exact) for k, v in lost.items()}, "permanent_loss": _number(permanent, exact),
    }


def drop_doc(rules: Rules, options: dict[str, Any], table: str, exact: bool = False) -> dict[str, Any]:
    """`drop` under the campaign's options and under each choice of `severity_bands` (standard, lenient)."""
    table = rules.resolve("damage_tables", table)
    variants = {b: drop(rules, {**options, "severity_bands": b}, table, exact)
                for b in rules.options["severity_bands"].choices}
    return {"table": table, "bands": options.get("severity_bands", "standard"), "odds": variants}
