"""Opening a database: a current one is read and written on the DB-API driver alone (no SQLAlchemy, no
Alembic); one that needs its schema created or upgraded is migrated once, then opens like any other."""

import shutil
import subprocess
import sys
from pathlib import Path

from sawbones.application.service import Service
from sawbones.interfaces.cli import main

FIXTURES = Path(__file__).parent / "fixtures"
HEAVY = "print(sorted(m for m in ('sqlalchemy', 'alembic') if m in sys.modules), rc)"


def _run(code: str, *args: str) -> str:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          check=True).stdout.strip().splitlines()[-1]


def test_a_read_only_command_does_not_import_sqlalchemy(tmp_path):
    db = str(tmp_path / "c.db")
    Service.open(db).create_campaign("Fast", "dnd5e", 1)
    code = ("import sys; from sawbones.interfaces.cli import main; rc = main(['--db', sys.argv[1], 'status']); "
            + HEAVY)
    assert _run(code, db) == "[] 0"


def test_a_write_on_a_current_database_is_read_back_by_another_process(tmp_path):
    db = str(tmp_path / "c.db")
    assert main(["--db", db, "campaign", "create", "Fast"]) == 0
    assert main(["--db", db, "character", "add", "Aria", "--max-hp", "12"]) == 0
    code = ("import sys; from sawbones.interfaces.cli import main; "
            "rc = main(['--db', sys.argv[1], 'damage', 'Aria', '5', 'fire']); " + HEAVY)
    assert _run(code, db) == "[] 0", "the write opened the store without SQLAlchemy, and succeeded"
    character = Service.open(db).load("Fast").state.characters[0]
    assert character.hp == 7


def test_an_older_schema_is_migrated_once_then_opens_without_alembic(tmp_path):
    old = str(tmp_path / "old.db")
    shutil.copy(FIXTURES / "schema1.db", old)
    code = ("import sys; from sawbones.application.service import Service; s = Service.open(sys.argv[1]); "
            "rc = len(s.store.campaign_names()); " + HEAVY)
    first = _run(code, old)
    assert first.startswith("['alembic', 'sqlalchemy']") and not first.endswith(" 0"), "migrated, campaigns kept"
    assert _run(code, old) == f"[] {first.split()[-1]}", "now current: no migration code at all"


def test_a_new_database_is_created_at_the_head_revision(tmp_path):
    db = str(tmp_path / "new.db")
    service = Service.open(db)
    service.create_campaign("New", "dnd5e", 1)
    from sawbones.adapters.records import HEAD

    with service.store.db.transaction() as conn:
        assert conn.value("SELECT version_num FROM alembic_version") == HEAD


def test_a_foreign_file_is_one_line(tmp_path, capsys):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database" * 100)
    assert main(["--db", str(junk), "status"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "not a sawbones database" in err and "Traceback" not in err
    assert len(err.splitlines()) == 1
