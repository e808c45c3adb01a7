"""One sentence per event type, in English and French: what the CLI, the log and the dashboard say.

`sentence(event, state, rules)` reads any stored event as a GM would say it: names, not ids
(long_rest → "a long rest", cure_wounds → "Cure Wounds"), rolls with their totals, no dict or list.
`SENTENCES` maps every event type to its function; tests/test_sentences.py walks every event type
the engine can emit and fails on a missing one or on a line that looks like data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .time_words import describe_span
from .locale import _, name, pgettext
from .sentence_parts import (_actions_lost, _condition_gained, _prone_changed, _damage, _outcome, _save_pending, _hp_changed, _injury_changed,
                             _injury_gained, _sheet_fields, _spell, _value, _wound_received, stored)
from .typeset import colon, counted

if TYPE_CHECKING:
    from ..content.rules import Rules

# the words of the sentences, by key (a key may come from an event: "left", "made", a body part): the catalog's
# msgids, said in the reader's language with their fields
W: dict[str, Callable[..., str]] = {
    "campaign_created": lambda **f: _("campaign {name} created ({system}, dice seed {seed})", **f),
    "campaign_renamed": lambda **f: _("the campaign is renamed {name} (was {was})", **f),
    "option_set": lambda **f: _("option {option} = {value}", **f),
    "content_packs_set": lambda **f: _("the campaign now loads the content packs {packs}", **f),
    "no_packs": lambda **f: _("none", **f),
    "option_reset": lambda **f: _("option {option} back to its default", **f),
    "clock_advanced": lambda **f: _("the clock moves {span}", **f),
    "character_added": lambda **f: _("{who} joins the party ({hp}/{max_hp} HP)", **f),
    "character_edited": lambda **f: _("{who}: sheet changed ({fields})", **f),
    "character_removed": lambda **f: _("{who} leaves the party", **f),
    "hp_changed": lambda **f: _("{who}: {hp} HP{max_hp}{cause}", **f),
    "max_hp": lambda **f: _(" (max {max_hp})", **f),
    "noted": lambda **f: _("{who}: {moment}, nothing triggers", **f),
    "noted_save": lambda **f: _("{who}: {source} — {save} {total} vs DC {dc}, {verdict}{outcome}", **f),
    "noted_effect": lambda **f: _("{who}: {source} → {outcome}", **f),
    "combat_end": lambda **f: _("End of combat: {ended} ended", **f),
    "rest_no_benefit": lambda **f: _("{who}: {hp} HP at the start of the long rest, no benefit (it needs at least 1 "
                                     "HP)", **f),
    "dying_check": lambda **f: _("{who}: dying, {check} check {total} vs DC {dc}: {verdict}", **f),
    "stable_now": lambda **f: _("stable", **f),
    "loses_hp": lambda **f: _("loses 1 HP", **f),
    "massive_damage": lambda **f: _("killed outright by massive damage", **f),
    "negative_hp": lambda **f: _("hit points down to minus Constitution", **f),
    "dying": lambda **f: _("dying", **f),
    "condition_gained": lambda **f: _("{who} becomes {condition}{until}{source}", **f),
    "condition_ended": lambda **f: _("{who} is no longer {condition}", **f),
    "until_combat_end": lambda **f: _(" (until the end of combat)", **f),
    "until": lambda **f: _(" (until {when})", **f),
    "request_keyed": lambda **f: _("the action is recorded under its idempotency key (a retry gets the same answer)", **f),
    "character_stabilized": lambda **f: _("{who} is stable", **f),
    "falls_prone": lambda **f: _("{who} falls prone{cause}", **f),
    "stands_up": lambda **f: _("{who} stands up", **f),
    "down_prone": lambda **f: _(", unconscious and prone", **f),
    "loses_both": lambda **f: _("{who} loses its action and its reaction until the start of its next turn{cause}",
                               **f),
    "loses_action": lambda **f: _("{who} loses its action until the start of its next turn{cause}", **f),
    "loses_reaction": lambda **f: _("{who} loses its reaction until the start of its next turn{cause}", **f),
    "actions_back": lambda **f: _("{who}: a new turn, its action and reaction are back", **f),
    "loses_next_action": lambda **f: _("{who} loses the action of its next turn{cause}", **f),
    "damage_taken": lambda **f: _("{who}: {parts}{extra} = {total} damage → {hp} HP", **f),
    "character_died": lambda **f: _("{who} dies{cause}", **f),
    "wound_received": lambda **f: _("{who}: wounded, {part} ({damage} damage, {kind}){fort}", **f),
    "wound_fort": lambda **f: _(", {save} save {total} vs DC {dc}: {verdict}", **f),
    "wound_first_aid": lambda **f: _("{who}: first aid on {wound}, {total} vs DC {dc}, {verdict}", **f),
    "wound_recovery": lambda **f: _("{who}: {wound} gets back {hp} HP ({recovered} in all)", **f),
    "wound_suppression_ended": lambda **f: _("{who}: the Fortitude save no longer holds off {wound}", **f),
    "wound_healed": lambda **f: _("{who}: {wound} heals ({how})", **f),
    "injury_gained": lambda **f: _("{who}: new injury {id} — {name}{site}, {severity}, d20 {d20}, treatment DC {dc}", **f),
    "injury_changed": lambda **f: _("{who}: {injury} changes ({fields})", **f),
    "injury_note": lambda **f: _("{who}: {injury}: {note}", **f),
    "injury_healed": lambda **f: _("{who}: {injury} heals ({how})", **f),
    "injury_replaced": lambda **f: _("{who}: {injury} turns worse ({why})", **f),
    "treatment_started": lambda **f: _("{who}: treatment of {injury} begins ({span}{healer})", **f),
    "healer": lambda **f: _(", by {healer}", **f),
    "treatment_failed": lambda **f: _("{who}: treatment of {injury} fails, check {check} vs DC {dc}: the DC rises to "
                                      "{next_dc}", **f),
    "treated": lambda **f: _("{who}: {injury} heals (treatment, check {check} vs DC {dc})", **f),
    "deadline_held": lambda **f: _("{who}: {injury}: treatment began before the deadline; if it fails, the injury "
                                   "turns worse", **f),
    "typed": lambda **f: _("typed", **f),
    "body_changed": lambda **f: _("{who}: {part} {change:+d}", **f),
    "lost_feet": lambda **f: _("{who} loses a foot", **f),
    "lost_hands": lambda **f: _("{who} loses a hand", **f),
    "lost_eyes": lambda **f: _("{who} loses an eye", **f),
    "lost_ears": lambda **f: _("{who} loses an ear", **f),
    "back_feet": lambda **f: _("{who} has a foot again", **f),
    "back_hands": lambda **f: _("{who} has a hand again", **f),
    "back_eyes": lambda **f: _("{who} sees with an eye again", **f),
    "back_ears": lambda **f: _("{who} has an ear again", **f),
    "affliction_contracted": lambda **f: _("{who} contracts {name}{facts}", **f),
    "affliction_changed": lambda **f: _("{who}: {name} changes{facts}", **f),
    "affliction_saved": lambda **f: _("{who}: {name}, {save} {total} vs DC {dc}, {verdict}{facts}", **f),
    "affliction_recovered": lambda **f: _("{who}: {name}, rest recovery{facts}", **f),
    "affliction_spell": lambda **f: _("{who}: {spell} on {name}{facts}", **f),
    "affliction_exposed": lambda **f: _("{who} is exposed to {name}: {save} {total} vs DC {dc}, {verdict}", **f),
    "affliction_removed": lambda **f: _("{who}: {name} is gone", **f),
    "save_pending": lambda **f: _("{who}: {name}, a {save} (DC {dc}) waits for the player's die: {id}", **f),
    "save_pending_gm": lambda **f: _("{who}: {name}, a {save} (DC {dc}) waits for the GM's die: {id}", **f),
    "pending_cleared": lambda **f: _("{who}: the save waiting is answered", **f),
    "action_undone": lambda **f: _("action {action} undone", **f),
    "unknown": lambda **f: _("{type}", **f),
    "undone": lambda **f: _("undone", **f),
    "made": lambda **f: _("made", **f),
    "failed": lambda **f: _("failed", **f),
    "superficial": lambda **f: _("superficial", **f),
    "severe": lambda **f: _("severe", **f),
    "ignored": lambda **f: _("penalty ignored", **f),
    "not_ignored": lambda **f: _("penalty stays", **f),
    "healed": lambda **f: _("healed", **f),
    "not_healed": lambda **f: _("not healed", **f),
    "left": lambda **f: _("left", **f),
    "right": lambda **f: _("right", **f),
    "hand": lambda **f: _("hand", **f),
    "foot": lambda **f: _("foot", **f),
    "hands": lambda **f: _("hands", **f),
    "feet": lambda **f: _("feet", **f),
    "eyes": lambda **f: _("eyes", **f),
    "ears": lambda **f: _("ears", **f),
    "long_rest": lambda **f: _("a long rest", **f),
    "short_rest": lambda **f: _("a short rest", **f),
    "magic": lambda **f: _("magic", **f),
    "rest": lambda **f: _("rest", **f),
    "gm": lambda **f: _("the GM's word", **f),
    "first_aid": lambda **f: _("first aid", **f),
    "treatment": lambda **f: _("treatment", **f),
    "hit_die": lambda **f: _("a Hit Die", **f),
    "natural": lambda **f: _("natural healing", **f),
    "turn": lambda **f: _("turn", **f),
    "dash": lambda **f: _("Dash", **f),
    "action": lambda **f: _("action", **f),
    "fact_stage": lambda **f: _("{track}: {from_} → {to}", **f),
    "fact_cured": lambda **f: _("cured", **f),
    "fact_eliminated": lambda **f: pgettext("sentences.fact_eliminated", "out of the system", **f),
    "fact_end_state": lambda **f: _("end state reached", **f),
    "fact_removed": lambda **f: _("removed", **f),
    "fact_cl_check_failed": lambda **f: _("caster level check failed, no effect", **f),
    "fact_cure_step": lambda **f: _("one save closer to a cure", **f),
    "fact_death": lambda **f: _("death", **f),
    "fact_hp_loss": lambda **f: _("{amount} HP lost", **f),
    "fact_poison_damage": lambda **f: _("{amount} poison damage", **f),
    "fact_ability_damage": lambda **f: _("{ability} damage {amount}", **f),
    "fact_ability_damage_healed": lambda **f: _("ability damage healed", **f),
    "fact_failure_banked": lambda **f: _("a failure banked", **f),
    "fact_permanent": lambda **f: _("a permanent effect", **f),
    "fact_permanent_removed": lambda **f: _("a permanent effect lifted", **f),
    "fact_permanent_removed_named": lambda **f: _("{condition} lifted (permanent)", **f),
    "fact_spell_landed": lambda **f: _("the spell takes hold", **f),
    "fact_floor": lambda **f: _("at its lowest stage", **f),
    "fact_duration": lambda **f: _("its duration changes", **f),
    "fact_note": lambda **f: _("{text}", **f),
    "fact_other": lambda **f: _("a change", **f),
    "counted": lambda **f: _("{n} {what}", **f),
    "save_pending_wound": lambda **f: _("{who}: a Fortitude save (DC {dc}) to ignore a wound ({part}) waits for the "
                                        "player's die: {id}", **f),
    "save_pending_treatment": lambda **f: _("{who}: the treatment check (DC {dc}) for {patient} waits for the "
                                            "player's die: {id}", **f),
    "save_pending_moment": lambda **f: _("{who}: {moment}, {name}: a {save} (DC {dc}) waits for the player's die: "
                                         "{id}", **f),
    "save_pending_dying": lambda **f: _("{who}: dying, the {check} check to stabilize (DC {dc}) waits for the "
                                        "player's die: {id}", **f),
    "pending_answered": lambda **f: _("{who}: {by} answered the save waiting ({how})", **f),
    "by_player": lambda **f: _("the player", **f),
    "by_gm": lambda **f: _("the GM", **f),
    "how_rolled": lambda **f: _("rolled by the server", **f),
    "how_d20": lambda **f: _("a d20 typed", **f),
    "how_total": lambda **f: _("a total typed", **f),
    "answer_proposed": lambda **f: _("{who}'s player answers {id} ({how}): it waits for the GM's confirmation", **f),
    "answer_rejected": lambda **f: _("the GM rejects the answer to {id}: the save waits for {who}'s player again", **f),
    "affliction_known": lambda **f: _("{who}: {name} is now known to the player", **f),
    "affliction_hidden": lambda **f: _("{who}: {name} is hidden from the player", **f),
    "affliction_diagnosed": lambda **f: _("{who}: {healer}'s Heal check on {name}, {total} vs DC {dc}, {verdict}", **f),
}


def say(key: str, **fields: Any) -> str:
    """The words `key` names (a key of W), its {fields} filled, in the reader's language."""
    return W[key](**fields)


