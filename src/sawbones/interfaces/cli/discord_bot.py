"""CLI: `sawbones discord`, the Discord bot at the table (docs/discord.md). discord.py is imported here only."""

from __future__ import annotations

import os

import click

from ...message import N_, msg
from ...presentation.locale import language

TOKEN_ENV, SECRET_ENV = "DISCORD_TOKEN", "SAWBONES_API_SECRET"


def register(cli: click.Group) -> None:
    from .env import pass_env

    @cli.command("discord", help=N_("Run the Discord bot: prompts, rolls, status and the feed in the party's "
                                    "channel. The bot token comes\n"
                                    "from $DISCORD_TOKEN and the campaign's API secret from $SAWBONES_API_SECRET (never an argument)."))
    @click.option("--server", default="http://127.0.0.1:8000", show_default=True, metavar="URL",
                  help=N_("The sawbones server the bot talks to (its JSON API)."))
    @click.option("--campaign", "campaign_name", required=True, metavar="NAME", help=N_("The campaign at this table."))
    @click.option("--gm-role", default="GM", show_default=True, metavar="NAME",
                  help=N_("Members with this role are the GM (so are those with the Manage Server permission)."))
    @click.option("--gm-channel", type=click.IntRange(1), default=None, metavar="ID",
                  help=N_("A channel for the GM's full lines (secret deadlines, hidden afflictions). Default: none."))
    @click.option("--table-channel", type=click.IntRange(1), default=None, metavar="ID",
                  help=N_("The table channel: prompts and the feed (default: the one /bind chose)."))
    @click.option("--state-file", type=click.Path(dir_okay=False), default="sawbones-discord.json",
                  show_default=True, help=N_("Where the bot keeps the table channel, the last event and its prompts."))
    @pass_env
    def discord_command(env, server, campaign_name, gm_role, gm_channel, table_channel, state_file) -> None:
        import logging

        from ...errors import UsageError

        token, secret = os.environ.get(TOKEN_ENV, "").strip(), os.environ.get(SECRET_ENV, "").strip()
        if not token:
            raise UsageError(msg("set DISCORD_TOKEN to the bot's token (Discord developer portal, Bot page)"), "")
        if not secret:
            raise UsageError(msg("set SAWBONES_API_SECRET to the campaign's API secret (sawbones gm-link makes one)"), "")
        if not server.startswith(("http://", "https://")):
            raise UsageError(msg("--server must be an http:// or https:// address, not {server}", server=repr(server)), "")
        from ...discord import create_bot

        bot = create_bot(server, campaign_name, secret, gm_role=gm_role, gm_channel=gm_channel,
                         table_channel=table_channel, state_file=state_file, lang=language())
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
        bot.run(token, log_handler=None)
