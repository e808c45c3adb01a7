"""How the command line reads what a GM types, beyond click's defaults:

- a negative number is a value, not an option: `campaign set magic_heals_per_effect -1` and `advance -1d`
  reach the command, which says what is wrong with the value (click answered "No such option '-1'");
  any other unknown option is still refused as click does;
- a mistyped command gets a "did you mean" (`damag` → damage), in the reader's language;
- `--help` in the reader's language (--lang, $SAWBONES_LANG): the helps marked N_ where the commands are made,
  and click's own words, from the catalog.
"""

from __future__ import annotations

import re
from typing import Any

import click

from ...message import N_, msgs, pmsg

NEGATIVE = re.compile(r"^-\d")  # "-1", "-1d", "-0.5": no option of sawbones starts with a digit


def _click_gettext(message: str) -> str:
    from ...presentation.locale import catalog

    return catalog().gettext(message)


def _click_ngettext(singular: str, plural: str, n: int) -> str:
    from ...presentation.locale import catalog

    return catalog().ngettext(singular, plural, n)


def speak_click() -> None:
    """click's own words (its usage errors, its help's headings) from sawbones' catalogs, in the reader's language:
    click marks them for gettext, each of its modules reading `_` and `ngettext` when it speaks."""
    import importlib

    for name in ("core", "exceptions", "parser", "types", "formatting", "decorators", "utils", "termui"):
        module = importlib.import_module(f"click.{name}")
        if hasattr(module, "_"):
            module._ = _click_gettext  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = _click_ngettext  # type: ignore[attr-defined]
    _speak_metavars()
    _speak_number_types()


# The words that stand for a value in a usage line or a help (click's metavars: an argument's name, a type's),
# said in the reader's language: `Utilisation : sawbones damage [OPTIONS] NOM DÉGÂTS...`, `--d20 ENTIER`.
METAVARS = (pmsg("metavar", "INTEGER RANGE"), pmsg("metavar", "FLOAT RANGE"), pmsg("metavar", "INTEGER"),
            pmsg("metavar", "FLOAT"), pmsg("metavar", "TEXT"), pmsg("metavar", "BOOLEAN"), pmsg("metavar", "PATH"),
            pmsg("metavar", "FILENAME"), pmsg("metavar", "OPTIONS"), pmsg("metavar", "COMMAND"),
            pmsg("metavar", "ARGS"), pmsg("metavar", "ACTION"), pmsg("metavar", "ADDRESSES"),
            pmsg("metavar", "AFFLICTION"), pmsg("metavar", "AMOUNT"), pmsg("metavar", "BYTES"),
            pmsg("metavar", "CHARACTER"), pmsg("metavar", "DAMAGE"), pmsg("metavar", "DAYS"), pmsg("metavar", "DIR"),
            pmsg("metavar", "DURATION"), pmsg("metavar", "EVENT"), pmsg("metavar", "FILE"), pmsg("metavar", "FILES"),
            pmsg("metavar", "HP"), pmsg("metavar", "INJURY"), pmsg("metavar", "LIST"), pmsg("metavar", "NAME"),
            pmsg("metavar", "NAMES"), pmsg("metavar", "NEW_NAME"), pmsg("metavar", "OPTION"),
            pmsg("metavar", "PART"), pmsg("metavar", "ROLL"), pmsg("metavar", "SPELL"), pmsg("metavar", "STAGE"),
            pmsg("metavar", "SYSTEM"), pmsg("metavar", "TABLE"), pmsg("metavar", "TOTAL"), pmsg("metavar", "TYPE"),
            pmsg("metavar", "VALUE"), pmsg("metavar", "WOUND"))
_PHRASES = ("INTEGER RANGE", "FLOAT RANGE")  # said as one word ("ENTIER"), before the words one by one
_WORD = re.compile(r"(?<![A-Za-z_])[A-Z][A-Z_]+(?![A-Za-z_])")


def said_metavar(text: str) -> str:
    """A usage line's or a help's value words in the reader's language (the others, and English, as written)."""
    from ...presentation.locale import pgettext

    for phrase in _PHRASES:
        if phrase in text:
            text = text.replace(phrase, pgettext("metavar", phrase))
    return _WORD.sub(lambda m: pgettext("metavar", m.group(0)), text)


NUMBER_TYPES = (pmsg("number type", "integer"), pmsg("number type", "integer range"), pmsg("number type", "float"),
                pmsg("number type", "float range"))


