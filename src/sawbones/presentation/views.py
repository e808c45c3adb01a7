"""Read models for the CLI (and later the API): JSON-ready documents, and their Rich renderings."""

from __future__ import annotations

import re

from typing import TYPE_CHECKING, Any, Callable

from ..domain.engine import hit_points
from ..domain.engine.options import effective_options
from ..message import Listed
from .affliction_status import A, render_affliction  # noqa: F401 (the status view's affliction lines)
from .time_words import describe_span, describe, describe_in
from .locale import _, name, pgettext, say
from .typeset import listed
from .save_words import system_name

if TYPE_CHECKING:
    from ..content.rules import Rules

V: dict[str, Callable[..., str]] = {
    "hp": lambda **f: _("HP", **f),
    "hd": lambda **f: _("HD", **f),
    "dc": lambda **f: _("DC", **f),
    "dead": lambda **f: _("DEAD", **f),
    "dying": lambda **f: pgettext("views.dying", "dying", **f),
    "stable": lambda **f: _("stable", **f),
    "npc": lambda **f: _("NPC", **f),
    "no_characters": lambda **f: _("no characters yet", **f),
    "no_injuries": lambda **f: _("no injuries", **f),
    "heals_by": lambda **f: _("heals by: ", **f),
    "secret_deadline": lambda **f: _("secret deadline:", **f),
    "deadline_passed": lambda **f: _("deadline passed", **f),
    "next_daily": lambda **f: _("next daily effect: ", **f),
    "conditions": lambda **f: _("conditions: ", **f),
    "from": lambda **f: _("from", **f),
    "lost": lambda **f: _("{part} {left}/2", **f),
    "treating": lambda **f: _("under treatment", **f),
    "defaults": lambda **f: _("all options at their defaults", **f),
    "characters": lambda **f: _("characters: ", **f),
    "none": lambda **f: _("none", **f),
    "seed": lambda **f: _("dice seed", **f),
    "option_default": lambda **f: _("default: {value}", **f),
    "option_is_default": lambda **f: _("the default", **f),
    "option_choices": lambda **f: _("one of: {choices}", **f),
    "group_general": lambda **f: _("General", **f),
    "group_injuries": lambda **f: _("Lingering injuries (5e)", **f),
    "group_wounds": lambda **f: _("Localized wounds (3.5)", **f),
    "group_tracks": lambda **f: _("Diseases and poisons (PF)", **f),
}

SEVERITY_STYLE = {"minor": "green", "moderate": "yellow", "severe": "red", "critical": "bold red"}



def campaign_doc(state: Any, rules: Any) -> dict[str, Any]:
    return {
        "name": state.name, "system": state.system, "seed": state.seed, "version": state.version,
        "clock": state.clock, "clock_text": english_when(state.clock), "options": dict(state.options),
        "content_packs": list(state.content_packs), "content_version": rules.version,
        "characters": [{"id": c.id, "name": c.name} for c in state.characters],
    }


def render_campaign(doc: dict[str, Any], con: Any) -> None:
    from rich.markup import escape

    con.print(f"[bold]{escape(doc['name'])}[/] · {system_name(doc['system'])} · {describe(doc['clock'])} · "
              f"{V['seed']()} {doc['seed']}")
    if doc["options"]:
        for key, value in doc["options"].items():
            con.print(f"  {key} = {value}")
    else:
        con.print("  " + V["defaults"]())
    con.print("  " + V["characters"]() + escape(", ".join(c["name"] for c in doc["characters"]) or V["none"]()))


