"""CLI: diseases and poisons on their progression tracks (seed 004).

expose, pending, answer, cure, recover; the afflictions section of a character's document; the
summary of an advance (saves made, stages changed, cures, deaths) in French or English.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import click

from .. import save_words, sentences, views
from ...presentation.afflictions import (SUMMARY, advance_doc, affliction_section, namers, pending_doc,
                                         summary_text)


def _t(fr: str, en: str, lang: str) -> str:
    return fr if lang == "fr" else en


def render_pending(pending: list[dict[str, Any]], lang: str, con: Any) -> None:
    from rich.markup import escape

    for p in pending:
        about = p.get("about") or p["affliction_name"] or ""  # a moment's roll says which trigger, or the check
        con.print(f"[bold]{p['id']}[/] {escape(p['name'])} · {escape(about)} · "
                  f"{escape(p['save_name'])} "
                  f"{_t('DD', 'DC', lang)} {p['dc']} · {p['at_text']}")
        resumes = ""  # a pending roll that interrupted an advance says where the clock goes once it is answered
        if p["target"] > p["at"]:
            resumes = " (" + _t(f"reprend jusqu'à {p['target_text']}", f"resumes up to {p['target_text']}", lang) + ")"
        if p.get("proposed"):  # a player's answer waiting for the GM (confirm_player_answers)
            line = _t(f"réponse du joueur à confirmer : sawbones answer {p['id']} --confirm (ou --reject)",
                      f"the player's answer waits for you: sawbones answer {p['id']} --confirm (or --reject)", lang)
        elif p.get("to") == "player":
            line = _t(f"attend le dé du joueur (sur sa page), ou : sawbones answer {p['id']} TOTAL{resumes}",
                      f"waits for the player's die (on their page), or: sawbones answer {p['id']} TOTAL{resumes}",
                      lang)
        else:
            line = _t(f"répondre : sawbones answer {p['id']} TOTAL{resumes}",
                      f"answer: sawbones answer {p['id']} TOTAL{resumes}", lang)
        con.print("  " + escape(line))


def render_advance(doc: dict[str, Any], lang: str, con: Any) -> None:
    """An advance: what happened, save by save, then the summary and any save waiting for a die."""
    from rich.markup import escape

    for line in doc["summary"]["lines"]:
        con.print("  " + escape(line))
    for line in doc["story"]:
        con.print("  " + escape(line))
    said = summary_text(doc["summary"], lang)
    if not doc["story"] or said != SUMMARY.say("nothing", lang):  # not "nothing happened" under what did happen
        con.print(said)
    if doc["pending"]:
        con.print(_t("[yellow]Avance interrompue : un jet attend le dé d'un joueur.[/]",
                     "[yellow]Advance stopped: a save waits for a player's die.[/]", lang))
        render_pending(doc["pending"], lang, con)
    con.print(_t("Horloge : ", "Clock: ", lang) + doc["text"])



# ---------------------------------------------------------------- commands


def _render_result(doc: dict[str, Any], lang: str, con: Any) -> None:
    from rich.markup import escape

    for line in doc.get("lines", []):
        con.print(escape(line))
    for a in doc.get("afflictions", []):
        views.render_affliction(a, lang, con)


def register(cli: click.Group) -> None:
    from .env import pass_env

    @cli.command()
    @click.argument("name")
    @click.argument("affliction")
    @click.option("--save", "total", type=int, help="The initial save's total, as rolled at the table.")
    @click.option("--d20", type=click.IntRange(1, 20), help="The natural d20 (pf1e: 1 fails, 20 succeeds); "
                  "alone, the character's bonus is added.")
    @click.option("--deadly", metavar="STAGE", help="A truly deadly affliction: start at this stage (TRK-3).")
    @click.option("--rolls", type=click.Choice(["gm", "players"]), help="Who rolls the initial save when no total "
                  "is given: the server (gm) or the character's player (it waits as a pending save).")
    @pass_env
    def expose(env, name, affliction, total, d20, deadly, rolls) -> None:
        """Expose NAME to a disease or poison: initial save, poison damage, first stage on a failure."""
        from ...domain.afflictions.decide import expose as decide

        state, events = env.act(lambda ctx: decide(ctx, name, affliction, total, d20, deadly, rolls))
        if events[0]["type"] == "save_pending":
            doc = {"pending": pending_doc(state, env.service.rules_for(state), env.lang), "events": events}
            env.emit(doc, lambda con: render_pending(doc["pending"], env.lang, con))
            return
        rules = env.service.rules_for(state)
        record = events[0]["data"]
        character = state.character(record["character"])
        lang = env.lang
        aname = rules.afflictions[record["affliction"]].name(lang)
        ok = _t("réussi", "succeeded", lang) if record["succeeded"] else _t("raté", "failed", lang)
        dose = {"initial": ("exposition", "exposure"), "extra": ("dose supplémentaire", "extra dose"),
                "renewed": ("nouvelle exposition", "new exposure")}[record["dose"]]
        lines = [f"{character.name} · {aname} ({_t(*dose, lang)}){_t(' : ', ': ', lang)}"
                 f"{_t('jet', 'save', lang)} {save_words.save_total(record, lang)} "
                 f"{_t('contre DD', 'vs DC', lang)} {record['dc']} {ok}"]
        if record["damage"]:
            lines.append(_t(f"{record['damage']} dégâts de poison", f"{record['damage']} poison damage", lang)
                         + f" ({character.hp}/{character.max_hp} {views.V.say('hp', lang)})")
        if any(e["type"] == "character_died" for e in events):
            lines.append(_t(f"{character.name} meurt.", f"{character.name} dies.", lang))
        section = affliction_section(character, state, rules, lang)
        doc = {"exposure": {k: v for k, v in record.items() if k != "rolls"}, "rolls": record.get("rolls", []),
               "character": character.id, "hp": character.hp, "dead": character.dead, **section,
               "events": events, "lines": lines}
        env.emit(doc, partial(_render_result, doc, lang))

    @cli.command()
    @pass_env
    def pending(env) -> None:
        """Saves waiting for a player's die (an advance stopped there)."""
        state = env.service.load(env.campaign_name()).state
        rules = env.service.rules_for(state)
        doc = {"pending": pending_doc(state, rules, env.lang)}
        env.emit(doc, lambda con: render_pending(doc["pending"], env.lang, con) if doc["pending"]
                 else con.print(_t("aucun jet en attente", "no save waiting", env.lang)))

    @cli.command()
    @click.argument("pending_id", metavar="ID")
    @click.argument("total", type=int, required=False)
    @click.option("--d20", type=click.IntRange(1, 20), help="The natural d20 (with TOTAL: for natural 1/20; "
                  "alone: the character's bonus is added).")
    @click.option("--auto", is_flag=True, help="Roll any later save of the resumed advance.")
    @click.option("--roll", is_flag=True, help="Roll this save with the campaign's dice (the character's bonus added).")
    @click.option("--confirm", is_flag=True, help="Apply the player's answer that waits for you (confirm_player_answers).")
    @click.option("--reject", is_flag=True, help="Refuse the player's answer: the save waits for the player again.")
    @pass_env
    def answer(env, pending_id, total, d20, auto, roll, confirm, reject) -> None:
        """Give the total of a pending save; the interrupted advance resumes up to its target."""
        from ...domain.afflictions.decide import answer as decide

        state, events = env.act(lambda ctx: decide(ctx, pending_id, total, d20, auto, roll=roll, confirm=confirm,
                                                   reject=reject))
        rules = env.service.rules_for(state)
        doc = advance_doc(events, state, rules, env.lang)
        env.emit(doc, partial(render_advance, doc, env.lang))

    @cli.command()
    @click.argument("name")
    @click.argument("affliction")
    @click.option("--spell", required=True, metavar="SPELL",
                  help="neutralize_poison, remove_disease, heal, restoration, greater_restoration, "
                       "lesser_restoration, remove_curse, remove_blindness_deafness, regenerate, miracle, wish.")
    @click.option("--cl-check", type=int, help="The caster level check's total (1d20 + CL), as rolled.")
    @click.option("--cl", type=click.IntRange(0, 40), help="Caster level: roll the caster level check.")
    @pass_env
    def cure(env, name, affliction, spell, cl_check, cl) -> None:
        """Cast a spell on one of NAME's afflictions (id like a3, or the affliction's id)."""
        from ...domain.afflictions.care import cast

        state, events = env.act(lambda ctx: cast(ctx, name, affliction, spell, cl_check, cl))
        rules = env.service.rules_for(state)
        data = events[0]["data"]
        character = state.character(data["character"])
        lang = env.lang
        facts = [f["what"] for f in data.get("facts", [])]
        spell_name = save_words.spell_name(rules, spell, state.system, lang)
        if "cl_check_failed" in facts:
            line = _t(f"{spell_name} : test de niveau de lanceur raté ({data['cl_check']['total']} contre DD "
                      f"{data['cl_check']['dc']}), sans effet.",
                      f"{spell_name}: caster level check failed ({data['cl_check']['total']} vs DC "
                      f"{data['cl_check']['dc']}), no effect.", lang)
        else:
            line = spell_name + sentences.facts_text(data, state, rules, lang)
        doc = {"spell": spell, "character": character.id, "affliction": data["affliction"],
               "facts": data.get("facts", []), "cl_check": data.get("cl_check"),
               **affliction_section(character, state, rules, lang), "events": events, "lines": [line]}
        env.emit(doc, partial(_render_result, doc, lang))

    @cli.command()
    @click.argument("name")
    @click.option("--bed-rest", "how", flag_value="bed_rest", help="A full day of bed rest (one step).")
    @click.option("--night", "how", flag_value="night", help="A night of normal rest (two nights: one step).")
    @click.option("--care", is_flag=True, help="With long-term care (successful Heal check): recovery doubled.")
    @pass_env
    def recover(env, name, how, care) -> None:
        """Rest recovery from poisons out of NAME's system (TRK-8)."""
        from ...domain.afflictions.care import recover as decide

        if how is None:
            raise click.UsageError("give --bed-rest or --night")
        state, events = env.act(lambda ctx: decide(ctx, name, how == "bed_rest", care))
        rules = env.service.rules_for(state)
        character = state.character(events[0]["data"]["character"])
        _, affliction, stage = namers(state, rules, env.lang)
        lines = []
        for e in events:
            d = e["data"]
            moved = [f"{stage(f['track'], f['from'])} → {stage(f['track'], f['to'])}" for f in d["facts"]
                     if f["what"] == "stage"]
            lines.append(f"{affliction(d['content'])}: " + (", ".join(moved) if moved else _t(
                "pas encore de cran regagné", "no step recovered yet", env.lang)))
        doc = {"character": character.id, "recovered": [e["data"] for e in events],
               **affliction_section(character, state, rules, env.lang), "lines": lines}
        env.emit(doc, partial(_render_result, doc, env.lang))
