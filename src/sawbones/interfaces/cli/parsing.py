"""How the command line reads what a GM types, beyond click's defaults:

- a negative number is a value, not an option: `campaign set magic_heals_per_effect -1` and `advance -1d`
  reach the command, which says what is wrong with the value (click answered "No such option '-1'");
  any other unknown option is still refused as click does;
- a mistyped command gets a "did you mean" (`damag` → damage), in the reader's language (errors_fr.py).
"""

from __future__ import annotations

import re
from typing import Any

import click

NEGATIVE = re.compile(r"^-\d")  # "-1", "-1d", "-0.5": no option of sawbones starts with a digit


class NumbersCommand(click.Command):
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


class SuggestingGroup(click.Group):
    """A group whose mistyped command gets a "did you mean"; its commands take negative numbers."""

    command_class = NumbersCommand

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        name = click.utils.make_str(args[0]) if args else ""
        if args and self.get_command(ctx, name) is None and not name.startswith("-"):
            import difflib

            close = difflib.get_close_matches(name.lower(), self.list_commands(ctx), n=1, cutoff=0.6)
            if close:
                ctx.fail(f"No such command {name!r}. Did you mean {close[0]}?")
        return super().resolve_command(ctx, args)


SuggestingGroup.group_class = SuggestingGroup


class NamedChoice(click.Choice):
    """A choice typed as a screen shows it, in either language, accents optional: `--side gauche` is `left`.
    `words`: id -> (English, French), the words the screens show (the same tables that write them)."""

    def __init__(self, words: dict[str, tuple[str, str]]) -> None:
        super().__init__(list(words))
        from ...content.rules import fold

        self.aliases = {fold(word): key for key, pair in words.items() for word in (key, *pair)}

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from ...content.rules import fold

        found = self.aliases.get(fold(str(value)))
        return found if found is not None else super().convert(value, param, ctx)
