"""CLI: export a campaign to one JSON file, import it back (into any database), back up every campaign."""

from __future__ import annotations

import json
import sys

import click

from ...presentation.typeset import counted
from ...message import N_
from ...presentation.locale import _


def register(cli: click.Group) -> None:
    from .env import pass_env

    @cli.command("export", help=N_("Write the current campaign (or --campaign) to FILE as JSON: its whole log, "
                                   "losslessly.\n"
                                   "\n"
                                   "Without FILE (or with -), the document goes to standard output. `sawbones import` reads it\n"
                                   "back, into this database or another one (SQLite or PostgreSQL)."))
    @click.argument("file", required=False, metavar="[FILE]")
    @click.option("--upto", type=click.IntRange(1, 2**31 - 1), metavar="EVENT",
                  help=N_("Only the events up to this one (the intact part of a damaged log)."))
    @pass_env
    def export_cmd(env, file, upto) -> None:
        from rich.markup import escape

        from ...adapters.transfer import write_json

        name = env.campaign_name()
        doc = env.service.export_campaign(name, upto)
        if not file or file == "-":
            click.echo(json.dumps(doc, ensure_ascii=False, indent=1))
            return
        try:
            write_json(doc, file)
        except OSError as exc:
            from ...presentation.system_words import reason

            raise click.FileError(file, reason(exc)) from None
        summary = {"exported": name, "file": file, "events": len(doc["events"])}
        env.emit(summary, lambda con: con.print(_("Campaign [bold]{name}[/] exported to {file} ({events}).", name=escape(name), file=escape(file),
                                                        events=counted(len(doc["events"]), "event"))))

    @cli.command("import", help=N_("Import a campaign exported with `sawbones export` (FILE, or - for standard "
                                   "input).\n"
                                   "\n"
                                   "The log is written exactly as exported: versions, actions, data, schema and content versions,\n"
                                   "times. A name already in use is refused: choose another with --as."))
    @click.argument("file", metavar="FILE")
    @click.option("--as", "as_name", metavar="NAME", help=N_("Import under this name (the export's name is taken)."))
    @pass_env
    def import_cmd(env, file, as_name) -> None:
        from rich.markup import escape

        from ...adapters.transfer import loads_doc, read_doc

        doc = loads_doc(sys.stdin.read(), "standard input") if file == "-" else read_doc(file)
        name = env.service.import_campaign(doc, as_name)
        count = len(doc.get("events", []))
        env.emit({"imported": name, "file": file, "events": count},
                 lambda con: con.print(_("Campaign [bold]{name}[/] imported ({events}); `sawbones campaign use {quoted}` to play it.", name=escape(name), quoted=escape(repr(name)),
                                               events=counted(count, "event"))))

    @cli.command("backup", help=N_("Back up every campaign into a new dated folder inside DIR (default "
                                   "./sawbones-backups).\n"
                                   "\n"
                                   "One JSON file per campaign (restore one with `sawbones import FILE`), plus, for a SQLite\n"
                                   "database, a consistent copy of the whole file taken while it may be in use."))
    @click.argument("directory", required=False, default="sawbones-backups", metavar="[DIR]")
    @pass_env
    def backup_cmd(env, directory) -> None:
        from rich.markup import escape

        from ...adapters.transfer import backup

        done = backup(env.service.store, directory)

        def render(con) -> None:
            con.print(_("Backed up {campaigns} to {directory}",
                        campaigns=counted(len(done["campaigns"]), "campaign"),
                        directory=escape(str(done["directory"]))))
            for item in done["campaigns"]:
                con.print(_("  {campaign}: {file} ({events})", campaign=escape(item["campaign"]),
                            file=escape(str(item["file"])), events=counted(item["events"], "event")))
            if "database_copy" in done:
                con.print(_("  database copy: {path}", path=escape(str(done["database_copy"]))))

        env.emit(done, render)
