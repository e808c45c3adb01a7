"""How the live hub delivers a change (issue 14): it decides which streams a change concerns before waking
any (a page that was not concerned is moved on and needs no database read afterwards: test_web_live.py),
and held streams still get their keep-alives. Reads are guarded by a watchdog (a hang fails the test),
never timed."""

from __future__ import annotations

import asyncio
import threading

import pytest

from test_web_access import TestClient, player_link
from test_web_live import _lines, _party
from sawbones.interfaces.web.live import live
from sawbones.interfaces.web.live.hub import Hub
from sawbones.interfaces.web.live.subscriptions import ACCESS, Change


def _doc(version: int, kind: str, character: str | None) -> dict:
    """One action's document as the hub reads it (event_docs.light_documents: no lines)."""
    data = {"character": character} if character else {}
    return {"id": version, "type": kind, "action": version, "version": version,
            "characters": {character} if character else set(), "events": [{"type": kind, "data": data}]}


def test_a_player_stream_is_woken_only_by_what_its_player_may_see():
    """Three streams wait on a campaign at version 10: Nia's player page, Oda's, the GM's page. Oda is hit,
    then the GM notes the end of a combat (the GM's business), then Nia is hit: Nia's page sleeps through the
    first two and is handed the third; Oda's gets the first only; the GM's page every one, in order."""

    async def scene():
        hub = Hub(None)
        hub.thread = threading.current_thread()  # no watcher: the test hands the changes itself
        nia = hub.open(1, "link-nia", "a", character="nia", sent=10)
        oda = hub.open(1, "link-oda", "b", character="oda", sent=10)
        gm = hub.open(1, "session", "c", sent=10)
        waiting = {name: asyncio.create_task(sub.take()) for name, sub in (("nia", nia), ("oda", oda), ("gm", gm))}
        await asyncio.sleep(0)
        oda_hit = Change(10, 11, [_doc(11, "damage_taken", "oda")])
        note = Change(11, 12, [_doc(12, "noted", None)])
        nia_hit = Change(12, 13, [_doc(13, "damage_taken", "nia")])
        hub._publish(1, [oda_hit])
        hub._publish(1, [note])
        await asyncio.sleep(0)
        asleep = not waiting["nia"].done()
        assert nia.sent == 12 and not nia.box  # moved on silently: nothing to read later
        hub._publish(1, [nia_hit])
        hub._publish(1, [ACCESS])  # a change of access still reaches every stream
        await asyncio.sleep(0)
        got = {name: task.result() for name, task in waiting.items()}
        rest = {name: sub.box for name, sub in (("nia", nia), ("oda", oda), ("gm", gm))}
        return asleep, got, rest

    asleep, got, rest = asyncio.run(scene())
    assert asleep, "Nia's page was woken for Oda's change or for the GM's note"
    assert got["nia"] + rest["nia"] == [Change(12, 13, [_doc(13, "damage_taken", "nia")]), ACCESS]
    assert [m.head if m is not ACCESS else m for m in got["oda"] + rest["oda"]] == [11, ACCESS]
    assert [m.head if m is not ACCESS else m for m in got["gm"] + rest["gm"]] == [11, 12, 13, ACCESS]


def test_an_idle_stream_gets_keep_alives_and_ends_on_time(db, monkeypatch):
    """Nothing happens on the campaign: the stream still says it is alive (a comment: EventSource ignores
    it, proxies see bytes), then ends by itself after `stream_seconds` (EventSource reconnects)."""
    from sawbones.application.service import Service
    from sawbones.interfaces.web import create_app

    monkeypatch.setattr(live, "KEEP_ALIVE", 0.05)
    app = create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=0.5)
    with TestClient(app) as gm, TestClient(app) as player:
        secret = _party(gm, "Nia")
        link = player_link(gm, secret, "Nia")["url"]
        with player.stream("GET", link + "/events") as stream:
            seen = _lines(stream, lambda line: False)  # up to its end: the server ends it
        assert seen[:2] == ["retry: 2000", "event: hello"] and ": keep-alive" in seen, seen
        assert "event: change" not in seen
        assert app.state.live_hub.tokens == {}  # its place is given back


