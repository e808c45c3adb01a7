"""Spells and saves as the campaign's game system names them, and a save's total with what made its bonus
(read by views.py, sentences.py and the commands)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..message import N_
from .locale import _, name

if TYPE_CHECKING:
    from ..content.rules import Rules


SYSTEMS = {"dnd5e": N_("D&D 5e"), "pf1e": N_("Pathfinder 1e")}  # as the pages name them


def system_name(system: str) -> str:
    """A game system as people name it ("D&D 5e", not its id dnd5e)."""
    return _(SYSTEMS[system]) if system in SYSTEMS else system


def spell_name(rules: "Rules", spell_id: str, system: str | None) -> str:
    """A spell's name as the campaign's game system gives it (pf1e: seed 004's "Guérison suprême")."""
    spell = rules.spells.get(spell_id)
    return name(spell.title(system)) if spell is not None else spell_id


def save_name(rules: "Rules", save: str, system: str | None) -> str:
    """A save as the campaign's game system names it: Fortitude (Vigueur) in pf1e, the Con save in dnd5e."""
    from ..domain.engine.saves import sheet_key  # on use: `sawbones --help` loads no pydantic

    key, ability = sheet_key(rules, system or "pf1e", save)
    if key in rules.saves:
        return name(rules.saves[key].name)
    said = name(rules.abilities[ability].name) if ability in rules.abilities else ability
    return _("{ability} save", ability=said)


def save_roll(rules: "Rules", save: str, system: str | None) -> str:
    """The roll of a save, for a sentence: "Fortitude save" / "jet de Vigueur" in pf1e, "Constitution save" /
    "jet de sauvegarde de Constitution" in dnd5e."""
    from ..domain.engine.saves import sheet_key

    key, _ability = sheet_key(rules, system or "pf1e", save)
    said = save_name(rules, save, system)
    return _("{save} save", save=said) if key in rules.saves else said


def system_saves(rules: "Rules", system: str | None) -> list[str]:
    """The saves a character of this system has, in the content's order: the named saves the system declares
    (pf1e: Fortitude, Reflex, Will), else one per ability (dnd5e: the six ability saves)."""
    named = [s.id for s in rules.saves.values() if s.system == system]
    return named or list(rules.abilities)


def save_total(d: dict[str, Any]) -> str:
    """A save's total for a line, with what made its bonus when more than the sheet did: "12",
    "12 (sheet +4, Sickened -2)", "automatic failure (Paralyzed: automatic failure)"."""
    from .save_breakdown import describe

    breakdown = d.get("breakdown") or {}
    why = describe(breakdown) if breakdown.get("lines") else ""
    if d.get("total") is None:
        return why or _("automatic failure")
    return f"{d['total']} ({why})" if why else str(d["total"])
