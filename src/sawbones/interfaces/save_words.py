"""Spells and saves as the campaign's game system names them, and a save's total with what made its bonus
(read by views.py, sentences.py and the commands)."""

from __future__ import annotations

from typing import Any


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
    return f"sauvegarde de {name}" if lang == "fr" else f"{name} save"


def save_total(d: dict[str, Any], lang: str) -> str:
    """A save's total for a line, with what made its bonus when more than the sheet did: "12",
    "12 (sheet +4, Sickened -2)", "automatic failure (Paralyzed: automatic failure)"."""
    from ..domain.engine.saves import describe

    breakdown = d.get("breakdown") or {}
    why = describe(breakdown, lang) if breakdown.get("lines") else ""
    if d.get("total") is None:
        return why or ("échec automatique" if lang == "fr" else "automatic failure")
    return f"{d['total']} ({why})" if why else str(d["total"])
