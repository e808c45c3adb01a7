"""`sawbones discord`, the bot at the table (issue 36), run under SimCord (an in-memory Discord) against a real
`sawbones serve` on 127.0.0.1: who is who (/assign, /whoami, /bind), the GM's commands and a member who is not
the GM, /status as the player's page shows it and as the GM sees the party, in English and in French, /tables,
/pending, /odds, /undo (naming the action it shows), the API down, the slash commands' French names."""

from __future__ import annotations

import pytest

from discord_table import GUILD, campaign, contents, discord_table, grant_gm_commands, said, until
from test_web_browser import _free_port, serving

pytestmark = pytest.mark.asyncio


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("discord")) as base:
        yield base


async def test_who_is_who_assign_whoami_bind(server):
    c = campaign(server, "Who")
    async with discord_table(c) as t:
        assert said(await t.player.slash(t.channel, "whoami")) == [
            "No character is linked to you yet: ask the GM for /assign."]
        assigned = await t.gm.slash(t.channel, "assign", member=t.player, character="Brena")
        assert said(assigned) == [f"{t.player.mention} plays Brena."]
        assert c.get("/characters", external=f"discord:{t.player.id}")["characters"][0]["id"] == "brena"
        assert said(await t.player.slash(t.channel, "whoami")) == ["You play Brena."]
        # reassigning the member moves the link: one character per member
        await t.gm.slash(t.channel, "assign", member=t.player, character="Aria")
        assert said(await t.player.slash(t.channel, "whoami")) == ["You play Aria."]
        assert c.get("/characters", external=f"discord:{t.player.id}")["characters"][0]["id"] == "aria"
        bound = await t.gm.slash(t.channel, "bind")
        assert said(bound) == [f"Prompts and the feed now go to <#{t.channel.id}>."]
        assert t.party.state.table_channel == t.channel.id


GM_COMMANDS = {"damage", "injure", "treat", "rest", "heal", "expose", "wound", "advance", "undo", "pending", "odds",
               "assign", "bind"}


async def test_a_member_who_is_not_the_gm_gets_one_ephemeral_line_and_nothing_is_applied(server):
    c = campaign(server, "Refusals")
    before = c.version()
    async with discord_table(c) as t:
        # the GM commands carry default_member_permissions: a player is not even offered them
        offered = set(t.player.available_commands(t.channel))
        assert offered == {"status", "tables", "whoami"}
        assert GM_COMMANDS <= set(t.gm.available_commands(t.channel))
        # a server that grants them to everyone anyway: the bot still refuses, nothing applied
        grant_gm_commands(t.env, t.guild, t.guild.default_role)
        for name, options in (("damage", {"character": "Brena", "amount": 30, "type": "fire"}),
                              ("injure", {"character": "Brena", "type": "fire"}), ("rest", {"kind": "long"}),
                              ("advance", {"duration": "1d"}), ("undo", {}), ("pending", {}),
                              ("assign", {"member": t.other, "character": "Aria"}), ("bind", {}),
                              ("expose", {"character": "Aria", "affliction": "filth_fever"})):
            result = await t.player.slash(t.channel, name, **options)
            assert result.ephemeral, name
            assert said(result) == ["Only the GM may do that (the role GM or the Manage Server permission); "
                                    "nothing was done."], name
        assert c.version() == before
        assert t.party.state.table_channel is None
        # Manage Server makes a member the GM too
        result = await t.boss.slash(t.channel, "damage", character="Aria", amount=5, type="cold")
        assert said(result) == ["Aria: 5 Cold = 5 damage → 19 HP"]
        assert c.version() > before


async def test_a_drop_to_zero_with_an_injury_the_gm_sees_it_and_the_table_gets_the_players_lines(server):
    c = campaign(server, "Drop")
    async with discord_table(c) as t:
        await t.gm.slash(t.channel, "bind")
        result = await t.gm.slash(t.channel, "damage", character="Brena", amount=30, type="fire", d20=4)
        assert result.ephemeral
        lines = said(result)[0].splitlines()
        assert lines[0] == "Brena: 30 Fire = 30 damage → 0 HP, unconscious and prone"
        assert lines[1].startswith("Brena: new injury i1 — ")
        answer = c.get("/log", limit=50)["events"]
        assert [e["type"] for e in answer if not e["undone"]].count("damage_taken") == 1
        posted = await until(t.env, lambda: [m for m in contents(t.channel) if "0 HP" in m], "the feed")
        assert posted[0].splitlines()[0] == "Brena: 30 Fire = 30 damage → 0 HP, unconscious and prone"
        # more damage parts, and the injury's own command
        result = await t.gm.slash(t.channel, "damage", character="Aria", amount=3, type="fire", more="2 cold, 1 acid")
        assert said(result)[0].startswith("Aria: 3 Fire + 2 Cold + 1 Acid = 6")
        result = await t.gm.slash(t.channel, "injure", character="Aria", type="slashing", d20=10)
        assert "Aria: new injury" in said(result)[0]


