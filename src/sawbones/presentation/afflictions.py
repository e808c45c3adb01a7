"""Diseases and poisons on their progression tracks (seed 004), as every interface shows them: the afflictions
section of a character's document; what an advance did (saves made, stages changed, cures, deaths) and its
summary; the saves waiting for a die."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from . import save_words, views
from .time_words import describe_span, describe, describe_in
from ..message import Listed
from .locale import _, pgettext
from .locale import name as named

if TYPE_CHECKING:
    from ..content.rules import Rules



def affliction_doc(a: Any, character: Any, state: Any, rules: Rules) -> dict[str, Any]:
    from ..domain.afflictions.lasting import once_gone
    from ..domain.afflictions.rules import ACTIVE, ELIMINATED, end_index, interval
    from ..domain.engine.options import effective_options

    options = effective_options(rules, state.option_overrides())

    defn = rules.afflictions.get(a.affliction)
    tracks = []
    for track_id, index in zip(a.tracks, a.stages):
        track = rules.tracks[track_id]
        end = end_index(track)
        tracks.append({
            "track": track_id, "name": named(track.name), "index": index, "stage": track.stages[index].id,
            "stage_name": named(track.stages[index].name), "end_state": track.stages[end].id if end is not None else None,
            "ladder": [{"id": st.id, "name": named(st.name), "current": i == index, "end_state": i == end,
                        "reached": 0 < i <= index} for i, st in enumerate(track.stages)]})
    doc: dict[str, Any] = {
        "id": a.id, "affliction": a.affliction, "name": named(defn.name) if defn else a.affliction,
        "kind": a.kind, "dc": a.dc, "status": a.status, "contracted_at": a.contracted_at, "tracks": tracks,
        "cure": named(defn.cure.text) if defn else "", "next_save": None, "pending": [
            p.id for p in state.pending if p.character == character.id and p.affliction == a.id],
        "streak": {"current": a.streak, "needed": None}, "remaining": None,
        "permanent": [{"condition": p.condition, "name": named(rules.conditions[p.condition].name)
                       if p.condition in rules.conditions else p.condition, "removed_by": list(p.removed_by),
                       "removed_by_names": [save_words.spell_name(rules, x, state.system) for x in p.removed_by],
                       "once_gone": once_gone(defn, p.condition, options)}
                      for p in a.permanent],
        "ability_damage": dict(a.ability_damage),
    }
    if defn and defn.cure.consecutive_saves and not defn.cure.magic_only and a.status == ACTIVE:
        doc["streak"]["needed"] = defn.cure.consecutive_saves
    if defn and defn.failures_per_stage:
        doc["failures"] = {"banked": a.failures, "needed": defn.failures_per_stage.count,
                           "after": defn.failures_per_stage.after}
    if a.status == ACTIVE and a.next_save_at is not None:
        doc["next_save"] = {"at": a.next_save_at, "in": a.next_save_at - state.clock,
                            "text": describe(a.next_save_at),
                            "in_text": describe_in(max(0, a.next_save_at - state.clock))}
        if a.saves_left is not None and defn:
            seconds = (a.next_save_at - state.clock) + (a.saves_left - 1) * interval(defn)
            doc["remaining"] = {"saves": a.saves_left, "seconds": seconds,
                                "text": describe_span(max(0, seconds))}
    if a.status == ELIMINATED and a.kind == "poison":
        doc["recovery"] = {"half_steps": a.rest, "since": a.rest_at}
    if a.onset_stages:
        doc["onset_stages"] = list(a.onset_stages)
    return doc


def affliction_section(character: Any, state: Any, rules: Rules) -> dict[str, Any]:
    return {"afflictions": [affliction_doc(a, character, state, rules) for a in character.afflictions]}


if affliction_section not in views.CHARACTER_SECTIONS:
    views.CHARACTER_SECTIONS.append(affliction_section)


# ---------------------------------------------------------------- what an advance did


def namers(state: Any, rules: Rules) -> tuple[Callable[[str], str], Callable[[str], str], Callable[[str, str], str]]:
    """How the summary names a character, an affliction and one of its stages."""
    def character(cid: str) -> str:
        c = state.character(cid)
        return c.name if c else cid

    def affliction(content: str) -> str:
        d = rules.afflictions.get(content)
        return named(d.name) if d else content

    def stage(track: str, stage_id: str) -> str:
        t = rules.tracks.get(track)
        st = next((x for x in t.stages if x.id == stage_id), None) if t else None
        return named(st.name) if st else stage_id

    return character, affliction, stage


def tracks_summary(events: list[dict[str, Any]], state: Any, rules: Rules) -> dict[str, Any]:
    """Lines for each save and change, and the totals: saves made, stages changed, cures, deaths."""
    character, affliction, stage = namers(state, rules)
    lines: list[str] = []
    totals = {"saves": 0, "succeeded": 0, "failed": 0, "stages_changed": 0, "cured": 0, "eliminated": 0,
              "end_states": 0, "deaths": 0}
    for e in events:
        d = e["data"]
        if e["type"] == "affliction_saved":
            totals["saves"] += 1
            totals["succeeded" if d["succeeded"] else "failed"] += 1
            ok = pgettext("save", "success") if d["succeeded"] else pgettext("save", "failure")
            line = _("[{when}] {who} · {name}: {total} vs DC {dc} {verdict}", when=describe(d["at"]),
                     who=character(d["character"]), name=affliction(d["content"]), total=save_words.save_total(d),
                     dc=d["dc"], verdict=ok)
            changes = [f"{stage(f['track'], f['from'])} → {stage(f['track'], f['to'])}"
                       for f in d["facts"] if f["what"] == "stage"]
            if changes:
                line += " · " + ", ".join(changes)
            lines.append(line)
        elif e["type"] == "save_pending":
            lines.append(_("[{when}] {who}: save waiting {id} (DC {dc})", when=describe(d["at"]),
                           who=character(d["character"]), id=d["id"], dc=d["dc"]))
        elif e["type"] == "character_died":
            lines.append(_("{who}: DEAD", who=character(d["character"])))
            totals["deaths"] += 1
        if e["type"] in SUMMARY_COUNTS:
            totals[SUMMARY_COUNTS[e["type"]]] = totals.get(SUMMARY_COUNTS[e["type"]], 0) + 1
        for f in d.get("facts", []) if isinstance(d, dict) else []:
            what = f.get("what")
            if what == "stage":
                totals["stages_changed"] += 1
            elif what == "cured":
                totals["cured"] += 1
            elif what == "eliminated":
                totals["eliminated"] += 1
            elif what == "end_state":
                totals["end_states"] += 1
    return {"lines": lines, "totals": totals}


SUMMARY_COUNTS = {"injury_gained": "injuries_gained", "injury_healed": "injuries_healed",
                  "wound_healed": "wounds_healed", "hp_changed": "hp_changes"}
# each count with its noun, agreeing with it: "2 saves (1 made, 1 failed), 1 stage change" (typeset's units)
SUMMARY_UNITS = {"stages_changed": "stage_change", "cured": "cure", "eliminated": "poison_out",
                 "end_states": "end_state", "deaths": "death", "injuries_gained": "new_injury",
                 "injuries_healed": "injury_healed_or_worse", "wounds_healed": "wound_healed", "hp_changes": "hp_change"}


def summary_text(summary: dict[str, Any]) -> str:
    """Only what happened, as counts: "Summary: 1 new injury, 1 injury healed or turned worse."."""
    from .typeset import counted

    t = summary["totals"]
    parts = []
    if t["saves"]:
        parts.append(_("{saves} ({made}, {failed})", saves=counted(t["saves"], "save"),
                       made=counted(t["succeeded"], "save_made"), failed=counted(t["failed"], "save_failed")))
    for key in ("stages_changed", "cured", "eliminated", "end_states", "deaths", *SUMMARY_COUNTS.values()):
        if t.get(key):
            parts.append(counted(t[key], SUMMARY_UNITS[key]))
    return _("Summary: {parts}.", parts=Listed(parts, "")) if parts else nothing_happened()


def nothing_happened() -> str:
    """The summary of an advance that did nothing."""
    return _("Summary: nothing happened.")


def pending_doc(state: Any, rules: Rules) -> list[dict[str, Any]]:
    from .moment_words import about, roll_name

    out = []
    for p in state.pending:
        c = state.character(p.character)
        a = next((x for x in c.afflictions if x.id == p.affliction), None) if c else None
        content = a.affliction if a else p.content  # an exposure's initial save: no instance yet
        out.append({"id": p.id, "character": p.character, "name": c.name if c else p.character,
                    "affliction": p.affliction, "content": content,
                    "affliction_name": named(rules.afflictions[content].name) if content in rules.afflictions else None,
                    "about": about(rules, p), "kind": p.kind, "to": p.to, "proposed": dict(p.proposed) or None,
                    "save": p.save, "save_name": roll_name(rules, p, state.system), "dc": p.dc,
                    "at": p.at, "at_text": describe(p.at), "target": p.target,
                    "target_text": describe(p.target)})
    return out


def advance_doc(events: list[dict[str, Any]], state: Any, rules: Rules) -> dict[str, Any]:
    from .sentence_parts import injury_names
    from .sentences import sentence

    told = [e for e in events if e["type"] != "clock_advanced"]
    known = injury_names(told)
    return {"clock": state.clock, "text": describe(state.clock), "events": told,
            "story": [sentence(e, state, rules, known) for e in told if not e["type"].startswith(SUMMARY_TOLD)],
            "summary": tracks_summary(events, state, rules), "pending": pending_doc(state, rules)}


# told by the summary's own lines (tracks_summary), not again in the story
SUMMARY_TOLD = ("affliction_saved", "save_pending", "pending_", "character_died")

