"""The Discord bot's slash commands in other languages come from the catalogs (issue 38): the tree's translator
answers each Discord locale from the catalog of its language; French names are the issue 36 contract; a
language with a catalog names what it names, the rest stays English. No server, no Discord: the payloads
discord.py syncs."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("discord")

from sawbones.discord import commands_all, commands_gm  # noqa: E402
from sawbones.discord.bot import create_bot  # noqa: E402
from sawbones.discord.words import COMMANDS, CatalogTranslator  # noqa: E402
from sawbones.presentation.locale import _, forget_catalogs, speaking  # noqa: E402

FRENCH_NAMES = {  # issue 36: what a member whose Discord is in French types
    "assign": "attribuer", "whoami": "quisuisje", "bind": "lier", "damage": "degats", "injure": "blesser",
    "treat": "soigner", "rest": "repos", "heal": "guerir", "expose": "exposer", "wound": "plaie",
    "advance": "avancer", "undo": "annuler", "pending": "attente", "odds": "chances", "status": "etat",
    "tables": "tableaux", "link": "lier-serveur",
}


def payloads() -> dict[str, dict[str, Any]]:
    async def synced() -> dict[str, dict[str, Any]]:
        from sawbones.discord import link

        bot = create_bot("http://127.0.0.1:9")  # (hosted: /link too)
        commands_all.install(bot)
        commands_gm.install(bot)
        link.install(bot)
        translator = CatalogTranslator()
        return {cmd.name: await cmd.get_translated_payload(bot.tree, translator) for cmd in bot.tree.get_commands()}

    return asyncio.run(synced())


def test_french_names_and_descriptions_come_from_the_catalog():
    synced = payloads()
    assert set(synced) == set(COMMANDS) == set(FRENCH_NAMES)
    assert {name: p["name_localizations"].get("fr") for name, p in synced.items()} == FRENCH_NAMES
    assert synced["undo"]["description_localizations"] == {"fr": "MJ : annuler la dernière action"}
    damage = {o["name"]: o for o in synced["damage"]["options"]}
    assert damage["more"]["name_localizations"] == {"fr": "autres"}
    assert damage["more"]["description_localizations"] == {"fr": "Autres parts : 5 cold, 3 fire"}
    rest = {o["name"]: o for o in synced["rest"]["options"]}
    assert rest["hit_dice"]["name_localizations"] == {"fr": "des_de_vie"}
    # only French has a catalog: no other locale is localized (English ones are the commands' own words)
    assert all(set(p["name_localizations"]) <= {"fr"} for p in synced.values())


def test_a_language_is_a_catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A throwaway language: what its catalog names is localized; what it does not, or names in a way Discord
    does not take as a name, stays English. No Python changes."""
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "sawbones.po").write_text('''msgid ""
msgstr ""
"Language: de\\n"
"Content-Type: text/plain; charset=utf-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgctxt "discord command"
msgid "status"
msgstr "zustand"

msgctxt "discord command"
msgid "odds"
msgstr "Chancen und Risiken"

msgid "The rule tables"
msgstr "Die Regeltabellen"

msgid "You play {character}."
msgstr "Du spielst {character}."
''', encoding="utf-8")
    monkeypatch.setenv("SAWBONES_LOCALE_PATH", str(tmp_path))
    forget_catalogs()
    try:
        synced = payloads()
        german = {name: (p["name_localizations"].get("de"), p["description_localizations"].get("de"))
                  for name, p in synced.items()}
        assert german.pop("status") == ("zustand", None)
        assert german.pop("tables") == (None, "Die Regeltabellen")
        assert set(german.values()) == {(None, None)}  # "Chancen und Risiken" is no command name: English
        assert synced["status"]["name_localizations"]["fr"] == "etat"
        with speaking("de-DE"):  # a member whose Discord is in German
            assert _("You play {character}.", character="Aria") == "Du spielst Aria."
        with speaking("es-ES"):  # no catalog: English
            assert _("You play {character}.", character="Aria") == "You play Aria."
        with speaking("fr"):
            assert _("You play {character}.", character="Aria") == "Vous jouez Aria."
    finally:
        monkeypatch.delenv("SAWBONES_LOCALE_PATH")
        forget_catalogs()