def _speak_number_types() -> None:
    """click's number types named in the reader's language, in its errors ("'x' n'est pas un entier valide") and
    its metavars (`--d20 ENTIER`), once."""
    from ...presentation.locale import pgettext

    for cls in (click.types.IntParamType, click.types.IntRange, click.types.FloatParamType, click.types.FloatRange):
        english = cls.__dict__.get("name")
        if isinstance(english, str):
            cls.name = property(lambda self, english=english: pgettext("number type", english))  # type: ignore


def _speak_metavars() -> None:
    """click's metavars (a parameter's, a command's usage pieces) through `said_metavar`, once: every class of click
    that writes its own (an argument's, an option's; a command's and a group's usage pieces) is wrapped."""
    for cls, method in ((click.core.Parameter, "make_metavar"), (click.core.Argument, "make_metavar"),
                        (click.core.Option, "make_metavar"), (click.core.Command, "collect_usage_pieces"),
                        (click.core.Group, "collect_usage_pieces")):
        own = cls.__dict__.get(method)
        if own is None or getattr(own, "_said", False):
            continue
        setattr(cls, method, _said(own))


def _said(method: Any) -> Any:
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        said = method(self, *args, **kwargs)
        return [said_metavar(p) for p in said] if isinstance(said, list) else said_metavar(said)

    wrapper._said = True  # type: ignore[attr-defined]
    return wrapper


# click's usage errors, as its messages are written (click/exceptions.py, click/core.py, click/parser.py,
# click/types.py): the catalog's msgids for them (their French is in fr.po)
CLICK_ERRORS = (N_("No such command {name!r}."), N_("No such option {name!r}."), N_("Missing argument"),
                N_("Missing option"), N_("Missing parameter"), N_("Invalid value for {param_hint}: {message}"),
                N_("Invalid value: {message}"), N_("{value} is not in the range {range}."),
                N_("{value!r} is not a valid {number_type}."), N_("Missing command."),
                N_("Option {name!r} does not take a value."), N_("Could not open file {filename!r}: {message}"))
CLICK_PLURAL_ERRORS = (msgs("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments.", 1),
                       msgs("{value!r} is not {choice}.", "{value!r} is not one of {choices}.", 1),
                       msgs("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})", 1),
                       msgs("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)", 1))

HELP_OPTION = N_("Show this message and exit.")
# click's own words in a help, as it writes them (the catalog says them in the reader's language)
CLICK_WORDS = (N_("Usage:"), N_("Options:"), N_("Commands:"), N_("Arguments:"), N_("Show this message and exit."),
               N_("Show the version and exit."), N_("[default:"), N_("[required]"))
# the pieces click says itself through its `_` (speak_click points it at the catalog) inside an option's brackets:
# "[1<=x<=10000; required]", "[x>=0; default: 3]" (the replacements above see only "[required]", "[default:")
CLICK_HELP_PARTS = (N_("required"), N_("default: {default}"), N_("env var: {var}"))


def said_help(text: str) -> str:
    """A help marked with N_ in the decorators, in the reader's language (the catalog; the English otherwise)."""
    from ...presentation.locale import catalog

    return _unbroken(catalog().gettext(text))


_BEFORE_MARK = re.compile(r" (?=[;:!?»])|(?<=«) ")


def _unbroken(text: str) -> str:
    """French marks kept to their word when click wraps a help (a no-break space: a line never starts with « ; »)."""
    return _BEFORE_MARK.sub("\u00a0", text)


class _CatalogHelp:
    """--help in the reader's language: each command's and option's help (marked N_ where the command is made)
    and click's own words, translated when the help is formatted."""

    def get_help(self, ctx: click.Context) -> str:
        from ...presentation.locale import catalog

        text: str = super().get_help(ctx)  # type: ignore[misc]
        words = catalog()
        for english in CLICK_WORDS:
            said = words.gettext(english)
            if said != english:
                text = text.replace(english, said)
        return text

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        option: click.Option | None = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None:  # (click made it once, in the language of that moment: keep its English, said later)
            option.help = HELP_OPTION
        return option

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        command = self
        saved = (command.help, [(p, getattr(p, "help", None)) for p in command.params])  # type: ignore[attr-defined]
        if command.help:  # type: ignore[attr-defined]
            command.help = said_help(command.help)  # type: ignore[attr-defined]
        for param in command.params:  # type: ignore[attr-defined]
            if getattr(param, "help", None):
                param.help = said_help(param.help)  # type: ignore[attr-defined]
        try:
            super().format_help(ctx, formatter)  # type: ignore[misc]
        finally:
            command.help = saved[0]  # type: ignore[attr-defined]
            for param, text in saved[1]:
                if text is not None:
                    param.help = text  # type: ignore[attr-defined]

    def get_short_help_str(self, limit: int = 45) -> str:
        """The help's first sentence in the reader's language, shortened as click shortens any (the same rule in
        every language)."""
        help_text = getattr(self, "help", None)
        if not help_text:
            return super().get_short_help_str(limit)  # type: ignore[misc, no-any-return]
        self.help = said_help(help_text)  # type: ignore[attr-defined]
        try:
            return super().get_short_help_str(limit)  # type: ignore[misc, no-any-return]
        finally:
            self.help = help_text  # type: ignore[attr-defined]


