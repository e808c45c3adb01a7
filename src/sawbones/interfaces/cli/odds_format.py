"""How the odds commands (odds.py, odds_injury.py) write: bars and the two languages (numbers, chances and units:
interfaces/typeset.py, shared with every screen)."""

from __future__ import annotations

BAR = 30  # the width of a chance's bar, in characters


def _t(fr: str, en: str, lang: str) -> str:
    return fr if lang == "fr" else en
