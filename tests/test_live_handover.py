"""A worker's own writes reach its streams as they commit (SQLite): the hub hands them over from what was
written, without waiting for its watcher's next look or reading them back; another process's writes are read
by the watcher. Mixed, every stream hears of every change once and in order, whoever wrote it and whichever
way it came. The watcher is held closed by a gate where it must not see anything (no timing is asserted; a
watchdog ends a hang)."""

from __future__ import annotations

import asyncio
from contextlib import contextmanager

from sawbones.adapters import store as store_module
from sawbones.application.service import Service
from sawbones.interfaces.web import create_app
from sawbones.interfaces.web.live.hub import Hub
from sawbones.interfaces.web.live.subscriptions import ACCESS
from test_web_access import TestClient, bearer, new_campaign
from test_web_live import FIRE


class Gate:
    """The hub's watcher, held closed (it sees nothing move) until opened."""

    def __init__(self, hub: Hub) -> None:
        self.open, self.make, self.polls = True, hub._watcher, 0
        hub._watcher = lambda w: w if isinstance(w, Gate.Watcher) else Gate.Watcher(self, self.make(w))

    class Watcher:
        def __init__(self, gate: "Gate", watcher) -> None:
            self.gate, self.watcher = gate, watcher

        def poll(self, known, fresh):
            if not self.gate.open:
                return {}
            self.gate.polls += 1
            return self.watcher.poll(known, fresh)

        def close(self) -> None:
            self.watcher.close()


async def _until(test, what: str, seconds: float = 30.0) -> None:
    """Waits for `test()` (a watchdog, not a timing: a hang fails with `what`)."""
    give_up = asyncio.get_running_loop().time() + seconds
    while not test():
        assert asyncio.get_running_loop().time() < give_up, what
        await asyncio.sleep(0.01)


def _setting(db):
    return create_app(lambda: Service.open(db), poll_interval=0.02, stream_seconds=600)


def _heads(sub) -> list[int]:
    return [m.head for m in sub.box if m is not ACCESS]


def _frames(sub) -> list[int]:
    """The versions of the API stream's frames, in the order it was handed them."""
    return [version for m in sub.box if m is not ACCESS for version, _ in m.frames.get("en", [])]


def _campaign(gm, url: str, *names: str) -> tuple[str, int, int, dict[str, str]]:
    """Alpha with these characters: (its GM secret, its id, its head, each character's id by name)."""
    secret = new_campaign(gm)["gm_secret"]
    for name in names:
        made = gm.post("/api/campaigns/Alpha/characters", json={"name": name, "max_hp": 40}, headers=bearer(secret))
        assert made.status_code == 201, made.text
    service = Service.open(url)
    try:
        cid = service.store.campaign_id("Alpha")
        return secret, cid, service.store.head(cid), {c.name: c.id for c in service.load("Alpha").state.characters}
    finally:
        service.close()


@contextmanager
def events_read():
    """Every read of a campaign's events meanwhile: (campaign id, after, upto)."""
    reads: list[tuple] = []
    events = store_module.SqlEventStore.events

    def spy(self, campaign_id, after=0, **kwargs):
        reads.append((campaign_id, after, kwargs.get("upto")))
        return events(self, campaign_id, after, **kwargs)

    store_module.SqlEventStore.events = spy
    try:
        yield reads
    finally:
        store_module.SqlEventStore.events = events


def test_a_write_of_this_process_reaches_its_streams_without_the_watcher(db):
    """The watcher sees nothing (held closed) once the streams are open: Nia is hit through the app (its
    action runs in another thread) and the campaign is renamed on the hub's own event loop; Nia's page hears
    of both, Oda's of the renaming only (a hit on Nia is not Oda's player's business), the API stream gets
    both actions' frames, with their lines — and the log was not read back for them."""
    app = _setting(db)
    with TestClient(app) as gm:
        secret, cid, head, ids = _campaign(gm, db, "Nia", "Oda")

        async def scene():
            hub = Hub(app.state.sawbones)
            gate = Gate(hub)
            nia = hub.open(cid, "link-nia", "-", character=ids["Nia"], sent=head)
            oda = hub.open(cid, "link-oda", "-", character=ids["Oda"], sent=head)
            api = hub.open(cid, "secret", "-", language="en")
            await _until(lambda: cid in hub.seen, "the watcher's first look at the campaign")
            gate.open = False
            with events_read() as reads:
                hit = await asyncio.to_thread(gm.post, "/api/campaigns/Alpha/damage", headers=bearer(secret),
                                              json={"character": "Nia", "parts": FIRE})
                assert hit.status_code == 200, hit.text
                renamer = Service.open(db)  # on the event loop's own thread, as a worker's action runs
                try:
                    renamer.rename_campaign("Alpha", "Alpha Prime")
                finally:
                    renamer.close()
                await _until(lambda: len(_frames(api)) == 2, "the two writes handed over")
            for sub in (nia, oda, api):
                hub.close(sub)
            return nia, oda, api, reads, gate.polls

        nia, oda, api, reads, polls = asyncio.run(scene())
    assert _heads(nia) == [head + 1, head + 2], nia.box
    assert _heads(oda) == [head + 2], oda.box  # the renaming only
    assert _frames(api) == [head + 1, head + 2]
    hit_frame = next(frame for m in api.box if m is not ACCESS for version, frame in m.frames.get("en", [])
                     if version == head + 1).decode()
    assert "Nia" in hit_frame and '"lines":[' in hit_frame, hit_frame
    # (the lines read the current state, which may read the log's tail; the changes' own events never)
    assert not [r for r in reads if r[1] == head and r[2] is not None], reads


