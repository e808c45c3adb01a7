"""The player's view of their character (issue 12): one JSON document, for the player API and the player page.

`player_view(service, campaign, character_id, since=None)` (in the request's language): HP, conditions, injuries (what each does,
how it heals, the next step), wounds and their penalties, afflictions as a ladder (or, unknown, their
symptoms), what applies to the rolls a player makes most (the roll query, as `mods` reads it), the game
clock, what happened to the character since the version `since`, and the saves waiting for the player's
die (`prompts`). What a player may not see is kept out by player_secrets.py.
"""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

from ....presentation import log_view, save_breakdown, save_words, views
from ....presentation.roll_answer import answer_doc
from ....presentation.time_words import describe, describe_in
from ....domain.afflictions.secrets import is_known
from ....presentation.locale import _, name
from .player_secrets import mask, player_line, scrub, symptoms, unknown_afflictions, unknown_name

if TYPE_CHECKING:
    from ....content.rules import Rules

SINCE_LIMIT = 200  # events read back for "since you last looked"
RECENT = 10  # lines shown when the player gives no version


def rolls_doc(character: Any, state: Any, rules: Rules, options: dict[str, Any],
              unknown: dict[str, str]) -> list[dict[str, Any]]:
    """What applies to the rolls a player makes most: the roll query's answer (the same reading as `mods`), with the
    sheet's value and the bonus they make together (presentation/roll_bonus.py, the prompt's reading)."""
    from ....domain.engine.roll_match import RollContext
    from ....domain.engine.roll_query import query
    from ....presentation.roll_bonus import COMMON_ROLLS, with_sheet

    asked = [(key, fields) for key, (_label, fields) in COMMON_ROLLS.items()]
    asked[3:3] = [(f"save_{save}", {"kind": "save", "save": save})
                  for save in save_words.system_saves(rules, state.system)]
    out = []
    for key, fields in asked:
        answer = answer_doc(query(character, rules, options, state.system, RollContext(**fields)))
        said = save_words.save_roll(rules, fields["save"], state.system) if key.startswith("save_") else ""
        label = said[:1].upper() + said[1:] if said else _(COMMON_ROLLS[key][0])
        masked = with_sheet(mask(answer, unknown), character, rules, state.system)
        out.append({**masked, "roll": key, "label": label, "asked": masked["roll"]})
    return out


