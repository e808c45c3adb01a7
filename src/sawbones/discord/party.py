"""One Discord server's party: its campaign's API, its part of the state file, its GM channel, and the feed
that posts its campaign's actions there — each action once, in the stream's order, its prompts included.

An action that cannot be posted (Discord down, a channel the bot may not post in) is tried again, ever
later, and the actions after it wait behind it: the resume point (the state file's last event id) never
passes an action not yet posted, and each part of an action already posted is remembered, so a new
attempt posts only what is missing. The GM is told in the GM channel (once per action)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from ..presentation.locale import _, speaking
from .api import Api, Down, Refused
from .feed import Feed
from .posts import channel, send
from .state import PartyState

LOG = logging.getLogger("sawbones.discord")
RETRIES = (1, 2, 4, 8, 15, 30, 60)  # seconds before posting an action again after a fault (then every minute)
CAN_POST = ("view_channel", "send_messages")  # what the bot needs in the table channel
IN_THREADS = "send_messages_in_threads"  # and in a thread


class Party:
    def __init__(self, bot: Any, guild_id: int, api: Api, state: PartyState, gm_channel: int | None = None) -> None:
        self.bot, self.guild_id, self.api, self.state, self.gm_channel = bot, guild_id, api, state, gm_channel
        self.feed: Feed | None = None
        self.feed_lock = asyncio.Lock()
        self.answer_locks: dict[str, asyncio.Lock] = {}
        self.answered: dict[str, tuple[bool, str]] = {}  # pending id -> (answered, what its prompt says now)
        self.retries: dict[str, tuple[str, Any, str]] = {}  # retry token -> (action, body, Idempotency-Key)
        self.stopped = False

    async def start(self) -> None:
        if self.state.last_event_id is None:
            try:
                self.state.last_event_id = int((await self.api.get(""))["version"])
            except (Down, Refused) as exc:
                LOG.warning("sawbones does not answer yet (%s): the feed starts when it does", type(exc).__name__)
        self.api.refresh_characters()
        with speaking(self.bot.channel_language):
            self.api.warm_index()
        if self.state.table_channel is None:
            LOG.warning("server %s: no table channel yet, prompts and the feed wait for /bind there (state file: %s)",
                        self.guild_id, self.state.owner.path or "none")
        self.feed = Feed(self.api.server_url + self.api.base + "/events", self.api.headers,
                         self.state.last_event_id, self.hand_over)
        with speaking(self.bot.channel_language):
            self.feed.start()  # (the stream's documents, in the channels' language)

    async def stop(self) -> None:
        self.stopped = True
        if self.feed is not None:
            self.feed.stop()
        await self.api.close()

    # ------------------------------------------------------------ the feed

    def hand_over(self, doc: dict[str, Any]) -> bool:
        """From the feed's thread: the action's document becomes a task of the bot's own loop."""
        bot = self.bot
        if bot.is_closed():
            return False
        try:
            bot.loop.call_soon_threadsafe(self._spawn, doc)
        except RuntimeError:  # the loop is closed: the bot is gone
            return False
        return True

    def _spawn(self, doc: dict[str, Any]) -> None:
        self.bot.loop.create_task(self.on_action(doc))

    async def on_action(self, doc: dict[str, Any]) -> None:
        from .table import post_action

        async with self.feed_lock:  # in the stream's order: a later action waits for this one
            last = self.state.last_event_id
            if last is not None and int(doc["id"]) <= last:
                return  # handled before (a reconnection, or before a restart)
            self.api.refresh_characters()
            told, attempt = False, 0
            while not (self.stopped or self.bot.is_closed()):
                try:
                    with speaking(self.bot.channel_language):
                        await post_action(self.bot, self, doc, last)
                    break
                except (Down, discord.HTTPException) as exc:
                    if self.stopped:
                        return
                    wait = RETRIES[min(attempt, len(RETRIES) - 1)]
                    attempt += 1
                    LOG.warning("action %s: %s (again in %s s)", doc.get("action"), type(exc).__name__, wait)
                    if not told:
                        told = await self.tell_gm(doc, exc)
                    await asyncio.sleep(wait)
                except Refused as exc:  # sawbones will not show it (a character removed since): nothing to post
                    LOG.warning("action %s: sawbones refused (%s)", doc.get("action"), exc.code)
                    break
            else:
                return  # the bot stops: the action is posted after the restart
            self.state.last_event_id = int(doc["id"])
            if told:
                await self.tell_gm_posted(doc)

    async def tell_gm(self, doc: dict[str, Any], exc: Exception) -> bool:
        """The GM channel hears that an action waits (True once said)."""
        where = await channel(self.bot, self.gm_channel)
        if where is None:
            return False
        reason = f"{exc.status} {exc.text}".strip() if isinstance(exc, discord.HTTPException) else \
            _("sawbones does not answer")
        table = self.state.table_channel
        try:
            with speaking(self.bot.channel_language):
                await send(where, _("I could not post action {action} in {channel} ({reason}); I keep trying, and "
                                    "the actions after it wait. I need View Channel, Send Messages and Send "
                                    "Messages in Threads there.", action=doc.get("action"),
                                    channel=f"<#{table}>" if table else "?", reason=reason))
        except discord.HTTPException:
            return False
        return True

    async def tell_gm_posted(self, doc: dict[str, Any]) -> None:
        where = await channel(self.bot, self.gm_channel)
        if where is None:
            return
        try:
            with speaking(self.bot.channel_language):
                await send(where, _("Action {action} is posted now; the feed goes on.", action=doc.get("action")))
        except discord.HTTPException:
            pass


def missing_permissions(permissions: discord.Permissions, thread: bool) -> list[str]:
    """The permissions the bot lacks to post prompts and the feed in a channel (or a thread)."""
    needed = [*CAN_POST, *([IN_THREADS] if thread else [])]
    return [name for name in needed if not getattr(permissions, name)]
