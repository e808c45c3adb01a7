"""CLI: diseases and poisons on their progression tracks (seed 004).

expose, pending, answer, cure, recover; the afflictions section of a character's document; the
summary of an advance (saves made, stages changed, cures, deaths) in French or English.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import click

from ...i18n import Words
from ...presentation import save_words, sentences, views

# ---------------------------------------------------------------- read model


def _t(fr: str, en: str, lang: str) -> str:
    return fr if lang == "fr" else en


def affliction_doc(a: Any, character: Any, state: Any, rules: Any, lang: str) -> dict[str, Any]:
    from ...domain.afflictions.lasting import once_gone
    from ...domain.afflictions.rules import ACTIVE, ELIMINATED, end_index, interval
    from ...presentation.time_words import describe, describe_in, describe_span
    from ...domain.engine.options import effective_options

    options = effective_options(rules, state.option_overrides())

    defn = rules.afflictions.get(a.affliction)
    tracks = []
    for track_id, index in zip(a.tracks, a.stages):
        track = rules.tracks[track_id]
        end = end_index(track)
        tracks.append({
            "track": track_id, "name": track.name(lang), "index": index, "stage": track.stages[index].id,
            "stage_name": track.stages[index].name(lang), "end_state": track.stages[end].id if end is not None else None,
            "ladder": [{"id": st.id, "name": st.name(lang), "current": i == index, "end_state": i == end,
                        "reached": 0 < i <= index} for i, st in enumerate(track.stages)]})
    doc: dict[str, Any] = {
        "id": a.id, "affliction": a.affliction, "name": defn.name(lang) if defn else a.affliction,
        "kind": a.kind, "dc": a.dc, "status": a.status, "contracted_at": a.contracted_at, "tracks": tracks,
        "cure": defn.cure.text(lang) if defn else "", "next_save": None, "pending": [
            p.id for p in state.pending if p.character == character.id and p.affliction == a.id],
        "streak": {"current": a.streak, "needed": None}, "remaining": None,
        "permanent": [{"condition": p.condition, "name": rules.conditions[p.condition].name(lang)
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
                            "text": describe(a.next_save_at, lang),
                            "in_text": describe_in(max(0, a.next_save_at - state.clock), lang)}
        if a.saves_left is not None and defn:
            seconds = (a.next_save_at - state.clock) + (a.saves_left - 1) * interval(defn)
            doc["remaining"] = {"saves": a.saves_left, "seconds": seconds,
                                "text": describe_span(max(0, seconds), lang)}
    if a.status == ELIMINATED and a.kind == "poison":
        doc["recovery"] = {"half_steps": a.rest, "since": a.rest_at}
    if a.onset_stages:
        doc["onset_stages"] = list(a.onset_stages)
    return doc


def affliction_section(character: Any, state: Any, rules: Any, lang: str) -> dict[str, Any]:
    return {"afflictions": [affliction_doc(a, character, state, rules, lang) for a in character.afflictions]}


if affliction_section not in views.CHARACTER_SECTIONS:
    views.CHARACTER_SECTIONS.append(affliction_section)


# ---------------------------------------------------------------- what an advance did


def _names(state: Any, rules: Any, lang: str):
    def character(cid: str) -> str:
        c = state.character(cid)
        return c.name if c else cid

    def affliction(content: str) -> str:
        d = rules.afflictions.get(content)
        return d.name(lang) if d else content

    def stage(track: str, stage_id: str) -> str:
        t = rules.tracks.get(track)
        st = next((x for x in t.stages if x.id == stage_id), None) if t else None
        return st.name(lang) if st else stage_id

    return character, affliction, stage


def tracks_summary(events: list[dict], state: Any, rules: Any, lang: str) -> dict[str, Any]:
    """Lines for each save and change, and the totals: saves made, stages changed, cures, deaths."""
    from ...presentation.time_words import describe

    character, affliction, stage = _names(state, rules, lang)
    lines: list[str] = []
    totals = {"saves": 0, "succeeded": 0, "failed": 0, "stages_changed": 0, "cured": 0, "eliminated": 0,
              "end_states": 0, "deaths": 0}
    for e in events:
        d = e["data"]
        if e["type"] == "affliction_saved":
            totals["saves"] += 1
            totals["succeeded" if d["succeeded"] else "failed"] += 1
            ok = _t("réussi", "success", lang) if d["succeeded"] else _t("raté", "failure", lang)
            line = (f"[{describe(d['at'], lang)}] {character(d['character'])} · {affliction(d['content'])}{_t(' : ', ': ', lang)}"
                    f"{save_words.save_total(d)} {_t('contre DD', 'vs DC', lang)} {d['dc']} {ok}")
            changes = [f"{stage(f['track'], f['from'])} → {stage(f['track'], f['to'])}"
                       for f in d["facts"] if f["what"] == "stage"]
            if changes:
                line += " · " + ", ".join(changes)
            lines.append(line)
        elif e["type"] == "save_pending":
            lines.append(f"[{describe(d['at'], lang)}] {character(d['character'])}{_t(' : ', ': ', lang)}"
                         + _t(f"jet en attente {d['id']} (DD {d['dc']})", f"save waiting {d['id']} (DC {d['dc']})", lang))
        elif e["type"] == "character_died":
            lines.append(f"{character(d['character'])}{_t(' : ', ': ', lang)}" + _t("MORT", "DEAD", lang))
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


SUMMARY = Words("advance_summary", {
    "head": ("Summary: {parts}.", "Bilan : {parts}."),
    "nothing": ("Summary: nothing happened.", "Bilan : rien ne s'est passé."),
})
SUMMARY_COUNTS = {"injury_gained": "injuries_gained", "injury_healed": "injuries_healed",
                  "wound_healed": "wounds_healed", "hp_changed": "hp_changes"}
# each count with its noun, agreeing with it: "2 saves (1 made, 1 failed), 1 stage change" (typeset's units)
SUMMARY_UNITS = {"stages_changed": "stage_change", "cured": "cure", "eliminated": "poison_out",
                 "end_states": "end_state", "deaths": "death", "injuries_gained": "new_injury",
                 "injuries_healed": "injury_healed_or_worse", "wounds_healed": "wound_healed", "hp_changes": "hp_change"}


def summary_text(summary: dict[str, Any], lang: str) -> str:
    """Only what happened, as counts: "Summary: 1 new injury, 1 injury healed or turned worse."."""
    from ...presentation.typeset import counted

    t = summary["totals"]
    parts = []
    if t["saves"]:
        parts.append(f"{counted(t['saves'], 'save')} ({counted(t['succeeded'], 'save_made')}, "
                     f"{counted(t['failed'], 'save_failed')})")
    for key in ("stages_changed", "cured", "eliminated", "end_states", "deaths", *SUMMARY_COUNTS.values()):
        if t.get(key):
            parts.append(counted(t[key], SUMMARY_UNITS[key]))
    return SUMMARY.say("head", lang, parts=", ".join(parts)) if parts else SUMMARY.say("nothing", lang)


def pending_doc(state: Any, rules: Any, lang: str) -> list[dict[str, Any]]:
    from ...presentation.time_words import describe
    from ...presentation.moment_words import about, roll_name

    out = []
    for p in state.pending:
        c = state.character(p.character)
        a = next((x for x in c.afflictions if x.id == p.affliction), None) if c else None
        content = a.affliction if a else p.content  # an exposure's initial save: no instance yet
        out.append({"id": p.id, "character": p.character, "name": c.name if c else p.character,
                    "affliction": p.affliction, "content": content,
                    "affliction_name": rules.afflictions[content].name(lang) if content in rules.afflictions else None,
                    "about": about(rules, p), "kind": p.kind, "to": p.to, "proposed": dict(p.proposed) or None,
                    "save": p.save, "save_name": roll_name(rules, p, state.system), "dc": p.dc,
                    "at": p.at, "at_text": describe(p.at, lang), "target": p.target,
                    "target_text": describe(p.target, lang)})
    return out


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


def advance_doc(events: list[dict], state: Any, rules: Any, lang: str) -> dict[str, Any]:
    from ...presentation.time_words import describe

    from ...presentation.sentence_parts import injury_names
    from ...presentation.sentences import sentence

    told = [e for e in events if e["type"] != "clock_advanced"]
    known = injury_names(told)
    return {"clock": state.clock, "text": describe(state.clock, lang), "events": told,
            "story": [sentence(e, state, rules, known) for e in told if not e["type"].startswith(SUMMARY_TOLD)],
            "summary": tracks_summary(events, state, rules, lang), "pending": pending_doc(state, rules, lang)}


# told by the summary's own lines (tracks_summary), not again in the story
SUMMARY_TOLD = ("affliction_saved", "save_pending", "pending_", "character_died")


# ---------------------------------------------------------------- commands


def _render_result(doc: dict[str, Any], lang: str, con: Any) -> None:
    from rich.markup import escape

    for line in doc.get("lines", []):
        con.print(escape(line))
    for a in doc.get("afflictions", []):
        views.render_affliction(a, con)


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
                 f"{_t('jet', 'save', lang)} {save_words.save_total(record)} "
                 f"{_t('contre DD', 'vs DC', lang)} {record['dc']} {ok}"]
        if record["damage"]:
            lines.append(_t(f"{record['damage']} dégâts de poison", f"{record['damage']} poison damage", lang)
                         + f" ({character.hp}/{character.max_hp} {views.V['hp']()})")
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
        spell_name = save_words.spell_name(rules, spell, state.system)
        if "cl_check_failed" in facts:
            line = _t(f"{spell_name} : test de niveau de lanceur raté ({data['cl_check']['total']} contre DD "
                      f"{data['cl_check']['dc']}), sans effet.",
                      f"{spell_name}: caster level check failed ({data['cl_check']['total']} vs DC "
                      f"{data['cl_check']['dc']}), no effect.", lang)
        else:
            line = spell_name + sentences.facts_text(data, state, rules)
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
        _, affliction, stage = _names(state, rules, env.lang)
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
