"""A pseudo-locale, for developers: every word of the catalog accented, lengthened and wrapped in markers.

    python -m sawbones.presentation.pseudo DIR      # writes DIR/qps/LC_MESSAGES/sawbones.po from sawbones.pot
    SAWBONES_LOCALE_PATH=DIR sawbones --lang qps status

"Save: 12 vs DC {dc}" reads "⟦Šåvéé: 12 vš ÐÇ {dc}⟧": still legible, about 30 % longer (the room a translation
takes: a label that overflows shows it), and any text outside the markers did not come from the catalog —
tests/test_pseudo_locale.py renders every CLI document and every page in it and fails on such text.
{fields} (with their format specs), HTML and Rich markup, entities, `--options`, `code` in backticks and URLs are kept
as they are. "qps" is a private-use language tag (ISO 639 qaa–qtz): no real language is shadowed.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from .locale import DOMAIN, PACKAGE_LOCALES

LANG = "qps"
OPEN, CLOSE = "⟦", "⟧"
ACCENTS = dict(zip("aAbcCdDeEgGhHiIjJkKlLnNoOrRsStTuUwWyYzZ",
                   "åÅƀçÇðÐéÉĝĜĥĤíÍĵĴķĶľĽñÑöÖŕŔšŠţŢûÛŵŴýÝžŽ"))
VOWELS = set("aeiouyAEIOUY")
LONGER = 0.3  # each text grows by about this much (a French or German translation is often 20–40 % longer)
# kept as they are: {fields} and {{ }}, HTML and Rich markup ([bold]…[/]), entities, --options, `code`, URLs
KEPT = re.compile(r"\{\{|\}\}|\{[^{}]*\}|<[^<>]*>|\[/?[a-z][a-z0-9 _.#=:/-]*\]|\[/\]|&[#\w]+;"
                  r"|(?<![\w-])--?[A-Za-z][\w-]*|`[^`]*`|https?://\S+")


def accent(words: str, extra: int) -> str:
    """`words` with each letter accented and `extra` of its vowels doubled, spread along it."""
    vowels = [i for i, ch in enumerate(words) if ch in VOWELS]
    doubled = set(vowels[:: max(1, len(vowels) // extra)][:extra]) if extra and vowels else set()
    return "".join(ACCENTS.get(ch, ch) * (2 if i in doubled else 1) for i, ch in enumerate(words))


def pseudo(text: str) -> str:
    """`text` (a catalog's msgid) in the pseudo-locale: accented, about 30 % longer, wrapped in ⟦ ⟧."""
    if not text:
        return text
    letters = sum(ch.isalpha() for part in KEPT.split(text) for ch in part)
    budget = max(1, round(letters * LONGER)) if letters else 0
    out, start = [], 0
    for kept in KEPT.finditer(text):
        plain = text[start:kept.start()]
        share = round(budget * sum(ch.isalpha() for ch in plain) / letters) if letters else 0
        out += [accent(plain, share), kept.group()]
        start = kept.end()
    plain = text[start:]
    out.append(accent(plain, round(budget * sum(ch.isalpha() for ch in plain) / letters) if letters else 0))
    said = "".join(out)
    padding = budget - (len(said) - len(text))
    if padding > 0:  # a text of few vowels still grows: a tail of dots inside the markers
        said += " " + "·" * padding
    return f"{OPEN}{said}{CLOSE}"


def write_catalog(folder: Path, lang: str = LANG, pot: Path | None = None) -> Path:
    """Write `folder/<lang>/LC_MESSAGES/sawbones.po`, every message of sawbones.pot in the pseudo-locale
    (plural forms as in English). The .po is read as it is (presentation/locale.py compiles it in memory);
    point $SAWBONES_LOCALE_PATH at `folder`."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    with (pot or PACKAGE_LOCALES / f"{DOMAIN}.pot").open("rb") as handle:
        template = read_po(handle)
    catalog = Catalog(locale=None, domain=DOMAIN, project="sawbones", fuzzy=False, header_comment="# pseudo-locale")
    catalog.mime_headers = [*(kv for kv in catalog.mime_headers if kv[0] != "Plural-Forms"),
                            ("Language", lang), ("Plural-Forms", "nplurals=2; plural=(n != 1);")]
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, (list, tuple)):
            singular, plural = message.id[0], message.id[1]
            catalog.add((singular, plural), (pseudo(singular), pseudo(plural)), context=message.context,
                        flags=message.flags - {"fuzzy"})
        else:
            catalog.add(message.id, pseudo(message.id), context=message.context, flags=message.flags - {"fuzzy"})
    target = folder / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("wb") as handle:
        write_po(handle, catalog, width=120)
    return target


def strip_marked(text: str) -> str:
    """`text` without what the markers enclose (nested markers too): what is left did not come from the catalog."""
    out, depth = [], 0
    for ch in text:
        if ch == OPEN:
            depth += 1
        elif ch == CLOSE and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
    return "".join(out)


if __name__ == "__main__":  # pragma: no cover
    print(write_catalog(Path(sys.argv[1] if len(sys.argv) > 1 else ".")))