def named(rules: "Rules", value: Any, *sections: str) -> str:
    """A content id as its name ("cure_wounds" → "Cure Wounds"); anything else as text, translated."""
    if not isinstance(value, str):
        return str(value)
    for section in sections or ("afflictions", "injuries", "spells", "damage_tables", "conditions", "body_parts",
                                "tracks", "abilities", "saves", "skills", "severities", "options"):
        entry = rules.section(section).get(value) if section in rules.sections else None
        words = getattr(entry, "name", None) if entry is not None else None
        if words is not None and getattr(words, "en", None) is not None:
            return name(words)
    if value in W:
        return say(value)
    text = stored(value, lambda v: named(rules, v))
    if text == value and ": " in value:
        head, _sep, tail = value.partition(": ")
        return f"{named(rules, head)}{colon()}{named(rules, tail)}"
    return text


class _Ctx:
    def __init__(self, d: dict[str, Any], state: Any, rules: "Rules",
                 known: dict[tuple[str, str], str] | None = None) -> None:
        self.d, self.state, self.rules, self.known = d, state, rules, known or {}

    def who(self, key: str = "character") -> str:
        cid = self.d.get(key)
        character = self.state.character(cid) if isinstance(cid, str) and self.state is not None else None
        return character.name if character else str(self.d.get("name") or cid or "")

    def character(self) -> Any:
        cid = self.d.get("character")
        return self.state.character(cid) if isinstance(cid, str) and self.state is not None else None

    def name(self, value: Any, *sections: str) -> str:
        return named(self.rules, value, *sections)

    def say(self, key: str, **fields: Any) -> str:
        return say(key, **fields)

    def injury(self) -> str:
        """"i3 Frostbite" while the injury is known (on the character, or gone but named in `known`: the
        injuries of the events told with it, and of the state before the action), else its id."""
        iid = self.d.get("injury")
        character = self.character()
        current = next((i for i in character.injuries if i.id == iid), None) if character else None
        content = current.injury if current else self.known.get((str(self.d.get("character")), str(iid)))
        return f"{iid} {self.name(content, 'injuries')}" if content else str(iid)

    def wound(self, wid: Any = None) -> str:
        wid = wid or self.d.get("wound")
        character = self.character()
        w = next((x for x in character.wounds if x.id == wid), None) if character else None
        return f"{wid} {self.part(w.part, w.side)}" if w else str(wid)

    def part(self, part: Any, side: Any) -> str:
        text = self.name(part, "body_parts")
        return f"{text} ({self.say(side)})" if side in ("left", "right") else text

    def affliction(self) -> str:
        content = self.d.get("content")
        if content is None:
            state = self.d.get("state")
            content = state.get("affliction") if isinstance(state, dict) else None
        if content is None:
            aid = self.d.get("affliction")
            character = self.character()
            a = next((x for x in character.afflictions if x.id == aid), None) if character else None
            content = a.affliction if a else aid
        return self.name(content, "afflictions")

    def save(self) -> str:
        from .save_words import save_roll

        return save_roll(self.rules, self.d.get("save") or "fortitude", getattr(self.state, "system", None))

    def verdict(self, ok: Any) -> str:
        return self.say("made" if ok else "failed")

    def total(self) -> str:
        from .save_words import save_total

        return save_total(self.d)

    def facts(self) -> str:
        parts = [fact_text(f, self) for f in self.d.get("facts") or [] if isinstance(f, dict)]
        return colon() + ", ".join(parts) if parts else ""