class NumbersCommand(_CatalogHelp, click.Command):
    """A command whose arguments may be negative numbers."""

    def make_parser(self, ctx: click.Context) -> Any:
        parser = super().make_parser(ctx)
        parser.ignore_unknown_options = True  # kept in place as arguments; checked in parse_args
        return parser

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        for token in _unknown_options(self, ctx, args):
            raise click.NoSuchOption(token, possibilities=[o for p in self.params for o in getattr(p, "opts", ())
                                                            if o.startswith("-")], ctx=ctx)
        return super().parse_args(ctx, args)


def _unknown_options(command: click.Command, ctx: click.Context, args: list[str]) -> list[str]:
    """The tokens that look like options, are none of the command's, and are not negative numbers (nor the value
    an option takes, nor after `--`)."""
    known: dict[str, bool] = {}  # option name -> whether it takes a value
    for param in command.get_params(ctx):
        if isinstance(param, click.Option):
            for name in (*param.opts, *param.secondary_opts):
                known[name] = not (param.is_flag or param.count)
    out, skip = [], False
    for token in args:
        if skip:
            skip = False
            continue
        if token == "--":
            break
        name = token.split("=", 1)[0]
        if name in known:
            skip = known[name] and "=" not in token
        elif token.startswith("-") and token != "-" and not NEGATIVE.match(token):
            out.append(name)
    return out


class SuggestingGroup(_CatalogHelp, click.Group):
    """A group whose mistyped command gets a "did you mean"; its commands take negative numbers."""

    command_class = NumbersCommand

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        name = click.utils.make_str(args[0]) if args else ""
        if args and self.get_command(ctx, name) is None and not name.startswith("-"):
            import difflib

            close = difflib.get_close_matches(name.lower(), self.list_commands(ctx), n=1, cutoff=0.6)
            if close:
                from ...presentation.locale import _

                ctx.fail(_("No such command {name}. Did you mean {other}?", name=repr(name), other=close[0]))
        return super().resolve_command(ctx, args)


SuggestingGroup.group_class = SuggestingGroup


class NamedChoice(click.Choice):
    """A choice typed as a screen shows it, in any language, accents optional: `--side gauche` is `left`.
    `words`: id -> its English template (the catalog's msgid: the same words the screens write)."""

    def __init__(self, words: dict[str, str]) -> None:
        super().__init__(list(words))
        self.words = words
        self._aliases: dict[str, str] | None = None

    def aliases(self) -> dict[str, str]:
        """Every way to type each id: the id, and its words in each language (folded)."""
        if self._aliases is None:
            from ...content.rules import fold
            from ...presentation.locale import _, languages, speaking

            found: dict[str, str] = {}
            for lang in languages():
                with speaking(lang):
                    found.update({fold(_(text)): key for key, text in self.words.items()})
            self._aliases = found | {fold(key): key for key in self.words}
        return self._aliases

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from ...content.rules import fold

        found = self.aliases().get(fold(str(value)))
        return found if found is not None else super().convert(value, param, ctx)


class LanguageChoice(click.Choice):
    """--lang: every language sawbones has a catalog for (a language is a file: $SAWBONES_LOCALE_PATH adds some),
    read when asked, then English (the templates)."""

    def __init__(self) -> None:
        super().__init__(["en"], case_sensitive=False)  # --lang FR is fr

    @property  # type: ignore[override]
    def choices(self) -> tuple[str, ...]:
        from ...presentation.locale import SOURCE, languages

        return (*[lang for lang in languages() if lang != SOURCE], SOURCE)

    @choices.setter
    def choices(self, value: Any) -> None:  # (click.Choice sets its choices; these are read from the catalogs)
        pass

