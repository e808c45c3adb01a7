"""The Discord bot's API calls, one command at a time, with the server under the web benchmark's load.

    .venv/bin/python benchmarks/bench_discord.py [--runs 60] [--clients 32] [--workers 1]

A real `sawbones serve` (SQLite, a file in a temp dir) with `--workers` worker processes; `--clients`
threads post damage on their own campaigns without a pause (bench_web.py's load, "one each"), while this
process makes, for each slash command and button, the same API calls the bot makes (its own client,
sawbones.discord.api.Api, on one keep-alive connection), `--runs` times, on a campaign of its own. Prints
p50/p99 per command: the time from the first request to the last answer, the part of Discord's 3 seconds
the bot spends on sawbones (the bot defers at once, then answers). The target: p99 ≤ 300 ms.

    .venv/bin/python benchmarks/bench_discord.py --through-bot [--runs 60] [--clients 32]

The bot itself under SimCord (an in-memory Discord; the party's server, --guild) against the same server and
load: an autocomplete's answer (the choices; Discord gives up at 3 s, the bot answers within 2 s from the
characters it keeps, refreshed in the background) and each command's first answer (the time until the bot
acknowledges the interaction: its defer, or its one line), p50/p99.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any, Awaitable, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_web import PARTY, call, free_port, setup_campaign, start_server  # noqa: E402  (same folder)


async def commands(api: Any) -> dict[str, Callable[[int], Awaitable[Any]]]:
    """Each command of the bot as the API calls behind it (bot.py, commands_*.py, prompts.py, table.py)."""
    from sawbones.discord.commands_gm import odds_text
    from sawbones.discord.undo import preview

    class Bot:  # what undo.preview reads of the bot
        pass

    bot = Bot()  # (a party: undo.preview reads its api)
    bot.api = api  # type: ignore[attr-defined]
    me = 184467440737
    await api.link(me, "Aria")

    async def status_player(i: int) -> Any:
        mine = await api.character_of(me)
        return await api.player(mine["id"])

    async def answer(i: int) -> Any:  # "Roll for me": a prompt first (not timed apart: the expose row times it)
        who = f"Patient{i}"  # a new character each time (an exposure to a disease they have has no effect)
        await api.request("POST", f"{api.base}/characters", json={"name": who, "max_hp": 30})
        exposed = await api.act("expose", {"character": who, "affliction": "filth_fever", "rolls": "players"})
        pending = next(e["data"]["id"] for e in exposed["events"] if e["type"] == "save_pending")
        start = time.perf_counter()
        await api.answer_as_player(who.lower(), {"pending": pending, "roll": True}, f"bench:{pending}")
        return time.perf_counter() - start

    async def undo(i: int) -> Any:  # the preview (/undo) and the button: a damage to undo first, not timed
        await api.act("damage", {"character": "Cyra", "parts": [{"amount": 1, "type": "cold"}]})
        start = time.perf_counter()
        action, _, version = await api.last_action()
        await api.act("undo", {"action": f"a{action}"}, key=f"bench:undo:{action}", version=version)
        return time.perf_counter() - start

    return {
        "/whoami": lambda i: api.character_of(me),
        "/status (player)": status_player,
        "/status (GM)": lambda i: api.get("/status"),
        "/tables": lambda i: api.request("GET", "/api/tables"),
        "/tables fire": lambda i: api.request("GET", "/api/tables/fire"),
        "/pending": lambda i: api.get("/pending"),
        "/odds filth_fever": lambda i: odds_text(api, "filth_fever", 2),
        "/damage": lambda i: api.act("damage", {"character": "Borin", "parts": [{"amount": 1, "type": "fire"}]},
                                     key=f"bench:damage:{i}"),
        "/injure": lambda i: api.act("injure", {"character": "Dax", "type": "fire", "d20": 15}, key=f"bench:i:{i}"),
        "/rest long": lambda i: api.act("rest", {"kind": "long", "characters": ["Eon"]}, key=f"bench:r:{i}"),
        "/heal": lambda i: api.act("heal", {"character": "Fay", "spell": "cure_wounds", "hp": 1}, key=f"bench:h:{i}"),
        "/wound": lambda i: api.act("wound", {"character": "Fay", "part": "arm", "damage": 1, "side": "left"}, key=f"bench:w:{i}"),
        "/expose": lambda i: api.act("expose", {"character": "Borin", "affliction": "filth_fever", "save": 30},
                                     key=f"bench:e:{i}"),
        "/advance 1h": lambda i: api.act("advance", {"duration": "1h", "auto": True}, key=f"bench:a:{i}"),
        "/undo (preview)": lambda i: preview(bot),
        "/undo (button)": undo,
        "Roll for me": answer,
        "autocomplete character": lambda i: api.characters(),
    }


async def measure(port: int, name: str, secret: str, runs: int) -> dict[str, list[float]]:
    from sawbones.discord.api import Api

    api = Api(f"http://127.0.0.1:{port}", name, secret, timeout=30)
    times: dict[str, list[float]] = {}
    try:
        table = await commands(api)
        for i in range(runs):
            for label, run in table.items():
                start = time.perf_counter()
                inner = await run(i)
                took = inner if isinstance(inner, float) else time.perf_counter() - start
                times.setdefault(label, []).append(took)
    finally:
        await api.close()
    return times


GUILD = 1_100_000_000_000_000_001


async def through_bot(port: int, name: str, secret: str, runs: int) -> dict[str, list[float]]:
    """The bot under SimCord: the time to an autocomplete's choices, and to each command's first answer."""
    import discord
    import simcord

    from sawbones.discord import create_bot

    first: list[float] = []
    originals = {m: getattr(discord.InteractionResponse, m) for m in ("defer", "send_message", "autocomplete",
                                                                      "send_modal")}

    def timed(original: Any) -> Any:
        async def answer(self: Any, *args: Any, **kwargs: Any) -> Any:
            first.append(time.perf_counter())
            return await original(self, *args, **kwargs)
        return answer

    for method, original in originals.items():  # (the benchmark's stopwatch on discord.py's first answer)
        setattr(discord.InteractionResponse, method, timed(original))
    times: dict[str, list[float]] = {}
    bot = create_bot(f"http://127.0.0.1:{port}", name, secret, guild=GUILD)
    try:
        async with simcord.run(bot, settle_timeout=120) as env:  # (a loaded server's answers take seconds)
            guild = env.create_guild("Bench", id=GUILD)
            channel = guild.create_text_channel("table")
            gm = guild.add_member(env.create_user("gm"), roles=[guild.create_role(
                "Admin", permissions=discord.Permissions(manage_guild=True))])
            player = guild.add_member(env.create_user("player"))
            await gm.slash(channel, "assign", member=player, character="Aria")
            steps: dict[str, Callable[[int], Awaitable[Any]]] = {
                "autocomplete character (GM)": lambda i: gm.autocomplete(channel, "damage", "character", "b"),
                "autocomplete /status (player)": lambda i: player.autocomplete(channel, "status", "character", ""),
                "autocomplete damage type": lambda i: gm.autocomplete(channel, "damage", "type", "fi"),
                "first answer /damage": lambda i: gm.slash(channel, "damage", character="Borin", amount=1,
                                                           type="fire"),
                "first answer /status (player)": lambda i: player.slash(channel, "status"),
                "first answer /status (GM)": lambda i: gm.slash(channel, "status"),
            }
            try:
                for i in range(runs):
                    for label, step in steps.items():
                        first.clear()
                        start = time.perf_counter()
                        await step(i)
                        end = first[0]  # (SimCord settles the bot after: not the answer's time)
                        times.setdefault(label, []).append(end - start)
            finally:
                await bot.close()
    finally:
        for method, original in originals.items():
            setattr(discord.InteractionResponse, method, original)
    return times


def loading(port: int, name: str, secret: str, i: int, stop: threading.Event, done: list[int]) -> None:
    """bench_web.py's load: one client, its own campaign, damage after damage until told to stop."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    body = {"character": PARTY[i % len(PARTY)], "parts": [{"amount": 1, "type": "fire"}]}
    while not stop.is_set():
        status, _ = call(conn, "POST", f"/api/campaigns/{name}/damage", body, secret)
        if 200 <= status < 300:
            done[0] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=60, help="Times each command runs.")
    parser.add_argument("--clients", type=int, default=32, help="Clients loading the server meanwhile (0: none).")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--through-bot", action="store_true",
                        help="Time the bot itself under SimCord: autocompletes and each command's first answer.")
    args = parser.parse_args()
    from bench_store import scratch_dir  # noqa: E402  (same folder)

    tmp = scratch_dir("sawbones-discord-")
    port = free_port()
    server = start_server(f"sqlite:///{tmp}/web.db", port, args.workers)
    try:
        secret = setup_campaign(port, "Table")
        own = [(f"Load{i}", setup_campaign(port, f"Load{i}")) for i in range(args.clients)]
        stop = threading.Event()
        done = [0]
        loaders = [threading.Thread(target=loading, args=(port, name, key, i, stop, done)) for i, (name, key)
                   in enumerate(own)]
        for t in loaders:
            t.start()
        started = time.perf_counter()
        try:
            measured = through_bot if args.through_bot else measure
            times = asyncio.run(measured(port, "Table", secret, args.runs))
        finally:
            stop.set()
            for t in loaders:
                t.join()
        rate = done[0] / (time.perf_counter() - started)
    finally:
        server.terminate()
        server.wait(timeout=20)
    load_avg = os.getloadavg()[0]
    what = "The bot under SimCord" if args.through_bot else "The bot's API calls per command"
    print(f"\n{what}, {args.runs} runs each, {args.workers} worker process(es), "
          f"{args.clients} clients posting damage meanwhile ({rate:,.0f} actions/s; load average {load_avg:.1f})\n")
    print("| command | API calls | p50 | p99 | max |")
    print("|---|---|---:|---:|---:|")
    for label, values in times.items():
        ordered = sorted(values)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        print(f"| {label} | {CALLS.get(label, '')} | {statistics.median(ordered) * 1000:.1f} ms | "
              f"{p99 * 1000:.1f} ms | {ordered[-1] * 1000:.1f} ms |")


