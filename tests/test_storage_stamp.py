"""A changed byte in any stored event is found before the next append, not only in the events after the newest
snapshot (issue 20, item 3): SQLite, where sawbones can tell that the file changed behind its back.

PostgreSQL: the events after the newest snapshot are checked at every load, all of them by `check`, `log`,
`export` and `backup`; an old event changed by hand is not found by the next append (docs/deployment.md)."""

from __future__ import annotations

import pytest

from sawbones.adapters import store as store_module
from sawbones.adapters.backends import open_store
from sawbones.application.service import Service, code_version
from sawbones.domain.engine.campaign import add_character
from sawbones.interfaces.cli import main

from test_storage_damage import _fresh, _sql

SEED = 987654321  # written in the first event only


def _cli(capsys, db: str, *args: str, campaign: str = "Road"):
    _fresh()
    capsys.readouterr()
    code = main(["--db", db, "-c", campaign, *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def _head(db: str, cid: int) -> int:
    return _sql(db, "SELECT MAX(version) FROM events WHERE campaign_id = :c", c=cid)[0][0]


@pytest.fixture
def road(tmp_path):
    """A campaign of 36 events with snapshots at 10, 20 and 30: a load reads only the events after 30."""
    db = str(tmp_path / "road.db")
    service = Service(open_store(db), snapshot_every=10)
    service.create_campaign("Road", "dnd5e", SEED)
    for n in range(35):
        service.act("Road", lambda ctx, n=n: add_character(ctx, f"Pc{n}", {"max_hp": 12}))
    cid = service.store.campaign_id("Road")
    assert len(service.store.snapshots(cid, code_version())) >= 3
    _fresh()
    return db, cid


def _refused(capsys, db, cid, version):
    head = _head(db, cid)
    code, _, err = _cli(capsys, db, "character", "add", "Dag", "--max-hp", "9")
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err, err
    assert f"campaign 'Road': event {version} is damaged" in err and "nothing was written" in err, err
    assert _head(db, cid) == head, "nothing was appended"


@pytest.mark.parametrize("version", [1, 15])  # the first event, and one between two snapshots
def test_an_event_changed_behind_the_snapshots_blocks_the_next_append(road, capsys, version):
    db, cid = road
    _sql(db, "UPDATE events SET created_at = created_at + 1 WHERE campaign_id = :c AND version = :v",
         c=cid, v=version)
    _refused(capsys, db, cid, version)
    _refused(capsys, db, cid, version)  # and the one after: the finding is kept until the file changes again


def test_a_flipped_byte_in_the_file_behind_the_snapshots(road, capsys, tmp_path):
    db, cid = road
    first = _sql(db, "SELECT data FROM events WHERE campaign_id = :c AND version = 1", c=cid)[0][0]
    assert str(SEED) in first
    _fresh()
    path = tmp_path / "road.db"
    data = path.read_bytes()
    marker = f'"seed":{SEED},"system"'.encode()  # the snapshots hold the seed too, followed by other fields
    assert data.count(marker) == 1
    path.write_bytes(data.replace(marker, marker.replace(b"1,", b"2,")))  # one byte: ...321 -> ...322
    _refused(capsys, db, cid, 1)


def test_a_checksum_flipped_in_the_file_for_an_event_in_the_middle(road, capsys, tmp_path):
    db, cid = road
    stored = _sql(db, "SELECT checksum FROM events WHERE campaign_id = :c AND version = 15", c=cid)[0][0]
    _fresh()
    path = tmp_path / "road.db"
    data = path.read_bytes()
    assert data.count(stored.encode()) == 1
    flipped = stored[:-1] + ("0" if stored[-1] != "0" else "1")
    path.write_bytes(data.replace(stored.encode(), flipped.encode()))
    _refused(capsys, db, cid, 15)


def test_a_running_process_finds_a_change_made_by_another_program(road):
    """`serve` keeps its connections: the next append of the same process still finds the change."""
    db, cid = road
    service = Service(open_store(db))
    service.act("Road", lambda ctx: add_character(ctx, "Eve", {"max_hp": 5}))
    _sql(db, "UPDATE events SET data = REPLACE(data, 'Pc3', 'Pc8') WHERE campaign_id = :c AND version = 5", c=cid)
    head = _head(db, cid)
    with pytest.raises(store_module.Damaged, match="campaign 'Road': event 5 is damaged"):
        service.act("Road", lambda ctx: add_character(ctx, "Fay", {"max_hp": 5}))
    assert _head(db, cid) == head


def test_other_campaigns_still_write_and_the_intact_part_is_rescued(road, capsys, tmp_path):
    db, cid = road
    code, _, err = _cli(capsys, db, "campaign", "create", "Other")
    assert code == 0, err
    _sql(db, "UPDATE events SET created_at = created_at + 1 WHERE campaign_id = :c AND version = 15", c=cid)
    code, _, err = _cli(capsys, db, "character", "add", "Gus", "--max-hp", "9", campaign="Other")
    assert code == 0, err
    code, _, err = _cli(capsys, db, "export", "--upto", "14", str(tmp_path / "intact.json"))
    assert code == 0, err
    code, _, err = _cli(capsys, db, "import", str(tmp_path / "intact.json"), "--as", "Road kept")
    assert code == 0, err
    code, _, err = _cli(capsys, db, "character", "add", "Hal", "--max-hp", "9", campaign="Road kept")
    assert code == 0, err
    _refused(capsys, db, cid, 15)


def test_an_untouched_file_is_not_read_whole_at_each_append(road, monkeypatch):
    """The whole log is read once after the file changed behind sawbones' back, not at every append, across
    processes (a clean close stamps the file as it left it) and within one."""
    db, _ = road
    reads = []
    whole = store_module.SqlEventStore.damaged_campaigns
    monkeypatch.setattr(store_module.SqlEventStore, "damaged_campaigns",
                        lambda self: reads.append(1) or whole(self))
    for n in range(3):
        _fresh()  # a new process each time
        service = Service(open_store(db))
        service.act("Road", lambda ctx, n=n: add_character(ctx, f"New{n}", {"max_hp": 5}))
        service.act("Road", lambda ctx, n=n: add_character(ctx, f"Next{n}", {"max_hp": 5}))
    assert reads == []
    _sql(db, "INSERT INTO meta (key, value) VALUES ('note', 'by hand')")  # another program writes the file
    service.act("Road", lambda ctx: add_character(ctx, "After", {"max_hp": 5}))
    service.act("Road", lambda ctx: add_character(ctx, "Again", {"max_hp": 5}))
    assert reads == [1]
