"""Lingering injuries, seed 000 (D&D 5e; docs/rules.md "Lingering injuries (5e)", RULES-NOTES INJ-*).

Dropping to 0 HP gives one injury from the damage type's table; each injury has a severity, effects,
timers and a way to heal. Registers with the engine: event handlers, an effect provider, the daily
and deadline timers, and the injury given on a drop to 0 HP (`engine.damage.injury_rule`).

- rules.py: gaining an injury (INJ-1 to INJ-6), its timers and effects, the `injure` decision, its events
- table.py: one d20 gives the severity band and the row of a damage type's table (INJ-4 to INJ-6)
- care.py: treatment checks, rests and magic healing of injuries (INJ-9 to INJ-11, INJ-T1/T2)
- odds.py: exact odds of treatment and deadlines, from the engine's own decisions (issue 17)
- odds_drop.py: exact odds of one drop to 0 (severity, row, parts lost at once), from the engine's `gain`
- odds_treatment.py: solving the treatment chains for a healer's bonus (attempts, game time, ends)
- odds_check.py: the treatment check's formula, asked of the engine (1d20, or 2d20kl1 for self-treatment)
- odds_party.py: a party profile's expected injuries per session, and under each option (what-if)
- odds_saved.py: the computed chains as plain data, for the persisted cache (adapters/odds_cache.py)
"""
