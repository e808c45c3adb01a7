"""A damaged, foreign or unreachable database is one clear line, never a traceback."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from sawbones.adapters.engines import dispose_all
from sawbones.adapters.backends import open_store
from sawbones.application.service import Service
from sawbones.errors import StoreError, UsageError
from sawbones.interfaces.cli import main

FIXTURES = Path(__file__).parent / "fixtures"


def _cli(capsys, *args):
    capsys.readouterr()
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("content", [b"this is not a database at all" * 100, b"\x00" * 4096, b"SQLite format 3\x00"])
def test_junk_is_not_a_sawbones_database(tmp_path, capsys, content):
    path = tmp_path / "junk.db"
    path.write_bytes(content)
    with pytest.raises(StoreError, match="not a sawbones database"):
        open_store(str(path))
    code, _, err = _cli(capsys, "--db", str(path), "campaign", "list")
    assert code == 1 and "not a sawbones database" in err and "Traceback" not in err
    assert err.count("\n") == 1


def test_another_programs_database_is_refused_untouched(tmp_path, capsys):
    path = tmp_path / "app.db"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT)")
    raw.commit()
    raw.close()
    code, _, err = _cli(capsys, "--db", str(path), "campaign", "list")
    assert code == 1 and "not a sawbones database (it holds other tables: users)" in err
    raw = sqlite3.connect(path)
    assert [r[0] for r in raw.execute("SELECT name FROM sqlite_master")] == ["users"]
    raw.close()


@pytest.mark.parametrize("migrated_first", [False, True])
def test_a_damaged_sawbones_database(tmp_path, capsys, migrated_first):
    path = tmp_path / "damaged.db"
    shutil.copy(FIXTURES / "schema1.db", path)
    if migrated_first:
        Service.open(str(path)).load("Old Road")
        dispose_all()
    data = bytearray(path.read_bytes())
    page = 4096
    for start in range(page, len(data), page):  # scribble over every page but the header page
        data[start + 8:start + 200] = b"\xa5" * 192
    path.write_bytes(bytes(data))
    (tmp_path / "damaged.db-wal").unlink(missing_ok=True)
    code, _, err = _cli(capsys, "--db", str(path), "-c", "Old Road", "status")
    assert code == 1 and "Traceback" not in err and err.count("\n") == 1
    assert "the database file is damaged" in err and "restore it from a backup" in err


def test_a_directory_or_a_missing_folder(tmp_path, capsys):
    """A --db that names a folder, or a file in a folder that does not exist: a usage error (exit 2, as the README
    says of every usage error)."""
    code, _, err = _cli(capsys, "--db", str(tmp_path), "campaign", "list")
    assert code == 2 and "directory" in err
    code, _, err = _cli(capsys, "--db", str(tmp_path / "no" / "such" / "dir.db"), "campaign", "list")
    assert code == 2 and "cannot open the database" in err


def test_urls(capsys, monkeypatch, tmp_path):
    with pytest.raises(UsageError, match="unsupported database URL 'mysql://u:\\*\\*\\*@h/db'"):
        open_store("mysql://u:secret@h/db")
    with pytest.raises(UsageError, match="unsupported PostgreSQL driver"):
        open_store("postgresql+asyncpg://u@h/db")
    assert open_store(f"sqlite:///{tmp_path}/u.db").backend == "sqlite"
    monkeypatch.setenv("SAWBONES_DATABASE_URL", f"sqlite:///{tmp_path}/env.db")
    assert Service.open().store.where == f"{tmp_path}/env.db"
    code, _, err = _cli(capsys, "--db", "postgresql://sawbones:hunter2@127.0.0.1:1/nothing", "campaign", "list")
    assert code == 1 and "database unavailable" in err and "hunter2" not in err and "Traceback" not in err
