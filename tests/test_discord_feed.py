"""The feed delivers each action once, in order, prompts included, under SimCord against a real `sawbones
serve`: Discord refusing the table channel's posts (an outage) holds the action and those after it, the
resume point never passes it, the GM is told in the GM channel; once Discord is back, the prompt is posted,
then the next action, each once. /bind checks the bot's permissions where it is run. A periodic save answered
by its player shows the save's result sentence; a prompt is closed by the action that cleared it; NPCs stay
out of the table channel."""

from __future__ import annotations

import discord
import pytest
import simcord

from discord_table import (GUILD, buttons, campaign, close, contents, discord_table, grant_gm_commands, prompted,
                           said, until)
from sawbones.discord import create_bot
from test_web_browser import serving

pytestmark = pytest.mark.asyncio


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("discord_feed")) as base:
        yield base


async def _two_channels(c, **options):
    """The party's server with a table channel and a GM channel (--table-channel, --gm-channel)."""
    first = create_bot(c.server, c.name, c.secret, guild=GUILD)
    env_cm = simcord.run(first)
    env = await env_cm.__aenter__()
    guild = env.create_guild("The party", id=GUILD)
    table = guild.create_text_channel("table")
    gm_only = guild.create_text_channel("gm-only")
    role = guild.create_role("GM")
    gm = guild.add_member(env.create_user("gm"), roles=[role])
    player = guild.add_member(env.create_user("brena_player"))
    await close(first)
    bot = create_bot(c.server, c.name, c.secret, guild=GUILD, table_channel=table.id, gm_channel=gm_only.id, **options)
    await env.restart_bot(bot)
    grant_gm_commands(env, guild, role)
    return env_cm, env, bot, guild, table, gm_only, gm, player


async def test_a_prompt_is_posted_after_a_discord_outage_once_and_in_order(server, capsys):
    c = campaign(server, "Outage")
    env_cm, env, bot, guild, table, gm_only, gm, player = await _two_channels(c)
    party = bot.parties[GUILD]
    try:
        await gm.slash(table, "assign", member=player, character="Brena")
        await until(env, lambda: party.state.last_event_id == c.version(), "the feed caught up")
        start = party.state.last_event_id
        # Discord refuses every post in the table channel (an outage there)
        env.inject_error("POST", f"/channels/{table.id}/messages", status=503, message="Service Unavailable",
                         times=None)
        await gm.slash(table, "expose", character="Brena", affliction="filth_fever", rolls="players")
        exposed = c.version()
        told = await until(env, lambda: [m for m in contents(gm_only) if m.startswith("I could not post")],
                           "the GM told")
        await gm.slash(table, "damage", character="Brena", amount=3, type="cold")
        for _ in range(3):
            await env.advance_time(5)  # the feed tries again, and again
        await env.settle()
        assert party.state.last_event_id < exposed  # the resume point never passes the unposted action
        assert party.state.last_event_id >= start
        assert not [m for m in contents(table) if "Your GM asks for a roll" in m or "3 Cold" in m]
        # Discord is back
        env.backend.faults.clear()

        def caught_up():
            return party.state.last_event_id == c.version()

        for _ in range(20):
            await env.advance_time(15)
            if caught_up():
                break
        await until(env, caught_up, "the feed caught up after the outage")
        posted = contents(table)
        prompts = [i for i, m in enumerate(posted) if "Your GM asks for a roll" in m]
        cold = [i for i, m in enumerate(posted) if "Brena: 3 Cold" in m]
        exposure = [i for i, m in enumerate(posted) if "Filth Fever" in m and "waits for the player's die" in m]
        assert len(prompts) == 1 and len(cold) == 1 and len(exposure) == 1  # each once
        assert exposure[0] < prompts[0] < cold[0]  # in order: the action, its prompt, the next action
        prompt = [m for m in table.history() if "Your GM asks for a roll" in m.content][0]
        assert buttons(prompt) == ["Roll for me", "I rolled"]
        gm_lines = contents(gm_only)
        assert len([m for m in gm_lines if "3 Cold" in m]) == 1  # the GM channel's part: posted once
        assert any(m.startswith("Action ") and m.endswith("is posted now; the feed goes on.") for m in gm_lines)
        with capsys.disabled():
            print("\n#gm-only  " + told[0])
            print("(Discord back)")
            for m in posted:
                print("#table    " + m.replace("\n", "\n          "))
    finally:
        await close(bot)
        await env_cm.__aexit__(None, None, None)


