"""The reader's language, as a context, and the words of the catalogs in it.

Each edge sets the language once — the CLI from `--lang` / `$SAWBONES_LANG`, the web from `?lang`, the session or
`Accept-Language`, a bot from the member's locale — with `speaking(lang)` (a block) or `set_language(lang)` (the
rest of this thread or task); everything below reads it where words are made:

    _("{who} joins the party", who=name)            # a sentence, translated then filled
    ngettext("{n} day", "{n} days", n)               # plural forms come from the catalog's Plural-Forms
    pgettext("verdict", "stable")                    # a word whose English alone is ambiguous
    say(error.text)                                  # a Message the engine made (sawbones.message)
    name(entry.name)                                 # a content entry's own words (data: en, fr, …)

The catalogs are gettext files: `sawbones/locale/<lang>/LC_MESSAGES/sawbones.po`, compiled to `.mo` when the
project is installed (scripts/catalogs.sh compile). A catalog whose `.mo` is missing or older than its `.po` is
compiled in memory the first time it is read, so an edited `.po` is read as it is. `$SAWBONES_LOCALE_PATH`
(directories, separated like $PATH) adds catalogs of other languages: a language is a file.
"""

from __future__ import annotations

import gettext as _gettext
import io
import os
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Mapping

from ..message import Listed, Message, Option, PerAudience

DOMAIN = "sawbones"
SOURCE = "en"  # the language of the templates (the catalog's msgids)
PACKAGE_LOCALES = Path(__file__).resolve().parent.parent / "locale"

_LANGUAGE: ContextVar[str] = ContextVar("sawbones_language", default=SOURCE)
_AUDIENCE: ContextVar[str] = ContextVar("sawbones_audience", default="cli")
AUDIENCES = ("cli", "api", "page")  # who reads: the command line (and the bots' own words), the API, a page


# ------------------------------------------------------------------ which language

def _locale_path() -> str:
    return os.environ.get("SAWBONES_LOCALE_PATH", "")


@lru_cache(maxsize=4)
def _dirs(locale_path: str) -> tuple[Path, ...]:
    """Where catalogs are looked for: $SAWBONES_LOCALE_PATH's directories first, then the package's own."""
    return (*(Path(p) for p in locale_path.split(os.pathsep) if p), PACKAGE_LOCALES)


def languages() -> tuple[str, ...]:
    """Every language sawbones speaks: English (the templates) and each language that has a catalog. The folders are
    read once per $SAWBONES_LOCALE_PATH (a request asks several times; forget_catalogs() reads them again)."""
    return _languages(_locale_path())


