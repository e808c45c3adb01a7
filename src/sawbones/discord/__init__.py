"""The Discord bot (`sawbones discord`, docs/discord.md): prompts, rolls, status and the feed in the party's
channel, talking to sawbones only through its JSON API.

`create_bot(server_url, campaign, api_secret, guild=ID, **options)` (one party) or `create_bot(server_url,
**options)` (hosted, /link) returns the `discord.ext.commands.Bot` that `sawbones discord` runs (bot.py).
discord.py is imported when it is called.
"""

from __future__ import annotations

from typing import Any


def create_bot(server_url: str, campaign: str | None = None, api_secret: str | None = None, **options: Any) -> Any:
    from .bot import create_bot as make

    return make(server_url, campaign, api_secret, **options)


__all__ = ["create_bot"]