def options_doc(rules: "Rules", values: dict[str, Any]) -> dict[str, Any]:
    """Every option, grouped (each group once, in the order the content first gives it); `choices` the values the
    engine takes (those it refuses as not modelled are left out); `help` said without rule ids (`ref` has them)."""
    order = {g: i for i, g in enumerate(dict.fromkeys(o.group for o in rules.options.values()))}
    return {"options": [
        {"id": o.id, "group": o.group, "type": o.type, "value": values[o.id], "default": o.default,
         "choices": [c for c in (o.choices or (("true", "false") if o.type == "bool" else ())) if c not in o.not_modelled],
         "choice_names": {c: name(words) for c, words in o.choice_names.items() if c not in o.not_modelled},
         "help": plain_help(name(o.help)), "ref": o.ref}
        for o in sorted(rules.options.values(), key=lambda o: order[o.group])]}


_RULE_ID = re.compile(r"(?:,\s*|\s+)?\b(?:AMB|TRK|INJ|LOC|RULE|RN)-[0-9A-Z]+(?:-[0-9A-Z]+)*\b")


def plain_help(text: str) -> str:
    """An option's help as a GM reads it: the rule ids it cites (AMB-0-9, TRK-8) belong in docs and --json."""
    out = _RULE_ID.sub("", text)
    return re.sub(r"\(\s*[,;:]?\s*\)", "", re.sub(r"\(\s*[,;:]\s*", "(", out)).replace(" .", ".").strip()


def render_options(doc: dict[str, Any], con: Any) -> None:
    """One option per block: `id = value`, its default and allowed values, then its help wrapped to the
    terminal (80 columns in a pipe); the id is never cut, it is what `campaign set` takes."""
    import textwrap

    from rich.markup import escape

    width = max(40, min(con.width, 100))
    group = None
    for o in doc["options"]:
        if o["group"] != group:
            group = o["group"]
            key = f"group_{group}"
            con.print(f"\n[bold]{escape(V[key]() if key in V else str(group))}[/]")
        changed = o["value"] != o["default"]
        value = f"[bold]{escape(shown(o['value']))}[/]" if changed else escape(shown(o["value"]))
        facts = [V["option_default"](value=shown(o["default"]))] if changed else [V["option_is_default"]()]
        if o["choices"]:
            facts.append(V["option_choices"](choices=", ".join(_choice(c, o) for c in o["choices"])))
        con.print(f"  {o['id']} = {value}")
        for line in textwrap.wrap(f"({listed(facts)})", width - 6,
                                  break_on_hyphens=False):
            con.print("      [dim]" + escape(line) + "[/]")
        for line in textwrap.wrap(o["help"], width - 6):
            con.print("      " + escape(line))


def _choice(value: str, option: dict[str, Any]) -> str:
    """An option's value as `campaign options` lists it: its name in the reader's language, then the id when it
    reads otherwise (`campaign set` takes either)."""
    from ..content.rules import fold

    said: str = option.get("choice_names", {}).get(value, value)
    return said if fold(said) == fold(value.replace("_", " ")) else f"{said} ({value})"


def shown_option(option: dict[str, Any]) -> str:
    """An option's value as a page shows it: a choice by its name in the page's language (options_doc)."""
    value = option["value"]
    return option.get("choice_names", {}).get(value, shown(value)) if isinstance(value, str) else shown(value)


def shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items()) or "{}"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value) or "—"
    return str(value)


REST_WAYS: dict[str, Callable[[], str]] = {  # a rest that heals an injury, in its list of ways
    "long_rest": lambda: _("long rest"),
    "hit_die": lambda: _("Hit Die (short rest)"),
}


def heals_doc(injury: Any, rules: "Rules", options: dict[str, Any] | None = None) -> list[str]:
    severity = rules.severities[injury.severity]
    ways = []
    if not (injury.no_natural_healing or injury.magic_only):
        ways += [REST_WAYS[r]() for r in severity.rests]
    if not injury.magic_only:
        ways.append(_("treatment DC {dc}", dc=injury.dc)
                    + " (" + name(severity.treatment.text).split(";")[-1].strip() + ")")
    from ..domain.injuries.care import magic_tiers

    tiers = magic_tiers(rules, options if options is not None else effective_options(rules, {}), injury)
    ways.append(_("magic: ") + say(Listed([name(rules.magic_tiers[t].name) for t in tiers], "or")))
    return ways


