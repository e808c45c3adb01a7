"""Migrations: a database made by the first schema (tests/fixtures/schema1.db, revision 1) upgrades on
open without losing or changing one event; the same upgrade runs on PostgreSQL; a newer database is refused.

schema1.db was written by sawbones' first store (before Alembic) through the CLI: two campaigns,
characters, damage, injuries, a rest, clock advances and an undo. schema1_events.json is its log as
it was stored, read with plain sqlite3 at the time.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from sawbones.adapters import migrate
from sawbones.adapters.store import StoredEvent
from sawbones.adapters.engines import dispose_all
from sawbones.adapters.backends import open_store
from sawbones.application.service import Service, replay
from sawbones.errors import StoreError

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "schema1_events.json").read_text())


@pytest.fixture
def old_db(tmp_path):
    path = tmp_path / "old.db"
    shutil.copy(FIXTURES / "schema1.db", path)
    return str(path)


def _as_dicts(events):
    return [{"version": e.version, "action": e.action, "type": e.type, "schema_version": e.schema_version,
             "content_version": e.content_version, "data": e.data, "created_at": e.created_at} for e in events]


def test_the_fixture_is_a_revision_1_database():
    raw = sqlite3.connect(FIXTURES / "schema1.db")
    tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables == {"campaigns", "events", "meta"}
    assert raw.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == ("1",)
    raw.close()


def test_an_old_database_upgrades_without_losing_an_event(old_db):
    service = Service.open(old_db)
    store = service.store
    assert store.campaign_names() == ["Old Road", "Second"]
    for name, expected in EXPECTED.items():
        assert _as_dicts(store.events(store.campaign_id(name), upcast=False)) == expected
    assert service.store.get_meta("current_campaign") == "Second"
    state = service.load("Old Road").state
    assert [c.name for c in state.characters] == ["Aria", "Brom", "Cy"]
    assert state.clock == 230400 and dict(state.options) == {}, "the undone option stays undone"
    raw = sqlite3.connect(old_db)
    assert raw.execute("SELECT version_num FROM alembic_version").fetchall() == [(migrate.HEAD,)]
    assert raw.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == ("2",)
    assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    raw.close()
    # and it goes on: a new action, a reopen
    service.act("Old Road", lambda ctx: [{"type": "clock_advanced", "data": {"seconds": 6}}])
    again = open_store(old_db)
    assert again.head(again.campaign_id("Old Road")) == len(EXPECTED["Old Road"]) + 1


def test_opening_an_up_to_date_database_does_not_run_alembic(old_db):
    open_store(old_db)
    code = ("import sys; from sawbones.adapters.backends import open_store; s = open_store(sys.argv[1]); "
            "s.campaign_names(); print('alembic' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, old_db], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "False", out.stderr


def test_the_cli_reads_an_old_database(old_db, capsys):
    from sawbones.interfaces.cli import main

    assert main(["--db", old_db, "--json", "-c", "Old Road", "status"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [c["name"] for c in doc["characters"]] == ["Aria", "Brom", "Cy"]


def test_a_database_from_a_newer_sawbones_is_refused(old_db):
    open_store(old_db)
    dispose_all()  # this process would otherwise keep its (already checked) engine
    raw = sqlite3.connect(old_db)
    raw.execute("UPDATE alembic_version SET version_num='9999'")
    raw.commit()
    raw.close()
    with pytest.raises(StoreError, match=r"revision 9999\) is newer than this sawbones"):
        open_store(old_db)


def test_the_old_store_would_refuse_a_migrated_database(old_db):
    """meta.schema_version becomes 2: the pre-Alembic store refused any schema above 1."""
    open_store(old_db)
    raw = sqlite3.connect(old_db)
    assert int(raw.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0]) > 1
    raw.close()


def test_postgresql_at_revision_1_upgrades_too(pg_url):
    from alembic import command
    from alembic.config import Config

    engine = sa.create_engine(pg_url)
    with engine.begin() as conn:
        cfg = Config()
        cfg.set_main_option("script_location", str(Path(migrate.__file__).parent / "migrations"))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
        tables = set(sa.inspect(conn).get_table_names())
        assert "snapshots" not in tables and {"campaigns", "events", "meta"} <= tables
        for cid, (name, events) in enumerate(EXPECTED.items(), start=1):
            conn.execute(sa.text("INSERT INTO campaigns(id, name, created_at) VALUES (:i, :n, 0)"),
                         {"i": cid, "n": name})
            conn.execute(sa.text("INSERT INTO events(campaign_id, version, action, type, schema_version, "
                                 "content_version, data, created_at) VALUES (:c, :v, :a, :t, :s, :cv, :d, :ts)"),
                         [{"c": cid, "v": e["version"], "a": e["action"], "t": e["type"], "s": e["schema_version"],
                           "cv": e["content_version"], "d": json.dumps(e["data"], separators=(",", ":"),
                                                                        sort_keys=True),
                           "ts": e["created_at"]} for e in events])
        conn.execute(sa.text("SELECT setval(pg_get_serial_sequence('campaigns', 'id'), 2)"))
    engine.dispose()
    store = open_store(pg_url)
    for name, expected in EXPECTED.items():
        assert _as_dicts(store.events(store.campaign_id(name), upcast=False)) == expected
    state = replay(store.events(store.campaign_id("Old Road")))[0]
    assert [c.name for c in state.characters] == ["Aria", "Brom", "Cy"]
    assert store.create_campaign("Third") == 3
    with store.db.transaction() as conn:
        assert conn.value("SELECT version_num FROM alembic_version") == migrate.HEAD


def test_migrations_are_a_straight_line_ending_at_head():
    from alembic.script import ScriptDirectory
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(migrate.__file__).parent / "migrations"))
    script = ScriptDirectory.from_config(cfg)
    assert script.get_heads() == [migrate.HEAD]
    assert [r.revision for r in reversed(list(script.walk_revisions()))] == list(migrate.REVISIONS)
