"""Localized wounds, seed 001 (D&D 3.5 variant "Damage to Specific Areas"; docs/rules.md "Localized
wounds (3.5)", RULES-NOTES LOC-*).

A wound is damage to one body part, with penalties on the rolls that part makes, first aid,
recovery and healing. Registers with the engine: event handlers, an effect provider, the timers of
wounds, and what magic healing does to wounds (`engine.damage.on_magic_healing`).

- rules.py: receiving a wound, first aid, rest and magic healing (LOC-1, LOC-5 to LOC-7), its events
- effects.py: what wounds do in play: penalties on the part's rolls, notes, both sides (LOC-2 to LOC-4)
- what a wounded part affects and its first aid, said in the campaign's own system (5e's skills in a 5e campaign,
  the seed's 3.5 words in Pathfinder), is presentation/wound_words.py
"""
