"""Posting and editing the bot's messages: a channel by id, a long text in messages of Discord's size, a
prompt's message closed (what became of the roll shown, buttons gone)."""

from __future__ import annotations

from typing import Any

import discord

from . import render


async def channel(bot: Any, channel_id: int | None) -> Any:
    if not channel_id:
        return None
    found = bot.get_channel(channel_id)
    if found is None:
        try:
            found = await bot.fetch_channel(channel_id)
        except discord.HTTPException:
            return None
    return found


async def send(target: Any, text: str, **kwargs: Any) -> Any:
    message = None
    for part in render.chunks(text):
        if part.strip():
            message = await target.send(part, allowed_mentions=discord.AllowedMentions(users=True), **kwargs)
    return message


async def close_prompt(bot: Any, pending: str, said: str) -> None:
    """The prompt's message: its text, then what became of it; no buttons. Once."""
    entry = bot.state.prompts.pop(pending, None)
    bot.state.save()
    if entry is None:
        return
    bot.answered[pending] = said
    target = await channel(bot, entry["channel"])
    if target is None:
        return
    try:
        message = target.get_partial_message(entry["message"])
        await message.edit(content=(entry["text"] + "\n" + said)[:1990], view=None)
    except discord.HTTPException:
        pass
