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
from .words import COMMANDS, OPTIONS, SAY

Choice = app_commands.Choice
MAX_CHOICES = 25


def command(name: str, **described_as: str) -> Callable[[Any], app_commands.Command[Any, Any, Any]]:
    """A slash command named `name`, its description and its options' descriptions from words.py (the French
    ones come from the bot's Translator); `described_as`: an option described by another entry of OPTIONS."""
    def wrap(fn: Any) -> app_commands.Command[Any, Any, Any]:
        described = {p: OPTIONS[described_as.get(p, p)][1] for p in inspect.signature(fn).parameters
                     if described_as.get(p, p) in OPTIONS}
        if described:
            fn = app_commands.describe(**described)(fn)
        return app_commands.command(name=name, description=COMMANDS[name][1])(fn)

    return wrap


def _matching(pairs: list[tuple[str, str]], current: str) -> list[Choice[str]]:
    typed = current.casefold()
    return [Choice(name=label[:100], value=value[:100]) for label, value in pairs
            if typed in label.casefold() or typed in value.casefold()][:MAX_CHOICES]


async def characters_ac(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    try:
        listed = await interaction.client.api.characters()  # type: ignore[attr-defined]
    except (Down, Refused):
        return []
    return _matching([(c["name"], c["name"]) for c in listed], current)


async def _index(interaction: discord.Interaction) -> dict[str, Any]:
    from .words import lang_of

    return await interaction.client.api.tables_index(lang_of(interaction))  # type: ignore[attr-defined]


async def damage_types_ac(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    try:
        index = await _index(interaction)
    except (Down, Refused):
        return []
    return _matching([(f"{e['name']} ({e['id']})", e["id"]) for e in index["damage_tables"]], current)


async def afflictions_ac(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    try:
        index = await _index(interaction)
    except (Down, Refused):
        return []
    return _matching([(f"{e['name']} ({e['id']})", e["id"]) for e in index["diseases"] + index["poisons"]], current)


async def tables_ac(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    try:
        index = await _index(interaction)
    except (Down, Refused):
        return []
    pairs = [("severity", "severity")] + [(f"{e['name']} ({e['id']})", e["id"]) for key in (
        "damage_tables", "body_parts", "tracks", "diseases", "poisons") for e in index[key]]
    return _matching(pairs, current)


async def spells_ac(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """The spells of the installed rules (the API lists none): name in the member's language, id as value."""
    from ..content.loader import load_rules
    from .words import lang_of

    lang = lang_of(interaction)
    return _matching([(f"{s.name(lang)} ({s.id})", s.id) for s in load_rules().spells.values()], current)


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

        async def work(lang: str) -> list[str]:
            found = await bot.api.link(member.id, character)
            return [SAY.say("assigned", lang, member=member.mention, character=found["name"])]

        await bot.reply(interaction, work)

    @command("whoami")
    async def whoami(interaction: discord.Interaction) -> None:
        async def work(lang: str) -> list[str]:
            found = await bot.api.character_of(interaction.user.id)
            if found is None:
                return [SAY.say("no_character", lang)]
            return [SAY.say("whoami", lang, character=found["name"])]

        await bot.reply(interaction, work)

    @command("bind")
    async def bind(interaction: discord.Interaction) -> None:
        if await bot.refuse_non_gm(interaction):
            return
        bot.state.table_channel = interaction.channel_id
        from .words import lang_of

        await interaction.response.send_message(
            SAY.say("bound", lang_of(interaction), channel=f"<#{interaction.channel_id}>"))

    @command("status")
    @app_commands.autocomplete(character=characters_ac)
    async def status(interaction: discord.Interaction, character: Optional[str] = None) -> None:
        gm = bot.is_gm(interaction.user)

        async def work(lang: str) -> list[str]:
            if gm:
                doc = await bot.api.get("/status", lang, **({"character": character} if character else {}))
                return render.chunks(render.gm_status(doc, lang), fence=True)
            mine = await bot.api.character_of(interaction.user.id)
            if mine is None:
                return [SAY.say("no_character", lang)]
            if character and character.casefold() not in (mine["name"].casefold(), mine["id"]):
                return [SAY.say("gm_view_only", lang)]
            return render.chunks(render.player_card(await bot.api.player(mine["id"], "", lang), lang))

        await bot.reply(interaction, work)

    @command("tables", type="table")
    @app_commands.autocomplete(type=tables_ac)
    async def tables(interaction: discord.Interaction, type: Optional[str] = None) -> None:
        table = type
        async def work(lang: str) -> list[str]:
            path = "/api/tables" + (f"/{quote(table, safe='')}" if table else "")
            doc = await bot.api.request("GET", path, lang=lang)
            return render.chunks(render.tables_text(doc, lang, index=table is None), fence=True)

        await bot.reply(interaction, work)

    for cmd in (assign, whoami, bind, status, tables):
        tree.add_command(cmd)
