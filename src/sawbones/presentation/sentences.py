"""One sentence per event type, in English and French: what the CLI, the log and the dashboard say.

`sentence(event, state, rules, lang)` reads any stored event as a GM would say it: names, not ids
(long_rest → "a long rest", cure_wounds → "Cure Wounds"), rolls with their totals, no dict or list.
`SENTENCES` maps every event type to its function; tests/test_sentences.py walks every event type
the engine can emit and fails on a missing one or on a line that looks like data.
"""

from __future__ import annotations

from typing import Any, Callable

from ..domain.engine.clock import describe, describe_span
from ..i18n import Words, translate
from .typeset import counted
from .sentence_parts import (_damage, _save_pending, _hp_changed, _injury_changed, _injury_gained, _sheet_fields, _value,
                             _wound_received)

W = Words("sentences", {
    # events
    "campaign_created": ("campaign {name} created ({system}, dice seed {seed})",
                         "campagne {name} créée ({system}, graine des dés {seed})"),
    "campaign_renamed": ("the campaign is renamed {name} (was {was})", "la campagne s'appelle désormais {name} (avant : {was})"),
    "option_set": ("option {option} = {value}", "option {option} = {value}"),
    "content_packs_set": ("the campaign now loads the content packs {packs}", "la campagne charge désormais les paquets de contenu {packs}"),
    "no_packs": ("none", "aucun"),
    "option_reset": ("option {option} back to its default", "option {option} revenue à sa valeur par défaut"),
    "clock_advanced": ("the clock moves {span}", "l'horloge avance de {span}"),
    "character_added": ("{who} joins the party ({hp}/{max_hp} HP)", "{who} rejoint le groupe ({hp}/{max_hp} PV)"),
    "character_edited": ("{who}: sheet changed ({fields})", "{who} : fiche modifiée ({fields})"),
    "character_removed": ("{who} leaves the party", "{who} quitte le groupe"),
    "hp_changed": ("{who}: {hp} HP{max_hp}{cause}", "{who} : {hp} PV{max_hp}{cause}"),
    "max_hp": (" (max {max_hp})", " (max {max_hp})"),
    "noted": ("{who}: {moment}, nothing triggers", "{who} : {moment}, rien ne se déclenche"),
    "noted_save": ("{who}: {source} — {save} {total} vs DC {dc}, {verdict}{outcome}",
                   "{who} : {source} — {save} {total} contre DD {dc}, {verdict}{outcome}"),
    "noted_effect": ("{who}: {source} → {outcome}", "{who} : {source} → {outcome}"),
    "combat_end": ("End of combat: {ended} ended", "Fin du combat : fin de {ended}"),
    "rest_no_benefit": ("{who}: {hp} HP at the start of the long rest, no benefit (it needs at least 1 HP)",
                        "{who} : {hp} PV au début du repos long, aucun bienfait (il faut au moins 1 PV)"),
    "dying_check": ("{who}: dying, {check} check {total} vs DC {dc}: {verdict}",
                    "{who} : à l'agonie, test de {check} {total} contre DD {dc} : {verdict}"),
    "stable_now": ("stable", "stable"), "loses_hp": ("loses 1 HP", "perd 1 PV"),
    "massive_damage": ("killed outright by massive damage", "tué sur le coup par des dégâts massifs"),
    "negative_hp": ("hit points down to minus Constitution", "points de vie tombés à moins la Constitution"),
    "dying": ("dying", "à l'agonie"),
    "condition_gained": ("{who} becomes {condition}{until}{source}", "{who} devient {condition}{until}{source}"),
    "condition_ended": ("{who} is no longer {condition}", "{who} n'est plus {condition}"),
    "until_combat_end": (" (until the end of combat)", " (jusqu'à la fin du combat)"),
    "until": (" (until {when})", " (jusqu'à {when})"),
    "request_keyed": ("the action is recorded under its idempotency key (a retry gets the same answer)",
                      "l'action est enregistrée sous sa clé d'idempotence (une nouvelle tentative reçoit la même réponse)"),
    "character_stabilized": ("{who} is stable", "{who} est stable"),
    "damage_taken": ("{who}: {parts}{extra} = {total} damage → {hp} HP", "{who} : {parts}{extra} = {total} dégâts → {hp} PV"),
    "character_died": ("{who} dies{cause}", "{who} meurt{cause}"),
    "wound_received": ("{who}: wounded, {part} ({damage} damage, {kind}){fort}",
                       "{who} : blessure reçue, {part} ({damage} dégâts, {kind}){fort}"),
    "wound_fort": (", {save} save {total} vs DC {dc}: {verdict}", ", jet de {save} {total} contre DD {dc} : {verdict}"),
    "wound_first_aid": ("{who}: first aid on {wound}, {total} vs DC {dc}, {verdict}",
                        "{who} : premiers secours sur {wound}, {total} contre DD {dc}, {verdict}"),
    "wound_recovery": ("{who}: {wound} gets back {hp} HP ({recovered} in all)",
                       "{who} : {wound} récupère {hp} PV ({recovered} en tout)"),
    "wound_suppression_ended": ("{who}: the Fortitude save no longer holds off {wound}",
                                "{who} : le jet de Vigueur ne retient plus la pénalité de {wound}"),
    "wound_healed": ("{who}: {wound} heals ({how})", "{who} : {wound} guérit ({how})"),
    "injury_gained": ("{who}: new injury {id} — {name}{site}, {severity}, d20 {d20}, treatment DC {dc}",
                      "{who} : nouvelle blessure {id} — {name}{site}, {severity}, d20 {d20}, DD de traitement {dc}"),
    "injury_changed": ("{who}: {injury} changes ({fields})", "{who} : {injury} change ({fields})"),
    "injury_note": ("{who}: {injury}: {note}", "{who} : {injury} : {note}"),
    "injury_healed": ("{who}: {injury} heals ({how})", "{who} : {injury} guérit ({how})"),
    "injury_replaced": ("{who}: {injury} turns worse ({why})", "{who} : {injury} s'aggrave ({why})"),
    "treatment_started": ("{who}: treatment of {injury} begins ({span}{healer})",
                          "{who} : début du traitement de {injury} ({span}{healer})"),
    "healer": (", by {healer}", ", par {healer}"),
    "treatment_failed": ("{who}: treatment of {injury} fails, check {check} vs DC {dc}: the DC rises to {next_dc}",
                         "{who} : échec du traitement de {injury}, test {check} contre DD {dc} : le DD passe à {next_dc}"),
    "treated": ("{who}: {injury} heals (treatment, check {check} vs DC {dc})",
                "{who} : {injury} guérit (traitement, test {check} contre DD {dc})"),
    "deadline_held": ("{who}: {injury}: treatment began before the deadline; if it fails, the injury turns worse",
                      "{who} : {injury} : le traitement a commencé avant l'échéance ; s'il échoue, la blessure "
                      "s'aggrave"),
    "typed": ("typed", "tapé"),
    "body_changed": ("{who}: {part} {change:+d}", "{who} : {part} {change:+d}"),  # (a part with no words below)
    "lost_feet": ("{who} loses a foot", "{who} perd un pied"), "lost_hands": ("{who} loses a hand", "{who} perd une main"),
    "lost_eyes": ("{who} loses an eye", "{who} perd un œil"), "lost_ears": ("{who} loses an ear", "{who} perd une oreille"),
    "back_feet": ("{who} has a foot again", "{who} retrouve un pied"), "back_hands": ("{who} has a hand again",
                                                                                  "{who} retrouve une main"),
    "back_eyes": ("{who} sees with an eye again", "{who} retrouve un œil"), "back_ears": ("{who} has an ear again",
                                                                                      "{who} retrouve une oreille"),
    "affliction_contracted": ("{who} contracts {name}{facts}", "{who} contracte {name}{facts}"),
    "affliction_changed": ("{who}: {name} changes{facts}", "{who} : {name} évolue{facts}"),
    "affliction_saved": ("{who}: {name}, {save} {total} vs DC {dc}, {verdict}{facts}",
                         "{who} : {name}, {save} {total} contre DD {dc}, {verdict}{facts}"),
    "affliction_recovered": ("{who}: {name}, rest recovery{facts}", "{who} : {name}, récupération par le repos{facts}"),
    "affliction_spell": ("{who}: {spell} on {name}{facts}", "{who} : {spell} sur {name}{facts}"),
    "affliction_exposed": ("{who} is exposed to {name}: {save} {total} vs DC {dc}, {verdict}",
                           "{who} : exposition à {name} : {save} {total} contre DD {dc}, {verdict}"),
    "affliction_removed": ("{who}: {name} is gone", "{who} : {name} a disparu"),
    "save_pending": ("{who}: {name}, a {save} (DC {dc}) waits for the player's die: {id}",
                     "{who} : {name}, un {save} (DD {dc}) attend le dé du joueur : {id}"),
    "pending_cleared": ("{who}: the save waiting is answered", "{who} : le jet en attente a sa réponse"),
    "action_undone": ("action {action} undone", "action {action} annulée"),
    "unknown": ("{type}", "{type}"),
    "undone": ("undone", "annulée"),
    # words inside sentences
    "made": ("made", "réussi"), "failed": ("failed", "raté"),
    "superficial": ("superficial", "superficielle"), "severe": ("severe", "grave"),
    "ignored": ("penalty ignored", "malus ignoré"), "not_ignored": ("penalty stays", "le malus reste"),
    "healed": ("healed", "guérie"), "not_healed": ("not healed", "pas guérie"),
    "left": ("left", "gauche"), "right": ("right", "droite"),
    "hand": ("hand", "main"), "foot": ("foot", "pied"),
    "hands": ("hands", "mains"), "feet": ("feet", "pieds"), "eyes": ("eyes", "yeux"), "ears": ("ears", "oreilles"),
    "long_rest": ("a long rest", "un repos long"), "short_rest": ("a short rest", "un repos court"),
    "magic": ("magic", "magie"), "rest": ("rest", "repos"), "gm": ("the GM's word", "parole du MJ"),
    "first_aid": ("first aid", "premiers secours"), "treatment": ("treatment", "traitement"),
    "hit_die": ("a Hit Die", "un dé de vie"), "natural": ("natural healing", "guérison naturelle"),
    "turn": ("turn", "tour"), "dash": ("Dash", "Foncer"), "action": ("action", "action"),
    "fact_stage": ("{track}: {from_} → {to}", "{track} : {from_} → {to}"),
    "fact_cured": ("cured", "guérie"), "fact_eliminated": ("out of the system", "éliminée de l'organisme"),
    "fact_end_state": ("end state reached", "état final atteint"), "fact_removed": ("removed", "levée"),
    "fact_cl_check_failed": ("caster level check failed, no effect", "test de niveau de lanceur raté, sans effet"),
    "fact_cure_step": ("one save closer to a cure", "un jet de plus vers la guérison"),
    "fact_death": ("death", "mort"), "fact_hp_loss": ("{amount} HP lost", "{amount} PV perdus"),
    "fact_poison_damage": ("{amount} poison damage", "{amount} dégâts de poison"),
    "fact_ability_damage": ("{ability} damage {amount}", "affaiblissement de {ability} {amount}"),
    "fact_ability_damage_healed": ("ability damage healed", "affaiblissement soigné"),
    "fact_failure_banked": ("a failure banked", "un échec mis de côté"),
    "fact_permanent": ("a permanent effect", "un effet définitif"),
    "fact_permanent_removed": ("a permanent effect lifted", "un effet définitif levé"),
    "fact_permanent_removed_named": ("{condition} lifted (permanent)", "{condition} levé (définitif)"),
    "fact_spell_landed": ("the spell takes hold", "le sort agit"), "fact_floor": ("at its lowest stage", "au plus bas"),
    "fact_duration": ("its duration changes", "sa durée change"), "fact_note": ("{text}", "{text}"),
    "fact_other": ("a change", "un changement"),
    "counted": ("{n} {what}", "{n} {what}"),
    # players roll their own saves; secrets (domain/player_rolls.py, domain/secrets.py)
    "save_pending_wound": ("{who}: a Fortitude save (DC {dc}) to ignore a wound ({part}) waits for the player's die: "
                           "{id}", "{who} : un jet de Vigueur (DD {dc}) pour ignorer une blessure ({part}) attend le dé "
                           "du joueur : {id}"),
    "save_pending_treatment": ("{who}: the treatment check (DC {dc}) for {patient} waits for the player's die: {id}",
                               "{who} : le jet de soin (DD {dc}) pour {patient} attend le dé du joueur : {id}"),
    "save_pending_moment": ("{who}: {moment}, {name}: a {save} (DC {dc}) waits for the player's die: {id}",
                            "{who} : {moment}, {name} : un {save} (DD {dc}) attend le dé du joueur : {id}"),
    "save_pending_dying": ("{who}: dying, the {check} check to stabilize (DC {dc}) waits for the player's die: {id}",
                           "{who} : à l'agonie, le test de {check} pour se stabiliser (DD {dc}) attend le dé du "
                           "joueur : {id}"),
    "pending_answered": ("{who}: {by} answered the save waiting ({how})", "{who} : {by} a répondu au jet en attente ({how})"),
    "by_player": ("the player", "le joueur"), "by_gm": ("the GM", "le MJ"),
    "how_rolled": ("rolled by the server", "lancé par le serveur"), "how_d20": ("a d20 typed", "un d20 saisi"),
    "how_total": ("a total typed", "un total saisi"),
    "answer_proposed": ("{who}'s player answers {id} ({how}): it waits for the GM's confirmation",
                        "le joueur de {who} répond à {id} ({how}) : la réponse attend la confirmation du MJ"),
    "answer_rejected": ("the GM rejects the answer to {id}: the save waits for {who}'s player again",
                        "le MJ refuse la réponse à {id} : le jet attend à nouveau le joueur de {who}"),
    "affliction_known": ("{who}: {name} is now known to the player", "{who} : {name} est désormais connue du joueur"),
    "affliction_hidden": ("{who}: {name} is hidden from the player", "{who} : {name} est cachée au joueur"),
    "affliction_diagnosed": ("{who}: {healer}'s Heal check on {name}, {total} vs DC {dc}, {verdict}",
                             "{who} : test de Premiers secours de {healer} sur {name}, {total} contre DD {dc}, {verdict}"),
})


