"""What one read costs the server: its CPU time per request, route by route, on a campaign of 300 events.

    .venv/bin/python benchmarks/bench_read_cost.py [--requests 100] [--checkout before=/tmp/before]

A real `sawbones serve` (SQLite, one worker) per checkout (`--checkout NAME=ROOT`, repeatable: its src/ on
PYTHONPATH; this checkout as "after" always); a campaign of six characters with 300 damages and a player link;
then each route is asked `--requests` times in a row on one keep-alive connection, and the server's CPU time
(user + system, from /proc) is divided by the requests. The CPU, not the latency: what each read takes from the
interpreter that every other request of the worker shares (the latency of one request alone says little on
a machine shared with other work). Bounded; everything on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import http.client
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from bench_readers import campaign, start_server  # noqa: E402
from bench_store import scratch_dir  # noqa: E402
from bench_web import PARTY, call, free_port  # noqa: E402

ROUTES = [("the log", "/api/campaigns/T/log", True), ("GM status", "/api/campaigns/T/status", True),
          ("a player's view", "/api/player/{token}", False), ("a player's page", "/p/{token}", False),
          ("characters", "/api/campaigns/T/characters", True), ("pending", "/api/campaigns/T/pending", True),
          ("odds of a disease", "/api/campaigns/T/odds/filth_fever", True), ("one table", "/api/tables/fire", False),
          ("the tables' index", "/api/tables", False), ("the options", "/api/options", False)]


def server_cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(root: Path, requests: int) -> dict[str, float]:
    port = free_port()
    server = start_server(root, f"sqlite:///{scratch_dir('sawbones-readcost-')}/cost.db", port, 1)
    try:
        table = campaign(port, "T")
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for i in range(300):
            call(conn, "POST", "/api/campaigns/T/damage", {"character": PARTY[i % 6], "parts": [
                {"amount": 1, "type": "fire"}]}, table["secret"])
        out = {}
        for label, path, gm in ROUTES:
            path = path.format(token=table["token"])
            headers = {"Authorization": f"Bearer {table['secret']}"} if gm else {}
            for warm in (True, False):
                start = server_cpu(server.pid)
                for _ in range(3 if warm else requests):
                    conn.request("GET", path, headers=headers)
                    response = conn.getresponse()
                    response.read()
                    assert response.status == 200, (path, response.status)
            out[label] = (server_cpu(server.pid) - start) / requests * 1000
        return out
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100, help="Requests per route.")
    parser.add_argument("--checkout", action="append", default=[], help="NAME=ROOT of another checkout to compare.")
    args = parser.parse_args()
    trees = [(name, Path(root).resolve()) for name, _, root in (c.partition("=") for c in args.checkout)]
    trees.append(("after", ROOT))
    results = [(name, measure(root, args.requests)) for name, root in trees]
    print(f"The server's CPU per read, ms (SQLite, one worker, a campaign of 300 events, {args.requests} requests a "
          f"route; load {os.getloadavg()[0]:.1f})\n")
    print("| route | " + " | ".join(name for name, _ in results) + " |")
    print("|---|" + "---:|" * len(results))
    for label, _, _ in ROUTES:
        print(f"| {label} | " + " | ".join(f"{r[label]:.2f}" for _, r in results) + " |")


if __name__ == "__main__":
    main()
