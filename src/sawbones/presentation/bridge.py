"""Words that functions of other layers still write with a `lang` argument on this branch (issue 38 is removing
it everywhere): each is called here once, with the reader's language, so that the rest of the presentation layer
takes no language. When the layer below takes none any more (the clock's words move to presentation/time_words.py,
a save's breakdown is said without one), each function here becomes that call."""

from __future__ import annotations

from typing import Any

from .locale import language, say


def _said(words: Any) -> str:
    return say(words)


def when(seconds: int) -> str:
    """A moment of game time: "day 2, 08:00" (domain.engine.clock.describe)."""
    from ..domain.engine.clock import describe

    return _said(describe(seconds, language()))


def when_in(seconds: int) -> str:
    """How long until a moment (domain.engine.clock.describe_in)."""
    from ..domain.engine.clock import describe_in

    return _said(describe_in(seconds, language()))


def how_long(seconds: int) -> str:
    """An amount of game time: "2 hours" (domain.engine.clock.describe_span)."""
    from ..domain.engine.clock import describe_span

    return _said(describe_span(seconds, language()))


def save_breakdown(breakdown: dict[str, Any]) -> str:
    """What makes a save's bonus: "sheet +4, Sickened -2" (domain.engine.saves.describe)."""
    from ..domain.engine.saves import describe

    return _said(describe(breakdown, language()))
