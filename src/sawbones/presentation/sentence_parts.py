"""Sentences of events that read only their own data: `c` is the sentence's context (sentences.py `_Ctx`:
the event's data `d`, the campaign, the rules, and `say`, `who`, `name`, ... to word them)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Protocol

from ..message import N_
from .time_words import describe
from .locale import SOURCE, _, language, name
from .locale import say as said

if TYPE_CHECKING:
    from ..content.rules import Rules


class Ctx(Protocol):
    """What a sentence reads and how it words it (sentences.py's context of one event)."""

    d: dict[str, Any]
    state: Any
    rules: "Rules"

    def who(self, key: str = "character") -> str: ...

    def say(self, key: str, **fields: Any) -> str: ...

    def name(self, value: Any, *sections: str) -> str: ...

    def part(self, part: Any, side: Any) -> str: ...

    def injury(self) -> str: ...

    def save(self) -> str: ...

    def affliction(self) -> str: ...


# causes and notes the rules write in English inside events (stored as they are: old campaigns keep them), said
# in the reader's language by `stored`: whole when they are a msgid, else matched against these templates
STORED = (
    N_("deadline passed"),
    N_("deadline met: treatment started"),
    N_("dropped to 0 HP by {type} damage"),
    N_("dropped to 0 HP by {source}"),
    N_("{source}: hit point maximum 0"),
    N_("{source}: Constitution 0"),
    N_("{source}: poison damage"),
    N_("{source}: deadline passed"),
    N_("deadline passed: no hand left to lose"),
    N_("deadline passed: no foot left to lose"),
    N_("{source}: {save} save ({id})"),
)


@lru_cache(maxsize=1)
def _patterns() -> list[tuple[re.Pattern[str], str]]:
    out = []
    for template in STORED:
        if "{" in template:
            pattern = re.escape(template)
            pattern = re.sub(r"\\{(\w+)\\}", lambda m: f"(?P<{m.group(1)}>.+?)", pattern)
            out.append((re.compile(pattern + r"\Z"), template))
    return out


def stored(text: str, named: Callable[[str], str] | None = None) -> str:
    """English text an event stores (a cause, a note), in the reader's language: the catalog's words for the
    whole text, else a template of STORED with its fields (`named`: how a field's value is said, a content id as
    its name); text the catalog does not know stays as it is."""
    if not text or language() == SOURCE:
        return text
    said = _(text)
    if said != text:
        return said
    for pattern, template in _patterns():
        found = pattern.match(text)
        if found:
            return _(template, **{k: named(v) if named else v for k, v in found.groupdict().items()})
    return text


def _sheet_label(key: str) -> str:
    labels: dict[str, Callable[[], str]] = {
        "hp": lambda: _("HP"), "max_hp": lambda: _("max HP"), "notes": lambda: _("notes"),
        "name": lambda: _("name"), "npc": lambda: _("NPC"), "abilities": lambda: _("abilities"),
        "saves": lambda: _("saves"), "skills": lambda: _("skills"), "proficiencies": lambda: _("proficiencies"),
        "hit_die": lambda: _("hit die"), "hit_dice": lambda: _("Hit Dice"), "hit_dice_max": lambda: _("Hit Dice max"),
        "body": lambda: _("body"), "long_rests": lambda: _("long rests"), "deadline_at": lambda: _("deadline"),
        "deadline_passed": lambda: _("deadline"), "dc": lambda: _("DC"), "failures": lambda: _("failures"),
        "next_tick_at": lambda: _("next daily effect"),
    }
    return labels[key]() if key in labels else key.replace("_", " ")


def _sheet_fields(changes: Any, c: Ctx) -> str:
    keys = list(changes) if isinstance(changes, dict) else []
    return ", ".join(dict.fromkeys(_field_words(k, changes[k], c) for k in keys))


def _ability_rank(ability: str) -> int:
    order = ("str", "dex", "con", "int", "wis", "cha")
    return order.index(ability) if ability in order else len(order)


def _field_words(key: str, value: Any, c: Ctx) -> str:
    """A changed field by its label; what an injury took so far, with its numbers (Sepsis: which abilities)."""
    if key == "ability_lost" and isinstance(value, dict) and value:
        return _("abilities lost in all: {lost}", lost=", ".join(
            f"{c.name(str(ability), 'abilities')} −{value[ability]}" for ability in sorted(value, key=_ability_rank)))
    if key == "max_hp_lost" and isinstance(value, int):
        return _("max HP lost in all: {lost}", lost=value)
    return _sheet_label(key)


def _hp_changed(c: Ctx) -> str:
    d = c.d
    cause = d.get("cause") or d.get("why")
    return c.say("hp_changed", who=c.who(), hp=d.get("hp"),
                 max_hp=c.say("max_hp", max_hp=d["max_hp"]) if "max_hp" in d else "",
                 cause=f" · {c.name(cause)}" if cause else "") + (c.say("down_prone") if d.get("prone") else "")


def _damage(c: Ctx) -> str:
    d = c.d
    parts = " + ".join(f"{a} {c.name(k, 'damage_tables')}" for a, k in d.get("parts", []))
    extra = "".join(f" + {e.get('amount')} ({c.name(e.get('source'))})" for e in d.get("extra", []))
    return c.say("damage_taken", who=c.who(), parts=parts, extra=extra, total=d.get("total"), hp=d.get("hp")) + \
        (c.say("down_prone") if d.get("prone") else "")


def _value(value: Any, c: Ctx) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) or "—"
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items()) or "—"
    return str(value)