def shared_restrictions(rolls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The restrictions every roll shares ("cannot move or speak", from Paralyzed): said once on the page."""
    def said(line: dict[str, Any]) -> tuple[Any, Any]:
        return line.get("text"), line.get("source", {}).get("name")

    common = set.intersection(*({said(x) for x in r.get("restrictions") or []} for r in rolls)) if rolls else set()
    return [x for x in rolls[0].get("restrictions") or [] if said(x) in common] if common else []


def injury_line(doc: dict[str, Any], reveal_deadline: bool) -> dict[str, Any]:
    out = {k: doc[k] for k in ("id", "name", "severity", "severity_name", "site", "text", "heals_by") if k in doc}
    out["effect"] = doc["text"]
    out["next_step"] = doc["heals_by"][0] if doc["heals_by"] else None
    timers = doc.get("timers", {})
    if reveal_deadline and "deadline_in" in timers:
        out["deadline_in_text"] = describe_in(max(0, timers["deadline_in"]))
    return out


def affliction_line(a: Any, character: Any, state: Any, rules: Rules, options: dict[str, Any],
                    ) -> dict[str, Any]:
    """Known: the ladder, the current stage, the next save ("in 14 h"), the cure. Unknown: its symptoms only."""
    from ....presentation.afflictions import affliction_doc

    if not is_known(state, options, character.id, a.id):
        return {"id": a.id, "known": False, "name": unknown_name(), "symptoms": symptoms(a, rules)}
    doc = affliction_doc(a, character, state, rules)
    keep = ("id", "affliction", "name", "kind", "dc", "status", "tracks", "next_save", "cure", "permanent",
            "ability_damage")
    return {"known": True, **{k: doc[k] for k in keep if k in doc}}


def prompts_doc(state: Any, rules: Rules, options: dict[str, Any], character_id: str) -> list[dict[str, Any]]:
    """The saves waiting for this character's player: which save, against what, the bonus with every modifier."""
    from types import SimpleNamespace

    from ....domain.engine import player_rolls
    from ....presentation import moment_words

    character = state.character(character_id)
    if character is None:
        return []
    unknown = unknown_afflictions(state, options, character)
    out = []
    for p in state.pending:
        if p.character != character.id or p.to != "player":
            continue
        content = p.content if p.kind in ("exposure", "moment") else next(
            (a.affliction for a in character.afflictions if a.id == p.affliction), None)
        known = (p.affliction not in unknown) if p.kind != "exposure" else bool(options.get("afflictions_known", True))
        reading = player_rolls.reading(SimpleNamespace(state=state, rules=rules, options=options), character, p)
        breakdown = mask(reading.breakdown, unknown)
        defn = rules.afflictions.get(content) if content else None
        against = name(defn.name) if known and defn else unknown_name()
        if p.kind == "treatment":
            patient = state.character(dict(p.args)["patient"])
            injury = patient.injury(dict(p.args)["injury"]) if patient else None
            known, against = True, _("treating {patient}: {injury}", patient=patient.name if patient else "",
                                     injury=rules.injuries[injury.injury].name if injury else "")
        if p.kind == "wound_fort":
            from ....domain.wounds.rules import wound_name

            asked = dict(p.args)
            part = rules.body_parts.get(asked.get("part"))
            known, against = True, _("ignoring a wound ({part})", part=wound_name(part, asked.get("side"))
                                     if part else asked.get("part"))
        if p.kind in moment_words.KINDS:  # a trigger's save in a turn, Dash or action; a dying character's check
            known = content not in unknown.values()
            against = moment_words.about(rules, p, None if known else unknown_name())
        out.append({"id": p.id, "kind": p.kind, "character": character.id, "name": character.name, "save": p.save,
                    "save_name": moment_words.roll_name(rules, p, state.system), "known": known,
                    "against": against,
                    "dc": p.dc if known else None, "bonus": reading.bonus, "breakdown": breakdown,
                    "modifiers_text": save_breakdown.describe(breakdown), "at": p.at,
                    "at_text": describe(p.at),
                    "awaiting": "gm" if p.proposed else "player", "proposed": dict(p.proposed) or None})
    return out


def since_doc(service: Any, loaded: Any, character: Any, rules: Rules, unknown: dict[str, str],
              since: int | None) -> dict[str, Any]:
    """This character's events after the version `since` (the last few when none is given), as lines."""
    state = loaded.state
    start = loaded.head - SINCE_LIMIT if since is None else max(since, loaded.head - SINCE_LIMIT)
    events = log_view.log_events(service, loaded.campaign_id, loaded.head, loaded.head - max(0, start), state, rules,
                                 character.id)
    lines = []
    for e in events:
        data = e["data"] if isinstance(e["data"], dict) else {}
        if e["undone"] or data.get("character") != character.id:
            continue
        line = player_line(e, e["text"], character, unknown)
        if line:
            lines.append({"version": e["version"], "line": line.replace("\n", " / ")})
    return {"version": loaded.head, "lines": lines if since is not None else lines[-RECENT:]}


def player_view(service: Any, campaign: str, character_id: str, since: int | None = None,
                ) -> dict[str, Any] | None:
    """The player's whole view (see the module's doc); None when the character is gone."""
    from ....presentation.wounds import wound_doc

    loaded = service.load(campaign)
    state = loaded.state
    character = state.character(character_id)
    if character is None or character.id != character_id:
        return None
    ctx = service.context(loaded)
    rules, options = ctx.rules, ctx.options
    unknown = unknown_afflictions(state, options, character)
    doc = views.character_doc(character, state, rules)
    me = {k: doc[k] for k in ("id", "name", "hp", "max_hp", "dead", "stable", "dying") if k in doc}
    me["conditions"] = mask(views.conditions_of(character, rules, options), unknown)
    me["injuries"] = [injury_line(d, bool(options.get("reveal_deadline"))) for d in doc.get("injuries", [])]
    me["wounds"] = [scrub(wound_doc(w, rules, options, state.system)) for w in character.wounds]
    me["afflictions"] = [affliction_line(a, character, state, rules, options) for a in character.afflictions]
    rolls = rolls_doc(character, state, rules, options, unknown)
    party = None
    if options.get("share_party_view"):
        party = [{"id": c.id, "name": c.name, "hp": c.hp, "max_hp": c.max_hp, "dead": c.dead,
                  "conditions": mask(views.conditions_of(c, rules, options),
                                     unknown_afflictions(state, options, c))}
                 for c in state.characters if c.id != character.id and not c.npc]
    return {"campaign": state.name, "version": loaded.head, "clock": {"at": state.clock,
                                                                      "text": describe(state.clock)},
            "character": me, "rolls": rolls, "restrictions": shared_restrictions(rolls),
            "since": since_doc(service, loaded, character, rules, unknown, since),
            "prompts": prompts_doc(state, rules, options, character.id), "party": party}