def injury_doc(injury: Any, state: Any, rules: "Rules", dead: bool = False) -> dict[str, Any]:
    """An injury; on a dead character, without the timers that no longer run (its next daily effect, its deadline)."""
    definition = rules.injuries[injury.injury]
    severity = rules.severities[injury.severity]
    doc = {
        "id": injury.id, "injury": injury.injury, "name": name(definition.name), "table": injury.table,
        "severity": injury.severity, "severity_name": name(severity.name), "d20": injury.d20, "dc": injury.dc,
        "failures": injury.failures, "no_natural_healing": injury.no_natural_healing,
        "magic_only": injury.magic_only, "site": injury.site, "text": name(definition.text),
        "heals_by": heals_doc(injury, rules, effective_options(rules, state.option_overrides())), "gained_at": injury.gained_at,
        "treatment_started": injury.treatment_started,
        "timers": {},
    }
    if injury.deadline_at is not None and not dead:
        doc["timers"]["deadline_at"] = injury.deadline_at
        doc["timers"]["deadline_in"] = injury.deadline_at - state.clock
    if injury.next_tick_at is not None and not dead:
        doc["timers"]["next_daily_effect_at"] = injury.next_tick_at
    if injury.max_hp_lost:
        doc["max_hp_lost"] = injury.max_hp_lost
    if injury.ability_lost:
        doc["ability_lost"] = dict(injury.ability_lost)
    return doc


# Other rule modules add their own parts of a character's document: fn(character, state, rules) -> dict
CHARACTER_SECTIONS: list[Any] = []
# ... and their lines in the status view: fn(character_doc, console)
STATUS_RENDERERS: list[Any] = []
# ... when imported: these modules, loaded before any document or status is made, whichever command or route
# makes it. A command imports only its own module, a web worker what its routes needed so far: a document must
# not depend on that. (Their sections move to presentation/wounds.py and afflictions.py: name those here then.)
SECTION_MODULES = ("sawbones.presentation.wounds", "sawbones.presentation.afflictions", "sawbones.presentation.posture")
_SECTIONS_LOADED: list[bool] = []


def load_sections() -> None:
    """Every rule module's document parts and status lines registered (once per process)."""
    if not _SECTIONS_LOADED:
        from importlib import import_module

        for module in SECTION_MODULES:
            import_module(module)
        _SECTIONS_LOADED.append(True)


def character_doc(character: Any, state: Any, rules: "Rules") -> dict[str, Any]:
    load_sections()
    doc = _base_character_doc(character, state, rules)
    for section in CHARACTER_SECTIONS:
        doc.update(section(character, state, rules))
    return doc


def _base_character_doc(character: Any, state: Any, rules: "Rules") -> dict[str, Any]:
    return {
        "id": character.id, "name": character.name, "npc": character.npc, "hp": character.hp,
        "max_hp": character.max_hp, "dead": character.dead, "stable": character.stable,
        "dying": hit_points.dying(character, rules, state.system),
        "abilities": dict(character.abilities), "saves": dict(character.saves), "skills": dict(character.skills),
        "proficiencies": list(character.proficiencies), "external": list(character.external),
        "hit_die": character.hit_die,
        "hit_dice": character.hit_dice, "hit_dice_max": character.hit_dice_max, "body": character.body.__dict__,
        "notes": character.notes,
        "injuries": [injury_doc(i, state, rules, character.dead) for i in character.injuries],
    }


def render_character_list(doc: dict[str, Any], con: Any) -> None:
    if not doc["characters"]:
        con.print(V["no_characters"]())
    for c in doc["characters"]:
        con.print(f"{c['name']} ({c['id']}) {c['hp']}/{c['max_hp']} {V['hp']()}"
                  f"{' · ' + V['npc']() if c['npc'] else ''}", markup=False)


