"""Slash commands of who is who and of everyone: /assign and /bind (GM), /whoami, /status [character], /tables
[type]; the autocompletes every command shares (characters, damage types, afflictions, injuries, tables)."""

# (no `from __future__ import annotations`: discord.py reads the commands' parameter types at definition)
import asyncio
import inspect
from typing import Any, Callable, Optional
from urllib.parse import quote

import discord
from discord import app_commands

from . import render
from .api import ANSWER_WITHIN, Down, Refused
from .party import missing_permissions
from ..presentation.locale import _, name
from .words import COMMANDS, OPTIONS, heard

Choice = app_commands.Choice
MAX_CHOICES = 25


def command(name: str, gm: bool = False, **described_as: str) -> Callable[[Any], app_commands.Command[Any, Any, Any]]:
    """A slash command named `name`, its description and its options' descriptions from words.py (in other
    languages: the catalogs', through the bot's translator); `described_as`: an option described by another
    entry of OPTIONS. It runs in the member's language (words.heard). `gm`: a GM's command, listed to members
    with Manage Server (default_member_permissions) unless the server grants it to its GM role."""
    def wrap(fn: Any) -> app_commands.Command[Any, Any, Any]:
        described = {p: OPTIONS[described_as.get(p, p)] for p in inspect.signature(fn).parameters
                     if described_as.get(p, p) in OPTIONS}
        fn = heard(fn)
        if described:
            fn = app_commands.describe(**described)(fn)
        made = app_commands.command(name=name, description=COMMANDS[name])(fn)
        return app_commands.default_permissions(manage_guild=True)(made) if gm else made

    return wrap


def _matching(pairs: list[tuple[str, str]], current: str) -> list[Choice[str]]:
    typed = current.casefold()
    return [Choice(name=label[:100], value=value[:100]) for label, value in pairs
            if typed in label.casefold() or typed in value.casefold()][:MAX_CHOICES]


def _party(interaction: discord.Interaction) -> Any:
    return interaction.client.party_of(interaction)  # type: ignore[attr-defined]


def _gm_party(interaction: discord.Interaction) -> Any:
    """The party when the member is its GM (a GM command's autocomplete answers nothing to anyone else)."""
    party = _party(interaction)
    return party if interaction.client.is_gm(interaction.user, party) else None  # type: ignore[attr-defined]


async def _soon(work: Any) -> Any:
    """What sawbones says within ANSWER_WITHIN seconds, else None (an autocomplete must answer within 3)."""
    try:
        return await asyncio.wait_for(work, ANSWER_WITHIN)
    except (Down, Refused, asyncio.TimeoutError):
        return None


