"""Slash commands of who is who and of everyone: /assign and /bind (GM), /whoami, /status [character], /tables
[type]; the autocompletes every command shares (characters, damage types, afflictions, injuries, tables)."""

# (no `from __future__ import annotations`: discord.py reads the commands' parameter types at definition)
import inspect
from typing import Any, Callable, Optional
from urllib.parse import quote

import discord
from discord import app_commands

from . import render
from .api import Down, Refused
from ..presentation.locale import _, name
from .words import COMMANDS, OPTIONS, heard

Choice = app_commands.Choice
MAX_CHOICES = 25


def command(name: str, **described_as: str) -> Callable[[Any], app_commands.Command[Any, Any, Any]]:
    """A slash command named `name`, its description and its options' descriptions from words.py (in other
    languages: the catalogs', through the bot's translator); `described_as`: an option described by another
    entry of OPTIONS. It runs in the member's language (words.heard)."""
    def wrap(fn: Any) -> app_commands.Command[Any, Any, Any]:
        described = {p: OPTIONS[described_as.get(p, p)] for p in inspect.signature(fn).parameters
                     if described_as.get(p, p) in OPTIONS}
        fn = heard(fn)
        if described:
            fn = app_commands.describe(**described)(fn)
        return app_commands.command(name=name, description=COMMANDS[name])(fn)

    return wrap


def _matching(pairs: list[tuple[str, str]], current: str) -> list[Choice[str]]:
    typed = current.casefold()
    return [Choice(name=label[:100], value=value[:100]) for label, value in pairs
            if typed in label.casefold() or typed in value.casefold()][:MAX_CHOICES]


@heard
async def characters_ac(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    try:
        listed = await interaction.client.api.characters()  # type: ignore[attr-defined]
    except (Down, Refused):
        return []
    return _matching([(c["name"], c["name"]) for c in listed], current)


async def _index(interaction: discord.Interaction) -> dict[str, Any]:
    return await interaction.client.api.tables_index()  # type: ignore[attr-defined]


@heard
async def damage_types_ac(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    try:
        index = await _index(interaction)
    except (Down, Refused):
        return []
    return _matching([(f"{e['name']} ({e['id']})", e["id"]) for e in index["damage_tables"]], current)


@heard
async def afflictions_ac(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    try:
        index = await _index(interaction)
    except (Down, Refused):
        return []
    return _matching([(f"{e['name']} ({e['id']})", e["id"]) for e in index["diseases"] + index["poisons"]], current)


@heard
async def tables_ac(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    try:
        index = await _index(interaction)
    except (Down, Refused):
        return []
    pairs = [("severity", "severity")] + [(f"{e['name']} ({e['id']})", e["id"]) for key in (
        "damage_tables", "body_parts", "tracks", "diseases", "poisons") for e in index[key]]
    return _matching(pairs, current)


@heard
async def spells_ac(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """The spells of the installed rules (the API lists none): name in the member's language, id as value."""
    from ..content.loader import load_rules

    return _matching([(f"{name(s.name)} ({s.id})", s.id) for s in load_rules().spells.values()], current)


@heard
async def injuries_ac(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    who = getattr(interaction.namespace, "character", None)
    if not who:
        return []
    api = interaction.client.api  # type: ignore[attr-defined]
    try:
        doc = await api.request("GET", f"{api.base}/characters/{quote(str(who), safe='')}")
    except (Down, Refused):
        return []
    return _matching([(f"{i['id']} {i['name']}", i["id"]) for i in doc.get("injuries", [])], current)


def install(bot: Any) -> None:
    tree = bot.tree

    @command("assign")
    @app_commands.autocomplete(character=characters_ac)
    async def assign(interaction: discord.Interaction, member: discord.Member, character: str) -> None:
        if await bot.refuse_non_gm(interaction):
            return

        async def work() -> list[str]:
            found = await bot.api.link(member.id, character)
            return [_("{member} plays {character}.", member=member.mention, character=found["name"])]

        await bot.reply(interaction, work)

    @command("whoami")
    async def whoami(interaction: discord.Interaction) -> None:
        async def work() -> list[str]:
            found = await bot.api.character_of(interaction.user.id)
            if found is None:
                return [_("No character is linked to you yet: ask the GM for /assign.")]
            return [_("You play {character}.", character=found["name"])]

        await bot.reply(interaction, work)

    @command("bind")
    async def bind(interaction: discord.Interaction) -> None:
        if await bot.refuse_non_gm(interaction):
            return
        bot.state.table_channel = interaction.channel_id
        here = f"<#{interaction.channel_id}>"
        await interaction.response.send_message(_("Prompts and the feed now go to {channel}.", channel=here))

    @command("status")
    @app_commands.autocomplete(character=characters_ac)
    async def status(interaction: discord.Interaction, character: Optional[str] = None) -> None:
        gm = bot.is_gm(interaction.user)

        async def work() -> list[str]:
            if gm:
                doc = await bot.api.get("/status", **({"character": character} if character else {}))
                return render.chunks(render.gm_status(doc), fence=True)
            mine = await bot.api.character_of(interaction.user.id)
            if mine is None:
                return [_("No character is linked to you yet: ask the GM for /assign.")]
            if character and character.casefold() not in (mine["name"].casefold(), mine["id"]):
                return [_("Only the GM sees another character's status.")]
            return render.chunks(render.player_card(await bot.api.player(mine["id"], "")))

        await bot.reply(interaction, work)

    @command("tables", type="table")
    @app_commands.autocomplete(type=tables_ac)
    async def tables(interaction: discord.Interaction, type: Optional[str] = None) -> None:
        table = type
        async def work() -> list[str]:
            path = "/api/tables" + (f"/{quote(table, safe='')}" if table else "")
            doc = await bot.api.request("GET", path)
            return render.chunks(render.tables_text(doc, index=table is None), fence=True)

        await bot.reply(interaction, work)

    for cmd in (assign, whoami, bind, status, tables):
        tree.add_command(cmd)