def conditions_of(character: Any, rules: "Rules", options: dict[str, Any]) -> list[dict[str, Any]]:
    """Conditions the rules impose on a character now, each with its source."""
    from ..domain.engine.effects import conditions

    out: list[dict[str, Any]] = []
    for condition, active in conditions(character, rules, options):
        known = rules.conditions.get(condition)
        line = {"id": condition, "name": name(known.name) if known else condition,
                "source": {"kind": active.kind, "id": active.source_id, "content_id": active.content_id,
                           "name": say(active.name), **active.detail}}  # (content words or a Message)
        if not any((x["id"], x["source"]["id"]) == (condition, active.source_id) for x in out):  # once per source
            out.append(line)
    return out


def status_doc(service: Any, campaign: str, character: str | None) -> dict[str, Any]:
    """`status` (CLI and API): the party, or one character, with the conditions the rules impose now."""
    from ..domain.engine.campaign import find_character

    loaded = service.load(campaign)
    ctx = service.context(loaded)
    state = loaded.state
    chars = [find_character(state, character)] if character else list(state.characters)
    return {"campaign": state.name, "clock": state.clock, "characters": [
        {**character_doc(c, state, ctx.rules), "conditions": conditions_of(c, ctx.rules, ctx.options)}
        for c in chars]}


def life_state(c: dict[str, Any]) -> str | None:
    """dead, stable, dying or None: what a character's HP line must say in words (colour is extra)."""
    if c["dead"]:
        return "dead"
    if c.get("dying", c["hp"] <= 0 and not c["stable"]):  # the system's hit point model says (pf1e: below 0)
        return "dying"
    return "stable" if c["hp"] <= 0 and c["stable"] else None


LIFE_STYLE = {"dead": "bold red", "dying": "bold yellow", "stable": "cyan"}


def render_status(doc: dict[str, Any], con: Any) -> None:
    """The party, in plain words that survive a pipe: HP, dying/stable/dead, conditions, injuries, timers."""
    from rich.markup import escape

    load_sections()
    def said(key: str, **fields: Any) -> str:
        return V[key](**fields)

    con.print(f"[bold]{escape(doc['campaign'])}[/] · {describe(doc['clock'])}")
    if not doc["characters"]:
        con.print(said("no_characters"))
    for c in doc["characters"]:
        life = life_state(c)
        state = f" · [{LIFE_STYLE[life]}]{said(life)}[/]" if life else ""
        body = c["body"]
        lost = [said("lost", part=_body_word(k), left=v) for k, v in body.items() if v < 2]
        npc = f" · {said('npc')}" if c.get("npc") else ""
        con.print(f"\n[bold]{escape(c['name'])}[/] {c['hp']}/{c['max_hp']} {said('hp')} · {said('hd')} "
                  f"{c['hit_dice']}/{c['hit_dice_max']}{npc}{state}{' · ' + ', '.join(lost) if lost else ''}")
        if c.get("conditions"):
            con.print("  " + said("conditions") + listed(
                (escape(x['name']) if x['source']['name'] == x['name'] else
                 f"{escape(x['name'])} ({said('from')} {escape(x['source']['name'])})" for x in c["conditions"])))
        if not c["injuries"] and not c.get("wounds") and not c.get("afflictions"):
            con.print("  " + said("no_injuries"))
        for render in STATUS_RENDERERS:  # other rule modules' lines (wounds, afflictions)
            render(c, con)
        for i in c["injuries"]:
            style = SEVERITY_STYLE.get(i["severity"], "")
            site = f" ({_body_word(i['site'])})" if i["site"] else ""
            treating = f" · {said('treating')}" if i.get("treatment_started") else ""
            con.print(f"  [{style}]{i['id']} {escape(i['name'])}{site}[/] · {i['severity_name']} · "
                      f"{said('dc')} {i['dc']}{treating}")
            con.print(f"     {escape(i['text'])}")
            con.print("     " + said("heals_by") + escape(listed(i["heals_by"])))
            timers = i["timers"]
            if "deadline_in" in timers:
                due = describe_in(max(0, timers["deadline_in"]))
                con.print(f"     [red]{said('secret_deadline')} {due}[/]")
            if "next_daily_effect_at" in timers:
                con.print(f"     {said('next_daily')}{describe(timers['next_daily_effect_at'])}")
        for a in c.get("afflictions", []):
            render_affliction(a, con)


