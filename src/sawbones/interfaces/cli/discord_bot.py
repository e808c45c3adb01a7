"""CLI: `sawbones discord`, the Discord bot at the table (docs/discord.md). discord.py is imported here only.

One party: `--guild ID --campaign NAME` (the campaign's API secret from $SAWBONES_API_SECRET). Hosted for
several tables: neither (each server links itself with /link). Before connecting, sawbones at --server and the
secret are checked (one line each when wrong); a Discord that does not answer, or a wrong token, is one line too.
"""

from __future__ import annotations

import os
from typing import Any

import click

from ...message import N_, msg
from ...presentation.locale import language

TOKEN_ENV, SECRET_ENV = "DISCORD_TOKEN", "SAWBONES_API_SECRET"


def register(cli: click.Group) -> None:
    from .env import pass_env

    @cli.command("discord", help=N_("Run the Discord bot: prompts, rolls, status and the feed in the party's "
                                    "channel. The bot token comes\n"
                                    "from $DISCORD_TOKEN and the campaign's API secret from $SAWBONES_API_SECRET "
                                    "(never an argument).\n"
                                    "One party: --guild and --campaign. Hosted for several tables: neither, and "
                                    "each server links itself with /link."))
    @click.option("--server", default="http://127.0.0.1:8000", show_default=True, metavar="URL",
                  help=N_("The sawbones server the bot talks to (its JSON API)."))
    @click.option("--guild", type=click.IntRange(1), default=None, metavar="ID",
                  help=N_("The party's Discord server (its id): commands are registered there only, and the bot "
                          "answers nowhere else."))
    @click.option("--campaign", "campaign_name", default=None, metavar="NAME",
                  help=N_("The campaign at this table (with --guild)."))
    @click.option("--gm-role", default="GM", show_default=True, metavar="NAME",
                  help=N_("Members with this role are the GM (so are those with the Manage Server permission)."))
    @click.option("--gm-channel", type=click.IntRange(1), default=None, metavar="ID",
                  help=N_("A channel for the GM's full lines (secret deadlines, hidden afflictions, NPCs). Default: "
                          "none."))
    @click.option("--table-channel", type=click.IntRange(1), default=None, metavar="ID",
                  help=N_("The table channel: prompts and the feed (default: the one /bind chose)."))
    @click.option("--state-file", type=click.Path(dir_okay=False), default=None, metavar="PATH",
                  help=N_("Where the bot keeps each server's table channel, the last event posted and its prompts "
                          "(default: $XDG_STATE_HOME/sawbones/discord.json, else ~/.local/state/sawbones/"
                          "discord.json)."))
    @pass_env
    def discord_command(env, server, guild, campaign_name, gm_role, gm_channel, table_channel, state_file) -> None:
        import logging

        from ...errors import UsageError

        token, secret = os.environ.get(TOKEN_ENV, "").strip(), os.environ.get(SECRET_ENV, "").strip()
        if not token:
            raise UsageError(msg("set DISCORD_TOKEN to the bot's token (Discord developer portal, Bot page)"), "")
        if (guild is None) != (campaign_name is None):
            raise UsageError(msg("--guild and --campaign go together (one party); leave both out to host several "
                                 "tables (/link)"), "")
        if campaign_name is not None and not secret:
            raise UsageError(msg("set SAWBONES_API_SECRET to the campaign's API secret (sawbones gm-link "
                                 "--api-secret makes a new one)"), "")
        if not server.startswith(("http://", "https://")):
            raise UsageError(msg("--server must be an http:// or https:// address, not {server}", server=repr(server)), "")
        check_server(server, campaign_name, secret)
        from ...discord import create_bot
        from ...discord.state import default_path

        party: dict[str, Any] = {"guild": guild, "gm_channel": gm_channel, "table_channel": table_channel}
        bot = create_bot(server, campaign_name, secret if campaign_name else None, gm_role=gm_role,
                         state_file=os.path.abspath(state_file) if state_file else default_path(), lang=language(),
                         **({k: v for k, v in party.items() if v is not None}))
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
        run(bot, token)


def check_server(server: str, campaign: str | None, secret: str) -> None:
    """sawbones answers at `server`, and the secret is the campaign's: one line each when not."""
    from urllib.parse import quote

    import httpx

    from ...errors import SawbonesError, UsageError

    path = f"/api/campaigns/{quote(campaign, safe='')}" if campaign else "/api/tables"
    headers = {"Authorization": f"Bearer {secret}"} if campaign else {}
    try:
        answer = httpx.get(server.rstrip("/") + path, headers=headers, timeout=10, trust_env=False)
    except httpx.HTTPError as exc:
        raise SawbonesError(msg("sawbones at {url} does not answer ({reason}): start it (sawbones serve) or give "
                                "--server", url=server, reason=type(exc).__name__), "--server") from None
    if answer.status_code in (401, 403):
        raise UsageError(msg("SAWBONES_API_SECRET is not the API secret of {campaign} (sawbones gm-link "
                             "--api-secret makes a new one)", campaign=repr(campaign)), "")
    if answer.status_code == 404 and campaign:
        raise UsageError(msg("sawbones at {url} has no campaign named {campaign}", url=server,
                             campaign=repr(campaign)), "--campaign")
    if answer.status_code >= 400:
        raise SawbonesError(msg("sawbones at {url} answered {status}", url=server, status=answer.status_code),
                            "--server")


def run(bot: Any, token: str) -> None:
    """bot.run, with Discord's refusal of the token or its silence as one line."""
    import asyncio

    import discord

    from ...errors import SawbonesError, UsageError

    try:
        bot.run(token, log_handler=None)
    except discord.LoginFailure:
        raise UsageError(msg("Discord refused the bot's token (DISCORD_TOKEN): copy it again from the developer "
                             "portal's Bot page"), "") from None
    except (OSError, asyncio.TimeoutError, discord.GatewayNotFound, discord.HTTPException,
            discord.ConnectionClosed) as exc:  # (aiohttp's connection errors are OSErrors)
        raise SawbonesError(msg("Discord does not answer ({reason}): try again in a moment",
                                reason=type(exc).__name__), "") from None