def _wound_received(c: Ctx) -> str:
    d = c.d
    fort = d.get("fort") or {}
    fort_text = (c.say("wound_fort", save=c.name("fortitude", "saves"), total=fort.get("total"), dc=fort.get("dc"),
                       verdict=c.say("ignored" if fort.get("success") else "not_ignored"))
                 if fort.get("total") is not None else "")
    return c.say("wound_received", who=c.who(), part=c.part(d.get("part"), d.get("side")), damage=d.get("damage"),
                 kind=c.say("superficial" if d.get("superficial") else "severe"), fort=fort_text)


def _injury_gained(c: Ctx) -> str:
    d = c.d
    site = f" ({c.say(d['site'])})" if d.get("site") in ("hand", "foot") else ""
    return c.say("injury_gained", who=c.who(), id=d.get("id"), name=c.name(d.get("injury"), "injuries"), site=site,
                 severity=c.name(d.get("severity"), "severities"), d20=d.get("d20"), dc=d.get("dc"))


def _injury_changed(c: Ctx) -> str:
    if c.d.get("note") == "deadline met: treatment started":
        return c.say("deadline_held", who=c.who(), injury=c.injury())
    if c.d.get("note"):
        return c.say("injury_note", who=c.who(), injury=c.injury(), note=c.name(c.d["note"]))
    return c.say("injury_changed", who=c.who(), injury=c.injury(), fields=_sheet_fields(c.d.get("changes"), c))


def _save_pending(c: Ctx) -> str:
    """A roll that waits for a die (a player's, or the GM's under who_rolls gm): a periodic or initial save, a wound's Fortitude save, a healer's
    check, a trigger's save in a moment (turn, Dash, action), a dying character's check."""
    d, kind = c.d, c.d.get("kind")
    args = d.get("args") or {}
    if kind == "wound_fort":
        return c.say("save_pending_wound", who=c.who(), dc=d.get("dc"), id=d.get("id"),
                     part=c.part(args.get("part"), args.get("side")))
    if kind == "treatment":
        return c.say("save_pending_treatment", who=c.who(), dc=d.get("dc"), id=d.get("id"), patient=_patient(c))
    if kind == "moment":
        return c.say("save_pending_moment", who=c.who(), moment=c.name(args.get("moment")),
                     name=c.name(d.get("content")), save=c.save(), dc=d.get("dc"), id=d.get("id"))
    if kind == "dying":
        return c.say("save_pending_dying", who=c.who(), check=c.name(d.get("save"), "abilities"), dc=d.get("dc"),
                     id=d.get("id"))
    key = "save_pending_gm" if d.get("to") == "gm" else "save_pending"  # who_rolls gm: the player has no prompt
    return c.say(key, who=c.who(), name=c.affliction(), save=c.save(), dc=d.get("dc"), id=d.get("id"))