def test_every_stream_hears_every_change_once_and_in_order_whoever_wrote_it(db):
    """Another process writes (its append tells no one here) while the watcher is held closed; then this
    process writes: its change cannot be handed over (the streams were not brought to where it starts), so it
    waits for the watcher, which reads both when opened; then this process writes again, handed over with the
    watcher closed. The API stream gets each action's frame once, in order; the player's page each change once."""
    app = _setting(db)
    with TestClient(app) as gm:
        secret, cid, head, ids = _campaign(gm, db, "Nia")
        nia_id = ids["Nia"]

        def hit(elsewhere: bool = False) -> None:
            listeners = store_module.APPENDED
            if elsewhere:  # as another process: no listener of this one hears its append
                store_module.APPENDED = []
            try:
                answer = gm.post("/api/campaigns/Alpha/damage", headers=bearer(secret),
                                 json={"character": "Nia", "parts": FIRE})
                assert answer.status_code == 200, answer.text
            finally:
                store_module.APPENDED = listeners

        async def scene():
            hub = Hub(app.state.sawbones)
            gate = Gate(hub)
            nia = hub.open(cid, "link-nia", "-", character=nia_id, sent=head)
            api = hub.open(cid, "secret", "-", language="en")
            await _until(lambda: cid in hub.seen, "the watcher's first look at the campaign")
            gate.open = False
            await asyncio.to_thread(hit, True)  # another process: v+1
            await asyncio.to_thread(hit)  # this one: v+2, not handed over (the streams are at v)
            for _ in range(20):  # (turns of the loop for a hand-over that must not happen)
                await asyncio.sleep(0)
            early = list(_frames(api))
            gate.open = True
            await _until(lambda: len(_frames(api)) == 2, "the watcher reads the two changes")
            gate.open = False
            await asyncio.to_thread(hit)  # this one again: v+3, handed over
            await _until(lambda: len(_frames(api)) == 3, "the third change handed over")
            for sub in (nia, api):
                hub.close(sub)
            return early, nia, api

        early, nia, api = asyncio.run(scene())
    assert early == [], early  # nothing handed over out of order
    assert _frames(api) == [head + 1, head + 2, head + 3]
    assert _heads(nia) == [head + 2, head + 3], nia.box  # (the watcher read v+1 and v+2 as one change)


def test_on_postgresql_the_watcher_builds_a_change_from_its_notification(pg_url):
    """PostgreSQL: the append's NOTIFY carries its rows; the hub hands the change to the player's page and the
    API stream from them, without reading the events back (a write too big for a NOTIFY is read as before:
    test_web_live.py)."""
    app = create_app(lambda: Service.open(pg_url), poll_interval=0.02, stream_seconds=600)
    with TestClient(app) as gm:
        secret, cid, head, ids = _campaign(gm, pg_url, "Nia")

        async def scene():
            hub = Hub(app.state.sawbones)
            assert not app.state.sawbones.local_writes  # (the listening thread's path)
            page = hub.open(cid, "link-nia", "-", character=ids["Nia"], sent=head)
            api = hub.open(cid, "secret", "-", language="en")
            await _until(lambda: cid in hub.seen, "the watcher's first look at the campaign")
            with events_read() as reads:
                hit = await asyncio.to_thread(gm.post, "/api/campaigns/Alpha/damage", headers=bearer(secret),
                                              json={"character": "Nia", "parts": FIRE})
                assert hit.status_code == 200, hit.text
                await _until(lambda: len(_frames(api)) == 1, "the change handed over")
            for sub in (page, api):
                hub.close(sub)
            return page, api, reads

        page, api, reads = asyncio.run(scene())
    assert _frames(api) == [head + 1] and _heads(page) == [head + 1]
    assert not [r for r in reads if r[1] == head and r[2] is not None], reads  # the change was not read back
