"""Damage in a stored log is found where it is read, before the next append, and said in one line."""

from __future__ import annotations

import logging

import pytest
import sqlalchemy as sa

from sawbones.adapters.engines import dispose_all
from sawbones.adapters.backends import open_store
from sawbones.application import service as service_module
from sawbones.application.service import Service, code_version
from sawbones.domain.engine.campaign import add_character
from sawbones.interfaces.cli import main


def _url(store_url: str) -> str:
    return store_url if "://" in store_url else f"sqlite:///{store_url}"


def _sql(store_url: str, statement: str, **params) -> list:
    engine = sa.create_engine(_url(store_url))
    try:
        with engine.begin() as conn:
            result = conn.execute(sa.text(statement), params)
            return result.all() if result.returns_rows else []
    finally:
        engine.dispose()


def _fresh() -> None:
    """What a new process sees: no pooled connection, no remembered state."""
    dispose_all()
    service_module.MEMORY.clear()


def _cli(capsys, store_url: str, *args: str):
    _fresh()
    capsys.readouterr()
    code = main(["--db", store_url, "-c", "Road", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def road(store_url):
    """A campaign of four events: created, Aria, Brom, Cy; event 3 (Brom) is the one damaged."""
    service = Service(open_store(store_url))
    service.create_campaign("Road", "dnd5e", 1)
    for name in ("Aria", "Brom", "Cy"):
        service.act("Road", lambda ctx, name=name: add_character(ctx, name, {"max_hp": 12}))
    cid = service.store.campaign_id("Road")
    _fresh()
    return store_url, cid


def _head(store_url: str, cid: int) -> int:
    return _sql(store_url, "SELECT COUNT(*) FROM events WHERE campaign_id = :c", c=cid)[0][0]


# each part of a stored event, changed behind sawbones' back (a disk fault, a hand edit, a bad restore)
PARTS = {
    "version": "UPDATE events SET version = 30 WHERE campaign_id = :c AND version = 3",
    "action": "UPDATE events SET action = action + 5 WHERE campaign_id = :c AND version = 3",
    "type": "UPDATE events SET type = 'character_removed' WHERE campaign_id = :c AND version = 3",
    "data": "UPDATE events SET data = REPLACE(data, 'Brom', 'Brim') WHERE campaign_id = :c AND version = 3",
    "data not JSON": "UPDATE events SET data = SUBSTR(data, 2) WHERE campaign_id = :c AND version = 3",
    "schema_version": "UPDATE events SET schema_version = 0 WHERE campaign_id = :c AND version = 3",
    "content_version": "UPDATE events SET content_version = 'x' || content_version WHERE campaign_id = :c AND version = 3",
    "created_at": "UPDATE events SET created_at = created_at + 1 WHERE campaign_id = :c AND version = 3",
    "checksum": "UPDATE events SET checksum = 'deadbeefdeadbeef' WHERE campaign_id = :c AND version = 3",
    "checksum lost": "UPDATE events SET checksum = NULL WHERE campaign_id = :c AND version = 3",
}


@pytest.mark.parametrize("part", PARTS)
def test_a_changed_part_of_an_event_is_one_line_and_blocks_writes(road, capsys, part):
    store_url, cid = road
    _sql(store_url, PARTS[part], c=cid)
    for args in (("status",), ("log",), ("character", "add", "Dag", "--max-hp", "9")):
        code, _, err = _cli(capsys, store_url, *args)
        assert code == 1 and err.count("\n") == 1 and "Traceback" not in err, (args, err)
        assert "campaign 'Road': event 3 is damaged" in err, (args, err)
        assert "nothing was written" in err and "export --upto 2" in err and "backup" in err
    assert _head(store_url, cid) == 4, "nothing was appended after the damage"
    problems = open_store(store_url).check()
    assert any("event 3 is damaged" in p for p in problems)


def test_the_intact_part_exports_and_imports_under_a_new_name(road, capsys, tmp_path):
    store_url, cid = road
    _sql(store_url, PARTS["data"], c=cid)
    code, _, err = _cli(capsys, store_url, "export", "--upto", "2", str(tmp_path / "intact.json"))
    assert code == 0, err
    code, _, err = _cli(capsys, store_url, "import", str(tmp_path / "intact.json"), "--as", "Road kept")
    assert code == 0, err
    state = Service(open_store(store_url)).load("Road kept").state
    assert [c.name for c in state.characters] == ["Aria"]


def _flip(path, marker: bytes, replacement: bytes) -> None:
    data = path.read_bytes()
    assert marker in data, "checkpointed into the file (a type is also in its index: both change)"
    path.write_bytes(data.replace(marker, replacement))


@pytest.mark.parametrize("marker,replacement", [
    (b"Zanzibar", b"Zanzibas"),  # a flipped bit in the event's data: still valid text
    (b"Zanzibar", b"Zanz\xffbar"),  # a flipped byte that is not UTF-8
    (b"noted_zz", b"noted_zy"),  # in the event's type
])
def test_a_flipped_byte_in_the_file(tmp_path, capsys, marker, replacement):
    db = tmp_path / "road.db"
    service = Service(open_store(str(db)))
    service.create_campaign("Road", "dnd5e", 1)
    service.act("Road", lambda ctx: add_character(ctx, "Zanzibar", {"max_hp": 12}))
    service.store.append(service.store.campaign_id("Road"), 2, 3, [{"type": "noted_zz", "data": {}}], "c")
    _fresh()
    _flip(db, marker, replacement)
    event = 2 if marker == b"Zanzibar" else 3
    for args in (("status",), ("character", "add", "Dag", "--max-hp", "9")):
        code, _, err = _cli(capsys, str(db), *args)
        assert code == 1 and err.count("\n") == 1 and "Traceback" not in err, err
        assert f"campaign 'Road': event {event} is damaged" in err, err
    assert _head(str(db), 1) == 3


def test_damage_behind_the_newest_snapshot_is_found_by_a_full_read(store_url, capsys):
    service = Service(open_store(store_url))
    service.create_campaign("Road", "dnd5e", 1)
    service.act("Road", lambda ctx: add_character(ctx, "Brom", {"max_hp": 12}))
    for n in range(120):
        service.act("Road", lambda ctx, n=n: add_character(ctx, f"Extra{n}", {"max_hp": 1}))
    cid = service.store.campaign_id("Road")
    assert service.store.snapshots(cid, code_version())
    _sql(store_url, PARTS["data"].replace("version = 3", "version = 2"), c=cid)
    code, _, err = _cli(capsys, store_url, "log", "--limit", "1000")  # the whole log, read back
    assert code == 1 and "campaign 'Road': event 2 is damaged" in err
    code, _, err = _cli(capsys, store_url, "export")
    assert code == 1 and "campaign 'Road': event 2 is damaged" in err
    assert any("event 2 is damaged" in p for p in open_store(store_url).check())


def test_an_unknown_event_type_names_the_event_and_its_versions(road, capsys):
    store_url, cid = road
    store = open_store(store_url)
    store.append(cid, 4, 5, [{"type": "dragon_sighted", "data": {"where": "north"}}], "rules-from-the-future")
    for args in (("status",), ("character", "add", "Dag", "--max-hp", "9")):
        code, _, err = _cli(capsys, store_url, *args)
        assert code == 1 and err.count("\n") == 1 and "Traceback" not in err, err
        assert "campaign 'Road': event 5 has type 'dragon_sighted', unknown to this sawbones" in err
        assert "event schema 1, rules rules-from-the-future" in err and "upgrade sawbones" in err


@pytest.mark.parametrize("damage", [
    "UPDATE snapshots SET state = REPLACE(state, '12', '19')",  # a digit changed: still decodes
    "UPDATE snapshots SET state = SUBSTR(state, 1, 40)",  # cut short
    "UPDATE snapshots SET state = 'not json at all'",
])
def test_a_damaged_snapshot_is_ignored_with_a_warning_and_rebuilt(store_url, capsys, caplog, damage):
    service = Service(open_store(store_url))
    service.create_campaign("Road", "dnd5e", 1)
    for n in range(105):
        service.act("Road", lambda ctx, n=n: add_character(ctx, f"Pc{n}", {"max_hp": 12}))
    cid = service.store.campaign_id("Road")
    expected = service.load("Road").state
    assert service.store.snapshots(cid, code_version())
    _sql(store_url, damage)
    with caplog.at_level(logging.WARNING, logger="sawbones"):
        code, out, err = _cli(capsys, store_url, "--json", "status")
    assert code == 0, err
    assert any("snapshot of campaign 'Road'" in r.getMessage() and "ignored" in r.getMessage()
               for r in caplog.records)
    _fresh()
    reread = Service(open_store(store_url))
    assert reread.load("Road").state == expected, "the state comes from the log, not the damaged cache"
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="sawbones"):
        _fresh()
        assert Service(open_store(store_url)).load("Road").state == expected
    assert not caplog.records, "the snapshot was rebuilt: no warning the next time"


def test_undecodable_snapshot_text_is_ignored(tmp_path, capsys):
    db = str(tmp_path / "road.db")
    service = Service(open_store(db))
    service.create_campaign("Road", "dnd5e", 1)
    for n in range(105):
        service.act("Road", lambda ctx, n=n: add_character(ctx, f"Pc{n}", {"max_hp": 12}))
    expected = service.load("Road").state
    _sql(db, "UPDATE snapshots SET state = CAST(x'ff41ff' AS TEXT)")
    _fresh()
    assert Service.open(db).load("Road").state == expected


def test_an_event_from_a_newer_schema_names_the_event(road, capsys):
    store_url, cid = road
    _sql(store_url, "UPDATE events SET schema_version = 99 WHERE campaign_id = :c AND version = 4", c=cid)
    _sql(store_url, "UPDATE events SET checksum = :s WHERE campaign_id = :c AND version = 4",
         c=cid, s=_resum(store_url, cid, 4))
    code, _, err = _cli(capsys, store_url, "status")
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err, err
    assert "campaign 'Road': event 4: an event of type 'character_added' has schema version 99" in err


def _resum(store_url: str, cid: int, version: int) -> str:
    """The checksum a newer sawbones would have written with the event."""
    from sawbones.adapters.records import checksum

    row = _sql(store_url, "SELECT version, action, type, data, schema_version, content_version, created_at "
                          "FROM events WHERE campaign_id = :c AND version = :v", c=cid, v=version)[0]
    return checksum(*row)


@pytest.mark.parametrize("damage", [
    "UPDATE snapshots SET state = CAST(state AS BLOB)",  # bytes where text was stored (issue 41, item 6)
    "UPDATE snapshots SET state = 12",
    "UPDATE snapshots SET version = 'ten'",
    "UPDATE snapshots SET action = x'00'",
])
def test_a_snapshot_of_the_wrong_type_is_ignored_not_a_traceback(tmp_path, capsys, damage):
    """SQLite keeps any type in any column: a value read back is checked for its type as well as its seal."""
    db = str(tmp_path / "road.db")
    service = Service(open_store(db))
    service.create_campaign("Road", "dnd5e", 1)
    for n in range(105):
        service.act("Road", lambda ctx, n=n: add_character(ctx, f"Pc{n}", {"max_hp": 12}))
    expected = service.load("Road").state
    _sql(db, damage)
    code, out, err = _cli(capsys, db, "--json", "status")
    assert code == 0 and "Traceback" not in err, err
    _fresh()
    assert Service.open(db).load("Road").state == expected


def test_a_meta_value_of_the_wrong_type_is_none(tmp_path):
    db = str(tmp_path / "road.db")
    store = open_store(db)
    store.set_meta("current_campaign", "Road")
    _sql(db, "UPDATE meta SET value = x'526f6164' WHERE key = 'current_campaign'")
    _fresh()
    assert open_store(db).get_meta("current_campaign") is None


def test_a_campaign_name_that_is_not_text_is_left_out_of_the_list(tmp_path, capsys):
    db = str(tmp_path / "road.db")
    service = Service(open_store(db))
    for name in ("Road", "Sea"):
        service.create_campaign(name, "dnd5e", 1)
    _sql(db, "UPDATE campaigns SET name = CAST(name AS BLOB) WHERE name = 'Sea'")
    code, out, err = _cli(capsys, db, "--json", "campaign", "list")
    assert code == 0 and "Traceback" not in err, err
    assert "Road" in out
