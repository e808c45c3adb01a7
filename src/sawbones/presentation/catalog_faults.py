"""A catalog's faults, found when it is read (locale.py) and by `scripts/catalogs.sh check DIR` (a translator's
folder): each fault is one line naming the file and the line.

- a translation whose {fields} are not its English's (a field the English does not have, a brace left open):
  filled, it would raise; that message is read in English;
- a Plural-Forms header that does not parse, or gives a form the catalog does not have: the whole language
  is read in English (no form could be trusted);
- a `.po` that does not parse: the whole language is read in English.

`python -m sawbones.presentation.catalog_faults DIR…` prints the faults of every catalog under the folders
(DIR/<lang>/LC_MESSAGES/sawbones.po, as $SAWBONES_LOCALE_PATH holds them) and exits 1 if there is one.
"""

from __future__ import annotations

import gettext
import re
import string
import sys
from pathlib import Path
from typing import Any, Iterable

PLURAL_FORMS = re.compile(r"^\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*(.+?)\s*;?\s*$")


class Unreadable(Exception):
    """The whole catalog is read in English: `faults` say why."""

    def __init__(self, faults: list[str]) -> None:
        super().__init__("; ".join(faults))
        self.faults = faults


def fields(text: str) -> set[str] | None:
    """The names of a template's {fields} (their roots: "{a.b}" is "a"); None when its braces do not parse."""
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError:
        return None
    names = set()
    for _, field, _, _ in parsed:
        if field is not None:
            names.add(re.split(r"[.\[]", field, maxsplit=1)[0])
    return names


def wrong_fields(english: Iterable[str], translated: str, plural: bool) -> str | None:
    """Why a translation cannot be filled as its English is (None: it can). A plural's forms may name {n}."""
    allowed: set[str] = {"n"} if plural else set()
    for text in english:
        known = fields(text)
        if known is not None:
            allowed |= known
    found = fields(translated)
    if found is None:
        return "its braces do not parse (a { or } left alone: write {{ or }})"
    unknown = sorted(found - allowed)
    if unknown:
        return "it names " + ", ".join("{%s}" % name for name in unknown) + ", which its English does not"
    return None


def plural_rule(header: str) -> tuple[int, Any] | None:
    """(nplurals, the rule) of a Plural-Forms value; None when it does not parse."""
    found = PLURAL_FORMS.match(header)
    if not found:
        return None
    try:
        count, rule = int(found.group(1)), gettext.c2py(found.group(2))
        if count < 1 or any(not 0 <= rule(n) < count for n in range(0, 1001)):
            return None
    except (ValueError, TypeError, ZeroDivisionError, RecursionError):
        return None
    return count, rule


def _header_line(po: Path) -> int:
    for number, line in enumerate(po.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        if "Plural-Forms:" in line:
            return number
    return 1


def read_checked(po: Path) -> tuple[Any, list[str]]:
    """The .po's catalog (Babel's) without the translations that cannot be filled, and one line per fault;
    Unreadable when the whole language must be read in English."""
    from babel.messages.pofile import PoFileError, read_po

    try:
        with po.open("rb") as handle:
            catalog = read_po(handle, abort_invalid=True)
    except PoFileError as exc:
        raise Unreadable([f"{po}:{getattr(exc, 'lineno', 0)}: the file does not parse ({exc})"]) from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise Unreadable([f"{po}:1: the file cannot be read ({exc})"]) from None
    header = dict(catalog.mime_headers).get("Plural-Forms")
    rule = plural_rule(header) if header else (2, None)
    if rule is None:
        raise Unreadable([f"{po}:{_header_line(po)}: its Plural-Forms header does not parse ({header!r}): "
                          f"the whole language is read in English"])
    faults = []
    for message in list(catalog):
        if not message.id or not message.string:
            continue
        english = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        forms = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        plural = isinstance(message.id, (tuple, list))
        if plural and len([f for f in forms if f]) not in (0, rule[0]):
            why: str | None = f"it has {len(forms)} plural forms, its Plural-Forms {rule[0]}"
        else:
            why = next((w for w in (wrong_fields(english, form, plural) for form in forms if form) if w), None)
        if why:
            faults.append(f"{po}:{message.lineno}: the translation of {english[0][:60]!r}: {why}; read in English")
            message.string = ("",) * len(forms) if plural else ""
    return catalog, faults


def checked_mo(translations: Any, where: str) -> list[str]:
    """A compiled catalog (GNUTranslations) without the translations that cannot be filled; one line per fault.
    (A .mo keeps a plural's singular English only: its forms are checked for their braces alone.)"""
    faults = []
    held = translations._catalog  # (gettext's own table: msgid, or (msgid, form) for a plural's forms)
    for key in list(held):
        english, plural = (key[0], True) if isinstance(key, tuple) else (key, False)
        if not english:
            continue
        english = english.split("\x04", 1)[-1]  # (a context's prefix)
        if plural:
            why = None if fields(held[key]) is not None else wrong_fields((), held[key], True)
        else:
            why = wrong_fields((english,), held[key], False)
        if why:
            faults.append(f"{where}: the translation of {english[:60]!r}: {why}; read in English")
            del held[key]
    return faults


def folder_faults(folder: Path) -> list[str]:
    """Every fault of the catalogs in a folder as $SAWBONES_LOCALE_PATH holds them."""
    found = sorted(folder.glob("*/LC_MESSAGES/sawbones.po"))
    if not found:
        return [f"{folder}: no <language>/LC_MESSAGES/sawbones.po in this folder"]
    faults: list[str] = []
    for po in found:
        try:
            faults += read_checked(po)[1]
        except Unreadable as exc:
            faults += exc.faults
    return faults


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python -m sawbones.presentation.catalog_faults DIR…", file=sys.stderr)
        return 2
    faults = [fault for folder in argv for fault in folder_faults(Path(folder))]
    for fault in faults:
        print(fault)
    return 1 if faults else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
