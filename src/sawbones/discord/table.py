"""One action of the events stream at the table: its player-safe lines in the table channel (the lines each
touched character's player page shows for it), the GM's full lines in the GM channel, a prompt (with its two
buttons) for each roll now waiting for a player, and the prompts this action answered or undid edited:
result shown, buttons gone. In the channels' language (the bot posts them under it: bot.on_action)."""

from __future__ import annotations

from typing import Any

import discord

from ..presentation.locale import _
from . import render
from .posts import channel, close_prompt, send
from .prompts import buttons as prompt_buttons
from .api import Down, Refused

UNDO = "action_undone"


async def post_action(bot: Any, doc: dict[str, Any], after: int | None) -> None:
    """`after`: the id of the action handled before this one (its lines are those after it)."""
    api = bot.api
    gm = await channel(bot, bot.gm_channel)
    if gm is not None and doc.get("lines"):
        await send(gm, "\n".join(doc["lines"]))
    table = await channel(bot, bot.state.table_channel)
    since = int(doc["id"]) - len(doc.get("events") or ())  # (the document leaves out bookkeeping events)
    since = min(since, after) if after is not None else since
    views: dict[str, dict[str, Any]] = {}
    lines: list[str] = []
    if doc.get("type") == UNDO and doc.get("undone_action") is not None:
        lines.append(_("Action {action} undone.", action=doc["undone_action"]))
    for character in doc.get("characters") or ():
        try:
            views[character] = await api.player(character, "", since=since)
        except Refused:  # a character removed since: nothing to show
            continue
        lines += [x["line"] for x in views[character]["since"]["lines"] if x["version"] <= int(doc["id"])]
    if table is not None and lines:
        await send(table, "\n".join(lines))
    await settle_prompts(bot, table, views, lines, doc.get("type") == UNDO)


async def settle_prompts(bot: Any, table: Any, views: dict[str, dict[str, Any]], lines: list[str],
                         undo: bool) -> None:
    """Edit the prompts no longer waiting; post the new ones."""
    prompts = bot.state.prompts
    for character, view in views.items():
        waiting = {p["id"]: p for p in view.get("prompts") or () if p.get("awaiting") == "player"}
        for pending, entry in list(prompts.items()):
            if entry["character"] == character and pending not in waiting:
                said = _("No longer pending (answered elsewhere, or undone).") if undo or not lines else \
                    _("Answered:") + "\n" + "\n".join(lines)
                await close_prompt(bot, pending, said)
        new = [p for pending, p in waiting.items() if pending not in prompts]
        if table is None or not new:
            continue
        user = await linked_user(bot, character)
        for p in new:  # (one the GM's undo made wait again, too)
            bot.answered.pop(p["id"], None)
            await post_prompt(bot, table, p, user)


async def linked_user(bot: Any, character: str) -> int | None:
    try:
        listed = await bot.api.characters()
    except (Down, Refused):
        return None
    for c in listed:
        if c["id"] == character:
            return next((int(ref[8:]) for ref in c.get("external", ()) if ref.startswith("discord:")
                         and ref[8:].isdigit()), None)
    return None


async def post_prompt(bot: Any, table: Any, p: dict[str, Any], user: int | None) -> None:
    text = render.prompt_text(p, f"<@{user}>" if user else "")
    message = await table.send(text, view=prompt_buttons(p["id"]),
                               allowed_mentions=discord.AllowedMentions(users=True))
    bot.state.prompts[p["id"]] = {"channel": table.id, "message": message.id, "character": p["character"],
                                  "user": user, "text": text}
    bot.state.save()
