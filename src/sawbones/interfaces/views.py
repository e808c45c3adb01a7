"""Read models for the CLI (and later the API): JSON-ready documents, and their Rich renderings."""

from __future__ import annotations

from typing import Any

from ..domain.clock import describe, describe_span

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
    con.print(f"[bold]{doc['name']}[/] · {doc['system']} · {describe(doc['clock'], lang)} · seed {doc['seed']}")
    if doc["options"]:
        for key, value in doc["options"].items():
            con.print(f"  {key} = {value}")
    else:
        con.print("  all options at their defaults")
    con.print("  characters: " + (", ".join(c["name"] for c in doc["characters"]) or "none"))


def options_doc(rules: Any, values: dict[str, Any], lang: str) -> dict[str, Any]:
    return {"options": [
        {"id": o.id, "group": o.group, "type": o.type, "value": values[o.id], "default": o.default,
         "choices": list(o.choices), "help": o.help(lang), "ref": o.ref}
        for o in rules.options.values()]}


def render_options(doc: dict[str, Any], con: Any) -> None:
    from rich.table import Table

    table = Table("option", "value", "default", "help", show_lines=False)
    for o in doc["options"]:
        mark = "" if o["value"] == o["default"] else "[bold]"
        table.add_row(o["id"], f"{mark}{o['value']}", str(o["default"]), o["help"])
    con.print(table)


def heals_doc(injury: Any, rules: Any, lang: str) -> list[str]:
    severity = rules.severities[injury.severity]
    ways = []
    if not (injury.no_natural_healing or injury.magic_only):
        names = {"long_rest": ("repos long", "long rest"), "hit_die": ("dé de vie (repos court)", "Hit Die (short rest)")}
        ways += [names[r][0 if lang == "fr" else 1] for r in severity.rests]
    if not injury.magic_only:
        ways.append(("traitement DD {dc}" if lang == "fr" else "treatment DC {dc}").format(dc=injury.dc)
                    + " (" + severity.treatment.text(lang).split(";")[-1].strip() + ")")
    definition = rules.injuries[injury.injury]
    tier = rules.magic_tiers[definition.magic_tier or severity.magic_tier]
    ways.append(("magie : " if lang == "fr" else "magic: ") + tier.name(lang))
    return ways


