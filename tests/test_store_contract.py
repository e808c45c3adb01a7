"""The event-store contract, the same tests on both backends (SQLite file, PostgreSQL schema)."""

from __future__ import annotations

import threading

import pytest

from sawbones.adapters import upcast as upcast_module
from sawbones.adapters.store import SnapshotInfo, StoredEvent
from sawbones.adapters.backends import open_store
from sawbones.application.service import Service
from sawbones.domain.engine.campaign import add_character, remove_character
from sawbones.errors import ConflictError, NotFound, StoreError, UsageError


def ev(kind: str = "noted", **data):
    return {"type": kind, "data": data}


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    """Each backend: the one store on the standard library's sqlite3, then on psycopg."""
    if request.param == "postgresql":
        return request.getfixturevalue("pg_url")
    return str(tmp_path / "store.db")


@pytest.fixture
def store(store_url):
    return open_store(store_url)


def test_backend_is_the_one_asked_for(store, store_url):
    assert store.backend == ("sqlite" if "://" not in store_url else "postgresql")
    assert store.check() == []


def test_campaigns_are_created_listed_found_and_deleted(store):
    a = store.create_campaign("Alpha")
    b = store.create_campaign("Beta", [ev("campaign_created", name="Beta", system="dnd5e", seed=1)], "c1")
    assert a != b and store.campaign_names() == ["Alpha", "Beta"]
    assert store.campaign_id("Beta") == b and store.head(b) == 1 and store.head(a) == 0
    with pytest.raises(UsageError, match="already exists"):
        store.create_campaign("Alpha")
    with pytest.raises(NotFound, match=r"no campaign named 'Gamma' \(campaigns: Alpha, Beta\)"):
        store.campaign_id("Gamma")
    store.delete_campaign("Beta")
    assert store.campaign_names() == ["Alpha"]
    again = store.create_campaign("Beta")
    assert again not in (a, b), "a deleted campaign's id is never given again (caches are keyed by id)"
    assert store.events(again) == []


def test_meta_is_a_small_key_value_table(store):
    assert store.get_meta("current_campaign") is None
    store.set_meta("current_campaign", "Alpha")
    store.set_meta("current_campaign", "Beta")
    assert store.get_meta("current_campaign") == "Beta"


def test_a_meta_swap_is_taken_by_one_writer_of_many(store_url):
    """Swap a key from what was read to a new value: of several writers that read the same, one wins; the others
    write nothing and are told so (a player link made by two pages at once)."""
    import threading

    store = open_store(store_url)
    assert store.swap_meta("link", None, "first") is True
    assert store.swap_meta("link", None, "second") is False and store.get_meta("link") == "first"
    assert store.swap_meta("link", "stale", "third") is False and store.get_meta("link") == "first"
    start, won = threading.Barrier(6, timeout=10), []

    def writer(n: int) -> None:
        mine = open_store(store_url)
        start.wait()
        if mine.swap_meta("link", "first", f"writer {n}"):
            won.append(n)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1 and store.get_meta("link") == f"writer {won[0]}"


def test_append_numbers_events_and_refuses_a_stale_write(store):
    cid = store.create_campaign("C")
    assert store.append(cid, 0, 1, [ev(n=1), ev(n=2)], "c1") == 2
    assert store.append(cid, 2, 2, [ev(n=3)], "c2") == 3
    assert store.append(cid, 3, 3, [], "c2") == 3, "an empty action writes nothing"
    with pytest.raises(ConflictError, match="nothing was written"):
        store.append(cid, 2, 3, [ev(n=99), ev(n=100)], "c2")
    events = store.events(cid)
    assert [(e.version, e.action, e.data["n"]) for e in events] == [(1, 1, 1), (2, 1, 2), (3, 2, 3)]
    assert [e.content_version for e in events] == ["c1", "c1", "c2"]
    assert all(e.schema_version == upcast_module.EVENT_SCHEMA_VERSION for e in events)
    assert [e.version for e in store.events(cid, after=2)] == [3]
    assert store.head(cid) == 3 and store.check() == []


def test_append_to_a_deleted_campaign_is_refused(store):
    cid = store.create_campaign("Gone")
    store.delete_campaign("Gone")
    with pytest.raises(NotFound):
        store.append(cid, 0, 1, [ev()], "c")


def test_event_data_comes_back_exactly(store):
    cid = store.create_campaign("Data")
    data = {"text": "Éowyn — blessée ✓", "float": 0.1 + 0.2, "big": 2**53 + 1, "neg": -7, "none": None,
            "nested": {"list": [1, [2, 3], {"k": True}], "empty": {}}, "bool": False}
    store.append(cid, 0, 1, [ev("noted", **data)], "c")
    assert store.events(cid)[0].data == data


def test_undo_markers_and_actions(store):
    cid = store.create_campaign("U")
    store.append(cid, 0, 1, [ev("campaign_created", name="U", system="dnd5e", seed=1)], "c")
    store.append(cid, 1, 2, [ev("noted"), ev("clock_advanced", seconds=6)], "c")
    store.append(cid, 3, 3, [ev("action_undone", action=2)], "c")
    assert store.undo_markers(cid) == [(4, 2)]
    assert store.undo_markers(cid, after=4) == []
    assert store.actions(cid) == [(1, "campaign_created"), (2, "noted"), (3, "action_undone")]
    assert store.actions(cid, upto=3) == [(1, "campaign_created"), (2, "noted")]
    assert store.undo_markers(cid, upto=3) == []


