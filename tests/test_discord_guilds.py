"""One party per Discord server, and one bot for many parties, under SimCord against a real `sawbones serve`:
`--guild` registers the commands for the party's server only, and any interaction from elsewhere (another
server the bot was added to, a DM) gets one line and touches nothing; GM rights count in the party's server
only; the autocompletes answer a non-GM nothing of the GM's, and a player's /status offers only their
character. Hosted (no --guild): a member with Manage Server links their server with /link (a form only they
see; the state file, mode 0600, never echoes the secret); an unlinked server is told so; each server's commands
touch only its campaign."""

from __future__ import annotations

import json
import os
import stat

import discord
import pytest
import simcord

from discord_table import (GUILD, STRANGER, campaign, close, command_data, contents, discord_table, raw_interaction,
                           said, until)
from sawbones.discord import create_bot
from test_web_browser import serving

pytestmark = pytest.mark.asyncio

ELSEWHERE = "This bot plays with another server's party; nothing was done."
IN_DMS = "sawbones answers in its party's Discord server only; nothing was done."


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("discord_guilds")) as base:
        yield base


def _stranger(env):
    """Another server the bot is in, whose owner has every right there (Manage Server, a role named GM)."""
    guild = env.create_guild("Strangers", id=STRANGER)
    channel = guild.create_text_channel("general")
    owner = guild.add_member(env.create_user("stranger"), roles=[
        guild.create_role("GM"), guild.create_role("Admin", permissions=discord.Permissions(manage_guild=True))])
    return guild, channel, owner


async def test_a_strangers_server_and_a_dm_get_one_line_and_touch_nothing(server, capsys):
    c = campaign(server, "Guarded")
    async with discord_table(c) as t:
        await t.gm.slash(t.channel, "bind")
        await t.gm.slash(t.channel, "assign", member=t.player, character="Brena")
        await t.gm.slash(t.channel, "expose", character="Brena", affliction="filth_fever", rolls="players")
        prompt = await until(t.env, lambda: next((m for m in t.channel.history()
                                                  if "Your GM asks for a roll" in m.content), None), "the prompt")
        _, elsewhere, owner = _stranger(t.env)
        # the commands are the party's server's only: the stranger is offered none, and none is global
        assert owner.available_commands(elsewhere) == ()
        assert not t.env.backend.commands.get(None)
        assert "damage" in t.gm.available_commands(t.channel)
        before, bound = c.version(), t.party.state.table_channel
        transcript = []
        for name, options in (("status", {}), ("damage", {"character": "Brena", "amount": 30, "type": "fire"}),
                              ("undo", {}), ("bind", {}), ("assign", {"member": str(owner.id), "character": "Aria"})):
            result = await raw_interaction(t.env, owner, elsewhere, STRANGER, "command",
                                           command_data(t.env, GUILD, name, **options))
            assert said(result) == [ELSEWHERE], name
            assert result.ephemeral, name
            transcript.append(f"stranger@Strangers › /{name} → (only you) {said(result)[0]}")
        typed = command_data(t.env, GUILD, "damage", character="b")
        typed["options"][0]["focused"] = True
        choices = await raw_interaction(t.env, owner, elsewhere, STRANGER, "autocomplete", typed)
        assert choices.autocomplete_choices == []
        transcript.append("stranger@Strangers › /damage character:b… → (no choices)")
        stored = t.env.backend.get_message(t.channel.id, prompt.id)
        pending = c.get("/pending")["pending"][0]["id"]
        click = {"custom_id": f"sawbones:roll:{pending}", "component_type": 2, "_message": stored}
        clicked = await raw_interaction(t.env, owner, elsewhere, STRANGER, "button", click)
        assert said(clicked) == [ELSEWHERE]
        transcript.append(f"stranger@Strangers › [Roll for me] of {pending} → (only you) {said(clicked)[0]}")
        dm = owner.user.dm_channel
        in_dm = await raw_interaction(t.env, owner, dm, None, "command", command_data(t.env, GUILD, "status"))
        assert said(in_dm) == [IN_DMS]
        transcript.append(f"stranger in a DM › /status → {said(in_dm)[0]}")
        assert c.version() == before and t.party.state.table_channel == bound
        assert [p["id"] for p in c.get("/pending")["pending"]] == [pending]
        assert contents(elsewhere) == []
        with capsys.disabled():
            print("\n" + "\n".join(transcript))


