"""Spells and saves as the campaign's game system names them, and a save's total with what made its bonus
(read by views.py, sentences.py and the commands)."""

from __future__ import annotations

from typing import Any

from ..i18n import Words

W = Words("save_words", {
    # a 5e save is named after its ability (the seeds: "jet de sauvegarde de Constitution")
    "ability_save": ("{ability} save", "jet de sauvegarde de {ability}"),
    # a roll of a named save (Pathfinder: "jet de Vigueur")
    "named_save": ("{save} save", "jet de {save}"),
})


def spell_name(rules: Any, spell_id: str, system: str | None, lang: str) -> str:
    """A spell's name as the campaign's game system gives it (pf1e: seed 004's "Guérison suprême")."""
    spell = rules.spells.get(spell_id)
    return spell.title(lang, system) if spell is not None else spell_id


def save_name(rules: Any, save: str, system: str | None, lang: str) -> str:
    """A save as the campaign's game system names it: Fortitude (Vigueur) in pf1e, the Con save in dnd5e."""
    from ..domain.engine.saves import sheet_key  # on use: `sawbones --help` loads no pydantic

    key, ability = sheet_key(rules, system or "pf1e", save)
    if key in rules.saves:
        return rules.saves[key].name(lang)
    name = rules.abilities[ability].name(lang) if ability in rules.abilities else ability
    return W.say("ability_save", lang, ability=name)


def save_roll(rules: Any, save: str, system: str | None, lang: str) -> str:
    """The roll of a save, for a sentence: "Fortitude save" / "jet de Vigueur" in pf1e, "Constitution save" /
    "jet de sauvegarde de Constitution" in dnd5e."""
    from ..domain.engine.saves import sheet_key

    key, _ = sheet_key(rules, system or "pf1e", save)
    name = save_name(rules, save, system, lang)
    return W.say("named_save", lang, save=name) if key in rules.saves else name


def system_saves(rules: Any, system: str | None) -> list[str]:
    """The saves a character of this system has, in the content's order: the named saves the system declares
    (pf1e: Fortitude, Reflex, Will), else one per ability (dnd5e: the six ability saves)."""
    named = [s.id for s in rules.saves.values() if s.system == system]
    return named or list(rules.abilities)


def save_total(d: dict[str, Any], lang: str) -> str:
    """A save's total for a line, with what made its bonus when more than the sheet did: "12",
    "12 (sheet +4, Sickened -2)", "automatic failure (Paralyzed: automatic failure)"."""
    from ..domain.engine.saves import describe

    breakdown = d.get("breakdown") or {}
    why = describe(breakdown, lang) if breakdown.get("lines") else ""
    if d.get("total") is None:
        return why or ("échec automatique" if lang == "fr" else "automatic failure")
    return f"{d['total']} ({why})" if why else str(d["total"])