def injury_doc(injury: Any, state: Any, rules: Any, lang: str) -> dict[str, Any]:
    definition = rules.injuries[injury.injury]
    severity = rules.severities[injury.severity]
    doc = {
        "id": injury.id, "injury": injury.injury, "name": definition.name(lang), "table": injury.table,
        "severity": injury.severity, "severity_name": severity.name(lang), "d20": injury.d20, "dc": injury.dc,
        "failures": injury.failures, "no_natural_healing": injury.no_natural_healing,
        "magic_only": injury.magic_only, "site": injury.site, "text": definition.text(lang),
        "heals_by": heals_doc(injury, rules, lang), "gained_at": injury.gained_at,
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


def character_doc(character: Any, state: Any, rules: Any, lang: str) -> dict[str, Any]:
    doc = _base_character_doc(character, state, rules, lang)
    for section in CHARACTER_SECTIONS:
        doc.update(section(character, state, rules, lang))
    return doc


def _base_character_doc(character: Any, state: Any, rules: Any, lang: str) -> dict[str, Any]:
    return {
        "id": character.id, "name": character.name, "npc": character.npc, "hp": character.hp,
        "max_hp": character.max_hp, "dead": character.dead, "stable": character.stable,
        "abilities": dict(character.abilities), "saves": dict(character.saves), "skills": dict(character.skills),
        "proficiencies": list(character.proficiencies), "external": list(character.external),
        "hit_die": character.hit_die,
        "hit_dice": character.hit_dice, "hit_dice_max": character.hit_dice_max, "body": character.body.__dict__,
        "notes": character.notes,
        "injuries": [injury_doc(i, state, rules, lang) for i in character.injuries],
    }


def render_character_list(doc: dict[str, Any], con: Any) -> None:
    if not doc["characters"]:
        con.print("no characters yet")
    for c in doc["characters"]:
        con.print(f"{c['name']} ({c['id']}) {c['hp']}/{c['max_hp']} HP{' · NPC' if c['npc'] else ''}", markup=False)


def render_status(doc: dict[str, Any], lang: str, con: Any) -> None:
    from rich.markup import escape

    con.print(f"[bold]{escape(doc['campaign'])}[/] · {describe(doc['clock'], lang)}")
    if not doc["characters"]:
        con.print("no characters yet")
    for c in doc["characters"]:
        state = " · [bold red]DEAD[/]" if c["dead"] else ""
        body = c["body"]
        lost = [f"{k} {v}/2" for k, v in body.items() if v < 2]
        con.print(f"\n[bold]{escape(c['name'])}[/] {c['hp']}/{c['max_hp']} HP · HD {c['hit_dice']}/{c['hit_dice_max']}"
                  f"{state}{' · ' + ', '.join(lost) if lost else ''}")
        if not c["injuries"] and not c.get("wounds"):
            con.print("  no injuries" if lang == "en" else "  aucune blessure")
        for render in STATUS_RENDERERS:  # other rule modules' lines (wounds, afflictions)
            render(c, lang, con)
        for i in c["injuries"]:
            style = SEVERITY_STYLE.get(i["severity"], "")
            site = f" ({i['site']})" if i["site"] else ""
            con.print(f"  [{style}]{i['id']} {escape(i['name'])}{site}[/] · {i['severity_name']} · DC {i['dc']}")
            con.print(f"     {escape(i['text'])}")
            con.print("     " + ("guérit par : " if lang == "fr" else "heals by: ") + "; ".join(i["heals_by"]))
            timers = i["timers"]
            if "deadline_in" in timers:
                when = describe_span(max(0, timers["deadline_in"]), lang)
                con.print(f"     [red]{'échéance secrète dans' if lang == 'fr' else 'secret deadline in'} {when}[/]")
            if "next_daily_effect_at" in timers:
                con.print(f"     {'prochain effet quotidien' if lang == 'fr' else 'next daily effect'}: "
                          f"{describe(timers['next_daily_effect_at'], lang)}")
        for a in c.get("afflictions", []):
            render_affliction(a, lang, con)


STATUS_WORDS = {
    "active": ("en cours", "active"), "eliminated": ("éliminé, récupération", "eliminated, recovering"),
    "end_state": ("état final", "end state"), "cured": ("guéri (séquelles)", "cured (after-effects)"),
}


def render_affliction(a: dict[str, Any], lang: str, con: Any) -> None:
    """One disease or poison: its track(s) as a ladder with the current stage, what is due, the cure streak."""
    from rich.markup import escape

    fr = lang == "fr"
    status = STATUS_WORDS.get(a["status"], (a["status"], a["status"]))[0 if fr else 1]
    if a["status"] == "eliminated" and a["kind"] == "disease":
        status = "enrayée" if fr else "halted"
    con.print(f"  [bold magenta]{a['id']} {escape(a['name'])}[/] · {a['kind']} · {'DD' if fr else 'DC'} {a['dc']}"
              f" · {status}")
    for t in a["tracks"]:
        steps = []
        for st in t["ladder"]:
            label = escape(st["name"]) + ("†" if st["end_state"] else "")
            steps.append(f"[reverse]{label}[/]" if st["current"] else (f"[red]{label}[/]" if st["reached"] else label))
        con.print("     " + " › ".join(steps))
    parts = []
    if a.get("next_save"):
        parts.append(("prochain jet : " if fr else "next save: ") + f"{a['next_save']['text']}"
                     + (f" ({'dans' if fr else 'in'} {a['next_save']['in_text']})"))
    if a.get("remaining"):
        r = a["remaining"]
        parts.append(f"{r['saves']} {'jets restants' if fr else 'saves left'} ({r['text']})")
    if a["streak"]["needed"]:
        parts.append(("série : " if fr else "cure streak: ") + f"{a['streak']['current']}/{a['streak']['needed']}")
    if a.get("failures"):
        parts.append(("échecs : " if fr else "failures: ") + f"{a['failures']['banked']}/{a['failures']['needed']}")
    if a.get("pending"):
        parts.append(("en attente : " if fr else "waiting: ") + ", ".join(a["pending"]))
    if parts:
        con.print("     " + " · ".join(parts))
    for p in a.get("permanent", []):
        con.print(f"     {'permanent' if not fr else 'définitif'}: {escape(p['name'])} "
                  f"({'levé par' if fr else 'removed by'} {', '.join(p['removed_by']) or '—'})")
    if a.get("ability_damage"):
        con.print(f"     {'dégâts de caractéristique' if fr else 'ability damage'}: "
                  + ", ".join(f"{k} -{v}" for k, v in a["ability_damage"].items()))
    con.print(f"     {'guérison' if fr else 'cure'}: {escape(a['cure'])}")


def render_log(doc: dict[str, Any], con: Any) -> None:
    from rich.markup import escape

    for e in doc["events"]:
        mark = " [dim](undone)[/]" if e["undone"] else ""
        data = ", ".join(f"{k}={v}" for k, v in e["data"].items() if k not in ("rolls",))
        con.print(f"{e['version']:>5} a{e['action']:<4} {e['type']}{mark} {escape(data)}")


def render_advance(doc: dict[str, Any], state: Any, lang: str, con: Any) -> None:
    from rich.markup import escape

    for e in doc["events"]:
        con.print(f"  {e['type']}: {escape(str(e['data']))}")
    con.print(("Horloge : " if lang == "fr" else "Clock: ") + doc["text"])


def _name(state: Any, character_id: str | None) -> str:
    character = state.character(character_id) if character_id else None
    return character.name if character else str(character_id)


def describe_event(event: dict[str, Any], state: Any, rules: Any, lang: str) -> str | None:
    """One line for people; None for bookkeeping events."""
    d, kind, fr = event["data"], event["type"], lang == "fr"
    who = _name(state, d.get("character"))
    if kind == "damage_taken":
        parts = " + ".join(f"{a} {k}" for a, k in d["parts"])
        extra = "".join(f" + {e['amount']} ({e['source']})" for e in d["extra"])
        return f"{who}: {parts}{extra} = {d['total']} → {d['hp']} {'PV' if fr else 'HP'}"
    if kind == "injury_gained":
        definition = rules.injuries[d["injury"]]
        site = f" ({d['site']})" if d.get("site") else ""
        severity = rules.severities[d["severity"]].name(lang)
        head = "nouvelle blessure" if fr else "new injury"
        return f"{who}: {head} {d['id']} — {definition.name(lang)}{site}, {severity}, d20 {d['d20']}, DD {d['dc']}" \
            if fr else f"{who}: {head} {d['id']} — {definition.name(lang)}{site}, {severity}, d20 {d['d20']}, DC {d['dc']}"
    if kind == "injury_healed":
        how = d.get("how", "")
        if how == "replaced":
            return f"{who}: {d['injury']} {'se transforme' if fr else 'turns worse'} ({d.get('why', '')})"
        return f"{who}: {d['injury']} {'guérie' if fr else 'healed'} ({how}{', ' + d['spell'] if d.get('spell') else ''})"
    if kind == "treatment_started":
        from ..domain.clock import describe_span

        return f"{who}: {'traitement de' if fr else 'treating'} {d['injury']} ({describe_span(d['seconds'], lang)})"
    if kind == "treatment_failed":
        return f"{who}: {'échec du traitement' if fr else 'treatment failed'} {d['check']} < {d['dc']} → DC {d['dc'] + 2}"
    if kind == "hp_changed":
        max_hp = f" (max {d['max_hp']})" if "max_hp" in d else ""
        return f"{who}: {d['hp']} {'PV' if fr else 'HP'}{max_hp}{' · ' + d['cause'] if d.get('cause') else ''}"
    if kind == "body_changed":
        return f"{who}: {d['part']} {d['change']:+d}"
    if kind == "character_died":
        return f"{who}: {'MORT' if fr else 'DEAD'} ({d.get('cause', '')})"
    if kind == "character_stabilized":
        return f"{who}: {'stabilisé' if fr else 'stable'}"
    if kind == "injury_changed" and d.get("note"):
        return f"{who}: {d['injury']} {d['note']}"
    if kind == "noted" and "results" in d:
        lines = []
        for r in d["results"]:
            src = r["source"]["name"]
            if "save" in r:
                verdict = ("raté" if fr else "failed") if r["failed"] else ("réussi" if fr else "made")
                lines.append(f"{who}: {src} — {r['save']} {save_total(r, lang)} vs {r['dc']} {verdict}"
                             + (f" → {', '.join(k for k in r['outcome'])}" if r["applies"] else ""))
            elif r["applies"]:
                lines.append(f"{who}: {src} → {', '.join(f'{k} {v}' for k, v in r['outcome'].items())}")
        return "\n".join(lines) or f"{who}: {'rien ne se déclenche' if fr else 'nothing triggers'}"
    if kind in ("affliction_exposed", "affliction_spell", "affliction_recovered"):
        return _affliction_line(d, kind, who, rules, lang)
    return None


def save_total(d: dict[str, Any], lang: str) -> str:
    """A save's total for a line, with what made its bonus when more than the sheet did: "12",
    "12 (sheet +4, Sickened -2)", "automatic failure (Paralyzed: automatic failure)"."""
    from ..domain.saves import describe

    breakdown = d.get("breakdown") or {}
    why = describe(breakdown, lang) if breakdown.get("lines") else ""
    if d.get("total") is None:
        return why or ("échec automatique" if lang == "fr" else "automatic failure")
    return f"{d['total']} ({why})" if why else str(d["total"])


def _affliction_line(d: dict[str, Any], kind: str, who: str, rules: Any, lang: str) -> str:
    """Exposures, spells and rest recovery of the progression tracks."""
    fr = lang == "fr"
    content = d.get("content") or d.get("affliction")
    defn = rules.afflictions.get(content) if isinstance(content, str) else None
    what = defn.name(lang) if defn else str(content or "")
    if kind == "affliction_exposed":
        ok = ("réussi" if fr else "made") if d.get("succeeded") else ("raté" if fr else "failed")
        return (f"{who} · {what}: {'jet' if fr else 'save'} {save_total(d, lang)} "
                f"{'contre DD' if fr else 'vs DC'} {d.get('dc')} {ok}")
    facts = ", ".join(str(f.get("what")) for f in d.get("facts", []) if isinstance(f, dict))
    return f"{who} · {what}: {d.get('spell', '') + ' → ' if d.get('spell') else ''}{facts or ('rien' if fr else 'no change')}"


def render_events(events: list[dict[str, Any]], state: Any, rules: Any, lang: str, con: Any) -> None:
    from rich.markup import escape

    for event in events:
        line = describe_event(event, state, rules, lang)
        if line:
            con.print(escape(line))
    con.print(f"[dim]{describe(state.clock, lang)}[/]")


def roll_doc(rules: Any, options: dict[str, Any], table_id: str, d20: int | None, bands: str | None,
             lang: str) -> dict[str, Any]:
    """`roll TABLE`: one d20 (typed, or rolled here) picks severity and row; not a campaign action."""
    import random

    from ..domain.injury_table import pick_row

    face = d20 if d20 is not None else random.SystemRandom().randint(1, 20)
    pick = pick_row(rules, table_id, face, bands or options["severity_bands"], options["lenient_row_mapping"])
    return {"table": table_id, "d20": face, "typed": d20 is not None, "severity": pick.severity,
            "severity_name": rules.severities[pick.severity].name(lang), "injury": pick.injury.id,
            "name": pick.injury.name(lang), "text": pick.row.text(lang),
            "no_natural_healing": pick.row.no_natural_healing, "magic_only": pick.row.magic_only}


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
