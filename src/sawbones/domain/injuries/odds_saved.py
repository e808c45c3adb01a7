"""The injury odds' computed chains as plain data (issue 17): what a persisted cache keeps between processes.

`export(rules, options)` gives what this process has asked of the engine under these options, as data that
pickles without any live object: the treatment states met, each one's attempt and untreated month (the
engine's branches, their exact weights as integer pairs, and their sums per end as the floats the solver
uses), the options the engine read, the chains' starts and the check formulas. `restore(rules, options,
data)` puts them back into an empty process, which then answers as if it had run the engine itself (the odds
read nothing else). The file, its key (content, options, code) and its checks are adapters/odds_cache.py's:
this module does no I/O.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..engine.odds_engine import _freeze
from . import odds

FORMAT = 2  # the shape below; a file of another shape is ignored


def _pair(x: Fraction) -> tuple[int, int]:
    return x.numerator, x.denominator


def export(rules: Any, options: dict[str, Any]) -> dict[str, Any]:
    """What this process computed under `options` (see the module doc); `size` counts it (unchanged: no save)."""
    g = odds.graph(rules, options)
    frozen = _freeze(options)
    starts = [(key[2], key[3], key[4], [(_pair(w), node, seconds) for w, (node, seconds) in hit[1]])
              for key, hit in odds._STARTS.items() if hit[0] is rules and key[1] == frozen]
    formulas = [(key[2], hit[1]) for key, hit in odds._FORMULAS.items() if hit[0] is rules and key[1] == frozen]
    return {
        "format": FORMAT, "version": rules.version,
        "read": sorted(getattr(g.options, "read", ())),
        "nodes": list(g.nodes),
        "edges": [(k, [(made, j, _pair(w), s) for made, j, w, s in branches]) for k, branches in g.edges.items()],
        "untreated": [(k, [(_pair(w), j) for w, j in branches]) for k, branches in g.untreated.items()],
        "merged": [(key, branches) for key, branches in g._merged.items() if not key[1]],  # floats, as summed
        "starts": starts, "formulas": formulas,
        "size": size(rules, options),
    }


def size(rules: Any, options: dict[str, Any]) -> int:
    """How much is computed under `options`: states, attempts, untreated months, starts (grows, never shrinks)."""
    g = odds.graph(rules, options)
    frozen = _freeze(options)
    starts = sum(1 for key, hit in odds._STARTS.items() if hit[0] is rules and key[1] == frozen)
    return len(g.nodes) + len(g.edges) + len(g.untreated) + starts


def restore(rules: Any, options: dict[str, Any], data: dict[str, Any]) -> bool:
    """Put `export`'s data back, for these rules and options, in a process that has computed nothing under
    them yet (else nothing is done: what is computed stays). True when restored."""
    if data.get("format") != FORMAT or data.get("version") != rules.version:
        return False
    hit = odds._GRAPHS.get(id(rules))
    if hit is not None and hit[0] is rules and any(g.serves(options) and g.nodes for g in hit[1]):
        return False
    read = odds.ReadOptions(options)
    read.read.update(data["read"])
    g = odds.Graph(rules, read)
    for node in data["nodes"]:
        g.node(node)
    g.edges.update((k, [(made, j, Fraction(*w), s) for made, j, w, s in branches]) for k, branches in data["edges"])
    g.untreated.update((k, [(Fraction(*w), j) for w, j in branches]) for k, branches in data["untreated"])
    g._merged.update((tuple(key), branches) for key, branches in data["merged"])
    if hit is None or hit[0] is not rules:
        hit = odds._GRAPHS[id(rules)] = (rules, [])
    hit[1].insert(0, g)  # found first by `odds.graph`
    frozen = _freeze(options)
    for table, d20, wait, branches in data["starts"]:
        odds._STARTS[(id(rules), frozen, table, d20, wait)] = (
            rules, tuple((Fraction(*w), (node, seconds)) for w, node, seconds in branches))
    for self_treatment, formula in data["formulas"]:
        odds._FORMULAS[(id(rules), frozen, self_treatment)] = (rules, formula)
    return True