async def test_a_periodic_save_answered_by_its_player_shows_the_saves_result(server, capsys):
    c = campaign(server, "Periodic")
    async with discord_table(c) as t:
        await t.gm.slash(t.channel, "assign", member=t.player, character="Brena")
        await t.gm.slash(t.channel, "bind")
        await t.gm.slash(t.channel, "expose", character="Brena", affliction="filth_fever", save=1)  # contracted
        await t.gm.slash(t.channel, "advance", duration="1d", rolls="players")
        prompt = await until(t.env, lambda: next((m for m in t.channel.history()
                                                  if "Your GM asks for a roll" in m.content), None), "the prompt")
        answered = await t.player.click(prompt, label="Roll for me")
        lines = said(answered)[0].splitlines()
        assert lines[0] == "Answered:"
        assert any(line.startswith("Brena: Filth Fever, Constitution save") and " vs DC 12, " in line
                   for line in lines[1:]), lines  # the save's result sentence
        edited = next(m for m in t.channel.history() if m.id == prompt.id)
        assert not buttons(edited) and "Constitution save" in edited.content.split("Answered:")[1]
        with capsys.disabled():
            print("\n#table " + prompt.content.replace("\n", "\n       "))
            print("brena_player › [Roll for me]\n   (only you) " + "\n   (only you) ".join(lines))


async def test_a_prompt_answered_elsewhere_while_the_bot_was_behind_is_closed_by_its_own_action(server):
    """The prompt's message ends with the lines of the action that cleared its roll, not of another."""
    c = campaign(server, "Behind")
    async with discord_table(c) as t:
        prompt = await prompted(t)
        await until(t.env, lambda: t.party.state.last_event_id == c.version(), "the feed caught up")
        t.env.inject_error("POST", f"/channels/{t.channel.id}/messages", status=503, times=None)  # the bot falls behind
        assert c.post("/damage", {"character": "Brena", "parts": [{"amount": 2, "type": "fire"}]}).status_code == 200
        pending = c.get("/pending")["pending"][0]["id"]
        token = c.get("/characters/brena/player-link")["token"]
        import httpx

        assert httpx.post(f"{c.server}/api/player/{token}/answer", json={"pending": pending, "d20": 15}).status_code == 200
        t.env.backend.faults.clear()
        for _ in range(10):
            await t.env.advance_time(15)
            if t.party.state.last_event_id == c.version():
                break
        await until(t.env, lambda: t.party.state.last_event_id == c.version(), "caught up")
        closed = next(m for m in t.channel.history() if m.id == prompt.id)
        after = closed.content.split("Answered:")[1]
        assert "2 Fire" not in after and "Constitution save" in after


async def test_bind_checks_the_bots_permissions_there(server):
    c = campaign(server, "Bind")
    async with discord_table(c) as t:
        me = t.env.bot.user
        locked = t.guild.create_text_channel("locked", overwrites={
            me: discord.PermissionOverwrite(send_messages=False)})
        refused = await t.gm.slash(locked, "bind")
        assert said(refused) == [f"I cannot post in <#{locked.id}>: grant me Send Messages there, then /bind again. "
                                 "Nothing was changed."]
        assert refused.ephemeral and t.party.state.table_channel is None
        assert said(await t.gm.slash(t.channel, "bind")) == [f"Prompts and the feed now go to <#{t.channel.id}>."]


async def test_npcs_stay_out_of_the_table_channel(server):
    c = campaign(server, "NPCs")
    added = c.http.post(f"{c.path}/characters", json={"name": "Goblin", "max_hp": 7, "npc": True})
    assert added.status_code == 201, added.text
    env_cm, env, bot, guild, table, gm_only, gm, player = await _two_channels(c)
    try:
        await gm.slash(table, "damage", character="Goblin", amount=7, type="fire")
        await gm.slash(table, "damage", character="Aria", amount=2, type="fire")
        await until(env, lambda: bot.parties[GUILD].state.last_event_id == c.version(), "the feed caught up")
        assert any("Goblin" in m for m in contents(gm_only))
        assert not any("Goblin" in m for m in contents(table)) and any("Aria" in m for m in contents(table))
        revoked = c.http.delete(f"{c.path}/characters/goblin/player-link")
        assert revoked.status_code == 200 and revoked.json()["revoked"] is False  # no player link was made for it
    finally:
        await close(bot)
        await env_cm.__aexit__(None, None, None)


async def test_a_button_the_state_file_does_not_know_asks_sawbones(server):
    """Another (or a lost) state file: the prompt's buttons still answer a roll that waits."""
    c = campaign(server, "Forgotten")
    async with discord_table(c) as t:
        prompt = await prompted(t)
        t.party.state.prompts.clear()  # the state file forgot it
        refused = await t.other.click(prompt, label="Roll for me")
        assert said(refused) == ["This roll is not yours to answer; nothing was done."]
        answered = await t.player.click(prompt, label="Roll for me")
        assert said(answered)[0].startswith("Answered:\nBrena")
        assert c.get("/pending")["pending"] == []


async def test_more_damage_parts_in_the_members_language(server):
    """A GM whose Discord is in French types `more:"2 nécrotique"`: the type's French name is understood."""
    from discord_table import FRENCH

    c = campaign(server, "Plus")
    async with discord_table(c) as t:
        FRENCH.add(t.gm.id)
        try:
            hit = await t.gm.slash(t.channel, "damage", character="Aria", amount=3, type="fire", more="2 nécrotique")
        finally:
            FRENCH.discard(t.gm.id)
        assert said(hit)[0].startswith("Aria : 3 Feu + 2 Nécrotique = 5"), said(hit)
        assert c.get("/characters/aria")["hp"] == 19
