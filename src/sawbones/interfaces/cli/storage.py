"""CLI: export a campaign to one JSON file, import it back (into any database), back up every campaign."""

from __future__ import annotations

import json
import sys

import click


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
        env.emit(summary, lambda con: con.print(f"Campaign [bold]{name}[/] exported to {file} "
                                                f"({len(doc['events'])} events)."))

    @cli.command("import")
    @click.argument("file", metavar="FILE")
    @click.option("--as", "as_name", metavar="NAME", help="Import under this name (the export's name is taken).")
    @pass_env
    def import_cmd(env, file, as_name) -> None:
        """Import a campaign exported with `sawbones export` (FILE, or - for standard input).

        The log is written exactly as exported: versions, actions, data, schema and content versions,
        times. A name already in use is refused: choose another with --as."""
        from ...adapters.transfer import loads_doc, read_doc

        doc = loads_doc(sys.stdin.read(), "standard input") if file == "-" else read_doc(file)
        name = env.service.import_campaign(doc, as_name)
        count = len(doc.get("events", []))
        env.emit({"imported": name, "file": file, "events": count},
                 lambda con: con.print(f"Campaign [bold]{name}[/] imported ({count} events); "
                                       f"`sawbones campaign use {name!r}` to play it."))

    @cli.command("backup")
    @click.argument("directory", required=False, default="sawbones-backups", metavar="[DIR]")
    @pass_env
    def backup_cmd(env, directory) -> None:
        """Back up every campaign into a new dated folder inside DIR (default ./sawbones-backups).

        One JSON file per campaign (restore one with `sawbones import FILE`), plus, for a SQLite
        database, a consistent copy of the whole file taken while it may be in use."""
        from ...adapters.transfer import backup

        done = backup(env.service.store, directory)

        def render(con) -> None:
            con.print(f"Backed up {len(done['campaigns'])} campaign(s) to {done['directory']}")
            for item in done["campaigns"]:
                con.print(f"  {item['campaign']}: {item['file']} ({item['events']} events)")
            if "database_copy" in done:
                con.print(f"  database copy: {done['database_copy']}")

        env.emit(done, render)
