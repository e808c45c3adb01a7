"""The bot's prompts (issue 36), under SimCord against a real `sawbones serve` on 127.0.0.1: a roll sawbones
routes to a player is posted in the table channel, mentioning the player, with "Roll for me" and "I rolled"
(a modal); only the linked player or the GM answers; a double click applies once; the message is edited when
the roll is answered (here or on the player's page) or undone; the buttons survive a restart, and the events
stream resumes from the state file's last event id, posting nothing twice; a secret affliction's prompt says
only what the player's page says."""

from __future__ import annotations

import pytest

from discord_table import (GUILD, buttons, campaign, close, contents, discord_table, double_click, grant_gm_commands,
                           said, until)
from sawbones.discord import create_bot
from test_web_browser import serving

pytestmark = pytest.mark.asyncio


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("discord_prompts")) as base:
        yield base


async def _prompted(t, c, character="Brena", member=None):
    """The GM links the member, binds the table and exposes the character, the player rolling the save."""
    await t.gm.slash(t.channel, "assign", member=member or t.player, character=character)
    await t.gm.slash(t.channel, "bind")
    exposed = await t.gm.slash(t.channel, "expose", character=character, affliction="filth_fever", rolls="players")
    assert "save waiting" in said(exposed)[0]
    pending = c.get("/pending")["pending"]
    assert len(pending) == 1
    message = await until(t.env, lambda: next((m for m in t.channel.history() if "Your GM asks for a roll" in m.content),
                                              None), "the prompt")
    return pending[0]["id"], message


def _answers(c) -> list[dict]:
    return [e for e in c.get("/log", limit=1000)["events"] if e["type"] == "pending_cleared" and not e["undone"]]


async def test_a_prompt_mentions_the_player_and_roll_for_me_answers_it_once(server):
    c = campaign(server, "Roll for me")
    async with discord_table(c) as t:
        pending, message = await _prompted(t, c)
        assert message.content.startswith(f"{t.player.mention} **Your GM asks for a roll** (Brena)")
        assert "Fortitude" in message.content or "Constitution" in message.content
        assert "against **Filth Fever**" in message.content and "DC " in message.content
        assert buttons(message) == ["Roll for me", "I rolled"]
        # another member: an ephemeral refusal, nothing applied
        refused = await t.other.click(message, label="Roll for me")
        assert refused.ephemeral and said(refused) == ["This roll is not yours to answer; nothing was done."]
        assert [p["id"] for p in c.get("/pending")["pending"]] == [pending]
        # the player's click, twice: applied once
        key = t.party.state.prompts[pending]["key"]  # the prompt's own key: random, not its pending id
        assert pending not in key and c.name not in key and len(key) >= 20
        first = await t.player.click(message, label="Roll for me")
        assert first.ephemeral and said(first)[0].startswith("Answered:\nBrena")
        edited = t.channel.history()[[m.id for m in t.channel.history()].index(message.id)]
        assert not buttons(edited) and "Answered:" in edited.content
        assert c.get("/pending")["pending"] == []
        before = c.version()
        again = await t.player.click(message, label="Roll for me") if buttons(edited) else None
        assert again is None  # no button left to click; a retried request is refused by sawbones
        token = c.get('/characters/brena/player-link')['token']
        retry = c.http.post(f"/api/player/{token}/answer", json={"pending": pending, "roll": True},
                            headers={"Idempotency-Key": key})  # the bot's request, again
        assert retry.status_code == 200 and retry.json()["lines"] and retry.json()["status"] == "applied"
        assert said(first)[0] == "Answered:\n" + "\n".join(retry.json()["lines"])  # the first answer, back
        other = c.http.post(f"/api/player/{token}/answer", json={"pending": pending, "roll": True})  # no key
        assert other.status_code == 409
        assert c.version() == before
        assert len(_answers(c)) == 1


async def test_a_double_click_before_the_first_answer_lands_applies_once(server):
    """Two clicks on the message as it was (both before the edit): one answer."""
    c = campaign(server, "Double click")
    async with discord_table(c) as t:
        pending, message = await _prompted(t, c)
        first, second = await double_click(t.env, t.player, message, "Roll for me")
        seen = sorted([said(first)[0].split("\n")[0], said(second)[0].split("\n")[0]])
        assert seen == ["Answered:", "This roll was already answered."]
        assert len(_answers(c)) == 1


