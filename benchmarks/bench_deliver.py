"""What delivering a change to held streams costs, in one process: the CPU time of a GM action with and
without streams held, through the ASGI app (no sockets, no other process on the measure).

    .venv/bin/python benchmarks/bench_deliver.py [--campaigns 50] [--players 10] [--gm-every 5] [--actions 1500]

`--campaigns` campaigns of six characters on SQLite; then, in turn, no stream, and `--players` player streams
per campaign (`/p/{token}/events`, spread over its characters) plus one API event stream
(`/api/campaigns/{c}/events`) for one campaign in `--gm-every`; `--actions` damages, one after the other,
spread over the campaigns and characters. The process's CPU time (every thread: the requests, the hub's
watcher, the streams) from the first action until every stream that should hear of the last one did,
divided by the actions: the difference between the two rows is what delivery costs per action. Also
reported: messages the player streams got for another character's change (must be 0). To compare source
trees side by side, run it once per tree with the tree's `src` first on PYTHONPATH.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time

os.environ.setdefault("SAWBONES_STREAMS_PER_ADDRESS", "100000")  # every stream comes from 127.0.0.1 here
os.environ.setdefault("SAWBONES_STREAMS_PER_TOKEN", "100000")
PARTY = ["Aria", "Borin", "Cyra", "Dax", "Eon", "Fay"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--campaigns", type=int, default=50)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--gm-every", type=int, default=5)
    parser.add_argument("--actions", type=int, default=1500)
    args = parser.parse_args()
    asyncio.run(run(args))


async def run(args: argparse.Namespace) -> None:
    import sawbones
    from sawbones.interfaces.cli.web import service_factory
    from sawbones.interfaces.web import create_app
    from bench_store import scratch_dir  # (same folder)

    tmp = scratch_dir("sawbones-deliver-")
    app = create_app(service_factory(f"sqlite:///{tmp}/d.db", ()), closed=False, allowed_hosts=None)
    print(f"sawbones from {os.path.dirname(sawbones.__file__)}; load average {os.getloadavg()[0]:.1f}")
    async with app.router.lifespan_context(app):
        tables = [await _campaign(app, f"T{i}") for i in range(args.campaigns)]
        for players in (0, args.players):
            await _phase(app, tables, players, args)


async def _phase(app, tables: list[dict], players: int, args: argparse.Namespace) -> None:
    heard: dict[int, list[bytes]] = {}
    streams, who, stop = [], [], asyncio.Event()
    if players:
        for t, table in enumerate(tables):
            for i in range(players):
                character = PARTY[i % len(PARTY)].lower()
                who.append(("player", table["name"], character))
                streams.append(_stream(app, f"/p/{table['links'][character]}/events", None, heard, len(who) - 1, stop))
            if t % args.gm_every == 0:
                who.append(("gm", table["name"], None))
                streams.append(_stream(app, f"/api/campaigns/{table['name']}/events", table["secret"], heard,
                                       len(who) - 1, stop))
    tasks = [asyncio.create_task(s) for s in streams]
    while len(heard) < len(tasks):  # every stream said its first words
        await asyncio.sleep(0.05)
    refused = sum(1 for chunks in heard.values() if b"retry:" not in chunks[0])
    assert not refused, f"{refused} streams refused"
    await asyncio.sleep(0.5)
    for chunks in heard.values():
        chunks.clear()
    mine: dict[tuple[str, str], list[int]] = {}
    cpu, wall = time.process_time(), time.perf_counter()
    for n in range(args.actions):
        table = tables[n % len(tables)]
        character = PARTY[(n // len(tables)) % len(PARTY)]
        status, doc = await _call(app, "POST", f"/api/campaigns/{table['name']}/damage",
                                  {"character": character, "parts": [{"amount": 1, "type": "fire"}]}, table["secret"])
        assert status == 200, (status, doc)
        table["version"] += len(doc["events"])  # the action's events, stored one version each
        mine.setdefault((table["name"], character.lower()), []).append(table["version"])
    last = {table["name"]: table["version"] for table in tables}
    for _ in range(400):  # until the last change reached every stream that should hear of it (or 20 s)
        if _all_heard(who, heard, last, mine):
            break
        await asyncio.sleep(0.05)
    used, took = time.process_time() - cpu, time.perf_counter() - wall
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    wrong = _wrong(who, heard, mine)
    print(f"{len(tasks):,} streams: {args.actions} actions in {took:.1f} s, CPU {used:.2f} s = "
          f"{used / args.actions * 1000:.2f} ms per action; told of another's change: {wrong}; "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)


def _versions(chunks: list[bytes]) -> list[int]:
    out = []
    for line in b"".join(chunks).decode().splitlines():
        if line.startswith("data: ") and line[6:].isdigit():
            out.append(int(line[6:]))
        elif line.startswith("id: "):
            out.append(int(line[4:]))
    return out


def _all_heard(who, heard, last, mine) -> bool:
    for index, (kind, name, character) in enumerate(who):
        want = last.get(name, 0) if kind == "gm" else max(mine.get((name, character), [0]))
        got = _versions(heard.get(index, []))
        if want and (not got or max(got) < want):
            if os.environ.get("BENCH_DEBUG"):
                print("waiting:", kind, name, character, want, got[-3:], file=sys.stderr)
            return False
    return True


def _wrong(who, heard, mine) -> int:
    wrong = 0
    for index, (kind, name, character) in enumerate(who):
        if kind != "player":
            continue
        own = mine.get((name, character), [])
        previous = None
        for v in _versions(heard.get(index, [])):
            if previous is not None and not any(previous < m <= v for m in own):
                wrong += 1
            previous = v
    return wrong


def _scope(method: str, path: str, secret: str | None, body: bytes) -> dict:
    headers = [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode())]
    if secret:
        headers.append((b"authorization", f"Bearer {secret}".encode()))
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
            "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "", "headers": headers,
            "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000)}


async def _call(app, method: str, path: str, body=None, secret: str | None = None):
    data = json.dumps(body).encode() if body is not None else b""
    sent = False

    async def receive():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": data, "more_body": False}
        await asyncio.sleep(3600)

    out: dict = {}
    chunks: list[bytes] = []

    async def send(message):
        if message["type"] == "http.response.start":
            out["status"] = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(_scope(method, path, secret, data), receive, send)
    return out["status"], json.loads(b"".join(chunks) or b"{}")


async def _stream(app, path: str, secret: str | None, heard: dict, index: int, stop: asyncio.Event) -> None:
    asked = False

    async def receive():
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await stop.wait()
        return {"type": "http.disconnect"}

    async def send(message):
        if message["type"] == "http.response.body" and message.get("body"):
            heard.setdefault(index, []).append(message["body"])

    await app(_scope("GET", path, secret, b""), receive, send)


async def _campaign(app, name: str) -> dict:
    status, doc = await _call(app, "POST", "/api/campaigns", {"name": name, "seed": 1})
    assert status == 201, (status, doc)
    secret = doc["gm_secret"]
    links = {}
    for who in PARTY:
        status, doc = await _call(app, "POST", f"/api/campaigns/{name}/characters", {"name": who, "max_hp": 10000}, secret)
        assert status == 201, (status, doc)
        status, doc = await _call(app, "GET", f"/api/campaigns/{name}/characters/{who}/player-link", None, secret)
        assert status == 200, (status, doc)
        links[who.lower()] = doc["url"].split("/p/", 1)[1]
    status, doc = await _call(app, "GET", f"/api/campaigns/{name}", None, secret)
    return {"name": name, "secret": secret, "links": links, "version": doc["version"]}


if __name__ == "__main__":
    sys.exit(main())
