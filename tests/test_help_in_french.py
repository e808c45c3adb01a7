"""Every option of every command has its French help in help_fr.py (or help_fr_options.py, merged into it): an
option added in English only fails here, not in front of a French reader of `sawbones --lang fr COMMAND --help`."""

from __future__ import annotations

import click

from sawbones.interfaces.cli import cli
from sawbones.interfaces.cli.help_fr import COMMANDS, OPTIONS


def _walk(command: click.Command, ctx: click.Context, path: str):
    """Each command under `command` (itself included) with its path, as `_path` in cli/parsing.py spells it."""
    yield path, command
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None:
                yield from _walk(sub, click.Context(sub, info_name=name, parent=ctx), f"{path} {name}".strip())


def _commands():
    return list(_walk(cli, click.Context(cli, info_name="sawbones"), ""))


def test_every_option_with_help_has_its_french():
    missing = [(path, param.name, param.opts) for path, command in _commands() for param in command.params
               if isinstance(param, click.Option) and param.help and not param.hidden
               and (path, param.name) not in OPTIONS]
    assert not missing, missing


def test_every_command_has_its_french():
    missing = [path for path, command in _commands() if not command.hidden and path not in COMMANDS]
    assert not missing, missing


def test_the_walk_reaches_the_subcommands():
    paths = {path for path, _ in _commands()}
    assert {"", "serve", "character add", "campaign set", "odds"} <= paths, paths