def say(key: str, lang: str, **fields: Any) -> str:
    return W.say(key, lang, **fields)


def named(rules: Any, value: Any, lang: str, *sections: str) -> str:
    """A content id as its name ("cure_wounds" → "Cure Wounds"); anything else as text, translated."""
    if not isinstance(value, str):
        return str(value)
    for section in sections or ("afflictions", "injuries", "spells", "damage_tables", "conditions", "body_parts",
                                "tracks", "abilities", "saves", "skills", "severities", "options"):
        entry = rules.section(section).get(value) if section in rules.sections else None
        if entry is not None and callable(getattr(entry, "name", None)):
            return entry.name(lang)
    if value in W:
        return say(value, lang)
    said = translate(value, lang, lambda v: named(rules, v, lang))
    if said == value and ": " in value:
        head, _, tail = value.partition(": ")
        return f"{named(rules, head, lang)}{' : ' if lang == 'fr' else ': '}{named(rules, tail, lang)}"
    return said


class _Ctx:
    def __init__(self, d: dict[str, Any], state: Any, rules: Any, lang: str,
                 known: dict[tuple[str, str], str] | None = None) -> None:
        self.d, self.state, self.rules, self.lang, self.known = d, state, rules, lang, known or {}

    def who(self, key: str = "character") -> str:
        cid = self.d.get(key)
        character = self.state.character(cid) if isinstance(cid, str) and self.state is not None else None
        return character.name if character else str(self.d.get("name") or cid or "")

    def character(self) -> Any:
        cid = self.d.get("character")
        return self.state.character(cid) if isinstance(cid, str) and self.state is not None else None

    def name(self, value: Any, *sections: str) -> str:
        return named(self.rules, value, self.lang, *sections)

    def say(self, key: str, **fields: Any) -> str:
        return say(key, self.lang, **fields)

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

        return save_roll(self.rules, self.d.get("save") or "fortitude", getattr(self.state, "system", None), self.lang)

    def verdict(self, ok: Any) -> str:
        return self.say("made" if ok else "failed")

    def total(self) -> str:
        from .save_words import save_total

        return save_total(self.d, self.lang)

    def facts(self) -> str:
        parts = [fact_text(f, self) for f in self.d.get("facts") or [] if isinstance(f, dict)]
        return (": " if self.lang == "en" else " : ") + ", ".join(parts) if parts else ""


