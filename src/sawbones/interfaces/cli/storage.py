"""CLI: export a campaign to one JSON file, import it back (into any database), back up every campaign."""

from __future__ import annotations

import json
import sys

import click

from ...presentation.locale import language

from ...i18n import Words
from ..typeset import counted

SAY = Words("storage", {
    "exported": ("Campaign [bold]{name}[/] exported to {file} ({events}).",
                 "Campagne [bold]{name}[/] exportée dans {file} ({events})."),
    "imported": ("Campaign [bold]{name}[/] imported ({events}); `sawbones campaign use {quoted}` to play it.",
                 "Campagne [bold]{name}[/] importée ({events}) ; `sawbones campaign use {quoted}` pour y jouer."),
    "backed_up": ("Backed up {campaigns} to {directory}", "Sauvegarde de {campaigns} dans {directory}"),
    "item": ("  {campaign}: {file} ({events})", "  {campaign} : {file} ({events})"),
    "copy": ("  database copy: {path}", "  copie de la base : {path}"),
})


def register(cli: click.Group) -> None:
    from .env import pass_env

    @cli.command("export")
    @click.argument("file", required=False, metavar="[FILE]")
    @click.option("--upto", type=click.IntRange(1, 2**31 - 1), metavar="EVENT",
                  help="Only the events up to this one (the intact part of a damaged log).")
    @pass_env
    def export_cmd(env, file, upto) -> None:
        """Write the current campaign (or --campaign) to FILE as JSON: its whole log, losslessly.

        Without FILE (or with -), the document goes to standard output. `sawbones import` reads it
        back, into this database or another one (SQLite or PostgreSQL)."""
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
            raise click.FileError(file, exc.strerror or str(exc)) from None
        summary = {"exported": name, "file": file, "events": len(doc["events"])}
        env.emit(summary, lambda con: con.print(SAY.say("exported", language(), name=escape(name), file=escape(file),
                                                        events=counted(len(doc["events"]), "event", language()))))

    @cli.command("import")
    @click.argument("file", metavar="FILE")
    @click.option("--as", "as_name", metavar="NAME", help="Import under this name (the export's name is taken).")
    @pass_env
    def import_cmd(env, file, as_name) -> None:
        """Import a campaign exported with `sawbones export` (FILE, or - for standard input).

        The log is written exactly as exported: versions, actions, data, schema and content versions,
        times. A name already in use is refused: choose another with --as."""
        from rich.markup import escape

        from ...adapters.transfer import loads_doc, read_doc

        doc = loads_doc(sys.stdin.read(), "standard input") if file == "-" else read_doc(file)
        name = env.service.import_campaign(doc, as_name)
        count = len(doc.get("events", []))
        env.emit({"imported": name, "file": file, "events": count},
                 lambda con: con.print(SAY.say("imported", language(), name=escape(name), quoted=escape(repr(name)),
                                               events=counted(count, "event", language()))))

    @cli.command("backup")
    @click.argument("directory", required=False, default="sawbones-backups", metavar="[DIR]")
    @pass_env
    def backup_cmd(env, directory) -> None:
        """Back up every campaign into a new dated folder inside DIR (default ./sawbones-backups).

        One JSON file per campaign (restore one with `sawbones import FILE`), plus, for a SQLite
        database, a consistent copy of the whole file taken while it may be in use."""
        from rich.markup import escape

        from ...adapters.transfer import backup

        done = backup(env.service.store, directory)

        def render(con) -> None:
            lang = language()
            con.print(SAY.say("backed_up", lang, campaigns=counted(len(done["campaigns"]), "campaign", lang),
                              directory=escape(str(done["directory"]))))
            for item in done["campaigns"]:
                con.print(SAY.say("item", lang, campaign=escape(item["campaign"]), file=escape(str(item["file"])),
                                  events=counted(item["events"], "event", lang)))
            if "database_copy" in done:
                con.print(SAY.say("copy", lang, path=escape(str(done["database_copy"]))))

        env.emit(done, render)
