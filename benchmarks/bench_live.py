"""Live streams at scale: thousands of held player streams and GM event streams while GMs act.

    .venv/bin/python benchmarks/bench_live.py [--streams 0,1000,5000] [--campaigns 500] [--gm-streams 100]
                                              [--workers 2] [--seconds 10] [--clients 8] [--backends sqlite,postgresql]
                                              [--trees before=/tmp/old/src,after=src] [--rounds 1]
                                              [--holder-nice 10]

For each backend: `sawbones serve --workers N` on 127.0.0.1; `--campaigns` campaigns of six characters,
each with a player link; then, for each count of held streams, a holder process opens that many player
streams (`/p/{token}/events`, spread over the campaigns, characters and links) plus `--gm-streams` API
event streams (`/api/campaigns/{c}/events`), waits until all are open, and records every message it
gets; meanwhile `--clients` GM clients (closed loop, no think time) POST damage to the campaigns' characters
for `--seconds`. Reported: GM action p50/p99, delivery p99 (from the action's request to each stream that
should hear of it: the hit character's player streams and the campaign's GM event streams), messages a
player stream got for another character (must be 0), resident memory of the server processes and per
held stream (all of them against none; and the second half against the first, which already covers every
campaign: what one stream more costs, without what a campaign with streams costs), the CPU time each party
used during the load (the server's per GM action), errors.
`--trees`: the same phases, one after the other on the same database, for servers run from each source
tree (`label=path`, put first on the server's PYTHONPATH): a before/after side by side under the same load.
`--rounds`: the phases again, in the same order (0, 5,000, 0, 5,000, ...): each row's ratio is against the
row at 0 streams just before it (the machine's load drifts between rounds).
`--holder-nice`: the holder stands for thousands of browsers and phones, which are not on the server's
machine; here it shares its cores, and its reading of every message competes with the server's work. By
default it runs at nice 10, so that the server gets the CPU first and the rows measure what holding the
streams costs the server (the holder still reads everything: its delays count in the delivery times it
records). `--holder-nice 0` gives it the server's priority (docs/benchmarks.md: the passes before the
eighth were measured so).
Bounded: every phase stops by itself; everything on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import resource
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_web import PARTY, _with_children, call, cpu_seconds, free_port, setup_campaign, start_server  # noqa: E402

os.environ.setdefault("SAWBONES_STREAMS_PER_ADDRESS", "100000")  # every stream comes from 127.0.0.1 here
os.environ.setdefault("SAWBONES_STREAMS_PER_TOKEN", "100000")  # few campaigns: many streams per player link


def raise_fd_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


# ------------------------------------------------------------------ the holder (its own process)


async def _hold(port: int, path: str, headers: str, index: int, out: list, ready: asyncio.Event,
                opened: list, gate: asyncio.Semaphore, errors: list) -> None:
    try:
        async with gate:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n{headers}\r\n".encode())
            status = await reader.readline()
            if b" 200 " not in status:
                errors.append(status.decode(errors="replace").strip())
                writer.close()
                if opened[0] + len(errors) == opened[1]:  # every stream tried: go on
                    ready.set()
                return
            while (await reader.readline()) not in (b"\r\n", b""):
                pass
            opened[0] += 1
            if opened[0] + len(errors) == opened[1]:
                ready.set()
        while True:
            line = await reader.readline()
            if not line:
                break
            if line.startswith(b"data: ") or line.startswith(b"id: "):
                out.append((time.time(), index, line.decode().strip()))
    except (OSError, asyncio.IncompleteReadError) as exc:
        errors.append(repr(exc))


async def _holder(port: int, plan: list[tuple[str, str]], seconds: float) -> None:
    """Opens the first half of the plan (which covers every campaign), says so, waits for a line, opens the
    rest, says so; then records what the streams hear until told the load ran."""
    out: list = []
    errors: list = []
    opened = [0, 0]
    gate = asyncio.Semaphore(100)  # connections being opened at once
    tasks = []
    half = len(plan) // 2
    for start, stop in ((0, half), (half, len(plan))):
        if start:
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        ready = asyncio.Event()
        opened[1] = stop
        tasks += [asyncio.create_task(_hold(port, path, headers, i, out, ready, opened, gate, errors))
                  for i, (path, headers) in enumerate(plan[start:stop], start)]
        try:
            await asyncio.wait_for(ready.wait(), timeout=600)
        except TimeoutError:
            pass
        print(json.dumps({"ready": opened[0], "errors": errors[:5], "error_count": len(errors)}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # the load ran
    await asyncio.sleep(1.0)  # deliveries still in flight
    print(json.dumps({"messages": out, "errors": errors[:5], "error_count": len(errors)}), flush=True)
    for task in tasks:
        task.cancel()


# ------------------------------------------------------------------ the driver


def rss_kb(root: int) -> int:
    """Resident memory of the server: its process and its children (the workers), in KB."""
    total = 0
    for pid in _with_children(root):
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def setup(port: int, campaigns: int) -> list[dict]:
    out = []
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for i in range(campaigns):
        name = f"Table{i}"
        secret = setup_campaign(port, name)
        links = {}
        for who in PARTY:
            status, doc = call(conn, "GET", f"/api/campaigns/{name}/characters/{who}/player-link", None, secret)
            assert status == 200, (status, doc)
            links[who.lower()] = doc["url"].split("/p/", 1)[1]
        status, doc = call(conn, "GET", f"/api/campaigns/{name}", None, secret)
        out.append({"name": name, "secret": secret, "links": links, "version": doc["version"]})
    return out


def plan_streams(tables: list[dict], players: int, gms: int) -> tuple[list[tuple[str, str]], list[tuple]]:
    plan, who = [], []
    for i in range(players):
        table = tables[i % len(tables)]
        character = PARTY[(i // len(tables)) % len(PARTY)].lower()
        plan.append((f"/p/{table['links'][character]}/events", ""))
        who.append(("player", table["name"], character))
    for i in range(gms):
        table = tables[i % len(tables)]
        plan.append((f"/api/campaigns/{table['name']}/events", f"Authorization: Bearer {table['secret']}\r\n"))
        who.append(("gm", table["name"], None))
    return plan, who


def gm_load(port: int, tables: list[dict], clients: int, seconds: float) -> tuple[list[float], list[tuple], int]:
    latencies: list[float] = []
    actions: list[tuple] = []  # (request start, campaign, character, version)
    errors = [0]
    lock = threading.Lock()
    stop_at = time.perf_counter() + seconds

    def client(i: int) -> None:
        """Acts on its own tables only (i, i + clients, ...): it knows each one's version from its answers."""
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine = tables[i::clients]
        n = 0
        while mine and time.perf_counter() < stop_at:
            table = mine[n % len(mine)]
            who = PARTY[(n // len(mine)) % len(PARTY)]
            n += 1
            sent, start = time.time(), time.perf_counter()
            status, doc = call(conn, "POST", f"/api/campaigns/{table['name']}/damage",
                               {"character": who, "parts": [{"amount": 1, "type": "fire"}]}, table["secret"])
            took = time.perf_counter() - start
            with lock:
                latencies.append(took)
                if 200 <= status < 300:
                    table["version"] += len(doc["events"])  # the action's events, stored one version each
                    actions.append((sent, table["name"], who.lower(), table["version"], time.time()))
                else:
                    errors[0] += 1

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, actions, errors[0]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")


def run_phase(port: int, server: subprocess.Popen, tables: list[dict], players: int, gms: int,
              clients: int, seconds: float, holder_nice: int) -> dict:
    plan, who = plan_streams(tables, players, gms)
    base_rss = rss_kb(server.pid)
    holder = None
    if plan:
        holder = subprocess.Popen([sys.executable, __file__, "--hold", str(port)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, preexec_fn=lambda: os.nice(holder_nice))
        holder.stdin.write(json.dumps(plan) + "\n")
        holder.stdin.flush()
        json.loads(holder.stdout.readline())  # the first half: every campaign has streams
        time.sleep(2.0)
        half_rss = rss_kb(server.pid)
        holder.stdin.write("more\n")
        holder.stdin.flush()
        ready = json.loads(holder.stdout.readline())
        if ready.get("error_count"):
            print(f"streams refused: {ready['error_count']}, e.g. {ready['errors']}", file=sys.stderr)
    else:
        ready = {"ready": 0, "error_count": 0}
        half_rss = base_rss
    time.sleep(2.0)
    held_rss = rss_kb(server.pid)
    cpu_before = (cpu_seconds(server.pid), cpu_seconds(holder.pid if holder else None), _self_cpu())
    latencies, actions, errors = gm_load(port, tables, clients, seconds)
    cpu = [after - before for after, before in zip(
        (cpu_seconds(server.pid), cpu_seconds(holder.pid if holder else None), _self_cpu()), cpu_before)]
    deliveries: list[float] = []
    after_answer: list[float] = []  # from the action's answer (the commit happened between the two)
    wrong = missing = 0
    stream_errors = ready.get("error_count", 0)
    if holder is not None:
        holder.stdin.write("done\n")
        holder.stdin.flush()
        report = json.loads(holder.stdout.readline())
        holder.wait(timeout=60)
        stream_errors = max(stream_errors, report["error_count"])
        heard: dict[int, dict[int, float]] = {}
        for at, index, line in report["messages"]:
            value = line.split(": ", 1)[1]
            if value.isdigit():
                heard.setdefault(index, {})[int(value)] = at
        by_table: dict[str, list[int]] = {}
        for index, (kind, name, character) in enumerate(who):
            by_table.setdefault(name, []).append(index)
        # A page's stream says the campaign's newest version: hearing V tells of every change up to V.
        for sent, name, character, version, answered in actions:
            for index in by_table.get(name, ()):
                kind, _, mine = who[index]
                if kind == "player" and mine != character:
                    continue
                at = min((t for v, t in heard.get(index, {}).items() if v >= version), default=None)
                if at is None:
                    missing += 1
                else:
                    deliveries.append(at - sent)
                    after_answer.append(max(0.0, at - answered))
        for index, versions in heard.items():  # told of a change when only other characters changed
            kind, name, mine = who[index]
            if kind != "player":
                continue
            mine_versions = sorted(a[3] for a in actions if a[1] == name and a[2] == mine)
            previous = None
            for v in sorted(versions):
                if previous is not None and not any(previous < m <= v for m in mine_versions):
                    wrong += 1
                    if os.environ.get("BENCH_DEBUG"):
                        print("told another's:", name, mine, previous, v, mine_versions,
                              sorted((a[3], a[2]) for a in actions if a[1] == name), file=sys.stderr)
                previous = v
    return {"streams": len(plan), "opened": ready["ready"], "gm_p50": pct(latencies, 0.5) * 1000,
            "gm_p99": pct(latencies, 0.99) * 1000, "actions": len(actions), "delivery_p99": pct(deliveries, 0.99) * 1000,
            "delivery_p50": pct(deliveries, 0.5) * 1000, "from_answer_p99": pct(after_answer, 0.99) * 1000,
            "delivered": len(deliveries), "missing": missing, "wrong": wrong, "errors": errors + stream_errors,
            "rss_base": base_rss, "rss_held": held_rss,
            "kb_per_stream": (held_rss - base_rss) / len(plan) if plan else 0.0,
            # a stream more on campaigns the worker already serves streams of (their states, topics: the first half)
            "kb_per_more_stream": (held_rss - half_rss) / (len(plan) - len(plan) // 2) if plan else 0.0,
            "cpu_server": cpu[0], "cpu_holder": cpu[1], "cpu_clients": cpu[2]}


def _self_cpu() -> float:
    """CPU time of this process: the GM clients' threads."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--hold":
        raise_fd_limit()
        plan = json.loads(sys.stdin.readline())
        asyncio.run(_holder(int(sys.argv[2]), plan, 0))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", default="0,1000,5000", help="Held player streams per phase.")
    parser.add_argument("--campaigns", type=int, default=500)
    parser.add_argument("--gm-streams", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--trees", default="", help="label=path,...: servers run from these source trees in turn.")
    parser.add_argument("--rounds", type=int, default=1, help="Every phase again, in the same order, this many times.")
    parser.add_argument("--holder-nice", type=int, default=10,
                        help="Niceness of the process holding the streams (0: the server's own priority).")
    args = parser.parse_args()
    trees = [tuple(t.split("=", 1)) for t in args.trees.split(",") if t] or [("", "")]
    print(f"file descriptors: {raise_fd_limit()}", file=sys.stderr)
    from bench_store import _drop_schemas, _pg_schema, scratch_dir, start_postgres  # noqa: E402

    tmp = scratch_dir("sawbones-live-")
    backends = []
    stop = lambda: None  # noqa: E731
    pg_url = ""
    if "sqlite" in args.backends:
        backends.append(("SQLite", f"sqlite:///{tmp}/live.db"))
    if "postgresql" in args.backends:
        pg_url, stop = start_postgres()
        if pg_url:  # (a schema of its own: the campaigns' names of an earlier run on the same database are taken)
            backends.append(("PostgreSQL", _pg_schema(pg_url, 0)))
    rows = []
    try:
        for label, url in backends:
            tables: list[dict] = []
            phases = [int(s) for s in args.streams.split(",")] * args.rounds
            for players in phases:
                gms = args.gm_streams if players else 0
                for tree, path in trees:
                    port = free_port()
                    server = _server(url, port, args.workers, path)
                    try:
                        if not tables:
                            started = time.perf_counter()
                            tables = setup(port, args.campaigns)
                            print(f"{label}: {args.campaigns} campaigns set up in "
                                  f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
                        row = run_phase(port, server, tables, players, gms, args.clients, args.seconds,
                                        args.holder_nice)
                        row["tree"], row["load"] = tree, os.getloadavg()[0]
                        print(label, tree, row, file=sys.stderr)
                        rows.append((label, row))
                    finally:
                        server.terminate()
                        server.wait(timeout=30)
    finally:
        if pg_url:
            _drop_schemas(pg_url)
        stop()
    print(f"\nHeld streams: {args.workers} workers, {args.campaigns} campaigns, {args.clients} GM clients "
          f"for {args.seconds:.0f} s a row; the holder at nice {args.holder_nice}\n")
    print("| backend | tree | player + GM streams | open | GM p50 | GM p99 | p99 / 0 streams | actions | delivery p50 / p99 "
          "(from the request) | p99 from the answer | delivered | missed | told another's | errors | server RSS "
          "| KB per stream (vs 0 streams) | KB per stream more (second half) | CPU s during the GM load: server / holder / GM clients "
          "| server CPU per action | load average |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|")
    base = {}
    for label, r in rows:
        if r["streams"] == 0 or (label, r["tree"]) not in base:  # the last row at 0 streams of a backend and tree
            base[(label, r["tree"])] = r
        zero = base[(label, r["tree"])]
        per = r["kb_per_stream"]  # (within the one server: each tree runs its own)
        per_action = r["cpu_server"] / r["actions"] * 1000 if r["actions"] else float("nan")
        print(f"| {label} | {r['tree'] or '-'} | {r['streams']:,} | {r['opened']:,} | {r['gm_p50']:.1f} ms "
              f"| {r['gm_p99']:.1f} ms | {r['gm_p99'] / zero['gm_p99']:.2f} | {r['actions']:,} "
              f"| {r['delivery_p50']:.0f} / {r['delivery_p99']:.0f} ms | {r['from_answer_p99']:.0f} ms "
              f"| {r['delivered']:,} | {r['missing']} | {r['wrong']} | {r['errors']} | {r['rss_held'] / 1024:.0f} MB "
              f"| {per:.1f} | {r['kb_per_more_stream']:.1f} | {r['cpu_server']:.1f} / {r['cpu_holder']:.1f} / {r['cpu_clients']:.1f} "
              f"| {per_action:.2f} ms | {r['load']:.1f} |")


def _server(url: str, port: int, workers: int, path: str) -> subprocess.Popen:
    """`sawbones serve` on `url`, run from the source tree at `path` when given (first on its PYTHONPATH)."""
    if not path:
        return start_server(url, port, workers)
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(path).resolve()), saved]))
    try:
        return start_server(url, port, workers)
    finally:
        if saved is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = saved


if __name__ == "__main__":
    main()
