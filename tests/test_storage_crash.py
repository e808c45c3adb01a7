"""Crash safety: SIGKILL a writer in the middle of a burst; every acknowledged action is still there.

The writer is a real sawbones process acting through the service (as the web server would). It
prints each action's number only after `Service.act` returned, i.e. after the commit: those are the
actions the GM was told were saved. After the kill, the database must hold every one of them, in
one piece (an action's events all there or none), and pass its integrity check.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

from sawbones.adapters.engines import dispose_all
from sawbones.adapters.backends import open_store
from sawbones.application.service import Service

WRITER = textwrap.dedent("""
    import sys
    from sawbones.application.service import Service

    url, cycle = sys.argv[1], int(sys.argv[2])
    service = Service.open(url)
    n = 0
    while True:
        n += 1
        # three events per action: a torn action would show as a partial triple
        service.act("Crash", lambda ctx, n=n: [{"type": "noted", "data": {"c": cycle, "n": n, "part": p}}
                                               for p in range(3)])
        print(n, flush=True)
""")


def _burst_and_kill(url: str, cycle: int, after_acks: int, extra_delay: float) -> list[tuple[int, int]]:
    proc = subprocess.Popen([sys.executable, "-c", WRITER, url, str(cycle)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, bufsize=1)
    acknowledged: list[int] = []
    deadline = time.monotonic() + 15
    try:
        while len(acknowledged) < after_acks and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            acknowledged.append(int(line))
        time.sleep(extra_delay)  # land somewhere inside the next writes
        os.kill(proc.pid, signal.SIGKILL)
        rest, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:  # pragma: no cover
            proc.kill()
            proc.wait()
    acknowledged += [int(x) for x in rest.split()]
    assert proc.returncode == -signal.SIGKILL, err
    assert len(acknowledged) >= after_acks, f"the writer did not get going: {err[-500:]}"
    return [(cycle, n) for n in acknowledged]


def test_sigkill_mid_burst_loses_no_acknowledged_action(store_url):
    """Four bursts on one database, each killed at a different moment, each followed by a restart."""
    Service.open(store_url).create_campaign("Crash", "dnd5e", 1)
    dispose_all()
    acknowledged: list[tuple[int, int]] = []
    for cycle in range(4):
        acknowledged += _burst_and_kill(store_url, cycle, after_acks=25 + 10 * cycle, extra_delay=0.002 * cycle)
        store = open_store(store_url)  # "after restart": a fresh process opens it just like this
        assert store.check() == [], "integrity check (SQLite: PRAGMA integrity_check) and no gap in the log"
        events = [e for e in store.events(store.campaign_id("Crash")) if e.type == "noted"]
        by_action: dict[tuple[int, int], list[int]] = {}
        for e in events:
            by_action.setdefault((e.data["c"], e.data["n"]), []).append(e.data["part"])
        assert set(acknowledged) <= set(by_action), f"lost: {sorted(set(acknowledged) - set(by_action))}"
        assert all(parts == [0, 1, 2] for parts in by_action.values()), "an action is written whole or not at all"
        for c in range(cycle + 1):
            numbers = sorted(n for (cc, n) in by_action if cc == c)
            assert numbers == list(range(1, len(numbers) + 1))
        dispose_all()
    if store.backend == "sqlite":
        import sqlite3

        raw = sqlite3.connect(store_url)
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        raw.close()
    service = Service.open(store_url)  # and the campaign goes on
    state, _ = service.act("Crash", lambda ctx: [{"type": "noted", "data": {"c": -1, "n": 0, "part": 0}}])
    assert service.load("Crash").state == state