async def test_a_retried_answer_with_the_key_of_the_pending_roll_applies_once(server):
    """The bot's answer carries the prompt's Idempotency-Key: a request sent again (the connection dropped) gets
    the first answer, and nothing changes."""
    c = campaign(server, "Retry")
    async with discord_table(c) as t:
        pending, message = await _prompted(t, c)
        key = t.party.state.prompts[pending]["key"]
        answered = await t.gm.click(message, label="Roll for me")  # the GM answers for the player
        assert said(answered)[0].startswith("Answered:")
        before = c.version()
        retry = c.post("/answer", {"pending": pending, "roll": True}, **{"Idempotency-Key": key})
        assert retry.status_code == 200 and retry.json()["version"] < before + 1
        assert c.version() == before
        assert len(_answers(c)) == 1


async def test_i_rolled_opens_a_modal_for_the_d20_or_the_total(server):
    c = campaign(server, "I rolled")
    async with discord_table(c) as t:
        pending, message = await _prompted(t, c)
        shown = await t.player.click(message, label="I rolled")
        assert shown.modal is not None
        assert shown.modal["title"] == "I rolled"
        wrong = await t.player.submit_modal(shown, {"d20": "25"})
        assert said(wrong) == ["Give a whole number: the d20 (1 to 20) or the total."]
        assert [p["id"] for p in c.get("/pending")["pending"]] == [pending]
        shown = await t.player.click(message, label="I rolled")
        assert [row["components"][0]["custom_id"] for row in shown.modal["components"]] == ["d20", "total"]
        answered = await t.player.submit_modal(shown, {"d20": "17"})
        assert said(answered)[0].startswith("Answered:")
        rolled = [e for e in c.get("/log", limit=1000)["events"] if e["type"] == "affliction_saved"
                  or e["type"] == "affliction_exposed"]
        assert any(e["data"].get("d20") == 17 for e in rolled)
        assert c.get("/pending")["pending"] == []
        # the total, on Aria's roll (her player's answer, from the form)
        await t.gm.slash(t.channel, "assign", member=t.french, character="Aria")
        await t.gm.slash(t.channel, "expose", character="Aria", affliction="filth_fever", rolls="players")
        aria = await until(t.env, lambda: next((m for m in t.channel.history() if "(Aria)" in m.content
                                                and buttons(m)), None), "Aria's prompt")
        form = await t.french.click(aria, label="I rolled")
        assert form.modal["title"] == "J'ai lancé"  # the form in her language
        answered = await t.french.submit_modal(form, {"total": "4"})
        assert said(answered)[0].startswith("Réponse :\nAria")  # told in her language
        edited = await until(t.env, lambda: next((m for m in t.channel.history() if m.id == aria.id
                                                  and not buttons(m)), None), "her prompt edited")
        assert "Answered:" in edited.content  # the channel's language
        saved = [e for e in c.get("/log", limit=1000)["events"] if e["type"] == "affliction_exposed"
                 and e["data"].get("character") == "aria"]
        assert saved and saved[-1]["data"]["total"] == 4 and not saved[-1]["data"]["succeeded"]


async def test_the_message_is_edited_when_the_roll_is_answered_on_the_page_or_undone(server):
    c = campaign(server, "Elsewhere")
    async with discord_table(c) as t:
        pending, message = await _prompted(t, c)
        token = c.get("/characters/brena/player-link")["token"]
        on_page = c.http.post(f"/api/player/{token}/answer", json={"pending": pending, "d20": 15})
        assert on_page.status_code == 200, on_page.text

        def edited():
            found = next(m for m in t.channel.history() if m.id == message.id)
            return found if not buttons(found) else None

        after = await until(t.env, edited, "the prompt edited")
        assert "Answered:" in after.content and "Brena" in after.content.split("Answered:")[1]
        # the GM undoes the answer: the roll waits again, a new prompt; undoing the exposure edits it away
        assert c.post("/undo").status_code == 200
        again = await until(t.env, lambda: [m for m in t.channel.history() if "Your GM asks for a roll" in m.content
                                            and buttons(m)], "the prompt posted again")
        assert c.post("/undo").status_code == 200
        gone = await until(t.env, lambda: next((m for m in t.channel.history() if m.id == again[0].id
                                                and not buttons(m)), None), "the prompt edited after the undo")
        assert gone.content.endswith("No longer pending (undone).")
        assert not t.party.state.prompts


