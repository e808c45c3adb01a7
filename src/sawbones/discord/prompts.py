"""A prompt's two buttons, "Roll for me" and "I rolled" (a modal for the d20 or the total), as the player's
page has them. Their custom_id names the pending roll (`sawbones:roll:p7`, `sawbones:rolled:p7`): a dynamic
item the bot registers at start, so the buttons of a message posted before a restart still work.

Only the linked player or the GM may answer; anyone else gets an ephemeral refusal. A double click or a
retried request applies once: one answer at a time per roll, and the prompt's own Idempotency-Key (random,
kept with the prompt in the state file), not the click's. A button whose prompt the state file does not hold
(another state file, a lost one) asks sawbones whether its roll still waits, and answers it the same way.
The answer shows the save's result sentence (the lines the API returns for it).
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import discord

from ..presentation.locale import _, language
from .api import Down, Refused, key as new_key
from .posts import close_prompt, linked_user
from .words import heard

TEMPLATE = r"sawbones:(?P<how>roll|rolled):(?P<pending>[A-Za-z0-9_-]{1,40})"


def buttons(pending: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(Answer("roll", pending, _("Roll for me")))
    view.add_item(Answer("rolled", pending, _("I rolled")))
    return view


class Answer(discord.ui.DynamicItem[discord.ui.Button], template=TEMPLATE):  # type: ignore[call-arg, misc]
    def __init__(self, how: str, pending: str, label: str | None = None) -> None:
        style = discord.ButtonStyle.primary if how == "roll" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label or how, style=style, custom_id=f"sawbones:{how}:{pending}"))
        self.how, self.pending = how, pending

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> "Answer":
        return cls(match["how"], match["pending"], item.label)

    @heard
    async def callback(self, interaction: discord.Interaction) -> None:
        bot: Any = interaction.client
        party = await bot.party_here(interaction)
        if party is None:
            return
        entry = party.state.prompts.get(self.pending)
        if entry is None:
            entry = await recall(party, self.pending)
        if entry is None:
            answered = party.answered.get(self.pending, (False, ""))[0]
            gone = _("This roll was already answered.") if answered else \
                _("No longer pending (answered elsewhere, or undone).")
            await interaction.response.send_message(gone, ephemeral=True)
            return
        if interaction.user.id != entry.get("user") and not bot.is_gm(interaction.user, party):
            await interaction.response.send_message(_("This roll is not yours to answer; nothing was done."),
                                                    ephemeral=True)
            return
        if self.how == "rolled":
            await interaction.response.send_modal(Rolled(self.pending))
            return
        await submit(bot, interaction, self.pending, {"roll": True})


async def recall(party: Any, pending: str) -> dict[str, Any] | None:
    """The prompt of a roll still waiting for its player, from sawbones (the state file does not hold it)."""
    try:
        waiting = (await party.api.get("/pending"))["pending"]
        listed = await party.api.characters()
    except (Down, Refused):
        return None
    p = next((p for p in waiting if p.get("id") == pending and p.get("awaiting", "player") == "player"), None)
    if p is None:
        return None
    entry = {"channel": None, "message": None, "character": p["character"],
             "user": linked_user(listed, p["character"]), "text": "", "key": new_key()}
    party.state.prompts[pending] = entry
    party.state.save()
    return entry


class Rolled(discord.ui.Modal):
    """The player page's "I rolled": my d20, or the total."""

    def __init__(self, pending: str) -> None:
        super().__init__(title=_("I rolled"), timeout=600, custom_id=f"sawbones:modal:{pending}")
        self.pending = pending
        self.d20: discord.ui.TextInput[Rolled] = discord.ui.TextInput(
            label=_("my d20"), custom_id="d20", max_length=2, required=False)
        self.total: discord.ui.TextInput[Rolled] = discord.ui.TextInput(
            label=_("or the total"), custom_id="total", max_length=3, required=False)
        self.add_item(self.d20)
        self.add_item(self.total)

    @heard
    async def on_submit(self, interaction: discord.Interaction) -> None:
        bot: Any = interaction.client
        d20, total = str(self.d20.value or "").strip(), str(self.total.value or "").strip()
        if d20 and re.fullmatch(r"[0-9]{1,2}", d20) and 1 <= int(d20) <= 20 and not total:
            how: dict[str, Any] = {"d20": int(d20)}
        elif total and re.fullmatch(r"-?[0-9]{1,2}", total) and not d20:
            how = {"total": int(total)}
        else:
            await interaction.response.send_message(_("Give a whole number: the d20 (1 to 20) or the total."),
                                                    ephemeral=True)
            return
        await submit(bot, interaction, self.pending, how)


async def submit(bot: Any, interaction: discord.Interaction, pending: str, how: dict[str, Any]) -> None:
    """Answer the roll once: by the player through the player API (their answer, as from their page; the GM
    may have to confirm it), by the GM through the GM's `answer` action. The member is told in their language
    (the handler's); the prompt's message is edited in the channel's."""
    party = bot.party_of(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    lock = party.answer_locks.setdefault(pending, asyncio.Lock())
    async with lock:
        entry = party.state.prompts.get(pending)
        if entry is None:
            await interaction.followup.send(_("This roll was already answered."), ephemeral=True)
            return
        if "key" not in entry:
            entry["key"] = new_key()
            party.state.save()
        key = entry["key"]
        body = {"pending": pending, **how}
        api = party.api
        try:
            if interaction.user.id == entry.get("user"):
                doc = await api.answer_as_player(entry["character"], body, key)
                lines = doc.get("lines") or []
                waiting = doc.get("status") == "awaiting_gm"
            else:
                before = int((await api.get(""))["version"])
                await api.act("answer", body, key=key)
                view = await api.player(entry["character"], "", since=before)
                lines, waiting = [x["line"] for x in view["since"]["lines"]], False
        except Down as exc:
            said = _("sawbones at {url} did not answer in time: your answer may have been applied. Press the "
                     "button again to retry: it applies once.", url=bot.server_url) if exc.maybe_applied else bot.down()
            await interaction.followup.send(said, ephemeral=True)
            return
        except Refused as exc:
            if exc.status in (409, 422):  # answered meanwhile (elsewhere, or by a retried request), or undone
                await interaction.followup.send(_("No longer pending (answered elsewhere, or undone)."),
                                                ephemeral=True)
            else:
                await interaction.followup.send(bot.refusal(exc), ephemeral=True)
            return
        said = _("Sent: waiting for the GM to confirm.") if waiting else _("Answered:") + "\n" + "\n".join(lines)
        if not waiting and language() == bot.channel_language:
            await close_prompt(party, pending, said, True)  # (in another language, the feed edits it in the channel's)
        await interaction.followup.send(said, ephemeral=True)
