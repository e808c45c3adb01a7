"""How the odds commands (odds.py, odds_injury.py) draw a chance: the width of its bar (numbers, chances and units:
presentation/typeset.py, shared with every screen)."""

from __future__ import annotations

BAR = 30  # the width of a chance's bar, in characters
