"""The Discord table for the bot's tests: a real `sawbones serve` on 127.0.0.1 (no mock of sawbones), a
campaign made over its API, and SimCord's in-memory Discord (a guild, the table channel, the GM, players,
a member who plays nobody, a member whose Discord is in French)."""

from __future__ import annotations

import time
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, AsyncIterator, Callable

import discord
import httpx
import simcord
import simcord.interactions

from sawbones.discord import create_bot

FRENCH: set[int] = set()  # members whose Discord locale is French
GUILD = 1_100_000_000_000_000_001  # the party's server (sawbones discord --guild)
STRANGER = 1_100_000_000_000_000_077  # another server the bot was added to


def _with_locales(original: Callable[..., Any]) -> Callable[..., Any]:
    """SimCord 3.2.1 sends every interaction with locale en-US: a member's own locale, as Discord sends it."""
    def payload(*args: Any, **kwargs: Any) -> Any:
        record, body = original(*args, **kwargs)
        if kwargs.get("user_id") in FRENCH:
            body["locale"] = "fr"
        return record, body

    return payload


if not getattr(simcord.interactions.base_payload, "__sawbones_locales__", False):
    simcord.interactions.base_payload = _with_locales(simcord.interactions.base_payload)
    simcord.interactions.base_payload.__sawbones_locales__ = True  # type: ignore[attr-defined]


@dataclass
class Campaign:
    server: str
    name: str
    secret: str
    http: httpx.Client

    @property
    def path(self) -> str:
        return f"/api/campaigns/{self.name}"

    def get(self, path: str = "", **params: Any) -> Any:
        answer = self.http.get(self.path + path, params=params)
        assert answer.status_code == 200, answer.text
        return answer.json()

    def post(self, path: str, body: Any = None, **headers: str) -> httpx.Response:
        return self.http.post(self.path + path, json=body, headers=headers)

    def version(self) -> int:
        return int(self.get()["version"])

    def log_types(self) -> list[str]:
        return [e["type"] for e in self.get("/log", limit=1000)["events"] if not e["undone"]]


def campaign(server: str, name: str, **options: Any) -> Campaign:
    http = httpx.Client(base_url=server, timeout=30)
    made = http.post("/api/campaigns", json={"name": name, "seed": 11})
    assert made.status_code == 201, made.text
    secret = made.json()["gm_secret"]
    http.headers["Authorization"] = f"Bearer {secret}"
    table = Campaign(server, name, secret, http)
    for body in ({"name": "Brena", "max_hp": 20, "saves": {"con": 2}}, {"name": "Aria", "max_hp": 24}):
        added = http.post(f"{table.path}/characters", json=body)
        assert added.status_code == 201, added.text
    for option, value in options.items():
        put = http.put(f"{table.path}/options/{option}", json={"value": value})
        assert put.status_code == 200, put.text
    return table


@dataclass
class Table:
    env: Any
    bot: Any
    channel: Any
    gm: Any
    player: Any  # plays Brena once assigned
    other: Any  # plays nobody
    french: Any  # plays Aria once assigned; Discord in French
    boss: Any  # no GM role, but the Manage Server permission
    guild: Any = None
    gm_role: Any = None

    @property
    def party(self) -> Any:
        return self.bot.parties[GUILD]


@asynccontextmanager
async def discord_table(c: Campaign, state_file: Any = None, server: str | None = None,
                        **options: Any) -> AsyncIterator[Table]:
    """The party's server (GUILD) as its admin set it up: the GM commands granted to the role GM."""
    bot = create_bot(server or c.server, c.name, c.secret, guild=GUILD, state_file=state_file, **options)
    async with simcord.run(bot) as env:
        guild = env.create_guild("The party", id=GUILD)
        channel = guild.create_text_channel("table")
        gm_role = guild.create_role("GM")
        grant_gm_commands(env, guild, gm_role)
        boss_role = guild.create_role("Owner", permissions=discord.Permissions(manage_guild=True))
        gm = guild.add_member(env.create_user("gm"), roles=[gm_role])
        player = guild.add_member(env.create_user("brena_player"))
        other = guild.add_member(env.create_user("onlooker"))
        french = guild.add_member(env.create_user("aria_joueuse"))
        boss = guild.add_member(env.create_user("boss"), roles=[boss_role])
        FRENCH.add(french.id)
        table = Table(env, bot, channel, gm, player, other, french, boss, guild, gm_role)
        try:
            yield table
        finally:
            await close(table.bot)


