"""One action of the events stream at the table: its player-safe lines in the table channel (the lines each
touched character's player page shows for it), the GM's full lines in the GM channel, a prompt (with its two
buttons) for each roll now waiting for a player, and the prompts this action cleared or undid edited: result
shown, buttons gone. Non-player characters stay out of the table channel: their lines go to the GM channel
only, and no player link is made for them. Each part is posted once (posts.send_once, the state file's
prompts). In the channels' language (the bot posts them under it: party.on_action)."""

from __future__ import annotations

from typing import Any

import discord

from ..presentation.locale import _
from . import render
from .api import Refused, key as new_key
from .posts import channel, close_prompt, linked_user, send_once
from .prompts import buttons as prompt_buttons

UNDO = "action_undone"
CLEARED = "pending_cleared"


async def post_action(bot: Any, party: Any, doc: dict[str, Any], after: int | None) -> None:
    """`after`: the id of the action handled before this one (its lines are those after it)."""
    api, action = party.api, int(doc["id"])
    gm = await channel(bot, party.gm_channel)
    if gm is not None and doc.get("lines"):
        await send_once(party, action, "gm", gm, "\n".join(doc["lines"]))
    table = await channel(bot, party.state.table_channel)
    since = action - len(doc.get("events") or ())  # (the document leaves out bookkeeping events)
    since = min(since, after) if after is not None else since
    listed = await api.characters()
    npcs = {c["id"] for c in listed if c.get("npc")}
    views: dict[str, dict[str, Any]] = {}
    said: dict[str, list[str]] = {}  # character -> this action's lines on their page
    lines: list[str] = []
    undo = doc.get("type") == UNDO
    if undo and doc.get("undone_action") is not None:
        lines.append(_("Action {action} undone.", action=doc["undone_action"]))
    for character in sorted(doc.get("characters") or ()):
        if character in npcs:
            continue  # the GM's alone (the GM channel has the action's full lines)
        try:
            views[character] = await api.player(character, "", since=since)
        except Refused:  # a character removed since: nothing to show
            continue
        said[character] = [x["line"] for x in views[character]["since"]["lines"] if x["version"] <= action]
        lines += said[character]
    if table is not None and lines:
        await send_once(party, action, "table", table, "\n".join(lines))
    cleared = {e["data"].get("id") for e in doc.get("events") or () if e.get("type") == CLEARED}
    await settle_prompts(party, table, views, said, cleared, undo, listed)


async def settle_prompts(party: Any, table: Any, views: dict[str, dict[str, Any]], said: dict[str, list[str]],
                         cleared: set[str], undo: bool, listed: list[dict[str, Any]]) -> None:
    """Close the prompts this action cleared (with its lines) or undid; post the new ones."""
    prompts = party.state.prompts
    for character, view in views.items():
        waiting = {p["id"]: p for p in view.get("prompts") or () if p.get("awaiting") == "player"}
        for pending, entry in list(prompts.items()):
            if entry["character"] != character or pending in waiting:
                continue
            if pending in cleared:
                await close_prompt(party, pending, "\n".join([_("Answered:"), *said[character]]), True, strict=True)
            elif undo:
                await close_prompt(party, pending, _("No longer pending (undone)."), False, strict=True)
            # (else a later action cleared it: that action's own lines close it)
        new = [p for pending, p in waiting.items() if pending not in prompts]
        if table is None or not new:
            continue
        user = linked_user(listed, character)
        for p in new:  # (one the GM's undo made wait again, too)
            party.answered.pop(p["id"], None)
            await post_prompt(party, table, p, user)


async def post_prompt(party: Any, table: Any, p: dict[str, Any], user: int | None) -> None:
    text = render.prompt_text(p, f"<@{user}>" if user else "")
    message = await table.send(text, view=prompt_buttons(p["id"]),
                               allowed_mentions=discord.AllowedMentions(users=True))
    party.state.prompts[p["id"]] = {"channel": table.id, "message": message.id, "character": p["character"],
                                    "user": user, "text": text, "key": new_key()}
    party.state.save()
