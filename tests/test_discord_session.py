"""A session at the Discord table, told step by step (docs/discord.md): the GM binds the channel and links the
players, a drop to 0 with an injury, a disease whose save the player answers with the button, /status in
English and in French. SimCord against a real `sawbones serve`. With SAWBONES_DISCORD_TRANSCRIPT=FILE the
session's transcript (what each member typed and saw, what the channel got) is written there."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from discord_table import buttons, campaign, contents, discord_table, said, until
from test_web_browser import serving

pytestmark = pytest.mark.asyncio


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("discord_session")) as base:
        yield base


class Transcript:
    def __init__(self, channel) -> None:
        self.lines: list[str] = []
        self.channel, self.seen = channel, set()

    def typed(self, who: str, command: str, result) -> list[str]:
        mine = {m.id for m in ([result.response] if result.response else []) + result.followups}
        self.seen |= mine
        self.feed()
        shown = said(result)
        self.lines.append(f"{who} › {command}")
        for text in shown:
            mark = "(only you) " if result.ephemeral else ""
            self.lines += [f"    {mark}{line}" for line in text.splitlines()]
        return shown

    def feed(self) -> None:
        for message in self.channel.history():
            if message.id not in self.seen:
                self.lines += [f"  #table  {line}" for line in message.content.splitlines()]
                self.seen.add(message.id)

    def note(self, text: str) -> None:
        self.feed()
        self.lines.append(f"  — {text}")


async def test_a_session_at_the_discord_table(server):
    c = campaign(server, "Old Road")
    async with discord_table(c) as t:
        log = Transcript(t.channel)
        log.typed("GM", "/bind", await t.gm.slash(t.channel, "bind"))
        log.typed("GM", "/assign member:@brena_player character:Brena",
                  await t.gm.slash(t.channel, "assign", member=t.player, character="Brena"))
        log.typed("GM", "/assign member:@aria_joueuse character:Aria",
                  await t.gm.slash(t.channel, "assign", member=t.french, character="Aria"))
        log.typed("brena_player", "/whoami", await t.player.slash(t.channel, "whoami"))

        # a drop to 0 with an injury
        hit = log.typed("GM", "/damage character:Brena amount:30 type:fire d20:4",
                        await t.gm.slash(t.channel, "damage", character="Brena", amount=30, type="fire", d20=4))
        assert hit[0].startswith("Brena: 30 Fire = 30 damage → 0 HP, unconscious and prone\nBrena: new injury i1 — ")
        await until(t.env, lambda: any("→ 0 HP" in m for m in contents(t.channel)), "the drop in the feed")

        # a disease, its save routed to the player, answered with the button
        log.typed("GM", "/expose character:Brena affliction:filth_fever rolls:players",
                  await t.gm.slash(t.channel, "expose", character="Brena", affliction="filth_fever", rolls="players"))
        prompt = await until(t.env, lambda: next((m for m in t.channel.history()
                                                  if "Your GM asks for a roll" in m.content), None), "the prompt")
        assert buttons(prompt) == ["Roll for me", "I rolled"]
        log.feed()
        log.note("buttons: [Roll for me] [I rolled]")
        refused = log.typed("onlooker", "clicks [Roll for me]", await t.other.click(prompt, label="Roll for me"))
        assert refused == ["This roll is not yours to answer; nothing was done."]
        answered = log.typed("brena_player", "clicks [Roll for me]", await t.player.click(prompt, label="Roll for me"))
        assert answered[0].startswith("Answered:\nBrena")
        edited = next(m for m in t.channel.history() if m.id == prompt.id)
        assert not buttons(edited)
        log.note("the prompt, edited: " + " / ".join(edited.content.splitlines()[-2:]) + " (buttons gone)")
        await until(t.env, lambda: t.party.state.last_event_id == c.version(), "the feed caught up")

        # a frost spell drops Aria too; /status in both languages
        log.feed()
        log.typed("GM", "/damage character:Aria amount:26 type:cold d20:15",
                  await t.gm.slash(t.channel, "damage", character="Aria", amount=26, type="cold", d20=15))
        await until(t.env, lambda: any("Aria: 26" in m for m in contents(t.channel)), "Aria's drop in the feed")
        mine = log.typed("brena_player", "/status", await t.player.slash(t.channel, "status"))
        assert mine[0].startswith("**Brena** 0/20 HP · dying")
        hers = log.typed("aria_joueuse (Discord in French)", "/etat",
                         await t.french.slash(t.channel, "status"))
        assert hers[0].startswith("**Aria** 0/24 PV · mourant\nÉtats : À terre (par la posture du personnage)\n__Blessures__")
        party = log.typed("GM", "/status", await t.gm.slash(t.channel, "status"))
        assert "Brena 0/20 HP" in party[0] and "Aria 0/24 HP" in party[0]
        log.feed()

        # the next day, her daily save: a new prompt; the GM answers it on the dashboard (the API): edited
        log.typed("GM", "/advance duration:1d rolls:players",
                  await t.gm.slash(t.channel, "advance", duration="1d", rolls="players"))
        daily = await until(t.env, lambda: next((m for m in t.channel.history() if m.id != prompt.id
                                                 and "Your GM asks for a roll" in m.content and buttons(m)), None),
                            "the daily save's prompt")
        pending = c.get("/pending")["pending"][0]["id"]
        assert c.post("/answer", {"pending": pending, "d20": 15}).status_code == 200
        log.note(f"the GM answers {pending} on the dashboard (d20 15)")
        done = await until(t.env, lambda: next((m for m in t.channel.history() if m.id == daily.id
                                                and not buttons(m)), None), "the daily prompt edited")
        assert "Answered:" in done.content
        await until(t.env, lambda: t.party.state.last_event_id == c.version(), "the feed caught up")
        log.feed()
        log.note("the prompt, edited: " + " / ".join(done.content.split("Answered:")[1].strip().splitlines())
                 + " (buttons gone)")
    where = os.environ.get("SAWBONES_DISCORD_TRANSCRIPT")
    if where:
        Path(where).write_text("\n".join(log.lines) + "\n", encoding="utf-8")