@lru_cache(maxsize=4)
def _languages(locale_path: str) -> tuple[str, ...]:
    found = {SOURCE}
    for folder in _dirs(locale_path):
        if folder.is_dir():
            found.update(child.name for child in folder.iterdir()
                         if (child / "LC_MESSAGES" / f"{DOMAIN}.po").is_file()
                         or (child / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file())
    return tuple(sorted(found, key=lambda lang: (lang != SOURCE, lang)))


def normalize(lang: str | None) -> str:
    """A language tag as sawbones names its catalogs: "fr-FR", "fr_CA" and "FR" are "fr"; an unknown one is English."""
    if not lang:
        return SOURCE
    tag = lang.strip().replace("-", "_")
    known = languages()
    for candidate in (tag, tag.lower(), tag.split("_")[0].lower()):
        if candidate in known:
            return candidate
    return SOURCE


def language() -> str:
    """The language of whoever is reading now."""
    return _LANGUAGE.get()


@contextmanager
def speaking(lang: str | None) -> Iterator[str]:
    """Words made inside this block are in `lang` (normalized); the language before it comes back after."""
    token = _LANGUAGE.set(normalize(lang))
    try:
        yield _LANGUAGE.get()
    finally:
        _LANGUAGE.reset(token)


def set_language(lang: str | None) -> str:
    """From now on, in this thread or task, words are in `lang` (an edge that owns the whole run: the CLI)."""
    _LANGUAGE.set(normalize(lang))
    return _LANGUAGE.get()


def audience() -> str:
    """Who reads now: "cli" (the default), "api" (the JSON API and the clients that show its errors) or "page"."""
    return _AUDIENCE.get()


@contextmanager
def addressing(who: str) -> Iterator[str]:
    """Words made inside this block are for `who` (one of AUDIENCES): it names options and fixes as they do."""
    if who not in AUDIENCES:
        raise ValueError(f"unknown audience {who!r}")
    token = _AUDIENCE.set(who)
    try:
        yield who
    finally:
        _AUDIENCE.reset(token)


# ------------------------------------------------------------------ the catalogs

@lru_cache(maxsize=16)
def _catalog(lang: str, locale_path: str) -> _gettext.NullTranslations:
    """The language's catalog, checked as it is read (catalog_faults.py): a translation that cannot be filled
    is read in English, and so is a whole catalog that does not parse; one warning each, naming file and line."""
    from .catalog_faults import Unreadable, checked_mo

    for folder in _dirs(locale_path):
        base = folder / lang / "LC_MESSAGES" / DOMAIN
        po, mo = base.with_suffix(".po"), base.with_suffix(".mo")
        try:
            if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
                with mo.open("rb") as handle:
                    read = _gettext.GNUTranslations(handle)
                _warn(checked_mo(read, str(mo)))
                return read
            if po.is_file():
                return _gettext.GNUTranslations(io.BytesIO(compile_po(po)))
        except Unreadable as exc:
            _warn(exc.faults)
            return _gettext.NullTranslations()
        except (OSError, ValueError, LookupError, SyntaxError) as exc:  # a .mo gettext cannot read (its header)
            _warn([f"{mo}: the catalog cannot be read ({exc}): the whole language is read in English"])
            return _gettext.NullTranslations()
    return _gettext.NullTranslations()


def _warn(faults: list[str]) -> None:
    import logging

    for fault in faults:
        logging.getLogger("sawbones.locale").warning("%s", fault)


def catalog(lang: str | None = None) -> _gettext.NullTranslations:
    """The translations of `lang` (default: the reader's); English is the templates themselves."""
    lang = lang or language()
    if lang == SOURCE:
        return _ENGLISH
    return _catalog(lang, _locale_path())  # (every word asks: no path built, no folder read, after the first)


_ENGLISH = _gettext.NullTranslations()


def compile_po(po: Path) -> bytes:
    """A .po file as the bytes of its .mo (Babel; fuzzy entries are left out, as msgfmt does), checked as it is
    read (catalog_faults.py: the translations that cannot be filled are left out, one warning each; Unreadable
    when the whole language cannot be trusted)."""
    from babel.messages.mofile import write_mo

    from .catalog_faults import read_checked

    messages, faults = read_checked(po)
    _warn(faults)
    out = io.BytesIO()
    write_mo(out, messages, use_fuzzy=False)
    return out.getvalue()


def forget_catalogs() -> None:
    """Read the catalogs again (a test that writes a language, a server that reloads)."""
    _catalog.cache_clear()
    _languages.cache_clear()


# ------------------------------------------------------------------ words

def _fill(template: str, fields: dict[str, Any]) -> str:
    if not fields:
        return template
    return template.format_map({key: say(value) for key, value in fields.items()})


def _(text: str, /, **fields: Any) -> str:
    """`text` (an English template) in the reader's language, its {fields} filled (each said in that language)."""
    return _fill(catalog().gettext(text), fields)


def ngettext(singular: str, plural: str, n: int, /, **fields: Any) -> str:
    """The form of a counted sentence that `n` asks for in the reader's language ({n} is filled with n)."""
    return _fill(catalog().ngettext(singular, plural, n), {"n": n, **fields})


def pgettext(context: str, text: str, /, **fields: Any) -> str:
    """`text` in the sense `context` gives it (the catalog's msgctxt), in the reader's language."""
    return _fill(catalog().pgettext(context, text), fields)


def npgettext(context: str, singular: str, plural: str, n: int, /, **fields: Any) -> str:
    """The form `n` asks for of a counted text in the sense `context` gives it ({n} is filled with n)."""
    return _fill(catalog().npgettext(context, singular, plural, n), {"n": n, **fields})


def say(value: Any) -> str:
    """Anything a reader sees, in their language: a Message, a content entry's name (en/fr… attributes), text."""
    if isinstance(value, Message):
        words = catalog()
        if value.plural is not None:
            template = words.npgettext(value.context, value.text, value.plural, value.n or 0) if value.context \
                else words.ngettext(value.text, value.plural, value.n or 0)
        else:
            template = words.pgettext(value.context, value.text) if value.context else words.gettext(value.text)
        return _fill(template, value.fields)
    if isinstance(value, str):
        return value
    if isinstance(value, Listed):
        items = [say(item) for item in value.items]
        if value.ordered:
            items.sort(key=str.casefold)
        if value.last and len(items) > 1:
            last = pgettext("list", " or ") if value.last == "or" else pgettext("list", " and ")
            return pgettext("list", ", ").join(items[:-1]) + last + items[-1]
        return pgettext("list", ", ").join(items)
    if isinstance(value, PerAudience):
        return say(value.for_audience(audience()))
    if isinstance(value, Option):
        who = audience()
        if who == "cli":
            return value.flag()
        return field_label(value.name) if who == "page" else value.name
    if getattr(value, "en", None) is not None:
        return name(value)
    return str(value)


_FIELD_LABELS: dict[str, Message] = {}  # a field's name (the API's) → its label on a page, filled by the web


def label_fields(labels: Mapping[str, Message]) -> None:
    """The labels a page names its fields by (`max_hp` is "max HP"), each a Message of the catalog (pmsg("field",
    "max HP")): the interface that has the forms gives them (the presentation does not know its pages)."""
    _FIELD_LABELS.update(labels)


def field_label(field: str) -> str:
    """A field as a page labels it, in the reader's language: its registered label, else its name in words."""
    label = _FIELD_LABELS.get(field)
    return say(label) if label is not None else pgettext("field", field).replace("_", " ")


def name(words: Any) -> str:
    """A content entry's own words (an object or a mapping with one attribute per language) in the reader's
    language, English when the content does not name it in that language."""
    lang = language()
    if isinstance(words, dict):
        return str(words.get(lang) or words.get(SOURCE) or next(iter(words.values()), ""))
    said = getattr(words, lang, None) if lang.isidentifier() else None
    return said if isinstance(said, str) and said else str(getattr(words, SOURCE))
