"""The GM's slash commands: /damage, /injure, /treat, /rest, /heal, /expose, /wound, /advance, /pending, /odds
(and /undo, undo.py). Each is the API's action of the same name (docs/integrations.md), with an
Idempotency-Key of the interaction (a retried request applies once); the GM gets the action's lines
(ephemeral: they may name secrets), the table gets the player-safe lines through the feed. A member who is
not the GM gets one ephemeral line and nothing is applied."""

# (no `from __future__ import annotations`: discord.py reads the commands' parameter types at definition)
import re
from typing import Any, Literal, Optional
from urllib.parse import quote

import discord
from discord import app_commands

from ..presentation.typeset import percent
from ..interfaces.web.i18n import text as page_word
from . import render
from .api import Refused
from .commands_all import afflictions_ac, characters_ac, command, damage_types_ac, injuries_ac, spells_ac
from .words import SAY

Rolls = Optional[Literal["gm", "players"]]
PART = re.compile(r"\s*(\d{1,6})\s+([A-Za-z_]{1,40})\s*")


def parts(amount: int, kind: str, more: Optional[str]) -> list[dict[str, Any]]:
    """The hit's damage parts: AMOUNT TYPE, then "5 cold, 3 fire"."""
    out = [{"amount": amount, "type": kind}]
    for piece in filter(str.strip, (more or "").split(",")):
        found = PART.fullmatch(piece)
        if found is None:
            raise Refused(422, "usage", f"more: {piece.strip()!r} is not AMOUNT TYPE (5 cold)", {})
        out.append({"amount": int(found[1]), "type": found[2].lower()})
    return out


def body(**fields: Any) -> dict[str, Any]:
    return {k: v for k, v in fields.items() if v is not None}


