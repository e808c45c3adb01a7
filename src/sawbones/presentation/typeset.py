"""How sawbones writes a number, a chance, an amount of game time, a count, a list and a colon for a reader, on
every screen (the CLI and the web pages), in the reader's language (presentation.locale.language()): in English
("18.9%", "1.09", "2.52 days", "1 drop to 0", "a; b", "label: value") and as French is typeset ("18,9 %", "1,09",
"2,52 jours", "1,5 chute à 0", "a ; b", "libellé : valeur"). The documents (JSON, the API) keep numbers and ids.

Numbers come from Babel's CLDR data (the decimal sign, the grouping, the percent pattern — French puts a no-break
space before "%"); a language Babel does not know (a pseudo-locale, a throwaway one) writes its numbers as
English. Units, counted nouns, ordinals and punctuation are the catalog's words (`npgettext("unit", …)`): their
plural forms come from the catalog's Plural-Forms for whole amounts, and from CLDR's plural rules for the
fractional ones ("1,5 jour" but "1.5 days"). Babel is imported when a number is first written, never at start.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Iterable

from .locale import SOURCE, language, npgettext, pgettext

if TYPE_CHECKING:
    from babel import Locale

NBSP = "\u00a0"

# unit id (tracks' frequencies, the odds' documents, what the screens count: "1 drop to 0", what `advance`
# sums up: "2 saves (1 made, 1 failed), 1 stage change") -> its words for a count (msgctxt "unit" in the catalog)
UNITS: dict[str, Callable[[int], str]] = {
    "round": lambda n: npgettext("unit", "round", "rounds", n),
    "minute": lambda n: npgettext("unit", "minute", "minutes", n),
    "hour": lambda n: npgettext("unit", "hour", "hours", n),
    "day": lambda n: npgettext("unit", "day", "days", n),
    "week": lambda n: npgettext("unit", "week", "weeks", n),
    "drop": lambda n: npgettext("unit", "drop to 0", "drops to 0", n),
    "dose": lambda n: npgettext("unit", "extra dose", "extra doses", n),
    "event": lambda n: npgettext("unit", "event", "events", n),
    "campaign": lambda n: npgettext("unit", "campaign", "campaigns", n),
    "condition": lambda n: npgettext("unit", "condition", "conditions", n),
    "save_waiting": lambda n: npgettext("unit", "save waiting", "saves waiting", n),
    "attempt": lambda n: npgettext("unit", "attempt", "attempts", n),
    "save": lambda n: npgettext("unit", "save", "saves", n),
    "save_made": lambda n: npgettext("unit", "made", "made", n),
    "save_failed": lambda n: npgettext("unit", "failed", "failed", n),
    "stage_change": lambda n: npgettext("unit", "stage change", "stage changes", n),
    "cure": lambda n: npgettext("unit", "cure", "cures", n),
    "poison_out": lambda n: npgettext("unit", "poison out of the system", "poisons out of the system", n),
    "end_state": lambda n: npgettext("unit", "end state", "end states", n),
    "death": lambda n: npgettext("unit", "death", "deaths", n),
    "new_injury": lambda n: npgettext("unit", "new injury", "new injuries", n),
    "injury_healed_or_worse": lambda n: npgettext("unit", "injury healed or turned worse",
                                                  "injuries healed or turned worse", n),
    "wound_healed": lambda n: npgettext("unit", "wound healed", "wounds healed", n),
    "hp_change": lambda n: npgettext("unit", "HP change", "HP changes", n),
}


@lru_cache(maxsize=16)
def _babel_locale(tag: str) -> "Locale":
    from babel import Locale, UnknownLocaleError

    try:
        return Locale.parse(tag)
    except (UnknownLocaleError, ValueError, TypeError):
        return Locale.parse(SOURCE)


def _locale() -> "Locale":
    """The CLDR locale the reader's numbers are written in (English for a language Babel does not know)."""
    return _babel_locale(language())


_NUMBER = re.compile(r"[#0,]*0(?:\.[0#]+)?")


def _pattern(pattern: str, digits: int) -> str:
    """A CLDR pattern ("#,##0.###", "#,##0 %") with exactly `digits` decimals."""
    fraction = "." + "0" * digits if digits > 0 else ""
    return _NUMBER.sub(lambda m: m.group(0).split(".")[0] + fraction, pattern, count=1)


def _decimal_text(value: Decimal, digits: int) -> str:
    from babel.numbers import format_decimal

    where = _locale()
    pattern = where.decimal_formats[None].pattern
    return format_decimal(value, format=_pattern(pattern, digits), locale=where)


def decimal(x: float, digits: int) -> str:
    """`x` with `digits` decimals: "1.09" / "1,09" (rounded as Python's "%.{digits}f" rounds)."""
    return _decimal_text(Decimal(f"{x:.{digits}f}"), digits)


