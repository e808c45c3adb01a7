"""Prone, an action or reaction lost until the next turn, and speed, as every interface shows them: the parts of a
character's document (`prone`, `lost`, `speed`) and its status lines (domain/engine/posture.py, speed.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import views
from .locale import _
from .locale import name as named
from .typeset import decimal, listed

if TYPE_CHECKING:
    from ..content.rules import Rules

METRES_PER_FOOT = 0.3  # the French books' conversion: 5 ft = 1,5 m


def distance(feet: int | float) -> str:
    """A distance in feet, with its metres as the French books give them: "30 ft (9 m)" / "9 m (30 ft)"."""
    return _("{feet} ft ({metres} m)", feet=decimal(feet, 1).rstrip("0").rstrip(".,"),
             metres=decimal(feet * METRES_PER_FOOT, 1).rstrip("0").rstrip(".,"))


def _effect_words(effect: Any) -> str:
    if effect.set_ft is not None:
        return _("speed {distance}", distance=distance(effect.set_ft))
    if effect.change_ft is not None:
        return _("{distance} less", distance=distance(-effect.change_ft)) if effect.change_ft < 0 else \
            _("{distance} more", distance=distance(effect.change_ft))
    if effect.multiplier == 0.5:
        return _("halved")
    return _("× {factor}", factor=decimal(effect.multiplier or 1, 2).rstrip("0").rstrip(".,"))


def posture_section(character: Any, state: Any, rules: Rules) -> dict[str, Any]:
    """`prone`; `lost`: the action and reaction lost until the next turn and what took them (or None); `speed`: the
    base and effective speed in feet (None when the sheet has none) and each effect with its source."""
    from ..domain.engine.options import effective_options
    from ..domain.engine.speed import effective_speed

    lost = character.lost
    reading = effective_speed(character, rules, effective_options(rules, state.option_overrides()), state.system)
    lost_doc = None if lost is None else {"action": lost.action, "reaction": lost.reaction,
                                          "source": named({"en": lost.name_en, "fr": lost.name_fr}),
                                          "next_turn": lost.next_turn}
    speed = {"base": reading.base, "effective": reading.effective,
             "effects": [{"source": named(source), "words": _effect_words(effect), "multiplier": effect.multiplier,
                          "change_ft": effect.change_ft, "set_ft": effect.set_ft} for effect, source in reading.lines]}
    if lost_doc is not None:
        lost_doc["words"] = lost_words(lost_doc)
    return {"prone": character.prone, "lost": lost_doc, "speed": {**speed, "words": speed_words(speed)}}


def lost_words(lost: dict[str, Any]) -> str:
    if lost.get("next_turn"):
        return _("its next turn's action is lost ({source})", source=lost["source"])
    if lost["action"] and lost["reaction"]:
        return _("action and reaction lost until the start of its next turn ({source})", source=lost["source"])
    if lost["action"]:
        return _("action lost until the start of its next turn ({source})", source=lost["source"])
    return _("reaction lost until the start of its next turn ({source})", source=lost["source"])


def speed_words(speed: dict[str, Any]) -> str:
    """"speed 30 ft (9 m) → 15 ft (4.5 m): halved (Leg Injury)"; "" when there is nothing to say."""
    effects = listed(f"{e['words']} ({e['source']})" for e in speed["effects"])
    if speed["base"] is None:
        return _("speed: {effects}", effects=effects) if speed["effects"] else ""
    if not speed["effects"]:
        return _("speed {base}", base=distance(speed["base"]))
    return _("speed {base} → {effective}: {effects}", base=distance(speed["base"]),
             effective=distance(speed["effective"]), effects=effects)


def render_posture(c: dict[str, Any], con: Any) -> None:
    from rich.markup import escape

    if c.get("lost"):
        con.print(f"  [bold yellow]{escape(c['lost']['words'])}[/]")
    if c.get("speed") and c["speed"]["words"]:
        con.print(f"  {escape(c['speed']['words'])}")


views.CHARACTER_SECTIONS.append(posture_section)
views.STATUS_RENDERERS.append(render_posture)
