"""The typography of a page's language, on the rendered HTML: French holds "?", "!", ";", ":" and "»" to the word
before them, and "«" to the word after (no-break spaces), as French sets them."""

from __future__ import annotations

import re

from ....presentation.locale import language

_TAG_OR_TEXT = re.compile(r"(<(script|style|textarea|pre)\b.*?</\2>|<[^>]*>)", re.S | re.I)
_BEFORE_MARK = re.compile(r" ([?!;:»])|(«) ")
_NO_BREAK = {"?": "\u202f?", "!": "\u202f!", ";": "\u202f;", ":": "\u00a0:", "»": "\u00a0»", "«": "«\u00a0"}
SPACED_MARKS = frozenset({"fr"})  # the languages that set a space before their high marks


def french_marks(html: str) -> str:
    """A French page's text with each "?", "!", ";", ":" and "»" held to the word before it, and "«" to the word
    after (no-break spaces, thin before ?!; as French sets them): never alone at the start of a line on a phone.
    Only the text between tags changes: tags, attributes, scripts, styles and what a GM may edit (a textarea, a
    preformatted block) stay as they are."""
    parts = _TAG_OR_TEXT.split(html)
    for i in range(0, len(parts), 3):  # (the text between the tags; each tag and its name follow it)
        if " " in parts[i]:
            parts[i] = _BEFORE_MARK.sub(lambda m: _NO_BREAK[m.group(1) or m.group(2)], parts[i])
    return "".join(p for i, p in enumerate(parts) if i % 3 != 2)


def typeset(html: str) -> str:
    """The page as its language sets it (French: its marks held to their words)."""
    return french_marks(html) if language() in SPACED_MARKS else html
