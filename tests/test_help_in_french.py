"""Every option of every command, and every command, has its French help in the catalog (fr.po): an option added
in English only fails here, not in front of a French reader of `sawbones --lang fr COMMAND --help`."""

from __future__ import annotations

from functools import lru_cache

import click

from sawbones.interfaces.cli import cli
from sawbones.interfaces.cli.parsing import CLICK_WORDS
from sawbones.presentation.locale import PACKAGE_LOCALES


def _walk(command: click.Command, ctx: click.Context, path: str):
    """Each command under `command` (itself included) with its path."""
    yield path, command
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None:
                yield from _walk(sub, click.Context(sub, info_name=name, parent=ctx), f"{path} {name}".strip())


def _commands():
    return list(_walk(cli, click.Context(cli, info_name="sawbones"), ""))


@lru_cache(maxsize=1)
def _translated() -> frozenset[str]:
    """The msgids fr.po gives a French for (English and French may be spelled alike: "Options")."""
    from babel.messages.pofile import read_po

    with (PACKAGE_LOCALES / "fr" / "LC_MESSAGES" / "sawbones.po").open("rb") as handle:
        return frozenset(m.id for m in read_po(handle) if isinstance(m.id, str) and m.id and m.string)


def _french(text: str) -> bool:
    return text in _translated()


def test_every_option_with_help_has_its_french():
    missing = [(path, param.name, param.opts) for path, command in _commands() for param in command.params
               if isinstance(param, click.Option) and param.help and not param.hidden and not _french(param.help)]
    assert not missing, missing


def test_every_command_has_its_french():
    missing = [path for path, command in _commands() if not command.hidden and not _french(command.help or "")]
    assert not missing, missing


def test_click_own_words_have_their_french():
    assert all(_french(word) for word in CLICK_WORDS)


def test_the_walk_reaches_the_subcommands():
    paths = {path for path, _ in _commands()}
    assert {"", "serve", "character add", "campaign set", "odds"} <= paths, paths


def test_a_help_in_french_is_french(cli):
    out = cli("--lang", "fr", "roll", "--help").out
    assert out.startswith("Utilisation : sawbones roll") and "Tire une blessure" in out, out
    assert "Le d20 lancé par le joueur" in out and "Affiche ce message et quitte." in out, out
    assert cli("--lang", "en", "roll", "--help").out.startswith("Usage: sawbones roll")
