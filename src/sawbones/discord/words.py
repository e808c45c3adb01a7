"""The bot's slash commands as members read them, and the member's language.

Every word the bot says is a catalog template (sawbones/locale/<lang>/LC_MESSAGES/sawbones.po), said with
`_()` / `pgettext` of sawbones.presentation.locale in the language of whoever reads it: a handler runs under
its member's Discord locale (`heard`), what the bot posts in channels under the channel language of
`create_bot(lang=…)`. What the bot shows of the campaign is sawbones' own words (the API's `lines`, the CLI's
status and tables, the player page's words): render.py.

Slash command names and descriptions in other languages are Discord localizations, which discord.py asks
of the tree's `app_commands.Translator` when it syncs the commands: `CatalogTranslator` answers each Discord
locale from the catalog of its language (names in the contexts "discord command" and "discord option", so
the command "assign" and the word "assign" can differ). A language without a name for a command leaves it
in English.
"""

# (no `from __future__ import annotations`: `heard` wraps the commands' callbacks, whose parameter types
# discord.py reads at definition)
import functools
import re
from typing import Any, Awaitable, Callable, Optional, TypeVar

import discord
from discord import app_commands

from ..message import N_, pmsg
from ..presentation.locale import SOURCE, _, normalize, pgettext, speaking

# slash commands: English name (its other names: the catalogs' context "discord command") -> description
COMMANDS: dict[str, str] = {
    pmsg("discord command", "assign").text: N_("GM: link a member to a character"),
    pmsg("discord command", "whoami").text: N_("Which character is yours"),
    pmsg("discord command", "bind").text: N_("GM: prompts and the feed go to this channel"),
    pmsg("discord command", "damage").text: N_("GM: damage; at 0 HP a lingering injury follows"),
    pmsg("discord command", "injure").text: N_("GM: give a lingering injury directly"),
    pmsg("discord command", "treat").text: N_("GM: treat an injury (its time passes, then the check)"),
    pmsg("discord command", "rest").text: N_("GM: a long or short rest"),
    pmsg("discord command", "heal").text: N_("GM: magical healing"),
    pmsg("discord command", "expose").text: N_("GM: expose a character to a disease or poison"),
    pmsg("discord command", "wound").text: N_("GM: a localized wound (3.5)"),
    pmsg("discord command", "advance").text: N_("GM: move the game clock forward"),
    pmsg("discord command", "undo").text: N_("GM: undo the last action"),
    pmsg("discord command", "pending").text: N_("GM: the saves waiting for a die"),
    pmsg("discord command", "odds").text: N_("GM: the odds of a disease, a poison or a drop to 0"),
    pmsg("discord command", "status").text: N_("A character's status (yours, or the party for the GM)"),
    pmsg("discord command", "tables").text: N_("The rule tables"),
    pmsg("discord command", "link").text: N_("Manage Server: link this server to a campaign"),
}

# options: English name (its other names: the catalogs' context "discord option") -> description
OPTIONS: dict[str, str] = {
    pmsg("discord option", "member").text: N_("The member"),
    pmsg("discord option", "character").text: N_("The character"),
    pmsg("discord option", "amount").text: N_("Damage amount"),
    pmsg("discord option", "type").text: N_("Damage type"),
    pmsg("discord option", "more").text: N_("More parts: 5 cold, 3 fire"),
    pmsg("discord option", "d20").text: N_("The d20 the player rolled (default: rolled)"),
    pmsg("discord option", "injury").text: N_("The injury (i3)"),
    pmsg("discord option", "healer").text: N_("Who treats"),
    pmsg("discord option", "check").text: N_("The check's total (default: rolled)"),
    pmsg("discord option", "kind").text: N_("long or short"),
    pmsg("discord option", "hit_dice").text: N_("Hit Dice to spend (short rest)"),
    pmsg("discord option", "spell").text: N_("The spell"),
    pmsg("discord option", "hp").text: N_("Hit points restored"),
    pmsg("discord option", "affliction").text: N_("The disease or poison"),
    pmsg("discord option", "save").text: N_("The save's total, as rolled"),
    pmsg("discord option", "rolls").text: N_("Who rolls: gm or players"),
    pmsg("discord option", "part").text: N_("Body part"),
    pmsg("discord option", "side").text: N_("left or right"),
    pmsg("discord option", "duration").text: N_("3r, 10min, 8h, 2d, 1w"),
    pmsg("discord option", "auto").text: N_("Roll every save that falls due"),
    pmsg("discord option", "table").text: N_("A table id: severity, fire, a track, a disease"),
    pmsg("discord option", "bonus").text: N_("The save bonus"),
    pmsg("discord option", "what").text: N_("A disease, a poison, or a damage type"),
}

NAME = re.compile(r"[-_'\w]{1,32}")  # what Discord takes as a command's or an option's name (lowercase)
DESCRIPTION_LIMIT = 100  # characters of a command's or an option's description (Discord)
Location = app_commands.TranslationContextLocation


class CatalogTranslator(app_commands.Translator):
    """The slash commands' names and descriptions in each Discord locale that has a catalog (Discord
    localizations); English, the commands' own words, for the others and for what a catalog does not name."""

    def __init__(self) -> None:
        self.languages: dict[discord.Locale, str] = {}

    def language_of(self, locale: discord.Locale) -> str:
        if locale not in self.languages:
            self.languages[locale] = normalize(locale.value)
        return self.languages[locale]

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> Optional[str]:  # type: ignore[type-arg]
        lang = self.language_of(locale)
        if lang == SOURCE:
            return None
        english, where = string.message, context.location
        with speaking(lang):
            if where is Location.command_name:
                said = pgettext("discord command", english)
            elif where is Location.parameter_name:
                said = pgettext("discord option", english)
            elif where in (Location.command_description, Location.parameter_description):
                said = _(english)[:DESCRIPTION_LIMIT]
            else:
                return None
        if said == english:
            return None  # the catalog does not say it otherwise: English
        if where in (Location.command_name, Location.parameter_name) and \
                (said != said.lower() or not NAME.fullmatch(said)):
            return None  # not a name Discord takes: English
        return said


Handler = TypeVar("Handler", bound=Callable[..., Awaitable[Any]])


def heard(handler: Handler) -> Handler:
    """The handler of an interaction (a slash command, an autocomplete, a button, a form) runs in its member's
    language: their Discord locale's catalog ("fr", "fr-FR"… read French; a language without one, English)."""

    @functools.wraps(handler)
    async def in_their_language(*args: Any, **kwargs: Any) -> Any:
        interaction = next(a for a in (*args, *kwargs.values()) if isinstance(a, discord.Interaction))
        with speaking(str(interaction.locale)):
            return await handler(*args, **kwargs)

    return in_their_language  # type: ignore[return-value]
