"""The GM's slash commands: /damage, /injure, /treat, /rest, /heal, /expose, /wound, /advance, /pending, /odds
(and /undo, undo.py). Each is the API's action of the same name (docs/integrations.md), with an
Idempotency-Key nobody can guess (a retried request applies once); the GM gets the action's lines
(ephemeral: they may name secrets), the table gets the player-safe lines through the feed. A member who is
not the GM gets one ephemeral line and nothing is applied. When sawbones does not answer in time (a timeout,
a 503), the action may have been applied: the GM is told so, with a button that retries it with the same key
(retry.py)."""

# (no `from __future__ import annotations`: discord.py reads the commands' parameter types at definition)
import inspect
import re
from typing import TYPE_CHECKING, Any, Literal, Optional
from urllib.parse import quote

import discord
from discord import app_commands

from ..presentation.locale import _, pgettext
from . import render
from .api import Refused, key as new_key
from .retry import applied
from .commands_all import afflictions_ac, characters_ac, command, damage_types_ac, injuries_ac, spells_ac

if TYPE_CHECKING:
    from .api import Api

Rolls = Optional[Literal["gm", "players"]]
PART = re.compile(r"\s*(\d{1,6})\s+([^\W\d][\w' -]{0,39}?)\s*")


def parts(amount: int, kind: str, more: Optional[str], names: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The hit's damage parts: AMOUNT TYPE, then "5 cold, 3 fire" ("2 nécrotique" in French: `names`, a type's
    name in the member's language -> its id)."""
    out = [{"amount": amount, "type": kind}]
    for piece in filter(str.strip, (more or "").split(",")):
        found = PART.fullmatch(piece)
        if found is None:
            raise Refused(422, "usage", _("{option}: {given} is not AMOUNT TYPE (5 cold)",
                                          option=pgettext("discord option", "more"), given=repr(piece.strip())), {})
        typed = found[2].casefold()
        out.append({"amount": int(found[1]), "type": (names or {}).get(typed, typed)})
    return out


async def type_names(api: "Api") -> dict[str, str]:
    """The damage types' names in the member's language (and their ids), casefolded -> id."""
    index = await api.tables_index()
    return {k: e["id"] for e in index["damage_tables"] for k in (e["name"].casefold(), e["id"].casefold())}


def body(**fields: Any) -> dict[str, Any]:
    return {k: v for k, v in fields.items() if v is not None}


def install(bot: Any) -> None:
    async def act(interaction: discord.Interaction, name: str, make: Any) -> None:
        if await bot.refuse_non_gm(interaction):
            return
        party = bot.party_of(interaction)

        async def work() -> list[Any]:
            made = make()
            body = await made if inspect.isawaitable(made) else made
            return await applied(party, name, body, new_key())

        await bot.reply(interaction, work)

    @command("damage", gm=True)
    @app_commands.autocomplete(character=characters_ac, type=damage_types_ac)
    async def damage(interaction: discord.Interaction, character: str, amount: app_commands.Range[int, 0, 100000],
                     type: str, more: Optional[str] = None, d20: Optional[app_commands.Range[int, 1, 20]] = None
                     ) -> None:
        async def made() -> dict[str, Any]:
            names = await type_names(bot.party_of(interaction).api) if more else None
            return body(character=character, parts=parts(amount, type, more, names), d20=d20)

        await act(interaction, "damage", made)

    @command("injure", gm=True)
    @app_commands.autocomplete(character=characters_ac, type=damage_types_ac)
    async def injure(interaction: discord.Interaction, character: str, type: str,
                     d20: Optional[app_commands.Range[int, 1, 20]] = None) -> None:
        await act(interaction, "injure", lambda: body(character=character, type=type, d20=d20))

    @command("treat", gm=True)
    @app_commands.autocomplete(character=characters_ac, injury=injuries_ac, healer=characters_ac)
    async def treat(interaction: discord.Interaction, character: str, injury: str, healer: Optional[str] = None,
                    check: Optional[app_commands.Range[int, -20, 60]] = None, rolls: Rolls = None) -> None:
        await act(interaction, "treat", lambda: body(character=character, injury=injury, healer=healer, check=check,
                                                     rolls=rolls))

    @command("rest", gm=True)
    @app_commands.autocomplete(character=characters_ac)
    async def rest(interaction: discord.Interaction, kind: Literal["long", "short"], character: Optional[str] = None,
                   hit_dice: Optional[app_commands.Range[int, 0, 40]] = None) -> None:
        await act(interaction, "rest", lambda: body(kind=kind, characters=[character] if character else [],
                                                   hit_dice=hit_dice))

    @command("heal", gm=True)
    @app_commands.autocomplete(character=characters_ac, injury=injuries_ac, spell=spells_ac)
    async def heal(interaction: discord.Interaction, character: str, spell: str, injury: Optional[str] = None,
                   hp: Optional[app_commands.Range[int, 0, 10000]] = None) -> None:
        await act(interaction, "heal", lambda: body(character=character, spell=spell, injury=injury, hp=hp))

    @command("expose", gm=True)
    @app_commands.autocomplete(character=characters_ac, affliction=afflictions_ac)
    async def expose(interaction: discord.Interaction, character: str, affliction: str,
                     save: Optional[app_commands.Range[int, -20, 80]] = None, rolls: Rolls = None) -> None:
        await act(interaction, "expose", lambda: body(character=character, affliction=affliction, save=save,
                                                      rolls=rolls))

    @command("wound", gm=True, amount="amount")
    @app_commands.autocomplete(character=characters_ac)
    async def wound(interaction: discord.Interaction, character: str, part: str,
                    amount: app_commands.Range[int, 1, 10000], side: Optional[Literal["left", "right"]] = None,
                    rolls: Rolls = None) -> None:
        await act(interaction, "wound", lambda: body(character=character, part=part, damage=amount, side=side,
                                                     rolls=rolls))

    @command("advance", gm=True)
    async def advance(interaction: discord.Interaction, duration: str, auto: Optional[bool] = None,
                      rolls: Rolls = None) -> None:
        await act(interaction, "advance", lambda: body(duration=duration, auto=auto, rolls=rolls))

    @command("pending", gm=True)
    async def pending(interaction: discord.Interaction) -> None:
        if await bot.refuse_non_gm(interaction):
            return

        async def work() -> list[str]:
            waiting = (await bot.party_of(interaction).api.get("/pending"))["pending"]
            return render.chunks(render.pending_text(waiting)) if waiting else \
                [_("No saves are waiting for a die.")]

        await bot.reply(interaction, work)

    @command("odds", gm=True)
    @app_commands.autocomplete(what=afflictions_ac)
    async def odds(interaction: discord.Interaction, what: str,
                   bonus: Optional[app_commands.Range[int, -30, 60]] = None) -> None:
        if await bot.refuse_non_gm(interaction):
            return

        async def work() -> list[str]:
            return [await odds_text(bot.party_of(interaction).api, what, bonus)]

        await bot.reply(interaction, work)

    for cmd in (damage, injure, treat, rest, heal, expose, wound, advance, pending, odds):
        bot.tree.add_command(cmd)
    from . import undo

    undo.install(bot)


async def odds_text(api: "Api", what: str, bonus: Optional[int]) -> str:
    """A disease's or poison's odds (death, each final stage), or a drop to 0's severities for a damage type."""
    key = quote(what.strip().lower(), safe="")
    index = await api.tables_index()
    names = {e["id"]: e["name"] for k in ("diseases", "poisons", "damage_tables") for e in index[k]}
    if any(e["id"] == key for e in index["damage_tables"]):
        doc = await api.get(f"/odds/injuries/{key}")
        first = next(iter(doc["odds"].values()))
        return f"**{names.get(key, key)}** · " + " · ".join(
            f"{severity} {render.chance(p)}" for severity, p in first["severity"].items())
    doc = await api.get(f"/odds/{key}", **({"bonus": bonus} if bonus is not None else {}))
    finals = " · ".join(f"{label} {render.chance(p)}" for label, p in doc["final"].items())
    return (f"**{names.get(key, key)}** · {_('DC')} {doc['dc']} · {_('your bonus')} "
            f"{doc['bonus']:+d}\n{_('dead')} **{render.chance(doc['death'])}** · {finals}")
