"""Words for people, in English and French: one mechanism for the engine's sentences and its errors.

Two kinds of catalog, both (en, fr) pairs with {named} fields:
- keyed strings (`Words`): `words.say("key", lang, n=3)`; each module that speaks owns one and
  registers it, so tests/test_i18n.py renders every string of every catalog in both languages;
- English templates (`TEXTS`): a message made in English by the engine (an error, the cause of a
  change) is matched whole against them and said in French: "no campaign named 'x' (campaigns: a)"
  → "aucune campagne nommée 'x' (campagnes : a)". tests/test_i18n.py checks that every message the
  code raises has its template.
"""

from __future__ import annotations

import re
import string
from functools import lru_cache
from typing import Any, Callable, Iterable

# every keyed catalog, by owner (tests walk them all)
CATALOGS: dict[str, "Words"] = {}


class Words:
    """A keyed catalog: key -> (en, fr)."""

    def __init__(self, owner: str, strings: dict[str, tuple[str, str]]) -> None:
        self.owner = owner
        self.strings = strings
        CATALOGS[owner] = self

    def say(self, key: str, lang: str, **fields: Any) -> str:
        en, fr = self.strings[key]
        return (fr if lang == "fr" else en).format(**fields) if fields else (fr if lang == "fr" else en)

    def __contains__(self, key: str) -> bool:
        return key in self.strings


def fields_of(template: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]


# ------------------------------------------------------------------ English text said in French

# (English template, French template); register more with add_texts (errors.py's catalog, rule modules)
TEXTS: list[tuple[str, str]] = []


def add_texts(pairs: Iterable[tuple[str, str]]) -> None:
    TEXTS.extend(pairs)
    _compiled.cache_clear()


@lru_cache(maxsize=1)
def _compiled() -> list[tuple[re.Pattern[str], str, int]]:
    from .errors_fr import ERRORS_FR

    out = []
    for en, fr in [*ERRORS_FR, *TEXTS]:
        literal = sum(len(text) for text, _, _, _ in string.Formatter().parse(en))
        out.append((_pattern(en), fr, literal))
    out.sort(key=lambda item: -item[2])  # the most specific template wins
    return out


def template_for(text: str) -> tuple[str, dict[str, str]] | None:
    """The French template and the fields of the English template matching all of `text`, or None."""
    for pattern, fr, _ in _compiled():
        found = pattern.match(text)
        if found:
            return fr, found.groupdict()
    return None


@lru_cache(maxsize=2)
def _web(audience: str) -> list[tuple[re.Pattern[str], str, str]]:
    from .errors_web import WEB_WORDING

    return [(_pattern(w.cli), *w.said(audience)) for w in WEB_WORDING]


def _pattern(en: str) -> re.Pattern[str]:
    pattern, seen = "", set()
    for text, name, _, _ in string.Formatter().parse(en):
        pattern += re.escape(text)
        if name is not None:
            pattern += f"(?P={name})" if name in seen else f"(?P<{name}>.+?)"
            seen.add(name)
    return re.compile(pattern + r"\Z", re.S)


def for_the_web(text: str, lang: str, audience: str = "page") -> str:
    """`text` as the web shows it, in `lang`: a page names its form's labels (audience "page"), the API the fields
    of its request bodies and its parameters ("api"), never the command line's flags (errors_web.py)."""
    for pattern, web_en, web_fr in _web(audience):
        found = pattern.match(text)
        if found:
            if lang != "fr":
                return web_en.format(**found.groupdict())
            return web_fr.format(**{k: _field_fr(k, v, None) for k, v in found.groupdict().items()})
    head, sep, tail = text.partition(": ")
    if sep and FLAG_HEAD.match(head):  # "--d20: a d20 shows 1 to 20": the web's parameter, named as its field
        return f"{head[2:].replace('-', '_')}{' : ' if lang == 'fr' else ': '}{for_the_web(tail, lang, audience)}"
    if sep and for_the_web(tail, lang, audience) != translate(tail, lang):
        return f"{translate(head, lang)}{' : ' if lang == 'fr' else ': '}{for_the_web(tail, lang, audience)}"
    return translate(text, lang)


FLAG_HEAD = re.compile(r"--[a-z][a-z0-9-]*\Z")


def for_the_api(text: str, lang: str) -> str:
    """`text` as the JSON API (and the tools that show its errors, the Discord bot) says it."""
    return for_the_web(text, lang, "api")


