"""Read models for the CLI (and later the API): JSON-ready documents, and their Rich renderings."""

from __future__ import annotations

import re

from typing import Any

from ..domain.engine import hit_points
from ..domain.engine.clock import describe, describe_in, describe_span
from ..domain.engine.options import effective_options
from ..i18n import Words
from .typeset import listed

V = Words("views", {
    "hp": ("HP", "PV"), "hd": ("HD", "DV"), "dc": ("DC", "DD"),
    "dead": ("DEAD", "MORT"), "dying": ("dying", "mourant"), "stable": ("stable", "stable"),
    "npc": ("NPC", "PNJ"), "no_characters": ("no characters yet", "aucun personnage pour l'instant"),
    "no_injuries": ("no injuries", "aucune blessure"), "heals_by": ("heals by: ", "guérit par : "),
    "secret_deadline": ("secret deadline:", "échéance secrète :"),
    "deadline_passed": ("deadline passed", "échéance dépassée"),
    "next_daily": ("next daily effect: ", "prochain effet quotidien : "),
    "conditions": ("conditions: ", "états : "), "from": ("from", "par"),
    "lost": ("{part} {left}/2", "{part} {left}/2"),
    "treating": ("under treatment", "en traitement"),
    "defaults": ("all options at their defaults", "toutes les options à leur valeur par défaut"),
    "characters": ("characters: ", "personnages : "), "none": ("none", "aucun"),
    "seed": ("dice seed", "graine des dés"),
    "option_default": ("default: {value}", "par défaut : {value}"),
    "option_is_default": ("the default", "valeur par défaut"),
    "option_choices": ("one of: {choices}", "au choix : {choices}"),
    "group_general": ("General", "Général"), "group_injuries": ("Lingering injuries (5e)", "Blessures persistantes (5e)"),
    "group_wounds": ("Localized wounds (3.5)", "Blessures localisées (3.5)"),
    "group_tracks": ("Diseases and poisons (PF)", "Maladies et poisons (PF)"),
})

SEVERITY_STYLE = {"minor": "green", "moderate": "yellow", "severe": "red", "critical": "bold red"}


def _t(text: Any, lang: str) -> str:
    return text(lang) if text is not None else ""


def campaign_doc(state: Any, rules: Any) -> dict[str, Any]:
    return {
        "name": state.name, "system": state.system, "seed": state.seed, "version": state.version,
        "clock": state.clock, "clock_text": describe(state.clock), "options": dict(state.options),
        "content_packs": list(state.content_packs), "content_version": rules.version,
        "characters": [{"id": c.id, "name": c.name} for c in state.characters],
    }


def render_campaign(doc: dict[str, Any], lang: str, con: Any) -> None:
    from rich.markup import escape

    con.print(f"[bold]{escape(doc['name'])}[/] · {doc['system']} · {describe(doc['clock'], lang)} · "
              f"{V.say('seed', lang)} {doc['seed']}")
    if doc["options"]:
        for key, value in doc["options"].items():
            con.print(f"  {key} = {value}")
    else:
        con.print("  " + V.say("defaults", lang))
    con.print("  " + V.say("characters", lang) + escape(", ".join(c["name"] for c in doc["characters"])
                                                         or V.say("none", lang)))


def options_doc(rules: Any, values: dict[str, Any], lang: str) -> dict[str, Any]:
    """Every option, grouped (each group once, in the order the content first gives it); `choices` the values the
    engine takes (those it refuses as not modelled are left out); `help` said without rule ids (`ref` has them)."""
    order = {g: i for i, g in enumerate(dict.fromkeys(o.group for o in rules.options.values()))}
    return {"options": [
        {"id": o.id, "group": o.group, "type": o.type, "value": values[o.id], "default": o.default,
         "choices": [c for c in (o.choices or (("true", "false") if o.type == "bool" else ())) if c not in o.not_modelled],
         "choice_names": {c: name(lang) for c, name in o.choice_names.items() if c not in o.not_modelled},
         "help": plain_help(o.help(lang)), "ref": o.ref}
        for o in sorted(rules.options.values(), key=lambda o: order[o.group])]}


_RULE_ID = re.compile(r"(?:,\s*|\s+)?\b(?:AMB|TRK|INJ|LOC|RULE|RN)-[0-9A-Z]+(?:-[0-9A-Z]+)*\b")


