"""The bot: `create_bot(server_url, campaign, api_secret, guild=ID, **options)` returns the
`discord.ext.commands.Bot` that `sawbones discord` runs (and that tests run under SimCord as it is).

Two ways to run it (docs/discord.md):
- one party: `guild` (a Discord server's id), `campaign` and its API secret. The slash commands are registered
  for that server only, and any interaction from elsewhere (another server, a DM) gets one line, nothing done.
- hosted, for a group that runs sawbones for several tables: no `guild`, no campaign. A member with Manage
  Server links their server to a campaign with /link (its name and API secret, typed in a form only they see,
  kept in the state file); each server's commands touch only its own campaign; an unlinked server is told so.

Options: gm_role ("GM"), gm_channel (id: the GM's full lines, NPCs' included), table_channel (id: prompts and
the feed; else the one `/bind` chose, kept in the state file), state_file (path; None keeps nothing), lang (a
language tag, "en", "fr"…: the language of what the bot posts in channels, default the one it is started in;
each member's answers follow their Discord locale, words.heard).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from .api import Api, Down, Refused
from .party import Party
from .state import BotState
from ..presentation.locale import _, language, normalize
from .words import CatalogTranslator, heard

LOG = logging.getLogger("sawbones.discord")


# what the invite asks for: see the table channel and post in it, in a thread too (prompts, the feed). Editing its
# own messages, answering slash commands and buttons (the interaction's webhook) need no more.
PERMISSIONS = discord.Permissions(view_channel=True, send_messages=True, send_messages_in_threads=True)


def invite_link(application_id: int | str) -> str:
    """The link that adds the bot to a server, with its slash commands and the permissions above."""
    return (f"https://discord.com/oauth2/authorize?client_id={application_id}&scope=bot+applications.commands"
            f"&permissions={PERMISSIONS.value}")


class SawbonesBot(commands.Bot):
    def __init__(self, server_url: str, *, guild: int | None = None, campaign: str | None = None,
                 secret: str | None = None, gm_role: str = "GM", gm_channel: int | None = None,
                 table_channel: int | None = None, state_file: str | None = None,
                 channel_language: str | None = None, timeout: float = 10.0) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # no privileged intent
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None)
        self.server_url, self.timeout = server_url, timeout
        self.guild, self.gm_role = guild, gm_role
        self.channel_language = normalize(channel_language or language())  # what the bot posts in channels
        self.state = BotState(state_file)
        self.parties: dict[int, Party] = {}
        if guild is not None:  # one party
            assert campaign and secret
            party_state = self.state.party(guild, adopt_flat=True)
            if table_channel:
                party_state.data["table_channel"] = table_channel
            self.parties[guild] = Party(self, guild, self.api_for(campaign, secret), party_state, gm_channel)
        else:  # hosted: the servers linked before
            for linked in self.state.linked():
                data = self.state.party(linked)
                self.parties[linked] = Party(self, linked, self.api_for(data.data["campaign"], data.data["secret"]),
                                             data)

    def api_for(self, campaign: str, secret: str) -> Api:
        return Api(self.server_url, campaign, secret, timeout=self.timeout)

    @property
    def hosted(self) -> bool:
        return self.guild is None

    # ------------------------------------------------------------ start and stop

    async def setup_hook(self) -> None:
        from . import commands_all, commands_gm, link, prompts, retry

        await self.tree.set_translator(CatalogTranslator())
        commands_all.install(self)
        commands_gm.install(self)
        if self.hosted:
            link.install(self)
        self.tree.on_error = self.on_tree_error
        self.tree.interaction_check = self.admit  # type: ignore[method-assign]
        self.add_dynamic_items(prompts.Answer, retry.RetryButton)
        if self.hosted:
            await self.tree.sync()
        else:  # the party's server only; the global commands (a hosted run's, an older version's) are taken back
            here = discord.Object(self.guild)  # type: ignore[arg-type]
            self.tree.copy_global_to(guild=here)
            self.tree.clear_commands(guild=None)
            await self.tree.sync(guild=here)
            await self.tree.sync()
        for party in self.parties.values():
            await party.start()

    async def on_ready(self) -> None:
        LOG.info("connected to Discord as %s; invite link: %s", self.user, invite_link(self.application_id or ""))

    async def close(self) -> None:
        for party in self.parties.values():
            await party.stop()
        await super().close()

    async def add_party(self, guild_id: int, campaign: str, secret: str) -> Party:
        """/link: the server plays `campaign` from now on (kept in the state file)."""
        old = self.parties.pop(guild_id, None)
        if old is not None:
            await old.stop()
        state = self.state.party(guild_id)
        state.link(campaign, secret)
        party = self.parties[guild_id] = Party(self, guild_id, self.api_for(campaign, secret), state)
        await party.start()
        return party

    # ------------------------------------------------------------ which party, who is who

    def party_of(self, interaction: discord.Interaction) -> Party | None:
        return self.parties.get(interaction.guild_id) if interaction.guild_id is not None else None

    def elsewhere(self, interaction: discord.Interaction) -> str:
        """Why an interaction is not the bot's party's (one line, nothing done)."""
        if interaction.guild_id is None:
            return _("sawbones answers in its party's Discord server only; nothing was done.")
        if self.hosted:
            return _("This server is not linked to a campaign: a member with the Manage Server permission links "
                     "it with /link. Nothing was done.")
        return _("This bot plays with another server's party; nothing was done.")

    @heard
    async def admit(self, interaction: discord.Interaction) -> bool:
        """Every slash command and autocomplete: only from the party's server (hosted: a linked server, or /link)."""
        if self.party_of(interaction) is not None:
            return True
        command = interaction.command
        if self.hosted and interaction.guild_id is not None and getattr(command, "name", "") == "link":
            return True
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await interaction.response.send_message(self.elsewhere(interaction), ephemeral=True)
        return False

    async def party_here(self, interaction: discord.Interaction) -> Party | None:
        """A button's or a form's party; None (and one line) from elsewhere."""
        party = self.party_of(interaction)
        if party is None:
            await interaction.response.send_message(self.elsewhere(interaction), ephemeral=True)
        return party

    async def gm_party_here(self, interaction: discord.Interaction) -> Party | None:
        """A GM's button: the party when the member is its GM; else None (and one line)."""
        party = await self.party_here(interaction)
        if party is None or await self.refuse_non_gm(interaction):
            return None
        return party

    def is_gm(self, member: Any, party: Party | None) -> bool:
        """The role --gm-role or the Manage Server permission, in the party's own server."""
        guild = getattr(member, "guild", None)
        if party is None or guild is None or guild.id != party.guild_id:
            return False
        permissions = getattr(member, "guild_permissions", None)
        if permissions is not None and permissions.manage_guild:
            return True
        return any(role.name == self.gm_role for role in getattr(member, "roles", ()))

    async def refuse_non_gm(self, interaction: discord.Interaction) -> bool:
        """True (and one ephemeral line) when the member is not the party's GM: nothing is applied."""
        if self.is_gm(interaction.user, self.party_of(interaction)):
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
        except Down as exc:
            await interaction.followup.send(self.down(exc), ephemeral=True)
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

    def down(self, exc: Down | None = None) -> str:
        if exc is not None and exc.maybe_applied:
            return self.maybe_applied()
        return _("sawbones at {url} does not answer; nothing was done. Try again in a moment.",
                 url=self.server_url)

    def maybe_applied(self) -> str:
        return _("sawbones at {url} did not answer in time: it may have been applied. Look (/status) before "
                 "acting again.", url=self.server_url)

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


def create_bot(server_url: str, campaign: str | None = None, api_secret: str | None = None, *,
               guild: int | None = None, **options: Any) -> commands.Bot:
    """The bot `sawbones discord` runs: it talks to sawbones at `server_url` only through its JSON API. With
    `guild`: one party, `campaign` with its API secret (never logged); without: hosted (/link). Options: see the
    module's doc."""
    known = {"gm_role", "gm_channel", "table_channel", "state_file", "lang", "timeout"}
    unknown = sorted(set(options) - known)
    if unknown:
        raise TypeError(f"create_bot: unknown options {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    if (guild is None) != (campaign is None) or (campaign is not None and not api_secret):
        raise TypeError("create_bot: one party is guild, campaign and api_secret together; hosted is none of them")
    options["channel_language"] = options.pop("lang", None)
    options["timeout"] = float(options.pop("timeout", 10.0))
    # httpx logs each request's address at INFO, and a player's address holds their link's token: never logged
    logging.getLogger("httpx").setLevel(max(logging.WARNING, logging.getLogger("httpx").level))
    return SawbonesBot(server_url, guild=guild, campaign=campaign, secret=api_secret, **options)