def facts_text(data: dict[str, Any], state: Any, rules: "Rules") -> str:
    """An event's facts in words (": Exhausted lifted (permanent), …"), '' when it has none."""
    return _Ctx(data, state, rules).facts()


def fact_text(f: dict[str, Any], c: _Ctx) -> str:
    what = f.get("what")
    if what == "stage":
        track = c.rules.section("tracks").get(str(f.get("track")))

        def stage(sid: Any) -> str:
            st = next((s for s in track.stages if s.id == sid), None) if track else None
            return name(st.name) if st else str(sid)

        return c.say("fact_stage", track=name(track.name) if track else c.name(f.get("track")),
                     from_=stage(f.get("from")), to=stage(f.get("to")))
    if what in ("hp_loss", "poison_damage"):
        return c.say(f"fact_{what}", amount=f.get("amount", f.get("hp", "?")))
    if what == "ability_damage":
        return c.say("fact_ability_damage", ability=c.name(f.get("ability"), "abilities"), amount=f.get("amount", "?"))
    if what == "note":
        return c.say("fact_note", text=stored(str(f.get("text", "")), c.name))
    if what == "permanent_removed" and f.get("condition"):
        return c.say("fact_permanent_removed_named", condition=c.name(f["condition"], "conditions"))
    key = f"fact_{what}"
    return c.say(key) if key in W else c.say("fact_other")