def plain_help(text: str) -> str:
    """An option's help as a GM reads it: the rule ids it cites (AMB-0-9, TRK-8) belong in docs and --json."""
    out = _RULE_ID.sub("", text)
    return re.sub(r"\(\s*[,;:]?\s*\)", "", re.sub(r"\(\s*[,;:]\s*", "(", out)).replace(" .", ".").strip()


def render_options(doc: dict[str, Any], lang: str, con: Any) -> None:
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
            con.print(f"\n[bold]{escape(V.say(key, lang) if key in V else str(group))}[/]")
        changed = o["value"] != o["default"]
        value = f"[bold]{escape(shown(o['value']))}[/]" if changed else escape(shown(o["value"]))
        facts = [V.say("option_default", lang, value=shown(o["default"]))] if changed else [V.say("option_is_default", lang)]
        if o["choices"]:
            facts.append(V.say("option_choices", lang, choices=", ".join(_choice(c, o) for c in o["choices"])))
        con.print(f"  {o['id']} = {value}")
        for line in textwrap.wrap(f"({(' ; ' if lang == 'fr' else '; ').join(facts)})", width - 6,
                                  break_on_hyphens=False):
            con.print("      [dim]" + escape(line) + "[/]")
        for line in textwrap.wrap(o["help"], width - 6):
            con.print("      " + escape(line))


def _choice(value: str, option: dict[str, Any]) -> str:
    """An option's value as `campaign options` lists it: its name in the reader's language, then the id when it
    reads otherwise (`campaign set` takes either)."""
    from ..content.rules import fold

    name = option.get("choice_names", {}).get(value, value)
    return name if fold(name) == fold(value.replace("_", " ")) else f"{name} ({value})"


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


def heals_doc(injury: Any, rules: Any, lang: str, options: dict[str, Any] | None = None) -> list[str]:
    severity = rules.severities[injury.severity]
    ways = []
    if not (injury.no_natural_healing or injury.magic_only):
        names = {"long_rest": ("repos long", "long rest"), "hit_die": ("dé de vie (repos court)", "Hit Die (short rest)")}
        ways += [names[r][0 if lang == "fr" else 1] for r in severity.rests]
    if not injury.magic_only:
        ways.append(("traitement DD {dc}" if lang == "fr" else "treatment DC {dc}").format(dc=injury.dc)
                    + " (" + severity.treatment.text(lang).split(";")[-1].strip() + ")")
    from ..domain.injuries.care import magic_tiers

    tiers = magic_tiers(rules, options if options is not None else effective_options(rules, {}), injury)
    ways.append(("magie : " if lang == "fr" else "magic: ")
                + (" ou " if lang == "fr" else " or ").join(rules.magic_tiers[t].name(lang) for t in tiers))
    return ways


def injury_doc(injury: Any, state: Any, rules: Any, lang: str) -> dict[str, Any]:
    definition = rules.injuries[injury.injury]
    severity = rules.severities[injury.severity]
    doc = {
        "id": injury.id, "injury": injury.injury, "name": definition.name(lang), "table": injury.table,
        "severity": injury.severity, "severity_name": severity.name(lang), "d20": injury.d20, "dc": injury.dc,
        "failures": injury.failures, "no_natural_healing": injury.no_natural_healing,
        "magic_only": injury.magic_only, "site": injury.site, "text": definition.text(lang),
        "heals_by": heals_doc(injury, rules, lang, effective_options(rules, state.option_overrides())), "gained_at": injury.gained_at,
        "treatment_started": injury.treatment_started,
        "timers": {},
    }
    if injury.deadline_at is not None:
        doc["timers"]["deadline_at"] = injury.deadline_at
        doc["timers"]["deadline_in"] = injury.deadline_at - state.clock
    if injury.next_tick_at is not None:
        doc["timers"]["next_daily_effect_at"] = injury.next_tick_at
    if injury.max_hp_lost:
        doc["max_hp_lost"] = injury.max_hp_lost
    if injury.ability_lost:
        doc["ability_lost"] = dict(injury.ability_lost)
    return doc


# Other rule modules add their own parts of a character's document: fn(character, state, rules, lang) -> dict
CHARACTER_SECTIONS: list[Any] = []
# ... and their lines in the status view: fn(character_doc, lang, console)
STATUS_RENDERERS: list[Any] = []
# ... when imported: these modules (of presentation), loaded before any document or status is made, whichever
# command or route makes it. A command imports only its own module, a web worker what its routes needed so
# far: a document must not depend on that.
SECTION_MODULES = ("wounds", "afflictions")
_SECTIONS_LOADED: list[bool] = []


