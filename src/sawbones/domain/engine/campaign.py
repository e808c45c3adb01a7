"""Decisions on the campaign itself: options, characters, the clock."""

from __future__ import annotations

import re
from typing import Any

from ...errors import NotFound, UsageError
from .names import check_name
from .options import parse_option_value
from .roster import Roster, check_import, check_room
from .state import ABILITIES, Body, Campaign, Character, slug
from .context import Context
from ...message import Listed, msg

Event = dict[str, Any]

SHEET_KEYS = ("max_hp", "hp", "npc", "abilities", "saves", "skills", "proficiencies", "hit_die", "hit_dice",
              "hit_dice_max", "body", "notes", "name", "external", "speed")
EXTERNAL = re.compile(r"^[a-z0-9_.-]{1,30}:[^\s]{1,200}$")


def find_character(state: Campaign, key: str) -> Character:
    character = state.character(key)
    if character is None:
        if not state.characters:
            raise NotFound(msg("no character named {key} in {campaign}: the party is empty", key=repr(key),
                               campaign=state.name))
        known = ", ".join(c.name for c in state.characters)
        raise NotFound(msg("no character named {key} in {campaign} (characters: {known})", key=repr(key),
                           campaign=state.name, known=known))
    return character


def set_option(ctx: Context, option: str, text: str | None) -> list[Event]:
    option = ctx.rules.resolve("options", option)
    if text is None:
        return [{"type": "option_set", "data": {"option": option, "reset": True}}]
    value = parse_option_value(ctx.rules, option, text, ctx.state.system)
    return [{"type": "option_set", "data": {"option": option, "value": value}}]


# the bounds of a sheet, whoever sends it (the API's models say the same; an imported file meets them here)
SHEET_BOUNDS = {"max_hp": (1, 10_000), "hp": (-10_000, 10_000), "hit_die": (1, 100), "hit_dice": (0, 40),
                "hit_dice_max": (0, 40), "speed": (0, 1_000)}  # speed: base walking speed, feet
MAX_PAIR = 1_000  # a save, skill, ability or body count
MAX_PAIRS = 60  # entries of saves, skills, proficiencies
MAX_NOTES = 4_000
MAX_EXTERNAL = 20
PROFICIENCY = re.compile(r"^[A-Za-z0-9_\-]{1,40}$")


def _check_bounds(out: dict[str, Any]) -> None:
    for key, (low, high) in SHEET_BOUNDS.items():
        if key in out and (not isinstance(out[key], int) or isinstance(out[key], bool)):
            raise UsageError(msg("{key} must be a whole number", key=key))
        if key in out and not low <= out[key] <= high:
            raise UsageError(msg("{key} goes from {low} to {high}, not {value}", key=key, low=low, high=high,
                                 value=out[key]), key)
    for key in ("abilities", "saves", "skills", "body"):
        if key in out:
            if not isinstance(out[key], dict) or len(out[key]) > MAX_PAIRS:
                raise UsageError(msg("{key} is a mapping of at most {most} names to numbers", key=key, most=MAX_PAIRS),
                                 key)
            for name, value in out[key].items():
                if not isinstance(name, str) or not PROFICIENCY.match(name):
                    raise UsageError(msg("{key}: a name is letters, digits, _ or - (at most 40)", key=key), key)
                if not isinstance(value, int) or isinstance(value, bool) or not -MAX_PAIR <= value <= MAX_PAIR:
                    raise UsageError(msg("{key}: {name} is a whole number from {low} to {high}", key=key, name=name,
                                         low=-MAX_PAIR, high=MAX_PAIR), key)
    if "proficiencies" in out:
        names = out["proficiencies"]
        if not isinstance(names, (list, tuple)) or not all(isinstance(p, str) and PROFICIENCY.match(p) for p in names):
            raise UsageError(msg("proficiencies: each is letters, digits, _ or - (at most 40)"), "proficiencies")
        out["proficiencies"] = list(dict.fromkeys(names))
        if len(out["proficiencies"]) > MAX_PAIRS:
            raise UsageError(msg("at most {most} proficiencies", most=MAX_PAIRS), "proficiencies")
    if "notes" in out and (not isinstance(out["notes"], str) or len(out["notes"]) > MAX_NOTES):
        raise UsageError(msg("notes are text of at most {most} characters", most=MAX_NOTES), "notes")
    if "external" in out and (not isinstance(out["external"], (list, tuple)) or len(out["external"]) > MAX_EXTERNAL):
        raise UsageError(msg("at most {most} external references", most=MAX_EXTERNAL), "external")


