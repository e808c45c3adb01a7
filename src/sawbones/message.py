"""A message for people, made where it happens and said later, in the reader's language.

The engine (domain, application, adapters, content) never knows who reads: it makes a `Message` — an
English template from the catalog and its fields — with `msg("no campaign named {name}", name=...)`, or
`msgs(singular, plural, n, ...)` when a count chooses the words. `str(message)` is the English (logs, tests,
`repr`); the presentation layer (`sawbones.presentation.locale.say`) says it in the language of the
request, the command or the Discord member, from the gettext catalogs in `sawbones/locale/`.

Babel extracts these calls into `sawbones.pot` (babel.cfg: keywords msg, msgs:1,2, pmsg:1c,2, N_).
A field may hold a Message (said in the same language), an object with `en`/`fr` attributes (a content
entry's name: the content's own words stay data, and a language the content does not name reads English),
an `Option` (a setting the reader gives: `--d20` on the command line, `d20` in the API, the form's label on a
page), a `PerAudience` (words that differ by interface: "add it with `character edit …`" / "PATCH …" / "in the
Edit form"), or any value (said with str()). The engine never names a command-line flag itself.
"""

from __future__ import annotations

from typing import Any


class Message:
    """A catalog template and its fields; immutable, comparable, English when printed."""

    __slots__ = ("text", "plural", "n", "context", "fields")

    def __init__(self, text: str, fields: dict[str, Any] | None = None, *, plural: str | None = None,
                 n: int | None = None, context: str | None = None) -> None:
        self.text = text
        self.plural = plural
        self.n = n
        self.context = context
        self.fields = dict(fields or {})

    def template(self) -> str:
        """The English template this message uses (its plural when a count asks for it)."""
        return self.plural if self.plural is not None and self.n != 1 else self.text

    def __str__(self) -> str:
        return self.template().format_map({key: english(value) for key, value in self.fields.items()})

    def __repr__(self) -> str:
        return f"Message({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Message):
            return (self.text, self.plural, self.n, self.context, self.fields) == \
                (other.text, other.plural, other.n, other.context, other.fields)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.text, self.plural, self.n, self.context))


class Option:
    """A setting the reader gives, named as their interface names it (presentation.locale.say): `--d20` to the
    command line ("cli"), `d20` to the API ("api"), the form field's label to a page ("page")."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name  # the API's field name (snake_case); the CLI's flag is --name-with-dashes

    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    def __str__(self) -> str:
        return self.flag()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Option) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)


class PerAudience:
    """Words that differ by interface (a fix the reader can make where they are): one Message for the command
    line ("cli"), the API and its clients ("api"), and the pages ("page", else the API's)."""

    __slots__ = ("cli", "api", "page")

    def __init__(self, cli: Any, api: Any, page: Any = None) -> None:
        self.cli, self.api, self.page = cli, api, page

    def for_audience(self, audience: str) -> Any:
        if audience == "page" and self.page is not None:
            return self.page
        return self.api if audience in ("api", "page") else self.cli

    def __str__(self) -> str:
        return english(self.cli)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PerAudience) and (self.cli, self.api, self.page) == (other.cli, other.api, other.page)

    def __hash__(self) -> int:
        return hash(str(self))


class Listed:
    """Several values said as one list in the reader's language: "a, b or c" / "a, b ou c" (`last`: "or", "and",
    or "" for a plain ", " list). Its items are said as fields are (Messages, content names, text). `ordered`:
    the items are put in the order of their words in the reader's language (casefolded), once said — a list of
    names reads alphabetically in French too."""

    __slots__ = ("items", "last", "ordered")

    def __init__(self, items: Any, last: str = "and", ordered: bool = False) -> None:
        self.items = tuple(items)
        self.last = last
        self.ordered = ordered

    def __str__(self) -> str:
        words = [english(item) for item in self.items]
        if self.ordered:
            words.sort(key=str.casefold)
        if self.last and len(words) > 1:
            return f"{', '.join(words[:-1])} {self.last} {words[-1]}"
        return ", ".join(words)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Listed) and (self.items, self.last, self.ordered) == \
            (other.items, other.last, other.ordered)

    def __hash__(self) -> int:
        return hash((self.items, self.last, self.ordered))


def english(value: Any) -> str:
    """A field's value in English: a Message as its English, a content name by its `en`, anything else by str()."""
    if isinstance(value, (Message, Option, PerAudience, Listed)):
        return str(value)
    en = getattr(value, "en", None)
    if isinstance(en, str):
        return en
    return str(value)


def msg(text: str, /, **fields: Any) -> Message:
    """A message: `text` is its English template (the catalog's msgid), with {named} fields."""
    return Message(text, fields)


def msgs(singular: str, plural: str, n: int, /, **fields: Any) -> Message:
    """A message whose words depend on a count `n` (given to the template as {n})."""
    return Message(singular, {"n": n, **fields}, plural=plural, n=n)


def pmsg(context: str, text: str, /, **fields: Any) -> Message:
    """A message whose English alone is ambiguous ("stable" a state, "stable" a verdict): `context` tells them apart."""
    return Message(text, fields, context=context)


def N_(text: str) -> str:
    """Marks a template for the catalog without making a message (a table of ids to templates)."""
    return text