def _noted(c: _Ctx) -> str:
    if c.d.get("moment") == "combat_end":
        return c.say("combat_end", ended=counted(c.d.get("ended", 0), "condition"))
    if c.d.get("no_benefit") == "hp_below_1":
        return c.say("rest_no_benefit", who=c.who(), hp=c.d.get("hp"))
    lines = []
    for r in c.d.get("results") or []:
        if r.get("on") == "dying":  # the hit point model's check for a dying character
            lines.append(c.say("dying_check", who=c.who(), check=c.name(r.get("check"), "abilities"),
                               total=r.get("total"), dc=r.get("dc"),
                               verdict=c.say("stable_now" if r.get("succeeded") else "loses_hp")))
            continue
        source = r.get("source", {})
        src = (c.name(source["content_id"]) if source.get("kind") in ("injury", "affliction") else source.get("name")) \
            if isinstance(source, dict) else str(source)
        said = _outcome(r.get("outcome") or {}, c)
        if "save" in r:
            sub = _Ctx({**r, "save": r["save"]}, c.state, c.rules)
            lines.append(c.say("noted_save", who=c.who(), source=src, save=sub.save(), total=sub.total(),
                               dc=r.get("dc"), verdict=c.verdict(not r.get("failed")),
                               outcome=f" → {said}" if r.get("applies") and said else ""))
        elif r.get("applies"):
            lines.append(c.say("noted_effect", who=c.who(), source=src, outcome=said))
    moment = c.d.get("moment") or "turn"
    return "\n".join(lines) or c.say("noted", who=c.who(), moment=c.name(moment))