def _body_word(part: str) -> str:
    from .sentences import W

    return W[part]() if part in W else part


def roll_doc(rules: "Rules", options: dict[str, Any], table_id: str, d20: int | None,
             bands: str | None) -> dict[str, Any]:
    """`roll TABLE`: one d20 (typed, or rolled here) picks severity and row; not a campaign action."""
    import random

    from ..domain.injuries.table import pick_row

    face = d20 if d20 is not None else random.SystemRandom().randint(1, 20)
    pick = pick_row(rules, table_id, face, bands or options["severity_bands"], options["lenient_row_mapping"])
    return {"table": table_id, "d20": face, "typed": d20 is not None, "severity": pick.severity,
            "severity_name": name(rules.severities[pick.severity].name), "injury": pick.injury.id,
            "name": name(pick.injury.name), "text": name(pick.row.text),
            "no_natural_healing": pick.row.no_natural_healing, "magic_only": pick.row.magic_only}


# -------------------------------------------------------- conditions with a duration (domain/engine/conditions.py)


def timed_conditions_section(character: Any, state: Any, rules: "Rules") -> dict[str, Any]:
    """The timed conditions in force: condition, source, end on the clock and time left."""
    from ..domain.engine.conditions import running

    out = []
    for timed in running(character):
        definition = rules.conditions.get(timed.condition)
        out.append({"id": timed.id, "condition": timed.condition,
                    "name": name(definition.name) if definition else timed.condition,
                    "source": {"kind": timed.source_kind, "id": timed.source_id, "content_id": timed.content_id,
                               "name": name({"en": timed.name_en, "fr": timed.name_fr})},
                    "until": timed.until, "left": None if timed.until is None else max(0, timed.until - state.clock),
                    "until_combat_end": timed.until_combat_end})
    return {"timed_conditions": out}


def _render_timed(c: dict[str, Any], con: Any) -> None:
    from rich.markup import escape

    for t in c.get("timed_conditions", ()):
        left = "" if t["left"] is None else " · " + _("for {span}", span=describe_span(t["left"]))
        if t.get("until_combat_end"):
            left = " · " + _("until the end of combat")
        con.print(f"  [bold magenta]{escape(t['name'])}[/] ← {escape(t['source']['name'])}{left}")


CHARACTER_SECTIONS.append(timed_conditions_section)
STATUS_RENDERERS.append(_render_timed)


def import_report(state: Any, events: list[dict[str, Any]], rules: "Rules") -> dict[str, Any]:
    """What `character import` did: who was added, who was updated, their sheets, one line each."""
    added = [e["data"]["id"] for e in events if e["type"] == "character_added"]
    updated = [e["data"]["id"] for e in events if e["type"] == "character_edited"]
    chars = [c for c in state.characters if c.id in added + updated]
    lines = [_("{name}: added ({hp}/{max_hp} HP)", name=c.name, hp=c.hp, max_hp=c.max_hp) if c.id in added
             else _("{name}: sheet updated ({hp}/{max_hp} HP)", name=c.name, hp=c.hp, max_hp=c.max_hp)
             for c in chars]
    return {"added": added, "updated": updated, "lines": lines,
            "characters": [character_doc(c, state, rules) for c in chars]}


def english_when(seconds: int) -> str:
    """A moment of game time in English, for a document's `*_text` field (programs read it, not people)."""
    from .locale import SOURCE, speaking

    with speaking(SOURCE):
        return describe(seconds)