def facts_text(data: dict[str, Any], state: Any, rules: Any, lang: str) -> str:
    """An event's facts in words (": Exhausted lifted (permanent), …"), '' when it has none."""
    return _Ctx(data, state, rules, lang).facts()


def fact_text(f: dict[str, Any], c: _Ctx) -> str:
    what = f.get("what")
    if what == "stage":
        track = c.rules.section("tracks").get(f.get("track"))

        def stage(sid: Any) -> str:
            st = next((s for s in track.stages if s.id == sid), None) if track else None
            return st.name(c.lang) if st else str(sid)

        return c.say("fact_stage", track=track.name(c.lang) if track else c.name(f.get("track")),
                     from_=stage(f.get("from")), to=stage(f.get("to")))
    if what in ("hp_loss", "poison_damage"):
        return c.say(f"fact_{what}", amount=f.get("amount", f.get("hp", "?")))
    if what == "ability_damage":
        return c.say("fact_ability_damage", ability=c.name(f.get("ability"), "abilities"), amount=f.get("amount", "?"))
    if what == "note":
        return c.say("fact_note", text=translate(str(f.get("text", "")), c.lang))
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
            sub = _Ctx({**r, "save": r["save"]}, c.state, c.rules, c.lang)
            lines.append(c.say("noted_save", who=c.who(), source=src, save=sub.save(), total=sub.total(),
                               dc=r.get("dc"), verdict=c.verdict(not r.get("failed")),
                               outcome=f" → {said}" if r.get("applies") and said else ""))
        elif r.get("applies"):
            lines.append(c.say("noted_effect", who=c.who(), source=src, outcome=said))
    moment = c.d.get("moment") or "turn"
    return "\n".join(lines) or c.say("noted", who=c.who(), moment=c.name(moment))


