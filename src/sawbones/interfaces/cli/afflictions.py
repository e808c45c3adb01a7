"""CLI: diseases and poisons on their progression tracks (seed 004).

expose, pending, answer, cure, recover; the afflictions section of a character's document; the
summary of an advance (saves made, stages changed, cures, deaths) in French or English.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import click

from ...presentation import save_words, sentences, views
from ...presentation.afflictions import (advance_doc, affliction_section, namers, nothing_happened, pending_doc,
                                         summary_text)
from ...message import N_
from ...presentation.locale import _
from ...presentation.locale import name as named


def render_pending(pending: list[dict[str, Any]], con: Any) -> None:
    from rich.markup import escape

    for p in pending:
        about = p.get("about") or p["affliction_name"] or ""  # a moment's roll says which trigger, or the check
        dc = _("DC")
        con.print(f"[bold]{p['id']}[/] {escape(p['name'])} · {escape(about)} · "
                  f"{escape(p['save_name'])} "
                  f"{dc} {p['dc']} · {p['at_text']}")
        resumes = ""  # a pending roll that interrupted an advance says where the clock goes once it is answered
        if p["target"] > p["at"]:
            resumes = " (" + _("resumes up to {target_text}", target_text=p["target_text"]) + ")"
        if p.get("proposed"):  # a player's answer waiting for the GM (confirm_player_answers)
            line = _("the player's answer waits for you: sawbones answer {id} --confirm (or --reject)", id=p["id"])
        elif p.get("to") == "player":
            line = _("waits for the player's die (on their page), or: sawbones answer {id} TOTAL{resumes}",
                     id=p["id"], resumes=resumes)
        else:
            line = _("answer: sawbones answer {id} TOTAL{resumes}", id=p["id"], resumes=resumes)
        con.print("  " + escape(line))


def render_advance(doc: dict[str, Any], con: Any) -> None:
    """An advance: what happened, save by save, then the summary and any save waiting for a die."""
    from rich.markup import escape

    for line in doc["summary"]["lines"]:
        con.print("  " + escape(line))
    for line in doc["story"]:
        con.print("  " + escape(line))
    said = summary_text(doc["summary"])
    if not doc["story"] or said != nothing_happened():  # not "nothing happened" under what did happen
        con.print(said)
    if doc["pending"]:
        if any(p.get("to") == "player" for p in doc["pending"]):
            con.print(_("[yellow]Advance stopped: a save waits for a player's die.[/]"))
        else:  # who_rolls gm: the GM rolls (or types the total), no player has a prompt
            con.print(_("[yellow]Advance stopped: a save waits for your die.[/]"))
        render_pending(doc["pending"], con)
    con.print(_("Clock: ") + doc["text"])


# ---------------------------------------------------------------- commands


def _render_result(doc: dict[str, Any], con: Any) -> None:
    from rich.markup import escape

    for line in doc.get("lines", []):
        con.print(escape(line))
    for a in doc.get("afflictions", []):
        views.render_affliction(a, con)


def register(cli: click.Group) -> None:
    from .env import pass_env

    @cli.command(help=N_("Expose NAME to a disease or poison: initial save, poison damage, first stage on a failure."))
    @click.argument("name")
    @click.argument("affliction")
    @click.option("--save", "total", type=int, help=N_("The initial save's total, as rolled at the table."))
    @click.option("--d20", type=click.IntRange(1, 20), help=N_("The natural d20 (pf1e: 1 fails, 20 succeeds); "
                     "alone, the character's bonus is added."))
    @click.option("--deadly", metavar="STAGE", help=N_("A truly deadly affliction: start at this stage (TRK-3)."))
    @click.option("--rolls", type=click.Choice(["gm", "players"]), help=N_("Who rolls the initial save when no total "
                     "is given: the server (gm) or the character's player (it waits as a pending save)."))
    @pass_env
    def expose(env, name, affliction, total, d20, deadly, rolls) -> None:
        from ...domain.afflictions.decide import expose as decide

        state, events = env.act(lambda ctx: decide(ctx, name, affliction, total, d20, deadly, rolls))
        if events[0]["type"] == "save_pending":
            doc = {"pending": pending_doc(state, env.service.rules_for(state)), "events": events}
            env.emit(doc, lambda con: render_pending(doc["pending"], con))
            return
        rules = env.service.rules_for(state)
        record = events[0]["data"]
        character = state.character(record["character"])
        aname = named(rules.afflictions[record["affliction"]].name)
        ok = _("succeeded") if record["succeeded"] else _("failed")
        dose = {"initial": _("exposure"), "extra": _("extra dose"), "renewed": _("new exposure")}[record["dose"]]
        lines = [_("{who} · {name} ({dose}): save {total} vs DC {dc} {verdict}", who=character.name, name=aname,
                   dose=dose, total=save_words.save_total(record), dc=record["dc"], verdict=ok)]
        if record["damage"]:
            lines.append(_("{damage} poison damage", damage=record["damage"])
                         + f" ({character.hp}/{character.max_hp} {views.V['hp']()})")
        if any(e["type"] == "character_died" for e in events):
            lines.append(_("{name} dies.", name=character.name))
        section = affliction_section(character, state, rules)
        doc = {"exposure": {k: v for k, v in record.items() if k != "rolls"}, "rolls": record.get("rolls", []),
               "character": character.id, "hp": character.hp, "dead": character.dead, **section,
               "events": events, "lines": lines}
        env.emit(doc, partial(_render_result, doc))

    @cli.command(help=N_("Saves waiting for a player's die (an advance stopped there)."))
    @pass_env
    def pending(env) -> None:
        state = env.service.load(env.campaign_name()).state
        rules = env.service.rules_for(state)
        doc = {"pending": pending_doc(state, rules)}
        env.emit(doc, lambda con: render_pending(doc["pending"], con) if doc["pending"]
                 else con.print(_("no save waiting")))

    @cli.command(help=N_("Give the total of a pending save; the interrupted advance resumes up to its target."))
    @click.argument("pending_id", metavar="ID")
    @click.argument("total", type=int, required=False)
    @click.option("--d20", type=click.IntRange(1, 20), help=N_("The natural d20 (with TOTAL: for natural 1/20; "
                     "alone: the character's bonus is added)."))
    @click.option("--auto", is_flag=True, help=N_("Roll any later save of the resumed advance."))
    @click.option("--roll", is_flag=True, help=N_("Roll this save with the campaign's dice (the character's bonus "
                                                  "added)."))
    @click.option("--confirm", is_flag=True, help=N_("Apply the player's answer that waits for you "
                                                     "(confirm_player_answers)."))
    @click.option("--reject", is_flag=True, help=N_("Refuse the player's answer: the save waits for the player again."))
    @pass_env
    def answer(env, pending_id, total, d20, auto, roll, confirm, reject) -> None:
        from ...domain.afflictions.decide import answer as decide

        state, events = env.act(lambda ctx: decide(ctx, pending_id, total, d20, auto, roll=roll, confirm=confirm,
                                                   reject=reject))
        rules = env.service.rules_for(state)
        doc = advance_doc(events, state, rules)
        env.emit(doc, partial(render_advance, doc))

    @cli.command(help=N_("Cast a spell on one of NAME's afflictions (id like d3 for a disease, t4 for a poison, or the "
                         "affliction's id)."))
    @click.argument("name")
    @click.argument("affliction")
    @click.option("--spell", required=True, metavar="SPELL",
                  help=N_("neutralize_poison, remove_disease, heal, restoration, greater_restoration, "
                          "lesser_restoration, remove_curse, remove_blindness_deafness, regenerate, miracle, wish."))
    @click.option("--cl-check", type=int, help=N_("The caster level check's total (1d20 + CL), as rolled."))
    @click.option("--cl", type=click.IntRange(0, 40), help=N_("Caster level: roll the caster level check."))
    @pass_env
    def cure(env, name, affliction, spell, cl_check, cl) -> None:
        from ...domain.afflictions.care import cast

        state, events = env.act(lambda ctx: cast(ctx, name, affliction, spell, cl_check, cl))
        rules = env.service.rules_for(state)
        data = events[0]["data"]
        character = state.character(data["character"])
        facts = [f["what"] for f in data.get("facts", [])]
        spell_name = save_words.spell_name(rules, spell, state.system)
        if "cl_check_failed" in facts:
            line = _("{spell_name}: caster level check failed ({total} vs DC {dc}), no effect.", spell_name=spell_name,
                     total=data["cl_check"]["total"], dc=data["cl_check"]["dc"])
        else:
            line = spell_name + sentences.facts_text(data, state, rules)
        doc = {"spell": spell, "character": character.id, "affliction": data["affliction"],
               "facts": data.get("facts", []), "cl_check": data.get("cl_check"),
               **affliction_section(character, state, rules), "events": events, "lines": [line]}
        env.emit(doc, partial(_render_result, doc))

    @cli.command(help=N_("Rest recovery from poisons out of NAME's system (TRK-8)."))
    @click.argument("name")
    @click.option("--bed-rest", "how", flag_value="bed_rest", help=N_("A full day of bed rest (one step)."))
    @click.option("--night", "how", flag_value="night", help=N_("A night of normal rest (two nights: one step)."))
    @click.option("--care", is_flag=True, help=N_("With long-term care (successful Heal check): recovery doubled."))
    @pass_env
    def recover(env, name, how, care) -> None:
        from ...domain.afflictions.care import recover as decide

        if how is None:
            raise click.UsageError(_("give --bed-rest or --night"))
        state, events = env.act(lambda ctx: decide(ctx, name, how == "bed_rest", care))
        rules = env.service.rules_for(state)
        character = state.character(events[0]["data"]["character"])
        _who, affliction, stage = namers(state, rules)
        lines = []
        for e in events:
            d = e["data"]
            moved = [f"{stage(f['track'], f['from'])} → {stage(f['track'], f['to'])}" for f in d["facts"]
                     if f["what"] == "stage"]
            lines.append(f"{affliction(d['content'])}: " + (", ".join(moved) if moved else _("no step recovered yet")))
        doc = {"character": character.id, "recovered": [e["data"] for e in events],
               **affliction_section(character, state, rules), "lines": lines}
        env.emit(doc, partial(_render_result, doc))