def check_text(d: dict[str, Any]) -> str:
    """A check with its roll: "12 (1d20: 7, +5)" / "12 (1d20 : 7, +5)", or "12 (typed)" when the table gave the total.

    The die is the last one the check rolled (the event's `rolls`); the rest of the total is the healer's
    bonus with what the roll query added (its breakdown)."""
    rolls = [r for r in d.get("rolls") or [] if isinstance(r, dict)]
    check = d.get("check")
    if rolls and not rolls[-1].get("typed") and isinstance(check, int) and isinstance(rolls[-1].get("total"), int):
        r = rolls[-1]
        bonus = check - r["total"]
        # "(1d20 : 7, +5)" in French, as every other colon
        return f"{check} ({r.get('formula')}{colon()}{', '.join(str(f) for f in r.get('faces') or [])}" \
               f"{f', {bonus:+d}' if bonus else ''})"
    return f"{check} ({say('typed')})"


def _injury_healed(c: _Ctx) -> str:
    d = c.d
    if d.get("how") == "replaced":
        return c.say("injury_replaced", who=c.who(), injury=c.injury(), why=c.name(str(d.get("why", ""))))
    if d.get("how") == "treatment" and "check" in d:
        return c.say("treated", who=c.who(), injury=c.injury(), check=check_text(d), dc=d.get("dc"))
    how = c.name(d.get("how") or "")
    if d.get("spell"):
        how = f"{how}, {c.name(d['spell'], 'spells')}"
    return c.say("injury_healed", who=c.who(), injury=c.injury(), how=how)


