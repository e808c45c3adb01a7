"""What a trigger does, in words: the roll query's trigger lines and the log's lines of a turn or an action."""

from __future__ import annotations

from typing import Any

from ...content import schema as s


def trigger_text(effect: Any, ae: Any, rules: Any) -> s.Text:
    """A trigger line: "before acting: con save (DC 10), or loses the action"."""
    outcome = outcome_text(effect.outcome, rules)
    chance = f"{effect.chance} % : " if effect.chance else ""
    if effect.save:
        dc = effect.save.dc if isinstance(effect.save.dc, int) else (ae.detail.get("dc") if ae else None)
        named = rules.saves.get(effect.save.save) or rules.abilities.get(effect.save.save)
        save_fr, save_en = (named.name("fr"), named.name("en")) if named is not None else (effect.save.save,) * 2
        dc_fr = f"DD {dc}" if dc else "DD de l'affliction"
        dc_en = f"DC {dc}" if dc else "the affliction's DC"
        return s.Text(fr=f"{chance}avant d'agir : jet de sauvegarde ({save_fr}, {dc_fr}), sinon {outcome.fr}",
                      en=f"{chance}before acting: {save_en} save ({dc_en}), or {outcome.en}")
    return s.Text(fr=f"{chance}en agissant : {outcome.fr}", en=f"{chance}when acting: {outcome.en}")


def outcome_text(o: Any, rules: Any) -> s.Text:
    """What a trigger's outcome does, in words ("loses the action, becomes Nauseated (1 min)"); "—" if nothing."""
    fr: list[str] = []
    en: list[str] = []
    if o.lose_action:
        fr.append("perd son action")
        en.append("loses the action")
    if o.lose_reactions:
        fr.append("perd ses réactions")
        en.append("loses its reactions")
    if o.fall_prone:
        fr.append("tombe à terre")
        en.append("falls prone")
    if o.hp_loss:
        fr.append(f"perd {o.hp_loss} pv")
        en.append(f"loses {o.hp_loss} HP")
    if o.hp_at_most is not None:
        fr.append(f"pv ramenés à {o.hp_at_most} au plus")
        en.append(f"HP drop to {o.hp_at_most} at most")
    if o.condition:
        cond = rules.conditions.get(o.condition)
        minutes = f" ({o.condition_minutes} min)" if o.condition_minutes else ""
        fr.append(f"devient {cond.name.fr if cond else o.condition}{minutes}")
        en.append(f"becomes {cond.name.en if cond else o.condition}{minutes}")
    if o.note:
        fr.append(o.note.fr)
        en.append(o.note.en)
    return s.Text(fr=", ".join(fr) or "—", en=", ".join(en) or "—")
