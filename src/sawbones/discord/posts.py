"""Posting and editing the bot's messages: a channel by id, a long text in messages of Discord's size (each
part posted once: the state file remembers it), a prompt's message closed (what became of the roll shown,
buttons gone)."""

from __future__ import annotations

import logging
from typing import Any

import discord

from . import render

LOG = logging.getLogger("sawbones.discord")


async def channel(bot: Any, channel_id: int | None) -> Any:
    """The channel (or thread) by id; None when none is set. Discord's refusal or fault is raised: the feed
    tries again rather than taking an action as posted."""
    if not channel_id:
        return None
    found = bot.get_channel(channel_id)
    if found is None:
        found = await bot.fetch_channel(channel_id)
    return found


async def send(target: Any, text: str, **kwargs: Any) -> Any:
    message = None
    for part in render.chunks(text):
        if part.strip():
            message = await target.send(part, allowed_mentions=discord.AllowedMentions(users=True), **kwargs)
    return message


async def send_once(party: Any, action_id: int, part: str, target: Any, text: str) -> None:
    """`text` in `target`, each of its messages once for this action (a new attempt posts only what is missing)."""
    done = party.state.sent(action_id)
    for i, chunk in enumerate(render.chunks(text)):
        name = f"{part}:{i}"
        if name in done or not chunk.strip():
            continue
        await target.send(chunk, allowed_mentions=discord.AllowedMentions(users=True))
        party.state.mark_sent(action_id, name)


async def close_prompt(party: Any, pending: str, said: str, answered: bool, strict: bool = False) -> None:
    """The prompt's message: its text, then what became of it; no buttons. Once. `strict` (the feed): Discord's
    fault is raised, the prompt kept for the next attempt."""
    entry = party.state.prompts.get(pending)
    if entry is None:
        return
    party.answered[pending] = (answered, said)
    try:
        target = await channel(party.bot, entry["channel"])
        if target is not None:
            message = target.get_partial_message(entry["message"])
            await message.edit(content=(entry["text"] + "\n" + said)[:1990], view=None)
    except discord.NotFound:
        pass  # the message or its channel is gone: nothing left to close
    except discord.HTTPException as exc:
        if strict:
            raise
        LOG.warning("prompt %s: not closed (%s)", pending, type(exc).__name__)
    party.state.prompts.pop(pending, None)
    party.state.save()


def linked_user(listed: list[dict[str, Any]], character: str) -> int | None:
    """The Discord member who plays `character` (its external reference discord:<id>), from the character list."""
    for c in listed:
        if c["id"] == character:
            return next((int(ref[8:]) for ref in c.get("external", ()) if ref.startswith("discord:")
                         and ref[8:].isdigit()), None)
    return None