async def test_status_as_the_players_page_shows_it_and_the_gm_sees_all_in_both_languages(server):
    c = campaign(server, "Status")
    async with discord_table(c) as t:
        await t.gm.slash(t.channel, "assign", member=t.player, character="Brena")
        await t.gm.slash(t.channel, "assign", member=t.french, character="Aria")
        await t.gm.slash(t.channel, "damage", character="Brena", amount=30, type="fire", d20=4)
        await t.gm.slash(t.channel, "damage", character="Aria", amount=30, type="cold", d20=4)
        mine = await t.player.slash(t.channel, "status")
        assert mine.ephemeral
        page = c.http.get(f"/api/player/{c.get('/characters/brena/player-link')['token']}").json()
        text = said(mine)[0]
        assert text.startswith("**Brena** 0/20 HP · dying")
        assert f"**{page['character']['injuries'][0]['name']}**" in text
        assert page["character"]["injuries"][0]["effect"] in text
        assert "Aria" not in text  # their own character only
        refused = await t.player.slash(t.channel, "status", character="Aria")
        assert said(refused) == ["Only the GM sees another character's status."]
        french = said(await t.french.slash(t.channel, "status"))[0]
        assert french.startswith("**Aria** 0/24 PV · mourant")
        assert "Blessures" in french and "Horloge : jour 1" in french
        gm = said(await t.gm.slash(t.channel, "status"))[0]
        assert gm.startswith("```\nStatus · day 1")
        assert "Brena 0/20 HP" in gm and "Aria 0/24 HP" in gm
        one = said(await t.gm.slash(t.channel, "status", character="Aria"))[0]
        assert "Aria 0/24 HP" in one and "Brena" not in one
        nobody = await t.other.slash(t.channel, "status")
        assert said(nobody) == ["No character is linked to you yet: ask the GM for /assign."]


async def test_tables_pending_odds_in_the_projects_words(server):
    c = campaign(server, "Tables")
    async with discord_table(c) as t:
        index = said(await t.player.slash(t.channel, "tables"))[0]
        assert index.startswith("```\nSeverity: each severity's treatment")
        fire = said(await t.player.slash(t.channel, "tables", type="fire"))
        assert "Fire" in fire[0]
        french = said(await t.french.slash(t.channel, "tables"))[0]
        assert "Gravité" in french or "Sévérité" in french
        assert said(await t.gm.slash(t.channel, "pending")) == ["No saves are waiting for a die."]
        odds = said(await t.gm.slash(t.channel, "odds", what="filth_fever", bonus=2))[0]
        assert odds.startswith("**Filth Fever** · DC") and "%" in odds
        drop = said(await t.gm.slash(t.channel, "odds", what="fire"))[0]
        assert drop.startswith("**Fire** · ")
        choices = await t.gm.autocomplete(t.channel, "damage", "type", "fir")
        assert {"name": "Fire (fire)", "value": "fire"} in choices
        choices = await t.gm.autocomplete(t.channel, "damage", "character", "bre")
        assert [c["value"] for c in choices] == ["Brena"]
        choices = await t.gm.autocomplete(t.channel, "expose", "affliction", "filth")
        assert [c["value"] for c in choices] == ["filth_fever"]


async def test_undo_shows_the_last_action_and_undoes_that_one(server):
    c = campaign(server, "Undo")
    async with discord_table(c) as t:
        await t.gm.slash(t.channel, "damage", character="Aria", amount=5, type="cold")
        shown = await t.gm.slash(t.channel, "undo")
        action = max(e["action"] for e in c.get("/log")["events"])
        assert said(shown) == ["Undo: Aria: 5 Cold = 5 damage → 19 HP?"]
        await t.gm.click(shown.response, label="Undo")
        assert said(shown)[0].startswith(f"Action {action} undone.\nAria: 5 Cold = 5 damage → 19 HP")  # as the dashboard
        assert not shown.response.components  # the button is gone
        assert c.get("/characters/aria")["hp"] == 24
        # shown, then the campaign moved on: nothing is applied (If-Match), the GM is told and sees what undo
        # reverts now
        await t.gm.slash(t.channel, "damage", character="Aria", amount=2, type="cold")
        shown = await t.gm.slash(t.channel, "undo")
        action = max(e["action"] for e in c.get("/log")["events"])
        await t.gm.slash(t.channel, "damage", character="Brena", amount=1, type="cold")
        await t.gm.click(shown.response, label="Undo")
        now = said(shown)[0].splitlines()
        assert now[0].startswith(f"The campaign moved on meanwhile (now at version {c.version()}); nothing was applied")
        assert now[1] == "Undo: Brena: 1 Cold = 1 damage → 19 HP?"
        assert c.get("/characters/aria")["hp"] == 22 and c.get("/characters/brena")["hp"] == 19
        assert "undo" not in t.player.available_commands(t.channel)


