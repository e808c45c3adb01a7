"""The command line: parse, call the service, render (Rich, or one JSON document with --json).

Heavy modules (pydantic, YAML, Rich, SQLite) are imported inside commands so `--help` stays fast.
Errors are one line on stderr: exit 2 for usage mistakes, 1 for rule violations; never a traceback.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from ...message import N_

from .env import Env
from .parsing import LanguageChoice, SuggestingGroup, speak_click

speak_click()


# every command, by the module that registers it (tests/test_cli_lazy.py checks the map against the modules):
# a command imports its own module only, `--help` and the docs import them all
COMMANDS = {
    "campaign": ("advance", "campaign", "character", "clock", "log", "status", "undo"),
    "rules": ("roll", "tables"),
    "injuries": ("action", "combat-end", "damage", "dash", "heal", "injure", "prone", "rest", "stabilize",
                 "stand", "treat", "turn"),
    "wounds": ("firstaid", "mods", "wound", "wound-heal"),
    "afflictions": ("answer", "cure", "expose", "pending", "recover"),
    "odds": ("odds",),
    "web": ("admin-secret", "gm-link", "player-link", "serve"),
    "storage": ("backup", "export", "import"),
    "players": ("diagnose", "reveal"),
    "discord_bot": ("discord",),
}
_REGISTERED: set[str] = set()


def _register(name: str) -> None:
    """The module adds its commands to `cli` (command modules import only click at top level)."""
    from importlib import import_module

    if name in _REGISTERED:
        return
    _REGISTERED.add(name)
    try:
        module = import_module(f"{__package__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__package__}.{name}":
            raise
        return
    module.register(cli)


class _Commands(SuggestingGroup):
    """The top-level group: a command's module is imported when that command is asked for."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        for module, names in COMMANDS.items():
            if cmd_name in names:
                _register(module)
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        for module in COMMANDS:
            _register(module)
        return super().list_commands(ctx)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
             help=N_("sawbones: lingering injuries, localized wounds and disease/poison tracks, run for you."))
@click.option("--db", metavar="PATH|URL", help=N_("Campaign database: a SQLite file, sqlite:///PATH or "
                                                  "postgresql+psycopg://… (default $SAWBONES_DATABASE_URL, else "
                                                  "./sawbones.db)."))
@click.option("--campaign", "-c", metavar="NAME", help=N_("Act on this campaign instead of the current one."))
@click.option("--lang", type=LanguageChoice(), default=None, expose_value=False,  # (main has set it: `_lang`)
              help=N_("Language of everything shown, errors included (default: $SAWBONES_LANG or en)."))
@click.option("--json", "as_json", is_flag=True, help=N_("Print one JSON document on stdout."))
@click.option("--content", multiple=True, metavar="DIR", help=N_("Load an extra content pack (repeatable)."))
@click.option("--dice", "typed_dice", multiple=True, type=int, metavar="N",
              help=N_("The table's own result for the next roll the action makes (repeatable, in order); a fixed "
                      "value (Puncture Wound's 1 HP, a treatment's 10 minutes) is no roll and takes none."))
@click.option("--expect-version", type=click.IntRange(0), metavar="N",
              help=N_("Act only if the campaign is still at version N (see `campaign show`); else nothing is applied."))
@click.version_option(package_name="sawbones")
@click.pass_context
def cli(ctx: click.Context, db: str | None, campaign: str | None, as_json: bool, content: tuple[str, ...],
        typed_dice: tuple[int, ...], expect_version: int | None) -> None:
    if campaign is not None and not campaign.strip():  # (empty, it would silently mean the current campaign)
        from ...presentation.locale import _

        raise click.BadParameter(_("give a campaign's name (leave the option out for the current campaign)"),
                                 param_hint="'--campaign'")
    if db is not None and not db.strip():
        from ...presentation.locale import _

        raise click.BadParameter(_("give a database (leave the option out for the default)"), param_hint="'--db'")
    ctx.obj = Env(db, campaign, as_json, tuple(content), tuple(typed_dice), expect_version)


def main(argv: list[str] | None = None) -> int:
    """Run one command. The language is set once, here, for the whole run (--lang, else $SAWBONES_LANG: what is
    shown, --help and errors included); the one before comes back after (an in-process caller, docs.py)."""
    from ...presentation.locale import speaking

    with speaking(_lang(argv if argv is not None else sys.argv[1:])):
        return _main(argv)


def _main(argv: list[str] | None) -> int:
    from ...errors import SawbonesError

    try:
        cli.main(args=argv, prog_name="sawbones", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.exceptions.Abort:
        from ...presentation.locale import _

        click.echo("error: " + _("aborted"), err=True)
        return 1
    except click.exceptions.NoArgsIsHelpError as exc:  # bare `sawbones` (or a bare group): its help, not an error
        click.echo(exc.ctx.get_help() if exc.ctx else exc.format_message())
        return 0
    except click.ClickException as exc:
        where = exc.ctx.command_path if getattr(exc, "ctx", None) else "sawbones"
        return _fail("usage", exc.format_message(), where, 2, argv)
    except SawbonesError as exc:
        return _fail(exc.code, exc.text, exc.where, exc.exit_code, argv)
    except BrokenPipeError:  # pragma: no cover
        return 1
    return 0


def _fail(code: str, text: Any, where: str, exit_code: int, argv: list[str] | None) -> int:
    """One line on stderr, in the reader's language (a Message the engine made, or click's words); with --json,
    also one JSON error document on stdout."""
    from ...presentation.locale import _, say
    from ...presentation.system_words import said_system

    message = said_system(say(text))  # (the system's and the libraries' words too: "Aucun fichier ou dossier…")
    where = _where(where, argv if argv is not None else sys.argv[1:])
    click.echo(_("error: {where}{message}", where=_("{where}: ", where=where) if where else "", message=message), err=True)
    if "--json" in (argv if argv is not None else sys.argv[1:]):
        click.echo(json.dumps({"error": {"code": code, "message": message, "where": where}}, ensure_ascii=False))
    return exit_code


def _where(where: str, argv: list[str]) -> str:
    """Where an error is, as the command line names it: an API field the engine named (`hp`, `max_hp`) is the flag
    the GM typed (`--hp`), or nothing when they typed none (a command's name, a path, a campaign stay)."""
    import re

    commands = {name for names in COMMANDS.values() for name in names}
    if not re.fullmatch(r"[a-z][a-z0-9_]*", where) or where in commands or where == "sawbones":
        return where
    flag = "--" + where.replace("_", "-")
    return flag if any(a == flag or a.startswith(flag + "=") for a in argv) else ""


def _lang(argv: list[str]) -> str:
    """The language of the run: --lang given before the command, else $SAWBONES_LANG (--help is answered, and a
    usage error told, before the group's own options are read)."""
    import os

    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return os.environ.get("SAWBONES_LANG", "en")


def run() -> None:  # pragma: no cover
    sys.exit(main())