async def test_a_non_gm_autocomplete_offers_nothing_of_the_gms_and_only_their_own_character(server):
    c = campaign(server, "Choices")
    async with discord_table(c) as t:
        await t.gm.slash(t.channel, "assign", member=t.player, character="Brena")
        everyone = await t.gm.autocomplete(t.channel, "status", "character", "")
        assert sorted(x["value"] for x in everyone) == ["Aria", "Brena"]
        assert await t.player.autocomplete(t.channel, "status", "character", "") == [
            {"name": "Brena", "value": "Brena"}]
        assert await t.other.autocomplete(t.channel, "status", "character", "") == []
        # GM commands granted to everyone by the server: their autocompletes still answer a player nothing
        from discord_table import grant_gm_commands

        grant_gm_commands(t.env, t.guild, t.guild.default_role)
        for command, option, extra in (("damage", "character", {}), ("damage", "type", {}),
                                       ("expose", "affliction", {}), ("heal", "spell", {}),
                                       ("treat", "injury", {"character": "Brena"})):
            assert await t.player.autocomplete(t.channel, command, option, "", **extra) == [], (command, option)
        assert await t.gm.autocomplete(t.channel, "damage", "type", "fir")


async def test_hosted_each_server_links_its_own_campaign(server, tmp_path):
    """No --guild: two servers link two campaigns with /link; a third is not linked; a restart keeps the links."""
    first, second = campaign(server, "Table One"), campaign(server, "Table Two")
    state = tmp_path / "hosted.json"
    bot = create_bot(server, state_file=state)
    async with simcord.run(bot) as env:
        servers = []
        for name, c in (("One", first), ("Two", second), ("Three", None)):
            guild = env.create_guild(name)
            channel = guild.create_text_channel("table")
            admin = guild.add_member(env.create_user(f"admin_{name}"), roles=[
                guild.create_role("Admin", permissions=discord.Permissions(manage_guild=True))])
            player = guild.add_member(env.create_user(f"player_{name}"))
            servers.append((guild, channel, admin, player, c))
        try:
            (g1, ch1, admin1, player1, _), (g2, ch2, admin2, _, _), (g3, ch3, admin3, player3, _) = servers
            assert "link" not in player1.available_commands(ch1)  # Manage Server only
            refused = await player3.slash(ch3, "whoami")
            assert said(refused) == ["This server is not linked to a campaign: a member with the Manage Server "
                                     "permission links it with /link. Nothing was done."]
            for (guild, channel, admin, _, c) in servers[:2]:
                shown = await admin.slash(channel, "link")
                assert shown.modal is not None
                done = await admin.submit_modal(shown, {"campaign": c.name, "secret": c.secret})
                assert done.ephemeral and said(done)[-1] == (f"This server now plays {c.name}. The GM binds the table "
                                                             "channel with /bind.")
                assert c.secret not in "".join(said(done))
            wrong = await admin3.submit_modal(await admin3.slash(ch3, "link"),
                                              {"campaign": first.name, "secret": "not-its-secret"})
            assert said(wrong)[-1].startswith("sawbones refused: ") and said(wrong)[-1].endswith("Nothing was linked.")
            assert set(bot.parties) == {g1.id, g2.id}
            one = said(await admin1.slash(ch1, "status"))[0]
            two = said(await admin2.slash(ch2, "status"))[0]
            assert "Table One" in one and "Table Two" not in one
            assert "Table Two" in two and "Table One" not in two
            # each server's commands touch only its campaign
            v1, v2 = first.version(), second.version()
            await admin2.slash(ch2, "damage", character="Aria", amount=3, type="cold")
            assert first.version() == v1 and second.version() > v2
            # GM rights count in the party's own server: One's admin, a plain member of Two, is a player there
            v2 = second.version()
            visitor = g2.add_member(admin1.user)
            assert "damage" not in visitor.available_commands(ch2)
            tried = await raw_interaction(env, visitor, ch2, g2.id, "command", command_data(
                env, None, "damage", character="Aria", amount=3, type="cold"))
            assert said(tried) == ["Only the GM may do that (the role GM or the Manage Server permission); "
                                   "nothing was done."]
            assert second.version() == v2
            # the state file: mode 0600, the secrets kept (never echoed in a channel)
            assert stat.S_IMODE(os.stat(state).st_mode) == 0o600
            kept = json.loads(state.read_text())["parties"]
            assert kept[str(g1.id)]["campaign"] == first.name and kept[str(g1.id)]["secret"] == first.secret
            assert all(first.secret not in m and second.secret not in m for ch in (ch1, ch2, ch3) for m in contents(ch))
            # restarted: the links come back from the state file
            await close(bot)
            again = create_bot(server, state_file=state)
            await env.restart_bot(again)
            assert set(again.parties) == {g1.id, g2.id}
            assert "Table Two" in said(await admin2.slash(ch2, "status"))[0]
            await close(again)
        finally:
            await close(bot)