def install(bot: Any) -> None:
    async def act(interaction: discord.Interaction, name: str, make: Any) -> None:
        if await bot.refuse_non_gm(interaction):
            return

        async def work(lang: str) -> list[str]:
            doc = await bot.api.act(name, make(), lang, key=f"discord:{bot.api.campaign}:{bot.started}:{interaction.id}")
            lines = doc.get("lines") or await action_lines(bot.api, int(doc["version"]), lang)
            return render.chunks("\n".join(lines) or "…")

        await bot.reply(interaction, work)

    @command("damage")
    @app_commands.autocomplete(character=characters_ac, type=damage_types_ac)
    async def damage(interaction: discord.Interaction, character: str, amount: app_commands.Range[int, 0, 100000],
                     type: str, more: Optional[str] = None, d20: Optional[app_commands.Range[int, 1, 20]] = None
                     ) -> None:
        await act(interaction, "damage", lambda: body(character=character, parts=parts(amount, type, more), d20=d20))

    @command("injure")
    @app_commands.autocomplete(character=characters_ac, type=damage_types_ac)
    async def injure(interaction: discord.Interaction, character: str, type: str,
                     d20: Optional[app_commands.Range[int, 1, 20]] = None) -> None:
        await act(interaction, "injure", lambda: body(character=character, type=type, d20=d20))

    @command("treat")
    @app_commands.autocomplete(character=characters_ac, injury=injuries_ac, healer=characters_ac)
    async def treat(interaction: discord.Interaction, character: str, injury: str, healer: Optional[str] = None,
                    check: Optional[app_commands.Range[int, -20, 60]] = None, rolls: Rolls = None) -> None:
        await act(interaction, "treat", lambda: body(character=character, injury=injury, healer=healer, check=check,
                                                     rolls=rolls))

    @command("rest")
    @app_commands.autocomplete(character=characters_ac)
    async def rest(interaction: discord.Interaction, kind: Literal["long", "short"], character: Optional[str] = None,
                   hit_dice: Optional[app_commands.Range[int, 0, 40]] = None) -> None:
        await act(interaction, "rest", lambda: body(kind=kind, characters=[character] if character else [],
                                                   hit_dice=hit_dice))

    @command("heal")
    @app_commands.autocomplete(character=characters_ac, injury=injuries_ac, spell=spells_ac)
    async def heal(interaction: discord.Interaction, character: str, spell: str, injury: Optional[str] = None,
                   hp: Optional[app_commands.Range[int, 0, 10000]] = None) -> None:
        await act(interaction, "heal", lambda: body(character=character, spell=spell, injury=injury, hp=hp))

    @command("expose")
    @app_commands.autocomplete(character=characters_ac, affliction=afflictions_ac)
    async def expose(interaction: discord.Interaction, character: str, affliction: str,
                     save: Optional[app_commands.Range[int, -20, 80]] = None, rolls: Rolls = None) -> None:
        await act(interaction, "expose", lambda: body(character=character, affliction=affliction, save=save,
                                                      rolls=rolls))

    @command("wound", amount="amount")
    @app_commands.autocomplete(character=characters_ac)
    async def wound(interaction: discord.Interaction, character: str, part: str,
                    amount: app_commands.Range[int, 1, 10000], side: Optional[Literal["left", "right"]] = None,
                    rolls: Rolls = None) -> None:
        await act(interaction, "wound", lambda: body(character=character, part=part, damage=amount, side=side,
                                                     rolls=rolls))

    @command("advance")
    async def advance(interaction: discord.Interaction, duration: str, auto: Optional[bool] = None,
                      rolls: Rolls = None) -> None:
        await act(interaction, "advance", lambda: body(duration=duration, auto=auto, rolls=rolls))

    @command("pending")
    async def pending(interaction: discord.Interaction) -> None:
        if await bot.refuse_non_gm(interaction):
            return

        async def work(lang: str) -> list[str]:
            waiting = (await bot.api.get("/pending", lang))["pending"]
            return render.chunks(render.pending_text(waiting, lang)) if waiting else \
                [SAY.say("nothing_pending", lang)]

        await bot.reply(interaction, work)

    @command("odds")
    @app_commands.autocomplete(what=afflictions_ac)
    async def odds(interaction: discord.Interaction, what: str,
                   bonus: Optional[app_commands.Range[int, -30, 60]] = None) -> None:
        if await bot.refuse_non_gm(interaction):
            return

        async def work(lang: str) -> list[str]:
            return [await odds_text(bot.api, what, bonus, lang)]

        await bot.reply(interaction, work)

    for cmd in (damage, injure, treat, rest, heal, expose, wound, advance, pending, odds):
        bot.tree.add_command(cmd)
    from . import undo

    undo.install(bot)


async def action_lines(api: Any, version: int, lang: str) -> list[str]:
    """The log's sentences of the action that ended at `version` (an answer without lines: a wound's)."""
    from .api import QUIET

    log = (await api.get("/log", lang, limit=30))["events"]
    action = next((e["action"] for e in log if e["version"] == version), None)
    return [e["text"] for e in log if e["action"] == action and e["text"] and e["type"] not in QUIET]


async def odds_text(api: Any, what: str, bonus: Optional[int], lang: str) -> str:
    """A disease's or poison's odds (death, each final stage), or a drop to 0's severities for a damage type."""
    key = quote(what.strip().lower(), safe="")
    index = await api.tables_index(lang)
    names = {e["id"]: e["name"] for k in ("diseases", "poisons", "damage_tables") for e in index[k]}
    if any(e["id"] == key for e in index["damage_tables"]):
        doc = await api.get(f"/odds/injuries/{key}", lang)
        first = next(iter(doc["odds"].values()))
        return f"**{names.get(key, key)}** · " + " · ".join(
            f"{severity} {percent(p)}" for severity, p in first["severity"].items())
    doc = await api.get(f"/odds/{key}", lang, **({"bonus": bonus} if bonus is not None else {}))
    finals = " · ".join(f"{label} {percent(p)}" for label, p in doc["final"].items())
    return (f"**{names.get(key, key)}** · {page_word('dc', lang)} {doc['dc']} · {page_word('your_bonus', lang)} "
            f"{doc['bonus']:+d}\n{page_word('dead', lang)} **{percent(doc['death'])}** · {finals}")
