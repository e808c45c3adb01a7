"""Sentences of events that read only their own data: `c` is the sentence's context (sentences.py `_Ctx`:
the event's data `d`, the campaign, the rules, the language, and `say`, `who`, `name`, ... to word them)."""

from __future__ import annotations

from typing import Any

from ..i18n import add_texts


# causes and notes the rules write in English inside events
add_texts([
    ("deadline passed", "échéance dépassée"),
    ("deadline met: treatment started", "échéance tenue : traitement commencé"),
    ("dropped to 0 HP by {type} damage", "tombé à 0 PV par des dégâts de type {type}"),
    ("dropped to 0 HP by {source}", "tombé à 0 PV par {source}"),
    ("{source}: hit point maximum 0", "{source} : maximum de PV à 0"),
    ("{source}: Constitution 0", "{source} : Constitution à 0"),
    ("{source}: poison damage", "{source} : dégâts de poison"),
    ("{source}: deadline passed", "{source} : échéance dépassée"),
    ("deadline passed: no hand left to lose", "échéance dépassée : plus de main à perdre"),
    ("deadline passed: no foot left to lose", "échéance dépassée : plus de pied à perdre"),
    ("{source}: {save} save ({id})", "{source} : jet de {save} ({id})"),
])


def _sheet_fields(changes: Any, c: Any) -> str:
    labels = {"hp": ("HP", "PV"), "max_hp": ("max HP", "PV max"), "notes": ("notes", "notes"),
              "name": ("name", "nom"), "npc": ("NPC", "PNJ"), "abilities": ("abilities", "caractéristiques"),
              "saves": ("saves", "jets de sauvegarde"), "skills": ("skills", "compétences"),
              "proficiencies": ("proficiencies", "maîtrises"), "hit_die": ("hit die", "dé de vie"),
              "hit_dice": ("Hit Dice", "dés de vie"), "hit_dice_max": ("Hit Dice max", "dés de vie max"),
              "body": ("body", "corps"), "long_rests": ("long rests", "repos longs"),
              "deadline_at": ("deadline", "échéance"), "deadline_passed": ("deadline", "échéance"),
              "dc": ("DC", "DD"), "failures": ("failures", "échecs"), "next_tick_at": ("next daily effect",
                                                                                    "prochain effet quotidien")}
    keys = list(changes) if isinstance(changes, dict) else []
    return ", ".join(dict.fromkeys(labels.get(k, (k.replace("_", " "),) * 2)[c.lang == "fr"] for k in keys))


def _hp_changed(c: Any) -> str:
    d = c.d
    cause = d.get("cause") or d.get("why")
    return c.say("hp_changed", who=c.who(), hp=d.get("hp"),
                 max_hp=c.say("max_hp", max_hp=d["max_hp"]) if "max_hp" in d else "",
                 cause=f" · {c.name(cause)}" if cause else "")


def _damage(c: Any) -> str:
    d = c.d
    parts = " + ".join(f"{a} {c.name(k, 'damage_tables')}" for a, k in d.get("parts", []))
    extra = "".join(f" + {e.get('amount')} ({c.name(e.get('source'))})" for e in d.get("extra", []))
    return c.say("damage_taken", who=c.who(), parts=parts, extra=extra, total=d.get("total"), hp=d.get("hp"))


def _value(value: Any, c: Any) -> str:
    if isinstance(value, bool):
        return ("oui" if value else "non") if c.lang == "fr" else ("yes" if value else "no")
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) or "—"
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items()) or "—"
    return str(value)


def _wound_received(c: Any) -> str:
    d = c.d
    fort = d.get("fort") or {}
    fort_text = (c.say("wound_fort", save=c.name("fortitude", "saves"), total=fort.get("total"), dc=fort.get("dc"),
                       verdict=c.say("ignored" if fort.get("success") else "not_ignored"))
                 if fort.get("total") is not None else "")
    return c.say("wound_received", who=c.who(), part=c.part(d.get("part"), d.get("side")), damage=d.get("damage"),
                 kind=c.say("superficial" if d.get("superficial") else "severe"), fort=fort_text)


def _injury_gained(c: Any) -> str:
    d = c.d
    site = f" ({c.say(d['site'])})" if d.get("site") in ("hand", "foot") else ""
    return c.say("injury_gained", who=c.who(), id=d.get("id"), name=c.name(d.get("injury"), "injuries"), site=site,
                 severity=c.name(d.get("severity"), "severities"), d20=d.get("d20"), dc=d.get("dc"))


def _injury_changed(c: Any) -> str:
    if c.d.get("note") == "deadline met: treatment started":
        return c.say("deadline_held", who=c.who(), injury=c.injury())
    if c.d.get("note"):
        return c.say("injury_note", who=c.who(), injury=c.injury(), note=c.name(c.d["note"]))
    return c.say("injury_changed", who=c.who(), injury=c.injury(), fields=_sheet_fields(c.d.get("changes"), c))


def _save_pending(c: Any) -> str:
    """A roll that waits for a player's die: a periodic or initial save, a wound's Fortitude save, a healer's
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
    return c.say("save_pending", who=c.who(), name=c.affliction(), save=c.save(), dc=d.get("dc"), id=d.get("id"))


def _patient(c: Any) -> str:
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

