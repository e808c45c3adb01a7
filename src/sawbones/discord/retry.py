"""A GM's action sawbones did not answer in time (a timeout, a 502/503/504): it may have been applied. The GM is
told so, with a "Retry" button that sends the same action again with the same Idempotency-Key — sawbones
applies it once either way, and answers with its lines. The button names a retry the bot keeps in memory
(`sawbones:retry:<token>`): after a restart it is gone, and the GM is told to look before acting again."""

# (no `from __future__ import annotations`: discord.py reads the dynamic item's types at definition)
import re
import secrets
from typing import Any

import discord

from ..presentation.locale import _
from . import render
from .api import Down, Refused
from .words import heard


def maybe_applied(party: Any, name: str, body: Any, key: str) -> tuple[str, discord.ui.View]:
    """The line and its Retry button."""
    token = secrets.token_hex(8)
    party.retries[token] = (name, body, key)
    view = discord.ui.View(timeout=None)
    view.add_item(RetryButton(token, _("Retry")))
    return party.bot.maybe_applied(), view


class RetryButton(discord.ui.DynamicItem[discord.ui.Button], template=r"sawbones:retry:(?P<token>[0-9a-f]{16})"):  # type: ignore[call-arg, misc]  # noqa: E501
    def __init__(self, token: str, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or "Retry", style=discord.ButtonStyle.primary,
                                           custom_id=f"sawbones:retry:{token}"))
        self.token = token

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> "RetryButton":
        return cls(match["token"], item.label)

    @heard
    async def callback(self, interaction: discord.Interaction) -> None:
        bot: Any = interaction.client
        party = await bot.gm_party_here(interaction)
        if party is None:
            return
        kept = party.retries.get(self.token)
        if kept is None:
            await interaction.response.send_message(
                _("This retry is gone (the bot restarted): look (/status) before acting again."), ephemeral=True)
            return
        await interaction.response.defer()
        try:
            said = await applied(party, *kept)
        except Down as exc:
            said = [bot.down(exc)]
        except Refused as exc:
            said = [bot.refusal(exc)]
        first = said[0]
        text, view = first if isinstance(first, tuple) else (first, None)
        if view is None:
            party.retries.pop(self.token, None)
        await interaction.edit_original_response(content=text[:1990], view=view)


async def applied(party: Any, name: str, body: dict[str, Any], key: str) -> list[Any]:
    """The GM's action sent with `key`: its lines; when sawbones did not answer in time, the GM is told it may
    have been applied, with a button that sends it again with the same key (it applies once)."""
    try:
        doc = await party.api.act(name, body, key=key)
    except Down as exc:
        if not exc.maybe_applied:
            raise
        return [maybe_applied(party, name, body, key)]
    lines = doc.get("lines") or await action_lines(party.api, int(doc["version"]))
    return render.chunks("\n".join(lines) or "…")


async def action_lines(api: Any, version: int) -> list[str]:
    """The log's sentences of the action that ended at `version` (an answer without lines: a wound's)."""
    from .api import QUIET

    log = (await api.get("/log", limit=30))["events"]
    action = next((e["action"] for e in log if e["version"] == version), None)
    return [e["text"] for e in log if e["action"] == action and e["text"] and e["type"] not in QUIET]