def test_who_hears_of_a_change_of_several_actions():
    """A change may hold several actions: its audience is theirs together; one that alters every page
    (the clock) makes it everyone's, the GM's notes add no one."""
    from sawbones.interfaces.web.live.audience import audience

    oda_hit, note = _doc(11, "damage_taken", "oda"), _doc(12, "noted", "nia")
    clock = _doc(13, "clock_advanced", None)
    assert audience([oda_hit, note]) == (False, {"oda"})
    assert audience([oda_hit, note, clock])[0] is True
    assert audience([note]) == (False, set())


def test_one_timer_tells_each_stream_when_it_is_due_never_before(monkeypatch):
    """Every stream's keep-alive and end wait on the event loop's one timer (live.Ticks): each is told at or
    after its time, in order, a stream disarmed is never told, and one timer is set at a time."""
    import asyncio

    from sawbones.interfaces.web.live.subscriptions import Sub

    monkeypatch.setattr(live, "KEEP_ALIVE", 0.3)

    async def run() -> list[tuple[str, float, float]]:
        loop = asyncio.get_running_loop()
        clock = live.Ticks(loop)
        told: list[tuple[str, float, float]] = []
        start = loop.time()

        class Told(Sub):
            __slots__ = ("due_at",)

            def tick(self) -> None:
                told.append((self.token, self.due_at, loop.time()))

        subs = {}
        for name, after in (("late", 0.12), ("early", 0.03), ("gone", 0.05), ("same", 0.031)):
            sub = subs[name] = Told(1, name, "-")
            sub.due_at = start + after
            subs[name + "_slot"] = clock.arm(sub, start + after)
        clock.disarm(subs["gone"], subs["gone_slot"])
        timers = {id(clock.timer)}
        while clock.buckets:
            await asyncio.sleep(0.01)
            if clock.timer is not None:
                timers.add(id(clock.timer))
        assert not clock.buckets and clock.timer is None
        return told

    told = asyncio.run(run())
    assert [name for name, _, _ in told][-1] == "late" and {n for n, _, _ in told} == {"early", "same", "late"}
    assert all(at >= due for _, due, at in told), told  # never early