def translate(text: str, lang: str, name: Callable[[str], str] | None = None) -> str:
    """`text` (made in English) in `lang`; an English text with no template stays as it is.
    name: how to say a field's value (a content id as its name); by default values stay as they are,
    except the English texts and names a message carries (`_field_fr`)."""
    if lang != "fr" or not text:
        return text
    found = template_for(text)
    if found is None:
        head, sep, tail = text.partition(": ")  # "where: message" and "cause: detail" halves
        if sep and template_for(tail) is not None:
            return f"{translate(head, lang, name)} : {translate(tail, lang, name)}"
        return text
    fr, values = found
    return fr.format(**{k: _field_fr(k, v, name) for k, v in values.items()})


def _field_fr(field: str, value: str, name: Callable[[str], str] | None) -> str:
    """A field of an English message, in a French one: *_text is English text, *_texts several ("; "), *name_en*
    content names ("Regenerate or Wish"); a list joined with "or" or "and" (*join*) says "ou", "et"."""
    if field.endswith("_texts"):
        return " ; ".join(translate(part, "fr", name) for part in value.split("; "))
    if field.endswith("_text"):
        return translate(value, "fr", name)
    if field.endswith("choice_names_en"):  # option values by their English names (options.yaml choice_names)
        names = _choice_names()
        return " ou ".join(names.get(part.casefold(), part) for part in value.split(" or "))
    if field.endswith("_names_en"):  # one section's names listed with ", " (`{spells_pf1e_names_en}`: the spells'
        section, _, system = field[:-9].partition("_")  # titles in pf1e's books), said in French, in French order
        names = _section_names(section, system)
        return ", ".join(sorted((names.get(part.casefold(), part) for part in value.split(", ")), key=str.casefold))
    if "name_en" in field:  # (a name may hold "or" itself: "Lose a Foot or Hand")
        whole = french_name(value, field)
        return whole if whole != value else " ou ".join(french_name(part, field) for part in value.split(" or "))
    if "join" in field:
        return value.replace(" or ", " ou ").replace(" and ", " et ")
    return name(value) if name else value


def french_name(english: str, field: str = "") -> str:
    """A content entry's French name for its English one (a message names it so: `{definition_name_en}`,
    `{part_name_en_lower}`); an English name the content does not know stays as it is."""
    lower = field.endswith("_lower")
    # `{spell_pf1e_name_en}`: the name the pf1e books give (seed 004's « Guérison suprême »), else the usual one
    found = (_french_names("pf1e") if "pf1e_name_en" in field else {}).get(english.casefold()) or \
        _french_names().get(english.casefold())
    if found is None:
        return english
    return found.lower() if lower else found


@lru_cache(maxsize=1)
def _choice_names() -> dict[str, str]:
    """English name → French, of every option's values."""
    from .content.loader import load_rules

    return {name.en.casefold(): name.fr for option in load_rules().options.values()
            for name in option.choice_names.values()}


@lru_cache(maxsize=8)
def _section_names(section: str, system: str) -> dict[str, str]:
    """English name → French, of one section's entries (`system`: the titles that system's books give first)."""
    from .content.loader import load_rules

    out: dict[str, str] = {}
    for entry in load_rules().sections.get(section, {}).values():
        titles = getattr(entry, "system_names", None) or {}
        for named in (titles.get(system) or getattr(entry, "name", None), getattr(entry, "name", None), *titles.values()):
            if isinstance(getattr(named, "en", None), str) and isinstance(getattr(named, "fr", None), str):
                out.setdefault(named.en.casefold(), named.fr)
    return out


@lru_cache(maxsize=2)
def _french_names(system: str = "") -> dict[str, str]:
    """English name → French, of every named content entry (`system`: only the names that system gives)."""
    from .content.loader import load_rules  # (on a French error only: `sawbones --help` loads no content)

    rules = load_rules()
    out: dict[str, str] = {}
    for section in rules.sections.values():
        for entry in section.values():
            if system:
                named = (getattr(entry, "system_names", None) or {}).get(system)
                if named is not None:
                    out.setdefault(named.en.casefold(), named.fr)
                continue
            for named in [getattr(entry, "name", None)] + [st.name for st in getattr(entry, "stages", ())]:
                en, fr = getattr(named, "en", None), getattr(named, "fr", None)  # (a track's stages too)
                if isinstance(en, str) and isinstance(fr, str):
                    out.setdefault(en.casefold(), fr)
    return out
