"""CLI: localized wounds (wound, firstaid, wound-heal) and the roll query (mods)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

import click

from ...presentation import save_words, views
from ...presentation.typeset import labelled
from ...message import N_
from ...presentation.locale import _, language, pgettext, say
from ...presentation.wounds import ROLL, SIDES, render_wound_lines, roll_context, roll_title
from .parsing import NamedChoice, said_metavar

if TYPE_CHECKING:
    from ...content.rules import Rules


def _source(src: dict[str, Any]) -> str:
    if src.get("kind") == "condition":
        origins = ", ".join(o["name"] for o in src.get("from", ()))
        return f"{src['name']} ← {origins}" if origins else src["name"]
    if not src:
        return "sawbones"
    stage = f" · {src['stage']}" if src.get("stage") else ""
    kind = _SOURCE_KINDS[src["kind"]]() if src.get("kind") in _SOURCE_KINDS else src.get("kind", "")
    return f"{src['name']}{stage} [{kind} {src['id']}]"


# what a line's source is, said before its id ("[wound w3]" / "[plaie w3]"; the --json keeps the kind's id)
_SOURCE_KINDS = {"injury": lambda: pgettext("source kind", "injury"),
                 "wound": lambda: pgettext("source kind", "wound"),
                 "affliction": lambda: pgettext("source kind", "affliction"),
                 "condition": lambda: pgettext("source kind", "condition")}


def render_answer(doc: dict[str, Any], name: str, con: Any, title: list[str] | None = None) -> None:
    from rich.markup import escape

    from ...presentation.time_words import describe

    roll = doc["roll"]
    what = title or [roll["kind"]] + [str(roll[k]) for k in ("skill", "save", "ability", "range",
                                                                          "hand", "sense") if roll.get(k)]
    colon = _(": ")
    con.print(f"[bold]{escape(name)}[/] · {escape(' · '.join(what))} ({save_words.system_name(doc['system'])})")
    mode = {"normal": _("normal"), "advantage": _("advantage"), "disadvantage": _("disadvantage")}[doc["mode"]]
    fail = " · [bold red]" + _("AUTOMATIC FAILURE") + "[/]" if doc["auto_fail"] else ""
    rolled = _("roll")
    if doc.get("bonus") is not None:  # the sheet and the effects, one reading (presentation/roll_bonus.py)
        total = _("bonus {bonus}", bonus=f"[bold]{doc['bonus']:+d}[/]")
    else:  # an attack: the sheet holds no number, the effects' total goes on top of the player's own
        total = _("modifier") + f" [bold]{doc['modifier']:+d}[/]"
    parts = f" ({escape(doc['parts'])})" if doc.get("parts") else ""
    con.print(f"  {total}{parts} · {rolled}{colon}[bold]{mode}[/]{fail}")
    for m in doc["modifiers"]:
        style = "" if m.get("stacks", True) else "[dim]"
        tail = "" if m.get("stacks", True) else _(" (does not stack)")
        note = f" — {escape(m['note'])}" if m.get("note") else ""
        con.print(f"  {style}{m['value']:+d} {escape(_source(m['source']))}{tail}{note}")
    for key, label in (("advantage", N_("advantage")), ("disadvantage", N_("disadvantage")),
                       ("auto_fails", N_("automatic failure"))):
        for line in doc[key]:
            con.print("  " + _(label) + f"{colon}{escape(_source(line['source']))}")
    # a line without a value is said by its type's words (its id, `auto_fail`, is the --json's)
    kinds = {"advantage": N_("advantage"), "disadvantage": N_("disadvantage"), "auto_fail": N_("automatic failure")}
    if doc["mode"] == "normal" and doc["advantage"] and doc["disadvantage"]:
        con.print("  " + _("advantage and disadvantage cancel out"))
    for line in doc["suppressed"]:
        until = describe(line["suppressed_until"]) if line.get("suppressed_until") is not None \
            else _("it heals")
        value = f"{line['value']:+d} " if line.get("value") is not None \
            else f"{_(kinds[line['type']]) if line['type'] in kinds else line['type']} "
        con.print(f"  [dim]{value}{escape(_source(line['source']))}[/] — "
                  + _("ignored (Fortitude) until {until}", until=until))
    for line in doc["conditional"]:
        value = f"{line['value']:+d}" if line.get("value") is not None \
            else (_(kinds[line["type"]]) if line["type"] in kinds else line["type"])
        tail = "" if line.get("stacks", True) else _(" (does not stack)")
        con.print(f"  [yellow]? {value}[/] {escape(_source(line['source']))}{tail} — "
                  f"{escape(pgettext('list', ' or ').join(line['if']))}")
    for cond in doc["conditions"]:
        mark = "" if cond["matters"] else "[dim]"
        by = cond.get("superseded_by_name") or cond.get("superseded_by")
        replaced, condition = _("replaced by"), _("condition")
        sup = f" ({replaced} {by})" if by else ""
        con.print(f"  {mark}{condition}{colon}{escape(_source(cond['source']))}{sup}")
        if cond["matters"] and cond["reading"]:
            con.print(f"     {escape(cond['reading'])}")
    for line in doc["restrictions"]:
        restriction = _("restriction")
        con.print(f"  {restriction}{colon}{escape(line['text'])} — {escape(_source(line['source']))}")
    for line in doc["triggers"]:
        con.print(f"  [red]![/] {escape(line['text'])} — {escape(_source(line['source']))}")
    for line in doc["notes"]:
        cond = f" ({'; '.join(line['if'])})" if line.get("if") else ""
        note = _("note: ")
        con.print(f"  [dim]{note}{escape(line['text'])}{cond} — {escape(_source(line['source']))}[/]")


# ---------------------------------------------------------------- commands


def _roll_context(rules: Rules, roll: str, **given: Any) -> Any:
    """`roll_context`, its refusal said as click says a bad argument (ROLL)."""
    from ...errors import UsageError

    try:
        return roll_context(rules, roll, **given)
    except UsageError as exc:
        raise click.BadParameter(say(exc.text), param_hint=said_metavar("ROLL")) from None


def register(cli: click.Group) -> None:
    from .env import pass_env

    def character_view(env, state, character_id) -> dict[str, Any]:
        character = state.character(character_id)
        return views.character_doc(character, state, env.service.rules_for(state))

    @cli.command("wound", help=N_("Wound one body part of NAME: -2 on what that part does (hand, arm, head, eye, "
                                  "ear, foot_leg)."))
    @click.argument("name")
    @click.argument("part")
    @click.option("--damage", type=click.IntRange(1, 10000), required=True, help=N_("Damage taken by that part."))
    @click.option("--side", type=NamedChoice(SIDES), help=N_("Left or right (hand, arm, eye, ear, foot/leg; gauche, "
                     "droite)."))
    @click.option("--superficial/--severe", default=None,
                  help=N_("Superficial (first aid, 1 HP of magic or a day of rest heal it) or not (default: by damage, "
                          "option superficial_threshold)."))
    @click.option("--fort", "fort_total", type=click.IntRange(-20, 60), metavar="TOTAL",
                  help=N_("Total of the optional Fortitude save (DC 10 + damage; option allow_fort_ignore)."))
    @click.option("--cause", default="", help=N_("What did it (caltrops, flames...)."))
    @click.option("--rolls", type=click.Choice(["gm", "players"]), help=N_("Who rolls the Fortitude save when no "
                     "--fort is given: the server (gm) or the character's player (the wound waits for their die)."))
    @pass_env
    def wound_cmd(env, name, part, damage, side, superficial, fort_total, cause, rolls) -> None:
        from rich.markup import escape

        from ...domain.wounds.rules import wound

        state, events = env.act(lambda ctx: wound(ctx, name, part, damage, side, superficial, fort_total, cause,
                                                  rolls))
        if events[0]["type"] == "save_pending":  # the player rolls the Fortitude save
            from .afflictions import pending_doc, render_pending

            waiting = {"pending": pending_doc(state, env.service.rules_for(state)), "events": events}
            env.emit(waiting, lambda con: render_pending(waiting["pending"], con))
            return
        data = events[0]["data"]
        character = views.character_doc(state.character(data["character"]), state,
                                         env.service.rules_for(state))
        doc = {"wound": next(w for w in character["wounds"] if w["id"] == data["id"]), "events": events,
               "wound_conditions": character["wound_conditions"]}

        def render(con):
            con.print(f"[bold]{escape(character['name'])}[/]:")
            render_wound_lines({"wounds": [doc["wound"]], "wound_conditions": doc["wound_conditions"]}, con)
            fort = data.get("fort")
            if fort:
                result = _("success: penalty ignored") if fort["success"] else _("failure")
                save = save_words.save_name(env.service.rules_for(state), "fortitude", state.system)
                dc = _("DC")
                con.print(f"  {escape(save)} {dc} {fort['dc']}: {fort['total']} ({result})")

        env.emit(doc, render)

    @cli.command("firstaid", help=N_("A DC 15 first-aid (Heal) check on a superficial wound; success heals it."))
    @click.argument("name")
    @click.argument("wound_id", metavar="WOUND")
    @click.option("--check", "total", type=click.IntRange(-20, 60), metavar="TOTAL",
                  help=N_("Total of the Heal (first aid) check."))
    @click.option("--healer", help=N_("Who gives first aid (the check is rolled with their Heal or Medicine bonus)."))
    @pass_env
    def firstaid_cmd(env, name, wound_id, total, healer) -> None:
        from ...domain.wounds.rules import first_aid

        state, events = env.act(lambda ctx: first_aid(ctx, name, wound_id, total, healer))
        attempt = events[0]["data"]
        from rich.markup import escape

        from ...presentation.save_words import save_total

        doc = {"wound": wound_id, "dc": attempt["dc"], "total": attempt["total"], "success": attempt["success"],
               "breakdown": attempt.get("breakdown"), "events": events,
               "character": character_view(env, state, attempt["character"])}
        said = (N_("First aid on {wound}: {total} vs DC {dc} — [green]healed[/]") if attempt["success"]
                else N_("First aid on {wound}: {total} vs DC {dc} — [red]failed[/]"))
        env.emit(doc, lambda con: con.print(_(said, wound=wound_id, total=escape(save_total(attempt)),
                                              dc=attempt["dc"])))

    @cli.command("wound-heal", help=N_("Heal wounds (all of NAME's, or the WOUNDs given) by magic, by a day of rest, "
                                       "or by the GM's word."))
    @click.argument("name")
    @click.argument("wound_ids", metavar="[WOUND]...", nargs=-1)
    @click.option("--magic", type=click.IntRange(0, 10000), metavar="HP", help=N_("Hit points of magical healing."))
    @click.option("--rest", is_flag=True, help=N_("A day of rest has just ended (superficial wounds a day old heal)."))
    @click.option("--hp", type=click.IntRange(1, 10000), help=N_("With --rest: hit points the rest gave back."))
    @click.option("--gm", is_flag=True, help=N_("The GM declares the wound healed."))
    @pass_env
    def wound_heal_cmd(env, name, wound_ids, magic, rest, hp, gm) -> None:
        from ...domain.wounds.rules import heal_wounds

        def decide(ctx):
            return heal_wounds(ctx, name, list(wound_ids), magic, rest, hp, gm)

        state, events = env.act(decide)
        healed = [e["data"]["wound"] for e in events if e["type"] == "wound_healed"]
        progress = [e["data"] for e in events if e["type"] == "wound_recovery"]
        character = state.character(name)
        doc = {"healed": healed, "recovery": progress, "events": events,
               "character": character_view(env, state, character.id) if character else None}

        def render(con):
            con.print(labelled(pgettext("wounds", "Healed"), ", ".join(healed)) if healed
                      else _("No wound healed."))
            for p in progress:
                con.print("  " + labelled(p["wound"], _("{recovered} HP recovered so far", recovered=p["recovered"])))

        env.emit(doc, render)

    @cli.command("mods", help=N_("What applies to one roll of NAME: the bonus (the sheet's value and the effects', "
                                 "with its parts), advantage, automatic failure, conditions, notes, each sourced.\n"
                                 "\n"
                                 "ROLL: attack, damage, check, skill, save, initiative, ac, concentration, spell_dc, caster_level (or\n"
                                 "their names in either language: attaque, jet de sauvegarde), a skill, save or ability as a shortcut\n"
                                 "(perception, reflex, str, Force), or a roll as the player's page names it (\"Strength check\",\n"
                                 "\"Attack (left hand)\", \"test de Force\")."))
    @click.argument("name")
    @click.argument("roll")
    @click.option("--ability", type=click.Choice(["str", "dex", "con", "int", "wis", "cha"]), help=N_("Ability the "
                                                                                                      "roll uses."))
    @click.option("--skill", help=N_("Skill (id or name, 5e or 3.5/PF: perception, spot, Escalade...)."))
    @click.option("--save", help=N_("Save (fortitude, reflex, will, or an ability)."))
    @click.option("--hand", type=NamedChoice({k: ROLL[k] for k in ("left", "right", "both")}),
                  help=N_("Hand (or arm) the attack is made with."))
    @click.option("--ranged", "range_", flag_value="ranged", default=None, help=N_("A ranged attack."))
    @click.option("--melee", "range_", flag_value="melee", help=N_("A melee attack."))
    @click.option("--sense", type=click.Choice(["sight", "hearing"]), help=N_("The sense the roll relies on."))
    @click.option("--armor", metavar="metal|none|ID", help=N_("Armour worn: metal, none, or an armour id."))
    @click.option("--standing/--prone", default=None, help=N_("Standing or prone."))
    @click.option("--combat/--no-combat", default=None, help=N_("In combat or not."))
    @click.option("--fear-in-sight/--fear-out-of-sight", "fear", default=None,
                  help=N_("5e frightened: the source of its fear is in sight, or not."))
    @click.option("--weapon/--no-weapon", default=None, help=N_("Made with a weapon, or not (PF1 sickened: weapon "
                                                                "damage)."))
    @pass_env
    def mods_cmd(env, name, roll, ability, skill, save, hand, range_, sense, armor, standing, combat, fear,
                 weapon) -> None:
        from ...domain.engine.campaign import find_character
        from ...domain.engine.options import effective_options
        from ...domain.engine.roll_query import query
        from ...presentation.roll_answer import answer_doc
        from ...presentation.roll_bonus import with_sheet

        state = env.service.load(env.campaign_name()).state
        rules = env.service.rules_for(state)
        character = find_character(state, name)
        context = _roll_context(rules, roll, ability=ability, skill=skill, save=save, hand=hand, range=range_,
                               sense=sense, armor=armor, standing=standing, in_combat=combat,
                               fear_source_in_sight=fear, weapon=weapon)
        answer = query(character, rules, effective_options(rules, state.option_overrides()), state.system, context)
        doc = {"character": character.id, "name": character.name} | with_sheet(answer_doc(answer), character, rules,
                                                                               state.system)
        env.emit(doc, partial(render_answer, doc, character.name, title=roll_title(rules, state.system, doc["roll"])))