SENTENCES: dict[str, Callable[[_Ctx], str]] = {
    "campaign_created": lambda c: c.say("campaign_created", name=c.d.get("name"), system=c.d.get("system"),
                                        seed=c.d.get("seed")),
    "campaign_renamed": lambda c: c.say("campaign_renamed", name=c.d.get("name"), was=c.d.get("was", "")),
    "option_set": lambda c: (c.say("option_reset", option=c.d.get("option")) if c.d.get("reset")
                             else c.say("option_set", option=c.d.get("option"), value=_value(c.d.get("value"), c))),
    "content_packs_set": lambda c: c.say("content_packs_set", packs=", ".join(c.d.get("content_packs") or [])
                                         or c.say("no_packs")),
    "clock_advanced": lambda c: c.say("clock_advanced", span=describe_span(int(c.d.get("seconds", 0)))),
    "character_added": lambda c: c.say("character_added", who=c.d.get("name"), hp=c.d.get("hp"),
                                       max_hp=c.d.get("max_hp")),
    "character_edited": lambda c: c.say("character_edited", who=c.who("id"), fields=_sheet_fields(c.d.get("changes"), c)),
    "character_removed": lambda c: c.say("character_removed", who=c.who("id")),
    "hp_changed": _hp_changed,
    "noted": _noted,
    "request_keyed": lambda c: c.say("request_keyed"),
    "condition_gained": _condition_gained,
    "condition_ended": lambda c: c.say("condition_ended", who=c.who(),
                                       condition=c.name(str(c.d.get("id", "")).rpartition(":")[2], "conditions")),
    "character_stabilized": lambda c: c.say("character_stabilized", who=c.who()),
    "prone_changed": _prone_changed,
    "actions_lost": _actions_lost,
    "damage_taken": _damage,
    "character_died": lambda c: c.say("character_died", who=c.who(),
                                      cause=f" ({c.name(c.d['cause'])})" if c.d.get("cause") else ""),
    "wound_received": _wound_received,
    "wound_first_aid": lambda c: c.say("wound_first_aid", who=c.who(), wound=c.wound(), total=c.d.get("total"),
                                       dc=c.d.get("dc"), verdict=c.say("healed" if c.d.get("success") else "not_healed")),
    "wound_recovery": lambda c: c.say("wound_recovery", who=c.who(), wound=c.wound(), hp=c.d.get("hp"),
                                      recovered=c.d.get("recovered")),
    "wound_suppression_ended": lambda c: c.say("wound_suppression_ended", who=c.who(), wound=c.wound()),
    "wound_healed": lambda c: c.say("wound_healed", who=c.who(), wound=c.wound(), how=c.name(c.d.get("how") or "gm")),
    "injury_gained": _injury_gained,
    "injury_changed": _injury_changed,
    "injury_healed": _injury_healed,
    "treatment_started": lambda c: c.say("treatment_started", who=c.who(), injury=c.injury(),
                                         span=describe_span(int(c.d.get("seconds", 0))),
                                         healer=c.say("healer", healer=c.who("healer")) if c.d.get("healer") else ""),
    "treatment_failed": lambda c: c.say("treatment_failed", who=c.who(), injury=c.injury(), check=check_text(c.d),
                                        dc=c.d.get("dc"), next_dc=(c.d.get("dc") or 0) + 2),
    "body_changed": lambda c: c.say(f"{'lost' if int(c.d.get('change', 0)) < 0 else 'back'}_{c.d.get('part')}", who=c.who())
    if f"lost_{c.d.get('part')}" in W else c.say("body_changed", who=c.who(), part=c.name(c.d.get("part")),
                                                   change=int(c.d.get("change", 0))),
    "affliction_contracted": lambda c: c.say("affliction_contracted", who=c.who(), name=c.affliction(), facts=c.facts()),
    "affliction_changed": lambda c: c.say("affliction_changed", who=c.who(), name=c.affliction(), facts=c.facts()),
    "affliction_saved": lambda c: c.say("affliction_saved", who=c.who(), name=c.affliction(), save=c.save(),
                                        total=c.total(), dc=c.d.get("dc"), verdict=c.verdict(c.d.get("succeeded")),
                                        facts=c.facts()),
    "affliction_recovered": lambda c: c.say("affliction_recovered", who=c.who(), name=c.affliction(), facts=c.facts()),
    "affliction_spell": lambda c: c.say("affliction_spell", who=c.who(), spell=_spell(c),
                                        name=c.affliction(), facts=c.facts()),
    "affliction_exposed": lambda c: c.say("affliction_exposed", who=c.who(), name=c.affliction(), save=c.save(),
                                          total=c.total(), dc=c.d.get("dc"), verdict=c.verdict(c.d.get("succeeded"))),
    "affliction_removed": lambda c: c.say("affliction_removed", who=c.who(), name=c.affliction()),
    "save_pending": _save_pending,
    "pending_cleared": lambda c: c.say("pending_answered", who=c.who(), by=c.say(f"by_{c.d['by']}"),
                                       how=c.say(f"how_{c.d.get('how')}")) if c.d.get("by") in ("gm", "player")
    and c.d.get("how") in ("rolled", "d20", "total") else c.say("pending_cleared", who=c.who()),
    "answer_proposed": lambda c: c.say("answer_proposed", who=c.who(), id=c.d.get("id"),
                                       how=c.say(f"how_{c.d.get('how')}") if c.d.get("how") in ("rolled", "d20", "total")
                                       else ""),
    "answer_rejected": lambda c: c.say("answer_rejected", who=c.who(), id=c.d.get("id")),
    "affliction_known": lambda c: c.say("affliction_known" if c.d.get("known") else "affliction_hidden", who=c.who(),
                                        name=c.affliction()),
    "affliction_diagnosed": lambda c: c.say("affliction_diagnosed", who=c.who(), healer=c.who("healer"),
                                            name=c.affliction(), total=c.total(), dc=c.d.get("dc"),
                                            verdict=c.verdict(c.d.get("succeeded"))),
    "action_undone": lambda c: c.say("action_undone", action=c.d.get("action")),
}


def sentence(event: dict[str, Any], state: Any, rules: "Rules",
             known: dict[tuple[str, str], str] | None = None) -> str:
    """Any stored event as the GM reads it (one or more lines). `known`: the injuries no longer on their
    character, by (character, injury id), so that "treatment of i1 begins" names it (`injury_names`)."""
    kind = event["type"]
    fn = SENTENCES.get(kind)
    data: dict[str, Any] = event["data"] if isinstance(event.get("data"), dict) else {}
    if fn is None:
        return say("unknown", type=kind.replace("_", " "))
    return fn(_Ctx(data, state, rules, known))

