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
from typing import TYPE_CHECKING, Any

from ..engine.odds_engine import ReadOptions, _freeze
from . import odds, odds_check

if TYPE_CHECKING:
    from ...content.rules import Rules


FORMAT = 3  # the shape below; a file of another shape is ignored


def _pair(x: Fraction) -> tuple[int, int]:
    return x.numerator, x.denominator


def export(rules: Rules, options: dict[str, Any]) -> dict[str, Any]:
    """What this process computed under `options` (see the module doc); `size` counts it (unchanged: no save)."""
    g = odds.graph(rules, options)
    frozen = _freeze(options)
    starts = [(table, d20, wait, read, [(_pair(w), node, seconds) for w, (node, seconds) in start])
              for (table, d20, wait), read, start in starts_for(rules, options)]
    formulas = [(key[2], hit[1]) for key, hit in odds_check.FORMULAS.items() if hit[0] is rules and key[1] == frozen]
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


def size(rules: Rules, options: dict[str, Any]) -> int:
    """How much is computed under `options`: states, attempts, untreated months, starts (grows, never shrinks)."""
    g = odds.graph(rules, options)
    starts = len(starts_for(rules, options))
    return len(g.nodes) + len(g.edges) + len(g.untreated) + starts


def restore(rules: Rules, options: dict[str, Any], data: dict[str, Any]) -> bool:
    """Put `export`'s data back, for these rules and options. What this process already computed stays: the
    saved states and answers join the graph that serves these options when its values agree with the options
    the saved graph read (a what-if's option sets share graphs, and each one's file holds what it added), else
    they make a graph of their own. True when restored."""
    if data.get("format") != FORMAT or data.get("version") != rules.version:
        return False
    keys = list(data["read"])
    g = next((g for g in odds.graphs(rules) if g.serves(options) and isinstance(g.options, ReadOptions)
              and all(dict.get(g.options, k) == options.get(k) for k in keys)), None)
    if g is None:
        g = odds.Graph(rules, ReadOptions(options))
        odds.add_graph(g, first=True)
    assert isinstance(g.options, ReadOptions)
    g.options.read.update(keys)
    ids = [g.node(node) for node in data["nodes"]]  # the saved numbering -> this graph's
    for k, branches in data["edges"]:
        g.edges.setdefault(ids[k], [(made, ids[j], Fraction(*w), s) for made, j, w, s in branches])
    for k, branches in data["untreated"]:
        g.untreated.setdefault(ids[k], [(Fraction(*w), ids[j]) for w, j in branches])
    for (k, exact, timed), branches in data["merged"]:
        g._merged.setdefault((ids[k], exact, timed), [(made, ids[j], w, s) for made, j, w, s in branches])
    frozen = _freeze(options)
    for table, d20, wait, read_then, branches in data["starts"]:
        keep_start(rules, table, d20, wait, read_then,
                   tuple((Fraction(*w), (node, seconds)) for w, node, seconds in branches))
    for self_treatment, formula in data["formulas"]:
        odds_check.FORMULAS[(id(rules), frozen, self_treatment)] = (rules, formula)
    return True


def starts_for(rules: Rules, options: dict[str, Any]) -> list[tuple[tuple[str, int, int], dict[str, Any], odds.Start]]:
    """The starts computed so far that serve `options`: ((table, d20, wait), the options they read, start)."""
    out = []
    for key, hit in odds._STARTS.items():
        if hit[0] is rules:
            out += [(key[1:], read, start) for read, start in hit[1]
                    if all(options.get(k) == v for k, v in read.items())]
    return out


def keep_start(rules: Rules, table: str, d20: int, wait: int, read: dict[str, Any], start: odds.Start) -> None:
    """A start computed by another process (the persisted cache), under the options `read`."""
    hit = odds._STARTS.get((id(rules), table, d20, wait))
    if hit is None or hit[0] is not rules:
        hit = odds._STARTS[(id(rules), table, d20, wait)] = (rules, [])
    if not any(r == read for r, _ in hit[1]):
        hit[1].append((read, start))