def grant_gm_commands(env: Any, guild: Any, *targets: Any) -> None:
    """Server Settings → Integrations: the commands listed to Manage Server only (default_member_permissions)
    granted to `targets` too (the GM role)."""
    for command in env.backend.commands.get(guild.id, {}).values():
        if command.get("default_member_permissions") is not None:
            guild.set_command_permissions(int(command["id"]), {t: True for t in targets})


async def close(bot: Any) -> None:
    if not bot.is_closed():
        await bot.close()


def said(result: Any) -> list[str]:
    """What a member saw of an interaction: the response, then the followups."""
    return ([result.response.content] if result.response is not None else []) + [m.content for m in result.followups]


def contents(channel: Any) -> list[str]:
    return [m.content for m in channel.history()]


async def until(env: Any, check: Callable[[], Any], what: str, seconds: float = 20.0) -> Any:
    """Let the bot work (the events stream arrives in its own thread) until `check()` is true."""
    deadline = time.time() + seconds  # (time.time: SimCord runs the bot's loop on a virtual monotonic clock)
    while True:
        await env.settle()
        found = check()
        if found:
            return found
        if time.time() > deadline:
            raise AssertionError(f"the bot never got there: {what}")
        time.sleep(0.02)


def buttons(message: Any) -> list[str]:
    def label(child: Any) -> str:
        return child["label"] if isinstance(child, dict) else child.label

    rows = message.components
    return [label(child) for row in rows
            for child in (row.get("components", [row]) if isinstance(row, dict) else getattr(row, "children", [row]))]


async def double_click(env: Any, actor: Any, message: Any, label: str) -> list[Any]:
    """A double click: Discord delivers the same button's interaction twice before the bot has answered the
    first (SimCord's `click` settles the bot after each click, so two clicks would never overlap). Built the
    way SimCord builds one click (simcord.actors._component_click), emitted twice, then settled."""
    from simcord import actors
    from simcord.backend import serializers
    from simcord.enums import ComponentType, InteractionType
    from simcord.results import InteractionResult

    backend = env.backend
    stored = actors._visible_message(actor, message)
    button = actors._find_component(stored.components, types=(ComponentType.BUTTON,), custom_id=None, label=label)
    data = {"custom_id": button["custom_id"], "component_type": ComponentType.BUTTON}
    results = []
    for _ in range(2):
        record, payload = simcord.interactions.base_payload(
            backend, type=InteractionType.MESSAGE_COMPONENT, channel_id=stored.channel_id, guild_id=actor.guild.id,
            user_id=actor.id, data=data)
        payload["message"] = dict(serializers.message_payload(backend, stored))
        record.source_message_id = stored.id
        backend.emit("INTERACTION_CREATE", payload)
        results.append(InteractionResult(env, record))
    await env.settle()
    return results


async def raw_interaction(env: Any, user: Any, channel: Any, guild_id: int | None, kind: str,
                          data: dict[str, Any]) -> Any:
    """An interaction as Discord would deliver it whatever the bot registered (a stale global command, a crafted
    request, a DM): SimCord's pickers would not offer it, so it is emitted the way SimCord emits one."""
    from simcord.enums import InteractionType
    from simcord.results import InteractionResult

    backend = env.backend
    types = {"command": InteractionType.APPLICATION_COMMAND, "autocomplete": InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE,
             "button": InteractionType.MESSAGE_COMPONENT}
    record, payload = simcord.interactions.base_payload(backend, type=types[kind], channel_id=channel.id,
                                                        guild_id=guild_id, user_id=user.id, data=data)
    if kind == "button":
        payload["message"] = dict(simcord.backend.serializers.message_payload(backend, data.pop("_message")))
        record.source_message_id = payload["message"]["id"]
    backend.emit("INTERACTION_CREATE", payload)
    await env.settle()
    return InteractionResult(env, record)


def command_data(env: Any, guild_id: int, name: str, **options: Any) -> dict[str, Any]:
    """The data of a slash command the party's server has (its registered id and options)."""
    found = env.backend.commands[guild_id][(name, 1)]
    return {"id": found["id"], "name": name, "type": 1,
            "options": [{"name": k, "type": 3 if isinstance(v, str) else 4, "value": v} for k, v in options.items()]}


async def prompted(t: Table, character: str = "Brena") -> Any:
    """The GM links the player to `character`, binds the table and exposes them, the player rolling the save:
    the prompt's message once the feed posted it."""
    await t.gm.slash(t.channel, "assign", member=t.player, character=character)
    await t.gm.slash(t.channel, "bind")
    await t.gm.slash(t.channel, "expose", character=character, affliction="filth_fever", rolls="players")
    return await until(t.env, lambda: next((m for m in t.channel.history() if "Your GM asks for a roll" in m.content),
                                           None), "the prompt")