def load_sections() -> None:
    """Every rule module's document parts and status lines registered (once per process)."""
    if not _SECTIONS_LOADED:
        from importlib import import_module

        for name in SECTION_MODULES:
            import_module(f"sawbones.presentation.{name}")
        _SECTIONS_LOADED.append(True)


def character_doc(character: Any, state: Any, rules: Any, lang: str) -> dict[str, Any]:
    load_sections()
    doc = _base_character_doc(character, state, rules, lang)
    for section in CHARACTER_SECTIONS:
        doc.update(section(character, state, rules, lang))
    return doc


def _base_character_doc(character: Any, state: Any, rules: Any, lang: str) -> dict[str, Any]:
    return {
        "id": character.id, "name": character.name, "npc": character.npc, "hp": character.hp,
        "max_hp": character.max_hp, "dead": character.dead, "stable": character.stable,
        "dying": hit_points.dying(character, rules, state.system),
        "abilities": dict(character.abilities), "saves": dict(character.saves), "skills": dict(character.skills),
        "proficiencies": list(character.proficiencies), "external": list(character.external),
        "hit_die": character.hit_die,
        "hit_dice": character.hit_dice, "hit_dice_max": character.hit_dice_max, "body": character.body.__dict__,
        "notes": character.notes,
        "injuries": [injury_doc(i, state, rules, lang) for i in character.injuries],
    }


def render_character_list(doc: dict[str, Any], lang: str, con: Any) -> None:
    if not doc["characters"]:
        con.print(V.say("no_characters", lang))
    for c in doc["characters"]:
        con.print(f"{c['name']} ({c['id']}) {c['hp']}/{c['max_hp']} {V.say('hp', lang)}"
                  f"{' · ' + V.say('npc', lang) if c['npc'] else ''}", markup=False)


