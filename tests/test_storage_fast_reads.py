"""Reads of a current SQLite database skip SQLAlchemy; anything else goes to the full store."""

import shutil
import subprocess
import sys
from pathlib import Path

from sawbones.adapters.sqlite_reader import FastSqliteStore, open_fast
from sawbones.application.service import Service

FIXTURES = Path(__file__).parent / "fixtures"


def test_a_read_only_command_does_not_import_sqlalchemy(tmp_path):
    db = str(tmp_path / "c.db")
    Service.open(db).create_campaign("Fast", "dnd5e", 1)
    code = ("import sys; from sawbones.interfaces.cli import main; rc = main(['--db', sys.argv[1], 'status']); "
            "print('SQLALCHEMY' if 'sqlalchemy' in sys.modules else 'CLEAN', rc)")
    out = subprocess.run([sys.executable, "-c", code, db], capture_output=True, text=True, check=True).stdout
    assert out.strip().endswith("CLEAN 0")


def test_writes_go_through_the_full_store(tmp_path):
    db = str(tmp_path / "c.db")
    Service.open(db).create_campaign("Fast", "dnd5e", 1)
    service = Service.open(db)
    assert isinstance(service.store, FastSqliteStore)
    service.act("Fast", lambda ctx: [{"type": "clock_advanced", "data": {"seconds": 6}}])
    assert service.load("Fast").state.clock == 6
    assert Service.open(db).load("Fast").state.clock == 6


def test_an_older_schema_is_opened_by_the_full_store_which_migrates(tmp_path):
    old = tmp_path / "old.db"
    shutil.copy(FIXTURES / "schema1.db", old)
    assert open_fast(str(old)) is None
    service = Service.open(str(old))
    assert not isinstance(service.store, FastSqliteStore)
    assert service.store.campaign_names()
    assert isinstance(Service.open(str(old)).store, FastSqliteStore), "migrated: now current"


def test_a_missing_or_foreign_file_is_left_to_the_full_store(tmp_path):
    assert open_fast(str(tmp_path / "missing.db")) is None
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database" * 100)
    assert open_fast(str(junk)) is None
