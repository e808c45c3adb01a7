"""API: damage and lingering injuries (5e) — the same decisions as cli/injuries.py."""

from fastapi import APIRouter
from pydantic import Field
from ....message import msg

from ....domain.engine import damage as damage_rules
from ....domain.injuries import care as injury_care
from ....domain.injuries import rules as injury_rules
from ....domain.engine import posture, turns
from ....domain.engine.clock import parse_duration
from ....domain.engine.conditions import end_combat
from ....domain.engine.timeline import advance as advance_decision
from ....errors import RuleViolation, UsageError
from . import models as m
from .actions import Action, decided, register
from .reports import action_doc, advance_doc

router = APIRouter()


def _damage(body: m.DamageIn):
    parts = [(p.amount, p.type.lower()) for p in body.parts]
    injury_type = body.injury_type.lower() if body.injury_type else None
    return lambda ctx: damage_rules.damage(ctx, body.character, parts, body.d20, body.site, injury_type)


def _injure(body: m.InjureIn):
    def decision(ctx):
        if body.critical_failure and not ctx.options.get("trigger_on_critical_failure"):
            raise RuleViolation(msg("injuries on critical failures are off (campaign set trigger_on_critical_failure true)"))
        return injury_rules.injure(ctx, body.character, body.type.lower(), body.d20, body.site,
                                   "critical failure" if body.critical_failure else "GM's call")

    return decision


def _rest(body: m.RestIn):
    if body.kind == "short":
        if len(body.characters) != 1:
            raise UsageError(msg("a short rest spends one character's Hit Dice: give one character"), "characters")
        return lambda ctx: injury_care.short_rest(ctx, body.characters[0], body.hit_dice, list(body.injuries),
                                                  list(body.rolls))
    return lambda ctx: injury_care.long_rest(ctx, list(body.characters))


def _advance(body: m.AdvanceIn):
    seconds = parse_duration(body.duration)
    return lambda ctx: advance_decision(ctx, seconds, body.auto, body.rolls)


for name, model, decide, summary in (
    ("damage", m.DamageIn, _damage, "Apply damage; at 0 HP a lingering injury follows"),
    ("injure", m.InjureIn, _injure, "Give a lingering injury directly (GM's call, or a critical failure)"),
    ("treat", m.TreatIn, lambda b: lambda ctx: injury_care.treat(ctx, b.character, b.injury, b.check, b.healer,
                                                                 b.rolls),
     "Treat an injury: its time passes on the clock, then the check (+2 DC on failure)"),
    ("rest", m.RestIn, _rest, "Rest: long heals minor and moderate injuries; short spends Hit Dice"),
    ("heal", m.HealIn, lambda b: lambda ctx: injury_care.heal(ctx, b.character, b.spell, b.injury, b.hp),
     "Magical healing: one injury per casting, if the spell's tier reaches it"),
    ("stabilize", m.CharacterName, lambda b: lambda ctx: injury_care.stabilize(ctx, b.character),
     "A dying character at 0 HP becomes stable"),
):
    register(Action(name, model, m.ActionOut, run=decided(decide, action_doc), summary=summary,
                    form_lists=("characters", "injuries", "rolls")))

class TurnIn(m.MomentIn):
    prone: bool = Field(False, description="The character is prone as its turn begins.")


for moment, model, summary in (("turn", TurnIn, "A character's turn: per-turn saves and losses"),
                               ("dash", m.MomentIn, "A character takes the Dash action"),
                               ("action", m.MomentIn, "A character attempts an action in combat")):
    register(Action(moment, model, m.ActionOut, summary=summary, form_lists=("saves",), run=decided(
        lambda b, moment=moment: lambda ctx: turns.run_moment(ctx, b.character, moment, list(b.saves),
                                                              b.rolls, getattr(b, "prone", False) or None),
        action_doc)))

for verb, prone, summary in (("prone", True, "A character falls prone: it is no longer standing"),
                             ("stand", False, "A prone character stands up (refused when its state forbids it)")):
    register(Action(verb, m.CharacterName, m.ActionOut, summary=summary, run=decided(
        lambda b, prone=prone: lambda ctx: posture.set_prone(ctx, b.character, prone), action_doc)))

register(Action("combat_end", None, m.ActionOut, summary="The combat is over: conditions lasting until its end stop",
                run=decided(lambda b: lambda ctx: end_combat(ctx), action_doc)))

register(Action("advance", m.AdvanceIn, m.AdvanceOut, run=decided(_advance, advance_doc), tags=("campaign state",),
                summary="Move the game clock forward and run what falls due"))