def _patient(c: Ctx) -> str:
    """The patient of a treatment that waits for the healer's die, with the injury treated."""
    args = c.d.get("args") or {}
    patient = c.state.character(args.get("patient", "")) if c.state is not None else None
    injury = patient.injury(args.get("injury")) if patient is not None else None
    who = patient.name if patient is not None else str(args.get("patient"))
    return f"{who} ({c.name(injury.injury, 'injuries')})" if injury is not None else who


def injury_names(events: Any = (), state: Any = None) -> dict[tuple[str, str], str]:
    """(character, injury id) -> the injury's content id, from the injuries gained in `events` and those on the
    characters of `state` (the state before an action): what a sentence names once the injury is gone."""
    known: dict[tuple[str, str], str] = {}
    for c in getattr(state, "characters", ()):
        known.update({(c.id, i.id): i.injury for i in c.injuries})
    for e in events:
        d = e.get("data") if isinstance(e, dict) else getattr(e, "data", None)
        kind = e.get("type") if isinstance(e, dict) else getattr(e, "type", None)
        if kind == "injury_gained" and isinstance(d, dict) and d.get("id") and d.get("injury"):
            known[(str(d.get("character")), str(d["id"]))] = str(d["injury"])
    return known


def _outcome(outcome: dict[str, Any], c: Ctx) -> str:
    """What a trigger's outcome does, in words (domain.outcomes); "" when it does nothing."""
    from ..content.models import validate
    from ..content.schema import Outcome
    from ..domain.engine.outcomes import outcome_text

    text = said(outcome_text(validate(Outcome, outcome), c.rules))
    return "" if text == "—" else text


def _spell(c: Ctx) -> str:
    from .save_words import spell_name

    return spell_name(c.rules, str(c.d.get("spell")), getattr(c.state, "system", None))


def _condition_gained(c: Ctx) -> str:
    d = c.d
    until = ""
    if d.get("until_combat_end"):
        until = c.say("until_combat_end")
    elif d.get("until") is not None:
        until = c.say("until", when=describe(int(d["until"])))
    source = d.get("source") or {}
    source_name = source.get("name") if isinstance(source, dict) else source
    src = name(source_name) if isinstance(source_name, dict) else source_name
    return c.say("condition_gained", who=c.who(), condition=c.name(d.get("condition"), "conditions"), until=until,
                 source=f" ← {src}" if src else "")


def _prone_changed(c: Ctx) -> str:
    if c.d.get("prone"):
        return c.say("falls_prone", who=c.who(), cause=_cause(c, c.d.get("cause")))
    return c.say("stands_up", who=c.who())


def _cause(c: Ctx, names: Any) -> str:
    """" (Leg Injury)": a source's stored names in the reader's language, or nothing."""
    return f" ({name(names)})" if isinstance(names, dict) and names.get("en") else ""


def _actions_lost(c: Ctx) -> str:
    action, reaction = bool(c.d.get("action")), bool(c.d.get("reaction"))
    if c.d.get("next_turn") and action:
        return c.say("loses_next_action", who=c.who(), cause=_cause(c, (c.d.get("source") or {}).get("name")))
    key = "loses_both" if action and reaction else "loses_action" if action else "loses_reaction" if reaction \
        else "actions_back"
    return c.say(key, who=c.who(), cause=_cause(c, (c.d.get("source") or {}).get("name")))