async def test_the_api_down_is_one_ephemeral_line_and_the_bot_keeps_running(server):
    c = campaign(server, "Down")
    nowhere = f"http://127.0.0.1:{_free_port()}"
    async with discord_table(c, server=nowhere) as t:
        for member, name, options in ((t.player, "status", {}), (t.gm, "damage", {"character": "Brena", "amount": 3,
                                                                                   "type": "fire"}),
                                      (t.player, "whoami", {}), (t.gm, "undo", {})):
            result = await member.slash(t.channel, name, **options)
            assert result.ephemeral
            assert said(result) == [f"sawbones at {nowhere} does not answer; nothing was done. Try again in a moment."]
        assert not t.bot.is_closed()
        assert await t.gm.autocomplete(t.channel, "damage", "character", "b") == []
        french = await t.french.slash(t.channel, "status")
        assert said(french) == [f"sawbones à {nowhere} ne répond pas ; rien n'a été fait. Réessayez dans un instant."]


async def test_slash_commands_have_french_names_and_descriptions(server):
    c = campaign(server, "Names")
    async with discord_table(c) as t:
        synced = {name: payload for (name, _), payload in t.env.backend.commands[GUILD].items()}
        assert not t.env.backend.commands.get(None)  # the party's server only
        assert set(synced) >= {"damage", "injure", "treat", "rest", "heal", "expose", "wound", "advance", "undo",
                               "pending", "odds", "status", "tables", "assign", "whoami", "bind"}
        damage = synced["damage"]
        assert damage["name_localizations"]["fr"] == "degats"
        assert damage["description_localizations"]["fr"].startswith("MJ : dégâts")
        options = {o["name"]: o for o in damage["options"]}
        assert list(options)[:3] == ["character", "amount", "type"]
        assert options["character"]["name_localizations"]["fr"] == "personnage"
        assert synced["status"]["name_localizations"]["fr"] == "etat"
        assert synced["advance"]["options"][0]["name"] == "duration"


async def test_the_gms_other_commands_treat_rest_heal_wound_advance(server):
    c = campaign(server, "Care")
    async with discord_table(c) as t:
        await t.gm.slash(t.channel, "damage", character="Brena", amount=30, type="fire", d20=12)
        assert c.get("/characters/brena")["injuries"][0]["severity"] == "minor"
        edit = c.http.patch(f"{c.path}/characters/aria", json={"proficiencies": ["medicine", "herbalism_kit"],
                                                               "skills": {"medicine": 5}})
        assert edit.status_code == 200, edit.text
        choices = await t.gm.autocomplete(t.channel, "treat", "injury", "", character="Brena")
        assert [x["value"] for x in choices] == ["i1"]
        treated = said(await t.gm.slash(t.channel, "treat", character="Brena", injury="i1", healer="Aria", check=15))
        assert "Brena" in treated[0]
        spells = await t.gm.autocomplete(t.channel, "heal", "spell", "restor")
        assert "lesser_restoration" in [x["value"] for x in spells]
        healed = said(await t.gm.slash(t.channel, "heal", character="Aria", spell="cure_wounds", hp=5))
        assert healed[0].startswith("Aria")
        before = c.version()
        rested = said(await t.gm.slash(t.channel, "rest", kind="long"))
        assert rested[0] and c.version() > before
        wound = said(await t.gm.slash(t.channel, "wound", character="Aria", part="arm", amount=6, side="left"))
        assert wound[0].startswith("Aria: wounded, Arm (left) (6 damage")
        clock = c.get()["clock"]
        said(await t.gm.slash(t.channel, "advance", duration="1d"))
        assert c.get()["clock"] == clock + 86400
        grant_gm_commands(t.env, t.guild, t.guild.default_role)  # (a server that lists them to everyone)
        french = said(await t.french.slash(t.channel, "advance", duration="1h"))
        assert french == ["Seul le MJ peut faire cela (le rôle GM ou la permission Gérer le serveur) ; rien n'a été fait."]
        bad = said(await t.gm.slash(t.channel, "advance", duration="soon"))
        assert bad[0].startswith("sawbones refused: ")


async def test_it_needs_no_privileged_gateway_intent(server):
    """The developer portal's three privileged intents left off: the bot connects and answers."""
    import discord
    import simcord

    from discord_table import close
    from sawbones.discord import create_bot

    c = campaign(server, "Intents")
    bot = create_bot(c.server, c.name, c.secret, guild=GUILD)
    portal = discord.Intents.default()  # what an application gets with the privileged intents off
    assert not (portal.members or portal.presences or portal.message_content)
    async with simcord.run(bot, approved_intents=portal) as env:
        try:
            guild = env.create_guild(id=GUILD)
            channel = guild.create_text_channel("table")
            member = guild.add_member(env.create_user("someone"))
            assert said(await member.slash(channel, "whoami")) == [
                "No character is linked to you yet: ask the GM for /assign."]
        finally:
            await close(bot)