CALLS = {
    "/whoami": "GET characters?external",
    "/status (player)": "GET characters?external, GET …/player-link (once), GET /api/player/{token}",
    "/status (GM)": "GET …/status",
    "/tables": "GET /api/tables",
    "/tables fire": "GET /api/tables/fire",
    "/pending": "GET …/pending",
    "/odds filth_fever": "GET …/odds/filth_fever (and GET /api/tables once a minute)",
    "/damage": "POST …/damage",
    "/injure": "POST …/injure",
    "/rest long": "POST …/rest",
    "/heal": "POST …/heal",
    "/wound": "POST …/wound",
    "/expose": "POST …/expose",
    "/advance 1h": "POST …/advance",
    "/undo (preview)": "GET …/log",
    "/undo (button)": "GET …/log, POST …/undo (If-Match)",
    "Roll for me": "POST /api/player/{token}/answer",
    "autocomplete character": "GET …/characters",
    "autocomplete character (GM)": "none: the characters kept (GET …/characters in the background)",
    "autocomplete /status (player)": "none: the characters kept",
    "autocomplete damage type": "GET /api/tables once a minute",
    "first answer /damage": "none before it (defer), then POST …/damage",
    "first answer /status (player)": "none before it (defer)",
    "first answer /status (GM)": "none before it (defer)",
}

if __name__ == "__main__":
    main()
