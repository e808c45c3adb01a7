"""The rule tables as every interface shows them (`sawbones tables`, the tables page, the API's /rules, the
bot): the index of tables, one table's document, and their rendering on a rich console."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..message import N_, msg
from .time_words import describe_span
from .locale import _
from .locale import name as named

if TYPE_CHECKING:
    from ..content.rules import Rules

VECTORS = {"injury": N_("Injury"), "contact": N_("Contact"), "inhaled": N_("Inhaled"), "ingested": N_("Ingested")}
KIND_NAMES = {"disease": N_("disease"), "poison": N_("poison")}
KINDS = ("severity", "body_parts", "damage_table", "disease", "poison", "track", "body_part", "injury")


def _track_doc(track: Any) -> dict[str, Any]:
    from ..domain.afflictions.rules import end_index

    end = end_index(track)
    return {"kind": "track", "id": track.id, "name": named(track.name), "end_state": track.end_state, "stages": [
        {"index": i, "id": s.id, "name": named(s.name), "text": named(s.text) if s.text else "", "end_state": i == end}
        for i, s in enumerate(track.stages)]}


def _affliction_doc(rules: Rules, a: Any) -> dict[str, Any]:
    """A disease or poison as the catalog gives it: save, vectors, onset, frequency, cure, and its tracks."""
    from ..content.models import dump
    from ..domain.afflictions.rules import interval

    every = describe_span(interval(a))
    every = every[2:] if a.frequency.every == 1 and every.startswith("1 ") else every
    frequency = f"1/{every}" + (f" ({describe_span(interval(a) * a.frequency.count)})" if a.frequency.count else "")
    save = named(rules.saves[a.save].name) if a.save in rules.saves else a.save
    return {"kind": a.kind, "id": a.id, "name": named(a.name), "dc": a.dc, "save": a.save,
            "vectors": list(a.vectors), "tracks": list(a.tracks),
            "onset": dump(a.onset, exclude_defaults=False), "frequency": dump(a.frequency, exclude_defaults=False),
            "cure": named(a.cure.text), "text": named(a.table_text),
            "kind_name": _(KIND_NAMES[a.kind]) if a.kind in KIND_NAMES else a.kind,
            "save_text": save + " (" + _("DC") + f" {a.dc})",
            "vectors_text": ", ".join(_(VECTORS[v]) for v in a.vectors),
            "onset_text": describe_span(a.onset.amount * _unit(a.onset.unit)) if a.onset else "—",
            "frequency_text": frequency,
            "track_details": [_track_doc(rules.tracks[t]) for t in a.tracks]}


def _unit(unit: str) -> int:
    from ..domain.engine.state import UNIT_SECONDS

    return UNIT_SECONDS[unit]


def _body_part_doc(p: Any) -> dict[str, Any]:
    return {"id": p.id, "name": named(p.name), "sides": list(p.sides),
            "sides_text": ", ".join(head(side) for side in p.sides) or "-", "penalty": p.penalty,
            "affects": named(p.affects), "both_sides_condition": p.both_sides_condition}


def _resolve(rules: Rules, table_id: str) -> tuple[str, str] | None:
    """(kind, id) for a table id: `KIND:ID` names one kind; a plain id takes the first kind that has it."""
    kind, sep, key = table_id.partition(":")
    wanted = [kind] if sep else list(KINDS)
    key = key if sep else table_id
    for k in wanted:
        if k == "severity" and key in ("severity", "severities"):
            return k, key
        if k == "body_parts" and key in ("body_parts", "wounds"):
            return k, key
        pool = {"damage_table": rules.damage_tables, "track": rules.tracks, "body_part": rules.body_parts,
                "injury": rules.injuries}.get(k)
        if k in ("disease", "poison"):
            a = rules.afflictions.get(_named(rules, "afflictions", key))
            if a is not None and a.kind == k:
                return k, a.id
        elif pool is not None and _named(rules, SECTION[k], key) in pool:
            return k, _named(rules, SECTION[k], key)
    return None


SECTION = {"damage_table": "damage_tables", "track": "tracks", "body_part": "body_parts", "injury": "injuries"}


def _named(rules: Rules, section: str, key: str) -> str:
    """The id of the entry named `key` as a screen shows it, in either language (`Rules.find`), else `key`."""
    return rules.find(section, key) or key


def ref(rules: Rules, kind: str, entry_id: str) -> str:
    """The id `tables` takes for this entry: the plain id, or `KIND:ID` where the plain id means another entry."""
    return entry_id if _resolve(rules, entry_id) == (kind, entry_id) else f"{kind}:{entry_id}"


def table_doc(rules: Rules, table_id: str) -> dict[str, Any]:
    from ..content.checks import band_of

    found = _resolve(rules, table_id)
    kind, key = found if found else ("", "")
    if kind == "severity":
        return {"kind": "severity", "severities": [
            {"id": s.id, "name": named(s.name), "untreated": named(s.untreated), "dc": s.treatment.dc,
             "treatment": named(s.treatment.text), "magic": named(s.magic_text)} for s in rules.severities.values()],
            "bands": {b.id: [{"d20": x.d20, "severity": x.severity, "severity_name": named(rules.severities[x.severity].name)}
                             for x in b.bands] for b in rules.band_sets.values()},
            "band_names": {b.id: named(b.name) for b in rules.band_sets.values()}}
    if kind == "damage_table":
        standard = rules.band_sets["standard"]
        table = rules.damage_tables[key]
        return {"kind": "damage_table", "id": table.id, "name": named(table.name), "rows": [
            {"d20": r.d20, "severity": band_of(standard, r.d20),
             "severity_name": named(rules.severities[str(band_of(standard, r.d20))].name), "injury": r.injury,
             "name": named(rules.injuries[r.injury].name), "text": named(r.text),
             "no_natural_healing": r.no_natural_healing, "magic_only": r.magic_only} for r in table.rows]}
    if kind == "body_parts":
        return {"kind": "body_parts", "body_parts": [_body_part_doc(p) for p in rules.body_parts.values()]}
    if kind == "body_part":
        return {"kind": "body_part", **_body_part_doc(rules.body_parts[key])}
    if kind == "track":
        return _track_doc(rules.tracks[key])
    if kind in ("disease", "poison"):
        return _affliction_doc(rules, rules.afflictions[key])
    if kind == "injury":
        i = rules.injuries[key]
        tables = [t for t in rules.damage_tables.values() if any(r.injury == i.id for r in t.rows)]
        return {"kind": "injury", "id": i.id, "name": named(i.name), "text": named(i.text),
                "tables": [t.id for t in tables], "tables_text": ", ".join(named(t.name) for t in tables)}
    known = dict.fromkeys(["severity", "body_parts", *rules.damage_tables, *rules.tracks, *rules.afflictions])
    from ..errors import NotFound

    raise NotFound(msg("no table {table_id} (try one of: {join_known}; or KIND:ID with KIND one of {join_kinds})",
                       table_id=repr(table_id), join_known=", ".join(known), join_kinds=", ".join(KINDS[2:])))


def index_doc(rules: Rules) -> dict[str, Any]:
    """Every table `tables ID` shows, by section; each id is one the command takes (KIND:ID where needed)."""
    def names(section: str, kind: str) -> list[dict[str, str]]:
        return [{"id": ref(rules, kind, e.id), "name": named(e.name)} for e in rules.section(section).values()
                if section != "afflictions" or e.kind == kind]

    return {"severity": "severity", "damage_tables": names("damage_tables", "damage_table"),
            "body_parts": names("body_parts", "body_part"), "tracks": names("tracks", "track"),
            "diseases": names("afflictions", "disease"), "poisons": names("afflictions", "poison")}


HEAD = {  # the words of the tables' screens (the tables page uses them too: `head`)
    "severity": N_("Severity"), "damage_tables": N_("Injury tables"),
    "severity_index": N_("each severity's treatment and the d20 bands (`sawbones tables severity`)"),
    "body_parts": N_("Body parts"), "tracks": N_("Progression tracks"), "diseases": N_("Diseases"),
    "poisons": N_("Poisons"), "d20": N_("d20"), "injury": N_("injury"), "text": N_("text"),
    "untreated": N_("untreated"), "dc": N_("DC"), "treatment": N_("treatment"), "magic": N_("magic"),
    "stage": N_("stage"), "effects": N_("effects"), "part": N_("part"), "sides": N_("sides"),
    "penalty": N_("penalty"), "affects": N_("affects"), "bands": N_("d20 bands ({name})"),
    "left": N_("left"), "right": N_("right"),
    # a disease's or poison's entry, a body part's, an injury's
    "kind": N_("Kind"), "save": N_("Save"), "vectors": N_("Vectors"), "onset": N_("Onset"),
    "frequency": N_("Frequency"), "cure": N_("Cure"), "catalog": N_("Catalog"), "sides_of": N_("Sides"),
    "penalty_of": N_("Penalty"), "affects_of": N_("Affects"), "effects_of": N_("Effects"), "tables": N_("Tables"),
}


def head(key: str, **fields: Any) -> str:
    """One of the tables' words (HEAD), in the reader's language."""
    return _(HEAD[key], **fields)

# the labelled lines of an entry (`_render_entry`, the tables page): (label, field of the entry's document)
ENTRY_LINES = {
    "disease": (("kind", "kind_name"), ("save", "save_text"), ("vectors", "vectors_text"), ("onset", "onset_text"),
                ("frequency", "frequency_text"), ("cure", "cure"), ("catalog", "text")),
    "body_part": (("sides_of", "sides_text"), ("penalty_of", "penalty"), ("affects_of", "affects")),
    "injury": (("effects_of", "text"), ("tables", "tables_text")),
}
ENTRY_LINES["poison"] = ENTRY_LINES["disease"]


def render_index(doc: dict[str, Any], con: Any) -> None:
    colon = _(": ")
    con.print(f"[bold]{head('severity')}[/]{colon}{head('severity_index')}")
    for key in ("damage_tables", "body_parts", "tracks", "diseases", "poisons"):
        con.print(f"[bold]{head(key)}[/]{colon}"
                  + ", ".join(f"{e['id']} ({e['name']})" for e in doc[key]), markup=True)


def render_table(doc: dict[str, Any], con: Any) -> None:
    from rich.markup import escape
    from rich.table import Table

    def h(*keys: str) -> list[str]:
        return [head(k) for k in keys]

    kind = doc["kind"]
    if kind == "damage_table":
        table = Table(*h("d20", "severity", "injury", "text"), title=doc["name"], show_lines=True)
        for r in doc["rows"]:
            table.add_row(r["d20"], r.get("severity_name", r["severity"]), f"{escape(r['name'])}\n[dim]{r['injury']}[/]",
                          escape(r["text"]))
        con.print(table)
    elif kind == "severity":
        table = Table(*h("severity", "untreated", "dc", "treatment", "magic"), show_lines=True)
        for s in doc["severities"]:
            table.add_row(s["name"], s["untreated"], str(s["dc"]), s["treatment"], s["magic"])
        con.print(table)
        for band_id, bands in doc["bands"].items():
            con.print(head("bands", name=doc["band_names"][band_id]) + _(": ")
                      + ", ".join(f"{b['d20']} {b.get('severity_name', b['severity'])}" for b in bands))
    elif kind == "track":
        table = Table("#", *h("stage", "effects"), title=doc["name"], show_lines=True)
        for s in doc["stages"]:
            mark = " ■" if s["end_state"] else ""
            table.add_row(str(s["index"]), f"{escape(s['name'])}{mark}\n[dim]{s['id']}[/]", escape(s["text"]))
        con.print(table)
    elif kind == "body_parts":
        table = Table(*h("part", "sides", "penalty", "affects"), show_lines=True)
        for p in doc["body_parts"]:
            table.add_row(f"{p['name']}\n[dim]{p['id']}[/]", p["sides_text"], str(p["penalty"]),
                          escape(p["affects"]))
        con.print(table)
    else:
        _render_entry(doc, con)


def _render_entry(doc: dict[str, Any], con: Any) -> None:
    """One disease, poison, body part or injury: labelled lines in the reader's language, then its tracks."""
    from rich.markup import escape

    colon = _(": ")
    con.print(f"[bold]{escape(doc['name'])}[/] [dim]{doc['id']}[/]")
    for label, field in ENTRY_LINES[doc["kind"]]:
        con.print(f"[bold]{head(label)}[/]{colon}{escape(str(doc[field]))}")
    for track in doc.get("track_details", []):
        render_table(track, con)


