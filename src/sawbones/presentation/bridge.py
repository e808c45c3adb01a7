"""Words that functions of other layers still write with a `lang` argument on this branch (issue 38 is removing
it everywhere): each is called here once, with the reader's language, so that the rest of the presentation layer
takes no language. When the layer below takes none any more (the clock's words move to presentation/time_words.py,
a save's breakdown is said without one), each function here becomes that call."""

from __future__ import annotations

from typing import Any, Callable

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


def english_when(seconds: int) -> str:
    """A moment of game time in English, for a document's `*_text` field (programs read it, not people)."""
    from .locale import SOURCE, speaking

    with speaking(SOURCE):
        return when(seconds)


def call_section(fn: Callable[..., Any], *args: Any) -> Any:
    """A document part or status lines a rule module registers (views.CHARACTER_SECTIONS, STATUS_RENDERERS):
    called without a language; a module not converted yet takes it as one more argument, before the console."""
    import inspect

    try:
        inspect.signature(fn).bind(*args)
    except TypeError:
        if len(args) == 2:  # a status renderer: (character_doc, lang, console)
            return fn(args[0], language(), args[1])
        return fn(*args, language())
    return fn(*args)
