"""A fingerprint of every injury odds document (issue 17): run it before and after a change meant for speed only.

    .venv/bin/python benchmarks/digest_injury_odds.py [--quick]

Under each option set below, each document the odds hand out is written as canonical JSON (fractions as
"n/d", floats by repr) and hashed with SHA-256: every table's drop to 0 (`drop_doc`, exact and floats),
every row's treatment (`treatment_doc`, exact and floats) at bonuses -1, 3, 8, 15, treatment starting at once
or after 2 days (the deadline), by a healer or by the injured themself, and the party what-if
(`odds_party.what_if`). Prints one digest per option set (and apart: its drop and treatment documents, its
party what-ifs) and one for all; equal digests, equal odds.
--quick: bonuses 3 and 15, no wait, floats only; --only defaults,lenient: those option sets (a first check).
--fresh: every option set computed as in a new process (its digest must equal the one computed after the
others: no answer depends on what the process computed before).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from sawbones.content.loader import load_rules  # noqa: E402
from sawbones.domain.engine.options import effective_options  # noqa: E402
from sawbones.domain.injuries import odds as odds_injury, odds_drop, odds_party, odds_treatment  # noqa: E402

OPTION_SETS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("defaults", {}),
    ("lenient", {"severity_bands": "lenient"}),
    ("lenient_raw", {"severity_bands": "lenient", "lenient_row_mapping": "by_raw_roll"}),
    ("carry_failures", {"carry_failures": True}),
    ("frostbite_any", {"frostbite_escalates_to": "reroll_critical_any"}),
    ("no_retry_time", {"retry_requires_time": False}),
    ("bedrest_2d6", {"critical_bedrest": "2d6"}),
    ("self_allowed", {"self_treatment": "allowed"}),
    ("healed_deadline", {"deadline_satisfied_by": "healed"}),
    ("recovery_2", {"unflagged_severe_natural_recovery": "long_rests:2"}),
)


def _plain(x: Any) -> Any:
    if isinstance(x, Fraction):
        return f"{x.numerator}/{x.denominator}"
    if isinstance(x, float):
        return repr(x)
    if isinstance(x, dict):
        return [[_plain(k), _plain(v)] for k, v in x.items()]
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


def digest_set(rules: Any, options: dict[str, Any], quick: bool) -> tuple[str, int, str, str]:
    """(digest of every document, how many, digest of the drop and treatment documents, of the party what-ifs)."""
    h, parts = hashlib.sha256(), {"odds": hashlib.sha256(), "party": hashlib.sha256()}
    n = 0
    part = "odds"

    def add(doc: Any) -> None:
        nonlocal n
        text = json.dumps(_plain(doc), separators=(",", ":")).encode()
        h.update(text)
        parts[part].update(text)
        n += 1

    exacts = (False,) if quick else (False, True)
    bonuses = (3, 15) if quick else (-1, 3, 8, 15)
    waits = (0,) if quick else (0, 2)
    for table in rules.damage_tables:
        for exact in exacts:
            add(odds_drop.drop_doc(rules, options, table, exact))
    for t in rules.damage_tables.values():
        for row in t.rows:
            d20 = int(row.d20.split("-")[0])
            for wait in waits:
                for self_t in (False, True):
                    for b in bonuses:
                        for exact in exacts:
                            try:
                                doc = odds_treatment.treatment_doc(rules, options, t.id, d20, b, wait_days=wait,
                                                                   self_treatment=self_t, exact=exact)
                            except Exception as exc:  # a refusal is part of the answer
                                doc = {"error": type(exc).__name__, "message": str(exc)}
                            add(doc)
    part = "party"
    for prof in (odds_party.Profile(), odds_party.Profile(drops=2.5, bonus=8, wait_days=1, self_treatment=True,
                                                          npc_drops=1, critical_failures=0.5)):
        try:
            add(odds_party.what_if(rules, options, prof))
        except Exception as exc:  # a refusal is part of the answer
            add({"error": type(exc).__name__, "message": str(exc)})
    return h.hexdigest(), n, parts["odds"].hexdigest()[:16], parts["party"].hexdigest()[:16]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", default="", help="option sets by name, comma-separated (default: all)")
    ap.add_argument("--fresh", action="store_true", help="forget every computed chain before each option set")
    args = ap.parse_args()
    wanted = [w for w in args.only.split(",") if w]
    rules = load_rules()
    whole = hashlib.sha256()
    start, cpu = time.perf_counter(), time.process_time()
    for name, given in OPTION_SETS:
        if wanted and name not in wanted:
            continue
        if args.fresh:
            odds_injury.clear_cache()
        d, n, drop_treatment, party = digest_set(rules, effective_options(rules, given), args.quick)
        whole.update(d.encode())
        print(f"{name:16} {n:6} documents  {d}  (drop+treatment {drop_treatment}, party {party})")
    print(f"{'all':16} {'':6}            {whole.hexdigest()}")
    print(f"({time.perf_counter() - start:.1f} s wall, {time.process_time() - cpu:.1f} s CPU)", file=sys.stderr)


if __name__ == "__main__":
    main()
