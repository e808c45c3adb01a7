"""The one name rule for campaigns and characters, and how a typed name finds a stored one.

Every entry point (CLI, web forms, API, import) calls `check_name`; lookups call `pick`.
A name is shown to people and put in links: no control or format characters (newlines, NUL, bidi
overrides, zero-width marks), no lone surrogates, at most 80 characters; a campaign name also goes
in a URL path segment, so it has none of / \\ ? # %. Typed names match stored ones ignoring case and
accents ("eloise" finds "Éloïse"); two matches are an ambiguity error, never a guess. Content names (damage
types, afflictions, injuries, spells, skills...) are resolved the same way by content/rules.py `Rules.resolve`,
in either language.
"""

from __future__ import annotations

import unicodedata
from typing import Callable, Iterable, TypeVar

from ...content.rules import fold  # the one fold, for content names too (Rules.resolve)
from ...errors import UsageError
from ...message import Message, msg, pmsg

MAX_LENGTH = 80
URL_RESERVED = "/\\?#%"
T = TypeVar("T")


def _describe(ch: str) -> str:
    name = unicodedata.name(ch, "") if unicodedata.category(ch) != "Cs" else ""
    return f"U+{ord(ch):04X}{' ' + name if name else ''}"


def _named(what: str) -> Message:
    """What a name names, said in the reader's words ("character", "campaign")."""
    return pmsg("named", "campaign") if what == "campaign" else pmsg("named", "character")


def check_name(text: str, what: str = "character") -> str:
    """The name as stored (trimmed, NFC), or a UsageError saying which character is refused.
    what: "campaign" or "character"."""
    if not isinstance(text, str):
        raise UsageError(msg("a {what} name must be text", what=_named(what)))
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs"):
            raise UsageError(msg("a {what} name cannot contain {character} (control or invisible character)",
                                 what=_named(what), character=_describe(ch)))
    name = unicodedata.normalize("NFC", text).strip()
    if not name:
        raise UsageError(msg("a {what} needs a name", what=_named(what)))
    if len(name) > MAX_LENGTH:
        raise UsageError(msg("a {what} name has at most {most} characters", what=_named(what), most=MAX_LENGTH))
    if what == "campaign":
        bad = next((ch for ch in name if ch in URL_RESERVED), None)
        if bad is not None:
            raise UsageError(msg("a campaign name cannot contain {bad} (it goes in links): none of / \\ ? # %",
                                 bad=repr(bad)))
    return name




def pick(key: str, items: Iterable[T], names: Callable[[T], Iterable[str]], what: str = "character") -> T | None:
    """The item whose id or name is exactly `key`, else the one whose name folds like it; None if none.
    Two folded matches raise a UsageError naming them."""
    items = list(items)
    exact = [item for item in items if key in names(item)]
    if exact:
        return exact[0]
    folded = fold(key)
    found = [item for item in items if any(fold(n) == folded for n in names(item))]
    if len(found) > 1:
        shown = ", ".join(next(iter(names(item))) for item in found)
        raise UsageError(msg("{key} could be several campaigns ({shown}): type the exact name", key=repr(key), shown=shown)
                         if what == "campaign" else
                         msg("{key} could be several characters ({shown}): type the exact name", key=repr(key), shown=shown))
    return found[0] if found else None
