"""How sawbones writes a number, a chance, an amount of game time, a count, a list and a colon for a reader, on
every screen (the CLI and the web pages): in English ("18.9%", "1.09", "2.52 days", "1 drop to 0", "a; b",
"label: value") and as French is typeset ("18,9 %", "1,09", "2,52 jours", "1,5 chute à 0", "a ; b",
"libellé : valeur"). The documents (JSON, the API) keep numbers and ids.

French: a decimal comma; a no-break space before "%" (a chance never wraps away from its number), a space
before the colon and the semicolon (the web pages make it a no-break one: web/i18n.french_marks); a unit or a
counted noun is plural from 2 on ("1,5 jour", "2 jours"). English: plural unless exactly 1.
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
    "save_waiting": ("save waiting", "saves waiting", "jet en attente", "jets en attente"),
    "attempt": ("attempt", "attempts", "essai", "essais"),
    # what `advance` sums up: "2 saves (1 made, 1 failed), 1 stage change" / "2 jets (1 réussi, 1 raté), 1 changement…"
    "save": ("save", "saves", "jet", "jets"), "save_made": ("made", "made", "réussi", "réussis"),
    "save_failed": ("failed", "failed", "raté", "ratés"),
    "stage_change": ("stage change", "stage changes", "changement de cran", "changements de cran"),
    "cure": ("cure", "cures", "guérison", "guérisons"),
    "poison_out": ("poison out of the system", "poisons out of the system", "poison éliminé", "poisons éliminés"),
    "end_state": ("end state", "end states", "état final", "états finaux"), "death": ("death", "deaths", "mort", "morts"),
    "new_injury": ("new injury", "new injuries", "nouvelle blessure", "nouvelles blessures"),
    "injury_healed_or_worse": ("injury healed or turned worse", "injuries healed or turned worse",
                               "blessure guérie ou aggravée", "blessures guéries ou aggravées"),
    "wound_healed": ("wound healed", "wounds healed", "blessure localisée guérie", "blessures localisées guéries"),
    "hp_change": ("HP change", "HP changes", "changement de PV", "changements de PV"),
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


def span(days: float | None, lang: str) -> str:
    """An amount of game time given in days, in the unit a GM speaks: "50 min", "2 hours", "2.5 hours",
    "1.5 days" / "50 min", "2 heures", "2,5 heures", "1,5 jour" ("—" for none). Under an hour in whole minutes,
    under a day in hours (a decimal when not whole), else in days (two decimals at most)."""
    if days is None:
        return "—"
    minutes = days * 24 * 60
    if minutes < 59.5:
        return f"{max(round(minutes), 1) if minutes > 0 else 0} min"
    hours = minutes / 60
    if hours < 23.95:
        shown = round(hours, 1)
        return f"{general(shown, lang)} {unit_name('hour', shown, lang)}"
    shown = round(days, 2)
    return f"{general(shown, lang)} {unit_name('day', shown, lang)}"
