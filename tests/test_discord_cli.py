"""`sawbones discord` on the command line: its secrets from the environment only, a missing one is one line in
either language; --guild and --campaign together (one party) or neither (hosted); sawbones at --server and the
secret checked before connecting, Discord's silence and a wrong token: one line each, no traceback; the state
file's default path is absolute; the invite link and the permissions it asks for (docs/discord.md)."""

from __future__ import annotations

import http.server
import os
import threading
from pathlib import Path

import pytest

from test_web_browser import _free_port, serving


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("discord_cli")) as base:
        yield base


@pytest.mark.parametrize("lang, line", [
    (None, "error: set DISCORD_TOKEN to the bot's token (Discord developer portal, Bot page)"),
    ("fr", "erreur : donnez à DISCORD_TOKEN le jeton du bot (portail des développeurs Discord, page Bot)")])
def test_sawbones_discord_without_its_token_is_one_line(cli, monkeypatch, lang, line):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("SAWBONES_API_SECRET", "not-shown")
    result = cli(*(["--lang", lang] if lang else []), "discord", "--guild", "7", "--campaign", "Old Road")
    assert result.code == 2
    assert result.err.strip() == line
    assert "not-shown" not in result.out + result.err


def test_sawbones_discord_takes_its_secrets_from_the_environment_only(cli, monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.delenv("SAWBONES_API_SECRET", raising=False)
    result = cli("discord", "--guild", "7", "--campaign", "Old Road")
    assert result.code == 2
    assert result.err.strip() == ("error: set SAWBONES_API_SECRET to the campaign's API secret "
                                  "(sawbones gm-link --api-secret makes a new one)")
    assert "a-token" not in result.out + result.err
    help_text = cli("discord", "--help").out
    assert "--server URL" in help_text and "--token" not in help_text and "--secret" not in help_text
    assert "--guild ID" in help_text


def test_guild_and_campaign_go_together(cli, monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.setenv("SAWBONES_API_SECRET", "s")
    for args in (["--campaign", "Old Road"], ["--guild", "7"]):
        result = cli("discord", *args)
        assert result.code == 2, args
        assert result.err.strip() == ("error: --guild and --campaign go together (one party); leave both out to "
                                      "host several tables (/link)")


def test_sawbones_and_the_secret_are_checked_before_connecting_one_line_each(cli, monkeypatch, server):
    import httpx

    made = httpx.post(server + "/api/campaigns", json={"name": "Checked"})
    assert made.status_code == 201
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.setenv("SAWBONES_API_SECRET", "not-the-secret")
    wrong = cli("discord", "--server", server, "--guild", "7", "--campaign", "Checked")
    assert (wrong.code, wrong.err.strip()) == (2, "error: SAWBONES_API_SECRET is not the API secret of 'Checked' "
                                                  "(sawbones gm-link --api-secret makes a new one)")
    monkeypatch.setenv("SAWBONES_API_SECRET", made.json()["gm_secret"])
    nowhere = f"http://127.0.0.1:{_free_port()}"
    down = cli("discord", "--server", nowhere, "--guild", "7", "--campaign", "Checked")
    assert down.code == 1
    assert down.err.strip() == (f"error: --server: sawbones at {nowhere} does not answer (ConnectError): start it "
                                "(sawbones serve) or give --server")
    missing = cli("discord", "--server", server, "--guild", "7", "--campaign", "Nope")
    assert missing.err.strip().startswith("error: --campaign: sawbones at") and "'Nope'" in missing.err
    assert made.json()["gm_secret"] not in wrong.err + down.err + missing.err


class _Refuses(http.server.BaseHTTPRequestHandler):
    """Discord's REST API refusing the token (401 on GET /users/@me, as discord.py's login asks)."""

    def do_GET(self) -> None:  # noqa: N802
        body = b'{"message": "401: Unauthorized", "code": 0}'
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_a_wrong_token_or_a_silent_discord_is_one_line(cli, monkeypatch, server, tmp_path):
    """discord.py's REST base pointed at 127.0.0.1: nothing listening, then a Discord that refuses the token."""
    import discord.http
    import httpx

    made = httpx.post(server + "/api/campaigns", json={"name": "Tokens"}).json()
    monkeypatch.setenv("DISCORD_TOKEN", "a-wrong-token")
    monkeypatch.setenv("SAWBONES_API_SECRET", made["gm_secret"])
    args = ("discord", "--server", server, "--guild", "7", "--campaign", "Tokens", "--state-file",
            str(tmp_path / "state.json"))
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{_free_port()}/api/v10")
    silent = cli(*args)
    assert silent.code == 1
    assert silent.err.strip().startswith("error: Discord does not answer (")
    assert len(silent.err.strip().splitlines()) == 1 and "Traceback" not in silent.err
    refusing = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Refuses)
    threading.Thread(target=refusing.serve_forever, daemon=True).start()
    try:
        monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{refusing.server_port}/api/v10")
        refused = cli(*args)
    finally:
        refusing.shutdown()
    assert refused.code == 2
    assert refused.err.strip() == ("error: Discord refused the bot's token (DISCORD_TOKEN): copy it again from the "
                                   "developer portal's Bot page")
    assert "a-wrong-token" not in silent.err + refused.err


def test_the_state_files_default_path_is_absolute_whatever_the_folder(monkeypatch, tmp_path):
    from sawbones.discord.state import default_path

    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    monkeypatch.chdir(tmp_path)
    here = default_path()
    monkeypatch.chdir(Path(__file__).parent)
    assert default_path() == here and os.path.isabs(here)
    assert here == os.path.join(os.path.expanduser("~"), ".local", "state", "sawbones", "discord.json")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert default_path() == str(tmp_path / "state" / "sawbones" / "discord.json")


def test_the_invite_asks_to_see_the_channel_and_post_there_and_in_threads():
    from sawbones.discord.bot import PERMISSIONS, invite_link

    assert PERMISSIONS.value == (1 << 10) + (1 << 11) + (1 << 38) == 274877910016
    assert {name for name, on in PERMISSIONS if on} == {"read_messages", "send_messages", "send_messages_in_threads"}
    link = invite_link(1234)
    assert link == ("https://discord.com/oauth2/authorize?client_id=1234&scope=bot+applications.commands"
                    "&permissions=274877910016")
    doc = (Path(__file__).resolve().parents[1] / "docs" / "discord.md").read_text(encoding="utf-8")
    assert "permissions=274877910016" in doc