def general(x: float) -> str:
    """`x` without trailing zeros (as `%g`): "2.5" / "2,5", "4"."""
    text = f"{x:g}"
    if "e" in text or "n" in text:  # too large or too small for a reader, or not a number: as Python writes it
        return text
    digits = len(text.split(".")[1]) if "." in text else 0
    return _decimal_text(Decimal(text), digits)


def percent(p: float, digits: int = 1) -> str:
    """A chance: "18.9%" / "18,9 %"; "<0.1%" below a twentieth of a per mille, ">99.9%" just short of
    certain, "0%" for none (with `digits` decimals otherwise)."""
    from babel.numbers import format_percent

    where = _locale()
    pattern = where.percent_formats[None].pattern
    prefix = ""
    if p == 0:
        value, shown = Decimal(0), 0
    elif p < 0.5 * 10 ** -(digits + 2):
        prefix, value, shown = "<", Decimal(1).scaleb(-digits - 2), digits
    elif 1 - 0.5 * 10 ** -(digits + 2) < p < 1:
        prefix, value, shown = ">", 1 - Decimal(1).scaleb(-digits - 2), digits
    else:
        value, shown = Decimal(f"{100 * p:.{digits}f}").scaleb(-2), digits
    return prefix + format_percent(value, format=_pattern(pattern, shown), locale=where)


def colon() -> str:
    """": " / " : " (the French colon has a space before it)."""
    return pgettext("punctuation", ": ")


def listed(items: Iterable[Any]) -> str:
    """Items one after the other: "a; b" / "a ; b" (the French semicolon has a space before it too)."""
    return pgettext("list", "; ").join(str(x) for x in items)


def labelled(label: str, value: str) -> str:
    """"label: value" / "label : value"."""
    return f"{label}{colon()}{value}"


_ORDINALS: dict[str, Callable[[int], str]] = {  # CLDR's ordinal category -> the catalog's words (msgctxt "ordinal")
    "one": lambda n: pgettext("ordinal", "{n}st", n=n),
    "two": lambda n: pgettext("ordinal", "{n}nd", n=n),
    "few": lambda n: pgettext("ordinal", "{n}rd", n=n),
    "other": lambda n: pgettext("ordinal", "{n}th", n=n),
}


def ordinal(n: int) -> str:
    """"1st", "2nd", "3rd", "11th" / "1er", "2e" (the category from CLDR's ordinal rules, the words from the
    catalog)."""
    try:
        form = _locale().ordinal_form(n)
    except (KeyError, AttributeError):
        form = "other"
    return _ORDINALS.get(form, _ORDINALS["other"])(n)


def _plural_n(amount: float) -> int:
    """The whole number whose plural form, in the catalog, is the one `amount` takes: itself when whole; for a
    fraction, the first whole number CLDR puts in the same category ("1,5 jour" is "one" in French, "1.5 days"
    is "other" in English)."""
    size = abs(amount)
    if size == int(size):
        return int(size)
    where = _locale()
    form = where.plural_form(Decimal(repr(size)))
    for n in range(0, 200):
        if where.plural_form(n) == form:
            return n
    return int(size) + 1


def unit_name(unit: str, amount: float) -> str:
    """A unit of game time for `amount` of it: "day" / "days", "jour" / "jours" (an unknown unit: its id)."""
    words = UNITS.get(unit)
    return unit if words is None else words(_plural_n(amount))


def amount(x: float, digits: int, unit: str) -> str:
    """"2.52 days" / "2,52 jours"."""
    return f"{decimal(x, digits)} {unit_name(unit, round(x, digits))}"


def counted(x: float, unit: str) -> str:
    """"1 drop to 0", "1.5 drops to 0" / "1,5 chute à 0", "2 chutes à 0" (the number as `general` writes it)."""
    return f"{general(x)} {unit_name(unit, x)}"


def unit_plural(unit: str) -> str:
    """A unit's plural, for a column's or a title's head: "days" / "jours"."""
    return unit_name(unit, 2)


def span(days: float | None) -> str:
    """An amount of game time given in days, in the unit a GM speaks: "50 min", "2 hours", "2.5 hours",
    "1.5 days" / "50 min", "2 heures", "2,5 heures", "1,5 jour" ("—" for none). Under an hour in whole minutes,
    under a day in hours (a decimal when not whole), else in days (two decimals at most)."""
    if days is None:
        return "—"
    minutes = days * 24 * 60
    if minutes < 59.5:
        return pgettext("unit", "{n} min", n=max(round(minutes), 1) if minutes > 0 else 0)
    hours = minutes / 60
    if hours < 23.95:
        shown = round(hours, 1)
        return f"{general(shown)} {unit_name('hour', shown)}"
    shown = round(days, 2)
    return f"{general(shown)} {unit_name('day', shown)}"
