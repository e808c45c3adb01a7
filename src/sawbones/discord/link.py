"""/link, when the bot is hosted for several tables (no --guild): a member with Manage Server links their
server to a campaign — its name and API secret typed in a form only they see. sawbones is asked first (the
campaign exists, the secret is its own): a refusal is one line and nothing is kept. The link is kept in the
state file (mode 0600); the secret is never echoed or logged. From then on the server's commands touch only
that campaign."""

# (no `from __future__ import annotations`: discord.py reads the commands' parameter types at definition)
from typing import Any

import discord

from ..presentation.locale import _
from .api import Down, Refused
from .commands_all import command
from .words import heard


class LinkForm(discord.ui.Modal):
    def __init__(self) -> None:
        super().__init__(title=_("Link this server to a campaign"), timeout=600, custom_id="sawbones:link")
        self.campaign: discord.ui.TextInput["LinkForm"] = discord.ui.TextInput(
            label=_("The campaign's name"), custom_id="campaign", max_length=100)
        self.secret: discord.ui.TextInput["LinkForm"] = discord.ui.TextInput(
            label=_("Its API secret (gm-link --api-secret)"), custom_id="secret", max_length=200)
        self.add_item(self.campaign)
        self.add_item(self.secret)

    @heard
    async def on_submit(self, interaction: discord.Interaction) -> None:
        bot: Any = interaction.client
        if not manages(interaction):
            await interaction.response.send_message(refused(), ephemeral=True)
            return
        campaign, secret = str(self.campaign.value).strip(), str(self.secret.value).strip()
        await interaction.response.defer(ephemeral=True, thinking=True)
        api = bot.api_for(campaign, secret)
        try:
            doc = await api.get("")
        except Down as exc:
            await interaction.followup.send(bot.down(exc), ephemeral=True)
            return
        except Refused as exc:
            await interaction.followup.send(_("sawbones refused: {message} Nothing was linked.",
                                              message=exc.message), ephemeral=True)
            return
        finally:
            await api.close()
        await bot.add_party(interaction.guild_id, campaign, secret)
        await interaction.followup.send(
            _("This server now plays {campaign}. The GM binds the table channel with /bind.",
              campaign=doc.get("name", campaign)), ephemeral=True)


def manages(interaction: discord.Interaction) -> bool:
    permissions = getattr(interaction.user, "guild_permissions", None)
    return interaction.guild_id is not None and permissions is not None and permissions.manage_guild


def refused() -> str:
    return _("Only a member with the Manage Server permission may link this server; nothing was done.")


def install(bot: Any) -> None:
    @command("link", gm=True)
    async def link(interaction: discord.Interaction) -> None:
        if not manages(interaction):
            await interaction.response.send_message(refused(), ephemeral=True)
            return
        await interaction.response.send_modal(LinkForm())

    bot.tree.add_command(link)
