"""The bot: `create_bot(server_url, campaign, api_secret, **options)` returns the `discord.ext.commands.Bot`
that `sawbones discord` runs (and that tests run under SimCord as it is).

Options: gm_role ("GM"), gm_channel (id: the GM's full lines), table_channel (id: prompts and the feed;
else the one `/bind` chose, kept in the state file), state_file (path; None keeps nothing), lang (a language
tag, "en", "fr"…: the language of what the bot posts in channels, default the one it is started in; each
member's answers follow their Discord locale, words.heard).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from .api import Api, Down, Refused
from .feed import Feed
from .state import BotState
from ..presentation.locale import _, language, normalize, speaking
from .words import CatalogTranslator, heard

LOG = logging.getLogger("sawbones.discord")
RETRIES = (1, 2, 4, 8)  # seconds before posting an action again after a fault


# what the invite asks for: see the table channel and post in it (prompts, the feed). Editing its own messages,
# answering slash commands and buttons (the interaction's webhook) need no more.
PERMISSIONS = discord.Permissions(view_channel=True, send_messages=True)


def invite_link(application_id: int | str) -> str:
    """The link that adds the bot to a server, with its slash commands and the permissions above."""
    return (f"https://discord.com/oauth2/authorize?client_id={application_id}&scope=bot+applications.commands"
            f"&permissions={PERMISSIONS.value}")


class SawbonesBot(commands.Bot):
    def __init__(self, api: Api, *, gm_role: str = "GM", gm_channel: int | None = None,
                 table_channel: int | None = None, state_file: str | None = None,
                 channel_language: str | None = None) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # no privileged intent
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None)
        self.api, self.gm_role, self.gm_channel = api, gm_role, gm_channel
        self.channel_language = normalize(channel_language or language())  # what the bot posts in channels
        self.state = BotState(state_file)
        if table_channel:
            self.state.data["table_channel"] = table_channel
        self.feed: Feed | None = None
        self.feed_lock: asyncio.Lock | None = None
        self.answer_locks: dict[str, asyncio.Lock] = {}
        self.answered: dict[str, str] = {}  # pending id -> what its prompt message says now
        self.started = secrets.token_hex(4)  # in the Idempotency-Key of a command: its interaction, this run

    # ------------------------------------------------------------ start and stop

    async def setup_hook(self) -> None:
        from . import commands_all, commands_gm, prompts

        await self.tree.set_translator(CatalogTranslator())
        commands_all.install(self)
        commands_gm.install(self)
        self.tree.on_error = self.on_tree_error
        self.add_dynamic_items(prompts.Answer)
        self.feed_lock = asyncio.Lock()
        if self.state.last_event_id is None:
            try:
                self.state.last_event_id = int((await self.api.get(""))["version"])
            except (Down, Refused) as exc:
                LOG.warning("sawbones does not answer yet (%s): the feed starts when it does", type(exc).__name__)
        await self.tree.sync()
        self.feed = Feed(self.api.server_url + self.api.base + "/events", self.api.headers,
                         self.state.last_event_id, self.hand_over)
        with speaking(self.channel_language):
            self.feed.start()  # (the stream's documents, in the channels' language)

    async def on_ready(self) -> None:
        LOG.info("connected to Discord as %s; invite link: %s", self.user, invite_link(self.application_id or ""))

    async def close(self) -> None:
        if self.feed is not None:
            self.feed.stop()
        await self.api.close()
        await super().close()

    # ------------------------------------------------------------ who is who

    def is_gm(self, member: Any) -> bool:
        permissions = getattr(member, "guild_permissions", None)
        if permissions is not None and permissions.manage_guild:
            return True
        return any(role.name == self.gm_role for role in getattr(member, "roles", ()))

    async def refuse_non_gm(self, interaction: discord.Interaction) -> bool:
        """True (and one ephemeral line) when the member is not the GM: nothing is applied."""
        if self.is_gm(interaction.user):
            return False
        await interaction.response.send_message(
            _("Only the GM may do that (the role {role} or the Manage Server permission); nothing was done.",
              role=self.gm_role), ephemeral=True)
        return True

    # ------------------------------------------------------------ answering members

    async def reply(self, interaction: discord.Interaction, work: Any, *, ephemeral: bool = True) -> None:
        """Acknowledge at once (defer), then `await work() -> list of messages` (a message may come with its
        buttons: `(text, view)`); a fault is one ephemeral line (sawbones down, the campaign moved on, a refusal
        in sawbones' words), never a traceback. In the member's language (the handler runs in it: words.heard)."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        try:
            messages = await work()
        except Down:
            await interaction.followup.send(self.down(), ephemeral=True)
            return
        except Refused as exc:
            await interaction.followup.send(self.refusal(exc), ephemeral=True)
            return
        for message in messages or [""]:  # a message, or (a message, its buttons)
            text, view = message if isinstance(message, tuple) else (message, None)
            if view is None:
                await interaction.followup.send(text or "…", ephemeral=ephemeral)
            else:
                await interaction.followup.send(text or "…", view=view, ephemeral=ephemeral)

    def down(self) -> str:
        return _("sawbones at {url} does not answer; nothing was done. Try again in a moment.",
                 url=self.api.server_url)

    def refusal(self, exc: Refused) -> str:
        """sawbones' refusal (its message already in the reader's language: the API answers in the one asked)."""
        if exc.status == 409 and exc.code == "version_mismatch":
            return _("The campaign moved on meanwhile (now at version {version}); nothing was applied. Look again, "
                     "then retry if you still mean it.",
                     version=exc.doc.get("error", {}).get("current_version", "?"))
        return _("sawbones refused: {message}", message=exc.message)

    @heard
    async def on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        LOG.error("command %s failed: %s", getattr(interaction.command, "name", "?"), type(error).__name__,
                  exc_info=error)
        line = _("sawbones answered with an error; the GM can look at the server's log.")
        try:
            if interaction.response.is_done():
                await interaction.followup.send(line, ephemeral=True)
            else:
                await interaction.response.send_message(line, ephemeral=True)
        except discord.HTTPException:
            pass

    # ------------------------------------------------------------ the feed

    def hand_over(self, doc: dict[str, Any]) -> bool:
        """From the feed's thread: the action's document becomes a task of the bot's own loop."""
        if self.is_closed():
            return False
        try:
            self.loop.call_soon_threadsafe(self._spawn, doc)
        except RuntimeError:  # the loop is closed: the bot is gone
            return False
        return True

    def _spawn(self, doc: dict[str, Any]) -> None:
        self.loop.create_task(self.on_action(doc))

    async def on_action(self, doc: dict[str, Any]) -> None:
        from .table import post_action

        assert self.feed_lock is not None
        async with self.feed_lock:  # in the stream's order
            last = self.state.last_event_id
            if last is not None and int(doc["id"]) <= last:
                return  # handled before (a reconnection, or before a restart)
            for wait in RETRIES:  # sawbones or Discord blinked: the same action again, a moment later
                try:
                    with speaking(self.channel_language):
                        await post_action(self, doc, last)
                    break
                except (Down, discord.HTTPException) as exc:
                    LOG.warning("action %s: %s (again in %s s)", doc.get("action"), type(exc).__name__, wait)
                    await asyncio.sleep(wait)
                except Refused as exc:
                    LOG.warning("action %s: sawbones refused (%s)", doc.get("action"), exc.code)
                    break
            self.state.last_event_id = int(doc["id"])


def create_bot(server_url: str, campaign: str, api_secret: str, **options: Any) -> commands.Bot:
    """The bot `sawbones discord` runs: it talks to sawbones at `server_url` only through its JSON API, for
    `campaign`, with the campaign's API secret (never logged). Options: see the module's doc."""
    known = {"gm_role", "gm_channel", "table_channel", "state_file", "lang", "timeout"}
    unknown = sorted(set(options) - known)
    if unknown:
        raise TypeError(f"create_bot: unknown options {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    api = Api(server_url, campaign, api_secret, timeout=float(options.pop("timeout", 10.0)))
    options["channel_language"] = options.pop("lang", None)
    # httpx logs each request's address at INFO, and a player's address holds their link's token: never logged
    logging.getLogger("httpx").setLevel(max(logging.WARNING, logging.getLogger("httpx").level))
    return SawbonesBot(api, **options)
