"""The engine the three rules share: the campaign state, its event fold and clock, effects, rolls and saves.

A rule package (injuries/, wounds/, afflictions/) imports the engine; the engine imports no rule
package: rule modules register their event handlers (`evolve.handles`), effect providers
(`effects.provider`), timers (`timeline.scheduler`) and hooks (`damage.injury_rule`,
`damage.on_magic_healing`, `player_rolls.deferred`, `player_rolls.resumes`), loaded by name from `sawbones.domain.RULE_MODULES`.

- state.py: the frozen campaign state (campaign, characters, body, injuries, wounds, afflictions)
- evolve.py: event → state, the fold, `@handles` registration
- campaign.py: campaign and character decisions (create, add, sheet changes, options)
- context.py: the typed `Context` a decision reads (state, rules, options, roller)
- clock.py: durations and the game clock's units; timeline.py: advancing the clock, `@scheduler`
- options.py: campaign options over the declared defaults
- effects.py: what is active on a character, from every rule, each effect with its source
- abilities.py: ability scores after the active effects
- roll_match.py / roll_query.py: what applies to a roll (modifiers, advantage, automatic failure)
- saves.py: the saves the engine rolls, read by the roll query
- rolls.py: the dice port (roller) decisions roll with
- names.py: the one name rule for campaigns and characters, accent-blind lookups
- outcomes.py: a trigger's outcome in words
- conditions.py: conditions with a duration on the clock
- hit_points.py: one hit point model per game system (dying, death, massive damage)
- damage.py: damage, HP loss and healing; the hooks rules register for a drop to 0 HP and magic healing
- player_rolls.py: who rolls a save the engine asks for (the GM or the player), answers, confirmation
- turns.py: triggers on moments the GM announces (a turn, a Dash, an action)
- acting.py: what a character's state forbids it to do (an action, a Dash), from the content's restrictions
- odds_engine.py: running the engine's own decisions over every outcome of their dice (exact odds)
- odds_symbolic.py: integers that know what they stand for (linear in a variable), so one engine run answers for a ladder of DCs
"""