@pytest.mark.parametrize(("slice_", "wakes"), [(0.0, 1000), (1000.0, 1)])
def test_on_sqlite_the_watcher_reads_on_the_event_loop_letting_requests_in_between(db, monkeypatch, slice_, wakes):
    """SQLite: the hub's watcher reads the campaigns that moved on the event loop itself (no thread taking the
    interpreter's lock from the requests), and lets the loop serve others between two campaigns once its
    slice of reading is spent or it woke its share of streams (here: after every campaign, by one or the
    other). Four campaigns move at once, written as another process would (this process's own writes are
    handed over without a read: test_a_write_of_this_process_...): each stream is told, each campaign was
    read on the loop's own thread, and other work ran between any two reads."""
    from sawbones.application.service import Service
    from sawbones.interfaces.web import create_app
    from sawbones.interfaces.web.live import hub as hub_module
    from test_web_access import bearer, new_campaign
    from test_web_live import FIRE

    monkeypatch.setattr(hub_module, "SLICE", slice_)
    monkeypatch.setattr(hub_module, "WAKES", wakes)
    app = create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=600)
    names = ["Alpha", "Beta", "Gamma", "Delta"]
    with TestClient(app) as gm:
        secrets = {name: new_campaign(gm, name)["gm_secret"] for name in names}
        for name in names:
            made = gm.post(f"/api/campaigns/{name}/characters", json={"name": "Nia", "max_hp": 40},
                           headers=bearer(secrets[name]))
            assert made.status_code == 201, made.text

        def hit_all() -> None:
            for name in names:
                hit = gm.post(f"/api/campaigns/{name}/damage", json={"character": "Nia", "parts": FIRE},
                              headers=bearer(secrets[name]))
                assert hit.status_code == 200, hit.text

        state = app.state.sawbones
        assert state.local_writes
        service = Service.open(db)
        try:
            heads = {service.store.campaign_id(n): service.store.head(service.store.campaign_id(n)) for n in names}
        finally:
            service.close()

        async def scene() -> tuple[list[tuple[str, object]], dict[int, list]]:
            hub, log, loop_thread = Hub(state), [], threading.current_thread()
            hub._appended = lambda *written: None  # (the writes below count as another process's)
            read = hub._read_one

            def spy(cid, seen, before):
                log.append(("read", threading.current_thread() is loop_thread and before is not None))
                return read(cid, seen, before)

            hub._read_one = spy
            gate = {"open": True}  # closed: the watcher sees nothing move (the four campaigns then move at once)
            make_watcher = hub._watcher

            class Gated:
                def __init__(self, watcher):
                    self.watcher = watcher

                def poll(self, known, fresh):
                    return self.watcher.poll(known, fresh) if gate["open"] else {}

                def close(self):
                    self.watcher.close()

            hub._watcher = lambda w: w if isinstance(w, Gated) else Gated(make_watcher(w))
            subs = {cid: hub.open(cid, f"session-{cid}", "-", sent=head) for cid, head in heads.items()}
            while len(log) < len(subs):  # the first look at each campaign (just watched)
                await asyncio.sleep(0.01)
            log.clear()
            got: dict[int, list] = {}

            async def other_work() -> None:  # the loop's other work, at every turn
                give_up = asyncio.get_running_loop().time() + 30  # (a watchdog, not a timing)
                while asyncio.get_running_loop().time() < give_up and not all(got.values() or [False]):
                    if not log or log[-1][0] != "other":
                        log.append(("other", None))
                    got.update({cid: [m.head for m in sub.box] for cid, sub in subs.items()})
                    await asyncio.sleep(0)

            spinning = asyncio.create_task(other_work())
            gate["open"] = False
            await asyncio.to_thread(hit_all)
            gate["open"] = True
            await spinning
            for sub in subs.values():
                hub.close(sub)
            return log, got

        log, got = asyncio.run(scene())
    assert all(got[cid] and got[cid][-1] > head for cid, head in heads.items()), got
    reads = [i for i, (what, _) in enumerate(log) if what == "read"]
    assert len(reads) >= len(heads) and all(on_loop for what, on_loop in log if what == "read"), log
    assert all(b - a > 1 for a, b in zip(reads, reads[1:])), log  # something else ran between two reads


def test_streams_due_together_are_told_a_batch_at_a_time(monkeypatch):
    """Streams opened together fall due together (after a restart every client reconnects at once): the
    timer tells at most live.BATCH of them per turn of the event loop, and other work runs between two
    batches; every one is told, once."""
    from sawbones.interfaces.web.live.subscriptions import Sub

    monkeypatch.setattr(live, "BATCH", 16)

    async def run() -> list[str]:
        loop = asyncio.get_running_loop()
        clock, log = live.Ticks(loop), []

        class Told(Sub):
            __slots__ = ()

            def tick(self) -> None:
                log.append(self.token)

        when = loop.time() + 0.02
        for n in range(100):
            clock.arm(Told(1, f"s{n}", "-"), when)
        give_up = loop.time() + 30  # (a watchdog, not a timing)
        while clock.buckets and loop.time() < give_up:
            if not log or log[-1] != "other":
                log.append("other")
            await asyncio.sleep(0)
        return log

    log = asyncio.run(run())
    told = [entry for entry in log if entry != "other"]
    assert sorted(told) == sorted(f"s{n}" for n in range(100)), log
    runs, run = [], 0
    for entry in log:
        run = 0 if entry == "other" else run + 1
        runs.append(run)
    assert max(runs) == 16 and log.count("other") >= 100 // 16, log
