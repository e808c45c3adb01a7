"""Disease and poison progression tracks, seed 004 (Pathfinder Unchained; docs/rules.md "Progression
tracks (PF1)", RULES-NOTES TRK-*).

An affliction sits on one or more tracks at a stage; periodic saves move it up or down until it is
cured, runs out, or ends the victim. Registers with the engine: event handlers, an effect provider,
and the clock's scheduler for periodic saves (decide.py).

- rules.py: an affliction's state, the per-save step, its events and the effects of its stages
- decide.py: exposure, periodic saves scheduled on the clock, pending saves typed at the table (TRK-1 to TRK-8)
- secrets.py: afflictions known to the player or not (the GM's reveal, a Heal check's diagnosis)
- care.py: spells and rest recovery from poisons (TRK-8 to TRK-10, TRK-S2 to TRK-S8)
- lasting.py: lasting effects and their remedies, each as its entry says (while the affliction runs, or once gone)
- odds.py: exact odds of an affliction for a save bonus, its curve and table (issue 6)
- odds_chain.py: one save's chance and the absorbing Markov chain the odds solve
- odds_reference.py: reference computations for the odds (icepool, Monte Carlo), for tests and benchmarks
"""