def conditions_of(character: Any, rules: Any, options: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    """Conditions the rules impose on a character now, each with its source."""
    from ..domain.engine.effects import conditions

    out = []
    for condition, active in conditions(character, rules, options):
        known = rules.conditions.get(condition)
        out.append({"id": condition, "name": known.name(lang) if known else condition,
                    "source": active.source(lang)})
    return out


def status_doc(service: Any, campaign: str, character: str | None, lang: str) -> dict[str, Any]:
    """`status` (CLI and API): the party, or one character, with the conditions the rules impose now."""
    from ..domain.engine.campaign import find_character

    loaded = service.load(campaign)
    ctx = service.context(loaded)
    state = loaded.state
    chars = [find_character(state, character)] if character else list(state.characters)
    return {"campaign": state.name, "clock": state.clock, "characters": [
        {**character_doc(c, state, ctx.rules, lang), "conditions": conditions_of(c, ctx.rules, ctx.options, lang)}
        for c in chars]}


def life_state(c: dict[str, Any]) -> str | None:
    """dead, stable, dying or None: what a character's HP line must say in words (colour is extra)."""
    if c["dead"]:
        return "dead"
    if c.get("dying", c["hp"] <= 0 and not c["stable"]):  # the system's hit point model says (pf1e: below 0)
        return "dying"
    return "stable" if c["hp"] <= 0 and c["stable"] else None


LIFE_STYLE = {"dead": "bold red", "dying": "bold yellow", "stable": "cyan"}


def render_status(doc: dict[str, Any], lang: str, con: Any) -> None:
    """The party, in plain words that survive a pipe: HP, dying/stable/dead, conditions, injuries, timers."""
    from rich.markup import escape

    load_sections()
    say = lambda key, **kw: V.say(key, lang, **kw)  # noqa: E731
    con.print(f"[bold]{escape(doc['campaign'])}[/] · {describe(doc['clock'], lang)}")
    if not doc["characters"]:
        con.print(say("no_characters"))
    for c in doc["characters"]:
        life = life_state(c)
        state = f" · [{LIFE_STYLE[life]}]{say(life)}[/]" if life else ""
        body = c["body"]
        lost = [say("lost", part=_body_word(k, lang), left=v) for k, v in body.items() if v < 2]
        npc = f" · {say('npc')}" if c.get("npc") else ""
        con.print(f"\n[bold]{escape(c['name'])}[/] {c['hp']}/{c['max_hp']} {say('hp')} · {say('hd')} "
                  f"{c['hit_dice']}/{c['hit_dice_max']}{npc}{state}{' · ' + ', '.join(lost) if lost else ''}")
        if c.get("conditions"):
            con.print("  " + say("conditions") + listed(
                (f"{escape(x['name'])} ({say('from')} {escape(x['source']['name'])})" for x in c["conditions"]), lang))
        if not c["injuries"] and not c.get("wounds") and not c.get("afflictions"):
            con.print("  " + say("no_injuries"))
        for render in STATUS_RENDERERS:  # other rule modules' lines (wounds, afflictions)
            render(c, lang, con)
        for i in c["injuries"]:
            style = SEVERITY_STYLE.get(i["severity"], "")
            site = f" ({_body_word(i['site'], lang)})" if i["site"] else ""
            treating = f" · {say('treating')}" if i.get("treatment_started") else ""
            con.print(f"  [{style}]{i['id']} {escape(i['name'])}{site}[/] · {i['severity_name']} · "
                      f"{say('dc')} {i['dc']}{treating}")
            con.print(f"     {escape(i['text'])}")
            con.print("     " + say("heals_by") + escape(listed(i["heals_by"], lang)))
            timers = i["timers"]
            if "deadline_in" in timers:
                when = describe_in(max(0, timers["deadline_in"]), lang)
                con.print(f"     [red]{say('secret_deadline')} {when}[/]")
            if "next_daily_effect_at" in timers:
                con.print(f"     {say('next_daily')}{describe(timers['next_daily_effect_at'], lang)}")
        for a in c.get("afflictions", []):
            render_affliction(a, lang, con)


def _body_word(part: str, lang: str) -> str:
    from .sentences import W

    return W.say(part, lang) if part in W else part


A = Words("affliction_status", {
    "active": ("active", "en cours"), "eliminated": ("out of the system, recovering", "éliminé, récupération"),
    "end_state": ("end state", "état final"), "cured": ("cured (after-effects)", "guéri (séquelles)"),
    "halted": ("halted", "enrayée"), "disease": ("disease", "maladie"), "poison": ("poison", "poison"),
    "stage_now": ("stage now: {stage}", "cran actuel : {stage}"),
    "next_save": ("next save: {when} ({due})", "prochain jet : {when} ({due})"),
    "saves_left": ("saves left: {n} ({span})", "jets restants : {n} ({span})"),
    "streak": ("cure streak: {current}/{needed}", "série de guérison : {current}/{needed}"),
    "failures": ("failures: {banked}/{needed}", "échecs : {banked}/{needed}"),
    "waiting": ("waiting for a die: {ids}", "en attente d'un dé : {ids}"),
    "permanent": ("permanent: {name} (removed by {by})", "définitif : {name} (levé par {by})"),
    "permanent_once_gone": ("permanent: {name} (removed by {by}, once the affliction is gone)",
                            "définitif : {name} (levé par {by}, une fois l'affection disparue)"),
    "ability_damage": ("ability damage: {list}", "affaiblissement : {list}"),
    "cure": ("cure: {text}", "guérison : {text}"),
})


def render_affliction(a: dict[str, Any], lang: str, con: Any) -> None:
    """One disease or poison: its track(s) as a ladder, the current stage in words, what is due, the cure streak."""
    from rich.markup import escape

    say = lambda key, **kw: A.say(key, lang, **kw)  # noqa: E731
    status = say("halted") if a["status"] == "eliminated" and a["kind"] == "disease" else (
        say(a["status"]) if a["status"] in A else a["status"])
    kind = say(a["kind"]) if a["kind"] in A else a["kind"]
    con.print(f"  [bold magenta]{a['id']} {escape(a['name'])}[/] · {kind} · {V.say('dc', lang)} {a['dc']} · {status}")
    for t in a["tracks"]:
        steps, now = [], None
        for st in t["ladder"]:
            label = escape(st["name"]) + ("†" if st["end_state"] else "")
            if st["current"]:
                now = st["name"]
            steps.append(f"[reverse]\\[{label}][/]" if st["current"] else (f"[red]{label}[/]" if st["reached"] else label))
        con.print("     " + " › ".join(steps))
        if now is not None:
            con.print("     " + say("stage_now", stage=escape(now)))
    parts = []
    if a.get("next_save"):
        parts.append(say("next_save", when=a["next_save"]["text"], due=a["next_save"]["in_text"]))
    if a.get("remaining"):
        parts.append(say("saves_left", n=a["remaining"]["saves"], span=a["remaining"]["text"]))
    if a["streak"]["needed"]:
        parts.append(say("streak", current=a["streak"]["current"], needed=a["streak"]["needed"]))
    if a.get("failures"):
        parts.append(say("failures", banked=a["failures"]["banked"], needed=a["failures"]["needed"]))
    if a.get("pending"):
        parts.append(say("waiting", ids=", ".join(a["pending"])))
    if parts:
        con.print("     " + " · ".join(parts))
    for p in a.get("permanent", []):
        con.print("     " + say("permanent_once_gone" if p.get("once_gone") else "permanent", name=escape(p["name"]),
                                by=", ".join(p.get("removed_by_names", p["removed_by"])) or "—"))
    if a.get("ability_damage"):
        con.print("     " + say("ability_damage", list=", ".join(f"{k} -{v}" for k, v in a["ability_damage"].items())))
    con.print("     " + say("cure", text=escape(a["cure"])))


def roll_doc(rules: Any, options: dict[str, Any], table_id: str, d20: int | None, bands: str | None,
             lang: str) -> dict[str, Any]:
    """`roll TABLE`: one d20 (typed, or rolled here) picks severity and row; not a campaign action."""
    import random

    from ..domain.injuries.table import pick_row

    face = d20 if d20 is not None else random.SystemRandom().randint(1, 20)
    pick = pick_row(rules, table_id, face, bands or options["severity_bands"], options["lenient_row_mapping"])
    return {"table": table_id, "d20": face, "typed": d20 is not None, "severity": pick.severity,
            "severity_name": rules.severities[pick.severity].name(lang), "injury": pick.injury.id,
            "name": pick.injury.name(lang), "text": pick.row.text(lang),
            "no_natural_healing": pick.row.no_natural_healing, "magic_only": pick.row.magic_only}


# ---------------------------------------------------------------- conditions with a duration (domain/conditions.py)


def timed_conditions_section(character: Any, state: Any, rules: Any, lang: str) -> dict[str, Any]:
    """The timed conditions in force: condition, source, end on the clock and time left."""
    from ..domain.engine.conditions import running

    out = []
    for timed in running(character):
        definition = rules.conditions.get(timed.condition)
        out.append({"id": timed.id, "condition": timed.condition,
                    "name": definition.name(lang) if definition else timed.condition,
                    "source": {"kind": timed.source_kind, "id": timed.source_id, "content_id": timed.content_id,
                               "name": timed.name_fr if lang == "fr" else timed.name_en},
                    "until": timed.until, "left": None if timed.until is None else max(0, timed.until - state.clock),
                    "until_combat_end": timed.until_combat_end})
    return {"timed_conditions": out}


def _render_timed(c: dict[str, Any], lang: str, con: Any) -> None:
    from rich.markup import escape

    for t in c.get("timed_conditions", ()):
        left = "" if t["left"] is None else f" · {'encore' if lang == 'fr' else 'for'} {describe_span(t['left'], lang)}"
        if t.get("until_combat_end"):
            left = " · " + ("jusqu'à la fin du combat" if lang == "fr" else "until the end of combat")
        con.print(f"  [bold magenta]{escape(t['name'])}[/] ← {escape(t['source']['name'])}{left}")


CHARACTER_SECTIONS.append(timed_conditions_section)
STATUS_RENDERERS.append(_render_timed)


def import_report(state: Any, events: list[dict[str, Any]], rules: Any, lang: str) -> dict[str, Any]:
    """What `character import` did: who was added, who was updated, their sheets, one line each."""
    fr = lang == "fr"
    added = [e["data"]["id"] for e in events if e["type"] == "character_added"]
    updated = [e["data"]["id"] for e in events if e["type"] == "character_edited"]
    chars = [c for c in state.characters if c.id in added + updated]
    lines = [(f"{c.name} : ajouté·e ({c.hp}/{c.max_hp} PV)" if fr else f"{c.name}: added ({c.hp}/{c.max_hp} HP)")
             if c.id in added else
             (f"{c.name} : fiche mise à jour ({c.hp}/{c.max_hp} PV)" if fr
              else f"{c.name}: sheet updated ({c.hp}/{c.max_hp} HP)") for c in chars]
    return {"added": added, "updated": updated, "lines": lines,
            "characters": [character_doc(c, state, rules, lang) for c in chars]}
