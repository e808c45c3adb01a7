"""Pure rules: the shared engine and one package per optional rule, no I/O.

- engine/: what all three rules share (state, fold, clock, effects, rolls, saves, hit points, damage)
- injuries/: seed 000, lingering injuries (D&D 5e)
- wounds/: seed 001, localized wounds (D&D 3.5 variant)
- afflictions/: seed 004, disease and poison progression tracks (Pathfinder Unchained)

A rule package imports the engine, never another rule package; the engine imports no rule package.
The engine loads the modules below by name, once, so that their handlers, providers, timers and hooks
are registered before a fold, an effect query or a clock advance (engine/effects.py `_load_providers`).
"""

RULE_MODULES = (
    "sawbones.domain.injuries.rules",
    "sawbones.domain.injuries.care",  # the treatment a player's die resumes
    "sawbones.domain.wounds.rules",
    "sawbones.domain.wounds.effects",  # what wounds do in play (an effect provider)
    "sawbones.domain.afflictions.rules",
    "sawbones.domain.afflictions.decide",  # the clock's scheduler for periodic saves
    "sawbones.domain.afflictions.secrets",  # afflictions known to the player or not
    "sawbones.domain.engine.conditions",
    "sawbones.domain.engine.posture",  # prone, an action or reaction lost until the next turn
    "sawbones.domain.engine.player_rolls",  # players' answers proposed, rejected
    "sawbones.domain.engine.turns",  # the moment (turn, Dash, action) a player's die resumes
)