async def test_a_restart_in_the_middle_of_a_prompt(server, tmp_path):
    c = campaign(server, "Restart")
    state = tmp_path / "bot.json"
    async with discord_table(c, state_file=state) as t:
        pending, message = await _prompted(t, c)
        await until(t.env, lambda: t.party.state.last_event_id == c.version(), "the feed caught up")
        posted = contents(t.channel)
        await close(t.bot)  # the bot's process ends
        # meanwhile, at the table: the GM acts on the web
        assert c.post("/damage", {"character": "Aria", "parts": [{"amount": 4, "type": "cold"}]}).status_code == 200
        t.bot = create_bot(c.server, c.name, c.secret, guild=GUILD, state_file=state)
        await t.env.restart_bot(t.bot)
        missed = await until(t.env, lambda: [m for m in contents(t.channel) if "Aria: 4 Cold" in m], "what was missed")
        assert len(missed) == 1
        assert contents(t.channel)[:len(posted)] == posted  # nothing posted twice
        assert len([m for m in contents(t.channel) if "Your GM asks for a roll" in m]) == 1
        # the buttons of the message posted before the restart still work
        answered = await t.player.click(message, label="Roll for me")
        assert said(answered)[0].startswith("Answered:")
        assert c.get("/pending")["pending"] == []
        await until(t.env, lambda: t.party.state.last_event_id == c.version(), "the feed caught up")
        counts = [m for m in contents(t.channel) if "Aria: 4 Cold" in m]
        assert len(counts) == 1


async def test_a_secret_afflictions_prompt_says_only_what_the_players_page_says(server):
    c = campaign(server, "Secret", afflictions_known=False)
    async with discord_table(c) as t:
        await t.gm.slash(t.channel, "assign", member=t.player, character="Brena")
        await t.gm.slash(t.channel, "bind")
        await t.gm.slash(t.channel, "expose", character="Brena", affliction="filth_fever", rolls="players")
        prompt = await until(t.env, lambda: next((m for m in t.channel.history()
                                                  if "Your GM asks for a roll" in m.content), None), "the prompt")
        token = c.get("/characters/brena/player-link")["token"]
        page = c.http.get(f"/api/player/{token}/prompts").json()["prompts"][0]
        assert page["dc"] is None
        assert f"against **{page['against']}**" in prompt.content
        assert "Filth" not in prompt.content and "filth" not in prompt.content and "DC" not in prompt.content
        assert all("Filth" not in m and "DC" not in m for m in contents(t.channel))
        assert buttons(prompt) == ["Roll for me", "I rolled"]


async def test_secrets_are_never_logged(server, caplog):
    """The campaign's API secret and the players' link tokens: in no log line of the bot (nor of httpx)."""
    import logging

    caplog.set_level(logging.DEBUG)
    c = campaign(server, "Quiet")
    async with discord_table(c) as t:
        pending, message = await _prompted(t, c)
        await t.player.click(message, label="Roll for me")
        await t.gm.slash(t.channel, "status")
    token = c.get("/characters/brena/player-link")["token"]
    logged = caplog.text + "\n".join(str(r.args) for r in caplog.records)
    assert "events" in logged or caplog.records  # the bot did log
    assert c.secret not in logged and token not in logged


async def test_the_gms_full_lines_go_to_the_gm_channel_only(server):
    """--gm-channel: the GM's lines (a hidden affliction named, its DC) there; the table channel (here set at
    start, --table-channel) gets only the players' lines."""
    import simcord

    c = campaign(server, "Two channels", afflictions_known=False)
    env_bot = create_bot(c.server, c.name, c.secret, guild=GUILD)  # the channels' ids exist once the guild does
    async with simcord.run(env_bot) as env:
        guild = env.create_guild("The party", id=GUILD)
        table = guild.create_text_channel("table")
        secret = guild.create_text_channel("gm-only")
        role = guild.create_role("GM")
        gm = guild.add_member(env.create_user("gm"), roles=[role])
        await close(env_bot)
        bot = create_bot(c.server, c.name, c.secret, guild=GUILD, table_channel=table.id, gm_channel=secret.id)
        await env.restart_bot(bot)
        grant_gm_commands(env, guild, role)
        try:
            await gm.slash(table, "expose", character="Brena", affliction="filth_fever", save=1)
            await until(env, lambda: contents(secret) and contents(table), "both channels")
            await until(env, lambda: bot.parties[GUILD].state.last_event_id == c.version(), "the feed caught up")
            assert any("Filth Fever" in m for m in contents(secret))
            assert contents(table) and all("Filth" not in m and "DC" not in m for m in contents(table))
        finally:
            await close(bot)