def _outcome(outcome: dict[str, Any], c: _Ctx) -> str:
    """What a trigger's outcome does, in words (domain.outcomes); "" when it does nothing."""
    from ..content.models import validate
    from ..content.schema import Outcome
    from ..domain.engine.outcomes import outcome_text

    said = outcome_text(validate(Outcome, outcome), c.rules)(c.lang)
    return "" if said == "—" else said


def _spell(c: _Ctx) -> str:
    from .save_words import spell_name

    return spell_name(c.rules, c.d.get("spell"), getattr(c.state, "system", None), c.lang)


def _condition_gained(c: _Ctx) -> str:
    d = c.d
    until = ""
    if d.get("until_combat_end"):
        until = c.say("until_combat_end")
    elif d.get("until") is not None:
        until = c.say("until", when=describe(int(d["until"]), c.lang))
    source = d.get("source") or {}
    name = source.get("name") if isinstance(source, dict) else source
    src = name.get(c.lang, name.get("en")) if isinstance(name, dict) else name
    return c.say("condition_gained", who=c.who(), condition=c.name(d.get("condition"), "conditions"), until=until,
                 source=f" ← {src}" if src else "")


def check_text(d: dict[str, Any], lang: str) -> str:
    """A check with its roll: "12 (1d20: 7, +5)" / "12 (1d20 : 7, +5)", or "12 (typed)" when the table gave the total.

    The die is the last one the check rolled (the event's `rolls`); the rest of the total is the healer's
    bonus with what the roll query added (its breakdown)."""
    rolls = [r for r in d.get("rolls") or [] if isinstance(r, dict)]
    check = d.get("check")
    if rolls and not rolls[-1].get("typed") and isinstance(check, int) and isinstance(rolls[-1].get("total"), int):
        r = rolls[-1]
        bonus = check - r["total"]
        colon = " : " if lang == "fr" else ": "  # "(1d20 : 7, +5)" in French, as every other colon
        return f"{check} ({r.get('formula')}{colon}{', '.join(str(f) for f in r.get('faces') or [])}" \
               f"{f', {bonus:+d}' if bonus else ''})"
    return f"{check} ({say('typed', lang)})"