def _check_sheet(sheet: dict[str, Any]) -> dict[str, Any]:
    out = dict(sheet)
    _check_bounds(out)
    if "max_hp" in out and out["max_hp"] < 1:
        raise UsageError(msg("max_hp must be at least 1"))
    if "hit_die" in out and out["hit_die"] not in (4, 6, 8, 10, 12):
        raise UsageError(msg("hit die d{die} does not exist (d6, d8, d10 or d12)", die=out["hit_die"]))
    if "abilities" in out:
        scores = dict(out["abilities"])
        unknown = set(scores) - set(ABILITIES)
        if unknown:
            raise UsageError(msg("unknown ability {ability} (str, dex, con, int, wis, cha)", ability=repr(sorted(unknown)[0])))
        if any(not 1 <= v <= 30 for v in scores.values()):
            raise UsageError(msg("ability scores go from 1 to 30"))
        out["abilities"] = scores
    if "body" in out:
        body = dict(out["body"])
        unknown = set(body) - set(Body.__dataclass_fields__)
        if unknown:
            raise UsageError(msg("unknown body part {part} (eyes, ears, hands, feet)", part=repr(sorted(unknown)[0])))
        if any(not 0 <= v <= 10 for v in body.values()):
            raise UsageError(msg("body part counts go from 0 to 10"))
        out["body"] = body
    if "external" in out:
        refs = list(dict.fromkeys(out["external"]))
        bad = next((r for r in refs if not isinstance(r, str) or not EXTERNAL.match(r)), None)
        if bad is not None:
            raise UsageError(msg("an external reference is SYSTEM:ID, like foundry:Actor.abc or discord:1234 (not {bad})",
                                 bad=repr(bad)), "external")
        out["external"] = refs
    return out


def _check_external(state: Campaign, refs: list[str], character_id: str | None) -> None:
    """An external reference names one character of the campaign."""
    for ref in refs:
        other = state.by_external(ref)
        if other is not None and other.id != character_id:
            raise UsageError(msg("{character} already has the external reference {ref}", character=other.name,
                                 ref=repr(ref)), "external")


def add_character(ctx: Context, name: str, sheet: dict[str, Any]) -> list[Event]:
    state: Campaign = ctx.state
    name = check_name(name, "character")
    existing = state.character(name)
    if existing is not None:  # (named as it is written, not as typed: "aria" finds Aria)
        raise UsageError(msg("{campaign} already has a character named {name}", campaign=state.name,
                             name=repr(existing.name)))
    check_room(len(state.characters), 1)
    return _added(ctx, name, sheet, {c.id for c in state.characters})


def _added(ctx: Context, name: str, sheet: dict[str, Any], taken: set[str]) -> list[Event]:
    """A new character's event, its name checked new (`taken`: the campaign's ids)."""
    state: Campaign = ctx.state
    sheet = _check_sheet(sheet)
    _check_external(state, sheet.get("external", []), None)
    character_id = slug(name)
    base, n = character_id, 2
    while character_id in taken:
        character_id, n = f"{base}_{n}", n + 1
    hp = sheet.get("hp")
    # (hit points alone: a character at full health; none at all: 10 of 10)
    max_hp = sheet.get("max_hp", hp if hp is not None and hp >= 1 else 10)
    _check_hp(max_hp if hp is None else hp, max_hp, ctx)
    data: dict[str, Any] = {"id": character_id, "name": name, "max_hp": max_hp, "hp": max_hp if hp is None else hp}
    abilities = {a: 10 for a in ABILITIES} | sheet.get("abilities", {})
    data["abilities"] = [[a, abilities[a]] for a in ABILITIES]
    for key in ("npc", "saves", "skills", "proficiencies", "hit_die", "hit_dice", "notes", "external", "speed"):
        if key in sheet:
            data[key] = sheet[key] if not isinstance(sheet[key], dict) else [[k, v] for k, v in sheet[key].items()]
    if "hit_dice" in sheet:
        data["hit_dice_max"] = sheet.get("hit_dice_max", sheet["hit_dice"])
    anatomy = (getattr(ctx, "options", None) or {}).get("anatomy") or {}  # the creature's eyes, hands, feet
    try:
        body = {k: int(v) for k, v in anatomy.items() if k in Body.__dataclass_fields__} | sheet.get("body", {})
    except (TypeError, ValueError):
        raise UsageError(msg("option anatomy: counts must be whole numbers, e.g. eyes=2,hands=2,feet=2")) from None
    if body and body != {k: getattr(Body(), k) for k in body}:
        data["body"] = Body(**_check_sheet({"body": body})["body"]).__dict__
    return [{"type": "character_added", "data": data}]