@heard
async def characters_ac(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """A GM command's: every character to the GM, nothing to anyone else (the characters kept, refreshed in the
    background)."""
    party = _gm_party(interaction)
    if party is None:
        return []
    listed = await party.api.characters_soon()
    return _matching([(c["name"], c["name"]) for c in listed], current)


@heard
async def status_ac(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """/status: every character to the GM, their own to a player."""
    party = _party(interaction)
    if party is None:
        return []
    listed = await party.api.characters_soon()
    if not interaction.client.is_gm(interaction.user, party):  # type: ignore[attr-defined]
        mine = f"discord:{interaction.user.id}"
        listed = [c for c in listed if mine in c.get("external", ())]
    return _matching([(c["name"], c["name"]) for c in listed], current)


async def _index(interaction: discord.Interaction, gm: bool = True) -> dict[str, Any] | None:
    party = _gm_party(interaction) if gm else _party(interaction)
    if party is None:
        return None
    return await _soon(party.api.tables_index())


@heard
async def damage_types_ac(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    index = await _index(interaction)
    if index is None:
        return []
    return _matching([(f"{e['name']} ({e['id']})", e["id"]) for e in index["damage_tables"]], current)


@heard
async def afflictions_ac(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    index = await _index(interaction)
    if index is None:
        return []
    return _matching([(f"{e['name']} ({e['id']})", e["id"]) for e in index["diseases"] + index["poisons"]], current)


@heard
async def tables_ac(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    index = await _index(interaction, gm=False)  # (the rule tables are everyone's)
    if index is None:
        return []
    pairs = [("severity", "severity")] + [(f"{e['name']} ({e['id']})", e["id"]) for key in (
        "damage_tables", "body_parts", "tracks", "diseases", "poisons") for e in index[key]]
    return _matching(pairs, current)


@heard
async def spells_ac(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """The spells of the installed rules (the API lists none): name in the member's language, id as value."""
    from ..content.loader import load_rules

    if _gm_party(interaction) is None:
        return []
    return _matching([(f"{name(s.name)} ({s.id})", s.id) for s in load_rules().spells.values()], current)


@heard
async def injuries_ac(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    who = getattr(interaction.namespace, "character", None)
    party = _gm_party(interaction)
    if not who or party is None:
        return []
    api = party.api
    doc = await _soon(api.request("GET", f"{api.base}/characters/{quote(str(who), safe='')}"))
    if doc is None:
        return []
    return _matching([(f"{i['id']} {i['name']}", i["id"]) for i in doc.get("injuries", [])], current)


def install(bot: Any) -> None:
    tree = bot.tree

    @command("assign", gm=True)
    @app_commands.autocomplete(character=characters_ac)
    async def assign(interaction: discord.Interaction, member: discord.Member, character: str) -> None:
        if await bot.refuse_non_gm(interaction):
            return
        party = bot.party_of(interaction)

        async def work() -> list[str]:
            found = await party.api.link(member.id, character)
            party.api.refresh_characters()
            return [_("{member} plays {character}.", member=member.mention, character=found["name"])]

        await bot.reply(interaction, work)

    @command("whoami")
    async def whoami(interaction: discord.Interaction) -> None:
        party = bot.party_of(interaction)

        async def work() -> list[str]:
            found = await party.api.character_of(interaction.user.id)
            if found is None:
                return [_("No character is linked to you yet: ask the GM for /assign.")]
            return [_("You play {character}.", character=found["name"])]

        await bot.reply(interaction, work)

    @command("bind", gm=True)
    async def bind(interaction: discord.Interaction) -> None:
        if await bot.refuse_non_gm(interaction):
            return
        here = f"<#{interaction.channel_id}>"
        thread = isinstance(interaction.channel, discord.Thread)
        missing = missing_permissions(interaction.app_permissions, thread)
        if missing:  # (the bot's own permissions in this channel or thread, overwrites included)
            await interaction.response.send_message(
                _("I cannot post in {channel}: grant me {permissions} there, then /bind again. Nothing was changed.",
                  channel=here, permissions=", ".join(permission_name(p) for p in missing)), ephemeral=True)
            return
        bot.party_of(interaction).state.table_channel = interaction.channel_id
        await interaction.response.send_message(_("Prompts and the feed now go to {channel}.", channel=here))

    @command("status")
    @app_commands.autocomplete(character=status_ac)
    async def status(interaction: discord.Interaction, character: Optional[str] = None) -> None:
        party = bot.party_of(interaction)
        gm = bot.is_gm(interaction.user, party)

        async def work() -> list[str]:
            if gm:
                doc = await party.api.get("/status", **({"character": character} if character else {}))
                return render.chunks(render.gm_status(doc), fence=True)
            mine = await party.api.character_of(interaction.user.id)
            if mine is None:
                return [_("No character is linked to you yet: ask the GM for /assign.")]
            if character and character.casefold() not in (mine["name"].casefold(), mine["id"]):
                return [_("Only the GM sees another character's status.")]
            return render.chunks(render.player_card(await party.api.player(mine["id"], "")))

        await bot.reply(interaction, work)

    @command("tables", type="table")
    @app_commands.autocomplete(type=tables_ac)
    async def tables(interaction: discord.Interaction, type: Optional[str] = None) -> None:
        table = type
        party = bot.party_of(interaction)

        async def work() -> list[str]:
            path = "/api/tables" + (f"/{quote(table, safe='')}" if table else "")
            doc = await party.api.request("GET", path)
            return render.chunks(render.tables_text(doc, index=table is None), fence=True)

        await bot.reply(interaction, work)

    for cmd in (assign, whoami, bind, status, tables):
        tree.add_command(cmd)


def permission_name(permission: str) -> str:
    """A Discord permission as its settings name it."""
    names = {"view_channel": _("View Channel"), "send_messages": _("Send Messages"),
             "send_messages_in_threads": _("Send Messages in Threads")}
    return names.get(permission, permission)