def _injury_healed(c: _Ctx) -> str:
    d = c.d
    if d.get("how") == "replaced":
        return c.say("injury_replaced", who=c.who(), injury=c.injury(), why=c.name(str(d.get("why", ""))))
    if d.get("how") == "treatment" and "check" in d:
        return c.say("treated", who=c.who(), injury=c.injury(), check=check_text(d, c.lang), dc=d.get("dc"))
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
    "clock_advanced": lambda c: c.say("clock_advanced", span=describe_span(int(c.d.get("seconds", 0)), c.lang)),
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
                                         span=describe_span(int(c.d.get("seconds", 0)), c.lang),
                                         healer=c.say("healer", healer=c.who("healer")) if c.d.get("healer") else ""),
    "treatment_failed": lambda c: c.say("treatment_failed", who=c.who(), injury=c.injury(), check=check_text(c.d, c.lang),
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


def sentence(event: dict[str, Any], state: Any, rules: Any, lang: str,
             known: dict[tuple[str, str], str] | None = None) -> str:
    """Any stored event as the GM reads it (one or more lines). `known`: the injuries no longer on their
    character, by (character, injury id), so that "treatment of i1 begins" names it (`injury_names`)."""
    kind = event["type"]
    fn = SENTENCES.get(kind)
    data = event.get("data") if isinstance(event.get("data"), dict) else {}
    if fn is None:
        return say("unknown", lang, type=kind.replace("_", " "))
    return fn(_Ctx(data, state, rules, lang, known))

