"""What a trigger does, in words: the roll query's trigger lines and the log's lines of a turn or an action.
The words are Messages (sawbones.message): the presentation says them in the reader's language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...message import Listed, Message, msg

if TYPE_CHECKING:
    from ...content.rules import Rules


def trigger_text(effect: Any, ae: Any, rules: Rules) -> Message:
    """A trigger line: "before acting: con save (DC 10), or loses the action"."""
    outcome = outcome_text(effect.outcome, rules)
    if effect.save:
        dc = effect.save.dc if isinstance(effect.save.dc, int) else (ae.detail.get("dc") if ae else None)
        named = rules.saves.get(effect.save.save) or rules.abilities.get(effect.save.save)
        line = msg("before acting: {save} save ({dc}), or {outcome}",
                   save=named.name if named is not None else effect.save.save,
                   dc=msg("DC {dc}", dc=dc) if dc else msg("the affliction's DC"), outcome=outcome)
    else:
        line = msg("when acting: {outcome}", outcome=outcome)
    return msg("{percent} % : {trigger}", percent=effect.chance, trigger=line) if effect.chance else line


def outcome_text(o: Any, rules: Rules) -> Listed:
    """What a trigger's outcome does, in words ("loses the action, becomes Nauseated (1 min)"); "—" if nothing."""
    parts: list[Any] = []
    if o.lose_action:
        parts.append(msg("loses the action"))
    if o.lose_reactions:
        parts.append(msg("loses its reactions"))
    if o.fall_prone:
        parts.append(msg("falls prone"))
    if o.hp_loss:
        parts.append(msg("loses {hp} HP", hp=o.hp_loss))
    if o.hp_at_most is not None:
        parts.append(msg("HP drop to {hp} at most", hp=o.hp_at_most))
    if o.condition:
        cond = rules.conditions.get(o.condition)
        named = cond.name if cond else o.condition
        parts.append(msg("becomes {condition} ({minutes} min)", condition=named, minutes=o.condition_minutes)
                     if o.condition_minutes else msg("becomes {condition}", condition=named))
    if o.note:
        parts.append(o.note)
    return Listed(parts or ["—"], "")
