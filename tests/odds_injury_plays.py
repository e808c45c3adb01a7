"""Seeded plays of the real engine for the injury odds tests (no odds code): a character drops to 0 by a
damage type (the engine rolls the d20, the hand or foot, the deadline), treatment starts after `wait` days
(the clock advanced by the engine), then a healer with Medicine `bonus` treats it again and again (the
engine rolls the time and the check) until it heals, a part is lost, only magic can heal it, or its DC is
beyond a d20's 20 + bonus."""

from __future__ import annotations

import random
from sawbones.domain.engine import damage
from sawbones.domain.injuries import care as injury_care
from sawbones.domain.engine.evolve import fold
from sawbones.domain.engine.odds_engine import Ctx
from sawbones.domain.engine.rolls import Roller
from sawbones.domain.engine.state import DAY, Campaign, Character
from sawbones.domain.engine.timeline import advance
from sawbones.errors import RuleViolation


def play(rules, options, table: str, bonus: int, seed: int, wait_days: float = 0, self_treatment: bool = False):
    """One play: ("healed" | "lost" | "never", attempts, game days from the drop until healed)."""
    rng = random.Random(seed)
    hero = Character(id="c1", name="Hero", max_hp=10 ** 6, hp=1, skills=(("medicine", bonus),),
                     proficiencies=("medicine", "herbalism_kit"))
    medic = Character(id="c2", name="Medic", max_hp=10, hp=10, skills=(("medicine", bonus),),
                      proficiencies=("medicine", "herbalism_kit"))
    state = Campaign(name="plays", characters=(hero, medic), counter=2)

    def run(fn, *args, **kw):
        nonlocal state
        events = fn(Ctx(state, rules, options, Roller(rng)), *args, **kw)
        state = fold(events, state)

    run(damage.damage, "Hero", [(1, table)])
    start = state.clock
    if wait_days:
        run(advance, round(wait_days * DAY), auto=True)
    attempts = 0
    healer = "Hero" if self_treatment else "Medic"

    def lost() -> bool:
        body = state.character("c1").body
        return body.hands < 2 or body.feet < 2 or body.eyes < 2

    while True:
        me = state.character("c1")
        if lost():
            return "lost", attempts, None
        if not me.injuries:
            return "healed", attempts, (state.clock - start) / DAY
        injury = me.injuries[0]
        if injury.magic_only or injury.dc > 20 + bonus:
            run(advance, 30 * DAY, auto=True)  # left alone: a deadline still running takes the limb
            return ("lost" if lost() else "never"), attempts, None
        try:
            run(injury_care.treat, "Hero", injury.id, healer_name=healer)
        except RuleViolation:
            return "never", attempts, None
        attempts += 1