def test_import_writes_the_log_exactly(store):
    events = [StoredEvent(1, 1, "campaign_created", {"name": "I", "system": "dnd5e", "seed": 3}, 1, "old", 1000.25),
              StoredEvent(2, 2, "noted", {"x": [1, 2]}, 1, "old", 1001.5),
              StoredEvent(3, 2, "noted", {}, 1, "newer", 1001.5)]
    cid = store.import_campaign("I", events)
    assert store.events(cid, upcast=False) == events
    with pytest.raises(UsageError, match="without gaps"):
        store.import_campaign("J", [events[0], events[2]])
    with pytest.raises(UsageError, match="already exists"):
        store.import_campaign("I", events)
    assert store.campaign_names() == ["I"]


def test_snapshots_are_kept_newest_first_and_pruned(store):
    cid = store.create_campaign("S")
    for version in (10, 20, 30, 40):
        store.save_snapshot(cid, SnapshotInfo(version, version, "code-a", "c"), f"state {version}", keep=3)
    store.save_snapshot(cid, SnapshotInfo(40, 40, "code-a", "c"), "state 40 again", keep=3)  # same key: replaced
    assert [s.version for s in store.snapshots(cid, "code-a")] == [40, 30, 20]
    assert store.snapshot_state(cid, 40, "code-a") == "state 40 again", "a damaged snapshot is rebuilt in place"
    assert store.snapshot_state(cid, 10, "code-a") is None
    store.save_snapshot(cid, SnapshotInfo(50, 50, "code-b", "c"), "new code", keep=3)
    assert store.snapshots(cid, "code-a") == [], "snapshots of other code are dropped"
    assert [s.version for s in store.snapshots(cid, "code-b")] == [50]
    store.delete_campaign("S")
    assert store.snapshots(cid, "code-b") == []


def test_old_event_shapes_are_upcast_on_read(store, monkeypatch):
    cid = store.create_campaign("Up")
    store.append(cid, 0, 1, [ev("legacy_thing", hp_max=7)], "c")
    monkeypatch.setattr(upcast_module, "EVENT_SCHEMA_VERSION", 3)
    monkeypatch.setattr(upcast_module, "_UPCASTERS", {})

    @upcast_module.upcaster("legacy_thing", 1)
    def _v1(data):
        return {"max_hp": data["hp_max"]}

    @upcast_module.upcaster("legacy_thing", 2)
    def _v2(data):
        return "modern_thing", {**data, "unit": "hp"}

    store.append(cid, 1, 2, [ev("modern_thing", max_hp=9, unit="hp")], "c")
    read = store.events(cid)
    assert [(e.type, e.schema_version, e.data) for e in read] == [
        ("modern_thing", 3, {"max_hp": 7, "unit": "hp"}), ("modern_thing", 3, {"max_hp": 9, "unit": "hp"})]
    raw = store.events(cid, upcast=False)
    assert [(e.type, e.schema_version, e.data) for e in raw][0] == ("legacy_thing", 1, {"hp_max": 7}), \
        "the log itself is never rewritten"
    monkeypatch.setattr(upcast_module, "EVENT_SCHEMA_VERSION", 2)
    with pytest.raises(StoreError, match="newer than this sawbones"):
        store.events(cid)


def test_a_reopened_store_sees_everything(store_url):
    first = open_store(store_url)
    cid = first.create_campaign("Persist")
    first.append(cid, 0, 1, [ev(n=1)], "c")
    first.dispose()
    second = open_store(store_url)
    assert [e.data for e in second.events(second.campaign_id("Persist"))] == [{"n": 1}]


def test_two_writers_on_one_version_one_wins(store_url):
    """Both read version 1 and append at once: exactly one succeeds, the other gets ConflictError."""
    store = open_store(store_url)
    cid = store.create_campaign("Race", [ev("noted")], "c")
    for round_ in range(5):
        head = store.head(cid)
        barrier = threading.Barrier(2)
        outcomes: list[str] = []

        def write(tag: str) -> None:
            mine = open_store(store_url)
            barrier.wait()
            try:
                mine.append(cid, head, round_ + 2, [ev(by=tag), ev(by=tag)], "c")
                outcomes.append("ok")
            except ConflictError:
                outcomes.append("conflict")

        threads = [threading.Thread(target=write, args=(t,)) for t in "ab"]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert sorted(outcomes) == ["conflict", "ok"]
        assert store.head(cid) == head + 2
    tags = [e.data.get("by") for e in store.events(cid)][1:]
    assert all(tags[i] == tags[i + 1] for i in range(0, len(tags), 2)), "an action is never interleaved"


def test_the_service_runs_on_this_backend(store_url):
    service = Service.open(store_url)
    service.create_campaign("Svc", "dnd5e", 5)
    state, _ = service.act("Svc", lambda ctx: add_character(ctx, "Aria", {"max_hp": 12}))
    assert state.character("aria").max_hp == 12
    service.act("Svc", lambda ctx: remove_character(ctx, "Aria"))
    state, action = service.undo("Svc")
    assert action == 3 and state.character("aria") is not None
    assert service.load("Svc").state == state
    assert service.store.get_meta("current_campaign") == "Svc"
