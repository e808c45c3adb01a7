"""What a character's state forbids it to do: an action, a Dash (issue 40).

Which states forbid what is content: a restriction's `forbids` (tracks.yaml: Alité « ne peut pas … effectuer des
actions standard ou de mouvement », Catatonique « ne peut en aucun cas interagir avec le monde »;
condition_readings.yaml: 5e incapacitated « aucune action ni réaction », PF1 unconscious and stunned, PF1
nauseated « une action de mouvement »...). A restriction counts whether a stage, an injury or a condition puts it
on the character, and through the conditions a condition brings (5e unconscious brings incapacitated). The hit
point model's own unconsciousness counts too: at or below its dying line (5e 0 HP, PF1 negative HP) the
character is unconscious, as its text says (PF1: unless stable, when it may have come to: `stable_may_act`).

An action lost until the start of the next turn (posture.py) refuses an action and a Dash with that reason; standing
up (`stand`) is refused by a restriction that forbids `stand`.

A turn is never refused (it comes round: the dying check, conditions that run out); its checks whose failure
costs the action are not made by a character who cannot act (turns.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...content import schema as s
from ...frozen import frozen
from ...errors import RuleViolation
from . import hit_points
from .effects import ActiveEffect, active_effects
from ...message import N_, english, msg

if TYPE_CHECKING:
    from ...content.rules import Rules


# what each moment is, in the refusal's words
DOING = {"action": N_("take an action"), "dash": N_("take the Dash action"), "stand": N_("stand up")}
UNCONSCIOUS = "unconscious"  # the condition the hit point model's unconsciousness is
LOST_KIND = "turn"  # the kind of the active effects of an action lost until the next turn (posture.py)


def _cause(ae: ActiveEffect, rules: Rules, condition: str | None) -> Any:
    """What forbids it, by its name (the content's words): the condition on the character, else the stage or the
    entry."""
    if condition is not None:
        found = rules.conditions.get(condition)
        return found.name if found is not None else condition
    track = rules.tracks.get(ae.detail.get("track") or "")
    stage = next((st for st in track.stages if st.id == ae.detail.get("stage")), None) if track else None
    return stage.name if stage is not None else ae.name


@frozen
class Cause:
    """What forbids a moment, by name (the content's words: `.en`, `.fr`): a condition, stage or entry, and where it
    comes from (None: the hit points)."""

    name: Any
    source: Any | None
    lost: bool = False  # the action lost until the start of its next turn (posture.py)


def forbidding(character: Any, rules: Rules, options: dict[str, Any], system: str, moment: str) -> list[Cause]:
    """What on `character` forbids `moment`, nearest first."""
    causes: list[Cause] = []
    found: list[tuple[Any, ActiveEffect | None, str | None]] = []
    # the latest first (a track's current stage before the stages it keeps), each with what it brings
    for ae in reversed(active_effects(character, rules, options)):
        if getattr(ae.effect, "while_", ()):  # guarded by the roll or the site: no such restriction forbids a moment
            continue
        if isinstance(ae.effect, s.Restriction):
            found.append((ae.effect.restriction, ae, None))
        elif isinstance(ae.effect, s.ConditionEffect):
            found += _brought(ae.effect.condition, ae, rules, system)
    if _down(character, rules, system):
        found += _brought(UNCONSCIOUS, None, rules, system)
    for restriction_id, origin, condition in found:
        restriction = rules.restrictions.get(restriction_id)
        if restriction is not None and (moment in restriction.forbids or moment in restriction.forbids_in.get(system, ())):
            name = _cause(origin, rules, condition) if origin is not None else _cause_hp(rules, condition)
            source = origin.name if origin is not None and english(origin.name) != english(name) else None
            cause = Cause(name, source, origin is not None and origin.kind == LOST_KIND)
            if cause not in causes:
                causes.append(cause)
    return sorted(causes, key=lambda cause: cause.lost)  # the lasting state first, the lost action last


def _brought(condition: str, ae: ActiveEffect | None, rules: Rules, system: str,
             seen: frozenset[str] = frozenset()) -> list[tuple[str, ActiveEffect | None, str | None]]:
    """The restrictions a condition brings through its reading in this system (and the conditions it brings)."""
    entry = rules.condition_readings.get(condition)
    reading = entry.reading(system) if entry is not None else None
    out: list[tuple[str, ActiveEffect | None, str | None]] = []
    for effect in reading.effects if reading is not None and condition not in seen else ():
        if isinstance(effect, s.Restriction) and not effect.while_:
            out.append((effect.restriction, ae, condition))
        elif isinstance(effect, s.ConditionEffect) and not effect.while_:
            out += [(r, ae, condition) for r, _, _ in _brought(effect.condition, ae, rules, system, seen | {condition})]
    return out


def _down(character: Any, rules: Rules, system: str) -> bool:
    """Unconscious by its hit points: at or below the model's dying line, unless stable where a stable character
    may have come to (PF1)."""
    hp_model = hit_points.model(rules, system)
    if character.dead or character.hp > hp_model.dying_at:
        return False
    return not (character.stable and hp_model.stable_may_act)


def _cause_hp(rules: Rules, condition: str | None) -> Any:
    found = rules.conditions.get(condition or UNCONSCIOUS)
    return found.name if found is not None else UNCONSCIOUS


def refuse_if_forbidden(character: Any, rules: Rules, options: dict[str, Any], system: str, moment: str) -> None:
    """Raise (one line, nothing applied) when the character's state forbids the moment, saying why."""
    if moment not in DOING:
        return
    causes = forbidding(character, rules, options, system, moment)
    if not causes:
        return
    cause, doing = causes[0], msg(DOING[moment])
    if cause.lost:  # only the action lost until its next turn forbids it (posture.py): say so, and what took it
        raise RuleViolation(msg("{character} can't {doing}: its action is lost until the start of its next turn "
                                "({source})", character=character.name, doing=doing, source=cause.name))
    if cause.source is None:
        raise RuleViolation(msg("{character} can't {doing}: {cause}", character=character.name, doing=doing,
                                cause=cause.name))
    raise RuleViolation(msg("{character} can't {doing}: {cause} ({source})", character=character.name, doing=doing,
                            cause=cause.name, source=cause.source))


def can_act(character: Any, rules: Rules, options: dict[str, Any], system: str) -> bool:
    """Whether the character may take an action at all (a check that costs the action needs one to cost). An action
    lost until the next turn does not count: a moment refuses an action once lost (refuse_if_forbidden), and within
    one moment each check stands on its own (two Nauseas: two saves)."""
    return not [cause for cause in forbidding(character, rules, options, system, "action") if not cause.lost]