def edit_character(ctx: Context, key: str, sheet: dict[str, Any]) -> list[Event]:
    character = find_character(ctx.state, key)
    sheet = _check_sheet(sheet)
    _check_external(ctx.state, sheet.get("external", []), character.id)
    changes: dict[str, Any] = {}
    if "name" in sheet:
        sheet["name"] = check_name(sheet["name"], "character")
        other = ctx.state.character(sheet["name"])
        if other is not None and other.id != character.id:
            raise UsageError(msg("{campaign} already has a character named {name}", campaign=ctx.state.name,
                                 name=repr(other.name)))
        changes["name"] = sheet["name"]
    if "abilities" in sheet:
        merged = dict(character.abilities) | sheet["abilities"]
        changes["abilities"] = [[a, merged[a]] for a in ABILITIES]
    for key in ("saves", "skills"):
        if key in sheet:
            merged = dict(getattr(character, key)) | dict(sheet[key])
            changes[key] = [[k, v] for k, v in merged.items()]
    if "body" in sheet:
        changes["body"] = character.body.__dict__ | sheet["body"]
    for key in ("max_hp", "hp", "npc", "proficiencies", "hit_die", "hit_dice", "hit_dice_max", "notes", "external",
                "speed"):
        if key in sheet:
            changes[key] = list(sheet[key]) if key in ("proficiencies", "external") else sheet[key]
    max_hp = changes.get("max_hp", character.max_hp)
    if changes.get("hp", character.hp) != character.hp:  # new hit points: never above the maximum
        _check_hp(changes["hp"], max_hp, ctx)
    elif character.hp > max_hp:  # a lower maximum takes the hit points above it away (a form sends them again)
        changes["hp"] = max_hp
    if not changes:
        raise UsageError(msg("nothing to change: give at least one field"))
    return [{"type": "character_edited", "data": {"id": character.id, "changes": changes}}]


def _check_hp(hp: int, max_hp: int, ctx: Context) -> None:
    models = getattr(getattr(ctx, "rules", None), "hit_point_models", {})
    floor = models[ctx.state.system].floor if ctx.state.system in models else None
    if floor is not None and hp < floor:  # 5e: HP stop at 0 (below, the next damage would raise them to 0)
        raise UsageError(msg("hit points go no lower than {floor} in this campaign's game system (at {floor} a character "
                             "is dying): not {hp}", floor=floor, hp=hp), "hp")
    if hp > max_hp:
        raise UsageError(msg("the hit points given, {hp}, are more than the maximum, {max_hp}: give a higher maximum too",
                             hp=hp, max_hp=max_hp), "hp")


def remove_character(ctx: Context, key: str) -> list[Event]:
    character = find_character(ctx.state, key)
    return [{"type": "character_removed", "data": {"id": character.id}}]


def import_characters(ctx: Context, entries: list[Any]) -> list[Event]:
    """Characters from other tools' sheets, in one action: a character found by one of its external
    references (else by name) has its sheet updated, injuries, wounds and afflictions kept; any other is
    added. `entries`: objects with name, sheet, external and source (adapters/sheets.py)."""
    from dataclasses import replace

    from .evolve import evolve

    check_import(len(entries))
    events: list[Event] = []
    step = ctx
    roster = Roster(ctx.state.characters)  # (each name folded once: roster.py)
    for entry in entries:
        try:
            known_id = roster.by_external(entry.external) or roster.named(check_name(entry.name, "character"))
            known = find_character(step.state, known_id) if known_id is not None else None
            external = list(dict.fromkeys((list(known.external) if known else []) + list(entry.external)))
            sheet = {**entry.sheet, **({"external": external} if external else {})}
            if known is None:
                check_room(len(step.state.characters), 1)
                new = _added(step, check_name(entry.name, "character"), sheet, roster.ids)
            else:
                new = edit_character(step, known.id, sheet)  # the name stays the one the GM knows
        except UsageError as exc:
            raise UsageError(msg("{name}: {message}", name=entry.name, message=exc.text),
                             entry.source or exc.where) from None
        state = step.state
        for event in new:
            state = evolve(state, event)
        if known is None:
            roster.add(state.characters[-1])
        step = replace(step, state=state)
        events += new
    return events


def spell_of_system(ctx: Context, typed: str) -> Any:
    """The spell typed (by id or name, either language: Rules.resolve), refused when the campaign's game system has
    no such spell (a pf1e campaign says Cure Light Wounds, not 5e's Cure Wounds), naming the system's own."""
    spell = ctx.rules.get("spells", typed)
    system = ctx.state.system
    if system not in spell.systems:
        titles = [x.system_names.get(system) or x.name for x in ctx.rules.spells.values() if system in x.systems]
        # (the titles the system's books give, seed 004's for pf1e: said in the reader's order)
        if system == "pf1e":
            raise UsageError(msg("{spell} is not a pf1e spell; pf1e has {spells}", spell=spell.name,
                                 spells=Listed(titles, "", ordered=True)))
        raise UsageError(msg("{spell} is not a dnd5e spell; dnd5e has {spells}", spell=spell.name,
                             spells=Listed(titles, "", ordered=True)))
    return spell
