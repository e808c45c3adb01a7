"""/undo: the GM sees the action an undo reverts now ("Undo a14: …?", the dashboard's words) and a button
that undoes exactly that action: the request names it (`{"action": "a14"}`, the API's named undo) and the
version it was shown at (If-Match). If the campaign moved on meanwhile, nothing is applied: the GM is told,
and shown the action an undo would revert now."""

# (no `from __future__ import annotations`: discord.py reads the commands' parameter types at definition)
import re
from typing import Any

import discord

from ..presentation.locale import _
from .api import Down, Refused
from .commands_all import command
from .words import heard

SHOWN_LINES = 3


async def preview(party: Any) -> tuple[str, discord.ui.View | None]:
    last = await party.api.last_action()
    if last is None:
        return _("nothing to undo"), None
    action, lines, version = last
    what = " / ".join(lines[:SHOWN_LINES]) + (" …" if len(lines) > SHOWN_LINES else "")
    view = discord.ui.View(timeout=None)
    view.add_item(UndoButton(action, version, _("Undo")))
    if not what:
        return _("Undo action a{action}? (it says nothing more)", action=action), view
    return _("Undo: {what}?", what=what), view


class UndoButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sawbones:undo:(?P<action>[0-9]{1,9}):(?P<version>[0-9]{1,12})"):  # type: ignore[call-arg, misc]  # noqa: E501
    def __init__(self, action: int, version: int, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or f"a{action}", style=discord.ButtonStyle.danger,
                                           custom_id=f"sawbones:undo:{action}:{version}"))
        self.action, self.version = action, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> "UndoButton":
        return cls(int(match["action"]), int(match["version"]), item.label)

    @heard
    async def callback(self, interaction: discord.Interaction) -> None:
        bot: Any = interaction.client
        party = await bot.gm_party_here(interaction)
        if party is None:
            return
        await interaction.response.defer()
        key = party.api.key_for("undo", self.action, self.version)  # (the same for a retry; nobody can guess it)
        try:
            doc = await party.api.act("undo", {"action": f"a{self.action}"}, key=key, version=self.version)
        except Down as exc:  # (pressing Undo again retries with the same key: it applies once)
            await interaction.followup.send(bot.down(exc), ephemeral=True)
            return
        except Refused as exc:
            said = bot.refusal(exc)
            if exc.status == 409:  # the campaign moved on: what an undo would revert now
                try:
                    now, view = await preview(party)
                except (Down, Refused):
                    now, view = "", None
                await interaction.edit_original_response(content=f"{said}\n{now}", view=view)
                return
            await interaction.followup.send(said, ephemeral=True)
            return
        done = [_("Action {action} undone.", action=doc["undone_action"]), *doc.get("reverted", [])]
        await interaction.edit_original_response(content="\n".join(done)[:1990], view=None)


def install(bot: Any) -> None:
    @command("undo", gm=True)
    async def undo(interaction: discord.Interaction) -> None:
        if await bot.refuse_non_gm(interaction):
            return

        async def shown() -> list[tuple[str, Any]]:
            return [await preview(bot.party_of(interaction))]

        await bot.reply(interaction, shown)

    bot.tree.add_command(undo)
    bot.add_dynamic_items(UndoButton)
