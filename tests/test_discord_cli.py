"""`sawbones discord` on the command line (issue 36): its secrets from the environment only, a missing one is
one line in either language; the invite link and the permissions it asks for (docs/discord.md)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.mark.parametrize("lang, line", [
    (None, "error: set DISCORD_TOKEN to the bot's token (Discord developer portal, Bot page)"),
    ("fr", "erreur : donnez à DISCORD_TOKEN le jeton du bot (portail des développeurs Discord, page Bot)")])
def test_sawbones_discord_without_its_token_is_one_line(cli, monkeypatch, lang, line):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("SAWBONES_API_SECRET", "not-shown")
    result = cli(*(["--lang", lang] if lang else []), "discord", "--campaign", "Old Road")
    assert result.code == 2
    assert result.err.strip() == line
    assert "not-shown" not in result.out + result.err


def test_sawbones_discord_takes_its_secrets_from_the_environment_only(cli, monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.delenv("SAWBONES_API_SECRET", raising=False)
    result = cli("discord", "--campaign", "Old Road")
    assert result.code == 2
    assert result.err.strip() == ("error: set SAWBONES_API_SECRET to the campaign's API secret "
                                  "(sawbones gm-link makes one)")
    assert "a-token" not in result.out + result.err
    help_text = cli("discord", "--help").out
    assert "--server URL" in help_text and "--token" not in help_text and "--secret" not in help_text


def test_the_invite_asks_for_view_channel_and_send_messages_only():
    from sawbones.discord.bot import PERMISSIONS, invite_link

    assert PERMISSIONS.value == 3072 == (1 << 10) + (1 << 11)
    assert {name for name, on in PERMISSIONS if on} == {"read_messages", "send_messages"}  # (view_channel)
    link = invite_link(1234)
    assert link == ("https://discord.com/oauth2/authorize?client_id=1234&scope=bot+applications.commands"
                    "&permissions=3072")
    doc = (Path(__file__).resolve().parents[1] / "docs" / "discord.md").read_text(encoding="utf-8")
    assert "permissions=3072" in doc
