"""How the odds are written for a reader (the CLI's `sawbones odds` and the web's charts): chances, decimals,
the colon and the units of game time, in English ("18.9%", "1.09", "expected duration: 2.52 days") and as
French is typeset ("18,9 %", "1,09", "durée attendue : 2,52 jours"). The documents (JSON, the API) keep numbers.

French: a decimal comma; a no-break space before "%" (a chance never wraps away from its number) and a space
before the colon and the semicolon (`colon`, `listed`: every screen's, not the odds' only); a unit is plural
from 2 on ("1,5 jour", "2 jours"). English: plural unless exactly 1.
"""

from __future__ import annotations

from typing import Any

NBSP = "\u00a0"

_UNITS = {  # unit id (tracks' frequencies, the odds' documents, what they count) -> (en, en plural, fr, fr plural)
    "round": ("round", "rounds", "round", "rounds"),
    "minute": ("minute", "minutes", "minute", "minutes"),
    "hour": ("hour", "hours", "heure", "heures"),
    "day": ("day", "days", "jour", "jours"),
    "week": ("week", "weeks", "semaine", "semaines"),
    # what the screens count: "1 drop to 0", "2 chutes à 0"
    "drop": ("drop to 0", "drops to 0", "chute à 0", "chutes à 0"), "dose": ("extra dose", "extra doses", "dose en plus",
                                                                            "doses en plus"),
    "event": ("event", "events", "événement", "événements"), "campaign": ("campaign", "campaigns", "campagne", "campagnes"),
    "condition": ("condition", "conditions", "état", "états"),
}


def decimal(x: float, digits: int, lang: str) -> str:
    """`x` with `digits` decimals: "1.09" / "1,09"."""
    text = f"{x:.{digits}f}"
    return text.replace(".", ",") if lang == "fr" else text


def general(x: float, lang: str) -> str:
    """`x` without trailing zeros (as `%g`): "2.5" / "2,5", "4"."""
    text = f"{x:g}"
    return text.replace(".", ",") if lang == "fr" else text


def percent(p: float, lang: str, digits: int = 1) -> str:
    """A chance: "18.9%" / "18,9 %"; "<0.1%" below a twentieth of a per mille, ">99.9%" just short of
    certain, "0%" for none (with `digits` decimals otherwise)."""
    if p == 0:
        number = "0"
    elif p < 0.5 * 10 ** -(digits + 2):
        number = "<" + decimal(10 ** -digits, digits, lang)
    elif 1 - 0.5 * 10 ** -(digits + 2) < p < 1:
        number = ">" + decimal(100 - 10 ** -digits, digits, lang)
    else:
        number = decimal(100 * p, digits, lang)
    return f"{number}{NBSP}%" if lang == "fr" else f"{number}%"


def colon(lang: str) -> str:
    """": " / " : " (the French colon has a space before it)."""
    return " : " if lang == "fr" else ": "


def listed(items: Any, lang: str) -> str:
    """Items one after the other: "a; b" / "a ; b" (the French semicolon has a space before it too)."""
    return (" ; " if lang == "fr" else "; ").join(str(x) for x in items)


def labelled(label: str, value: str, lang: str) -> str:
    """"label: value" / "label : value"."""
    return f"{label}{colon(lang)}{value}"


def ordinal(n: int, lang: str) -> str:
    """"1st", "2nd", "3rd", "11th" / "1er", "2e"."""
    if lang == "fr":
        return "1er" if n == 1 else f"{n}e"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def unit_name(unit: str, amount: float, lang: str) -> str:
    """A unit of game time for `amount` of it: "day" / "days", "jour" / "jours" (an unknown unit: its id)."""
    words = _UNITS.get(unit)
    if words is None:
        return unit
    if lang == "fr":
        return words[3] if abs(amount) >= 2 else words[2]
    return words[0] if amount == 1 else words[1]


def amount(x: float, digits: int, unit: str, lang: str) -> str:
    """"2.52 days" / "2,52 jours"."""
    return f"{decimal(x, digits, lang)} {unit_name(unit, round(x, digits), lang)}"


def counted(x: float, unit: str, lang: str) -> str:
    """"1 drop to 0", "1.5 drops to 0" / "1,5 chute à 0", "2 chutes à 0" (the number as `general` writes it)."""
    return f"{general(x, lang)} {unit_name(unit, x, lang)}"


def unit_plural(unit: str, lang: str) -> str:
    """A unit's plural, for a column's or a title's head: "days" / "jours"."""
    return unit_name(unit, 2, lang)


# A what-if's numbers per session (odds_party.profile), as the CLI and the dashboard name them: (key, English,
# French, which way is better: -1 fewer, +1 more). The injuries per severity are shown before them, neither way.
PER_SESSION = (
    ("healed_by_rest", "healed by a rest", "guéries par un repos", +1),
    ("bed_rest_days", "bed-rest days", "jours de repos au lit", -1),
    ("magic_only", "magic only", "magie seule", -1),
    ("permanent_losses_per_10", "permanent losses per 10 sessions", "pertes définitives pour 10 séances", -1),
)
CHANGED = 5e-3  # a what-if shows a change from the campaign's options above this (it prints two decimals)


def tone(better: int, delta: float) -> str:
    """"better", "worse" or "" (no way is better, or no change worth showing) for a change of `delta`."""
    if not better or abs(delta) <= CHANGED:
        return ""
    return "better" if delta * better > 0 else "worse"


def signed(delta: float, lang: str) -> str:
    """"+0.10" / "-0,05" (a change, two decimals)."""
    return ("+" if delta >= 0 else "-") + decimal(abs(delta), 2, lang)
