"""How the odds commands (odds.py, odds_injury.py) write a chance: bars, percentages, the two languages."""

from __future__ import annotations

BAR = 30  # the width of a chance's bar, in characters


def _t(fr: str, en: str, lang: str) -> str:
    return fr if lang == "fr" else en


def _percent(p: float) -> str:
    if p == 0:
        return "0%"
    if p < 0.0005:
        return "<0.1%"
    if p > 0.9995 and p < 1:
        return ">99.9%"
    return f"{100 * p:.1f}%"
