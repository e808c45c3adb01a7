"""Hostile or broken inputs to the storage layer (imports, URLs, a full disk): one line, nothing half-written."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sawbones.adapters import locks
from sawbones.adapters.backends import open_store
from sawbones.adapters.transfer import MAX_NESTING
from sawbones.application import service as service_module
from sawbones.application.service import Service
from sawbones.domain.engine.campaign import add_character
from sawbones.interfaces.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _cli(capsys, *args: str):
    capsys.readouterr()
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def _export(tmp_path) -> dict:
    db = str(tmp_path / "src.db")
    service = Service(open_store(db))
    service.create_campaign("Road", "dnd5e", 1)
    service.act("Road", lambda ctx: add_character(ctx, "Aria", {"max_hp": 12}))
    return service.export_campaign("Road")


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [MAX_NESTING + 1, 100_000])
def test_an_import_nested_too_deep_is_one_line(tmp_path, capsys, monkeypatch, depth):
    doc = _export(tmp_path)
    text = json.dumps(doc).replace('"data": {', f'"data": {{"deep": {_nested(depth)}, ', 1)
    path = tmp_path / "deep.json"
    path.write_text(text)
    db = str(tmp_path / "dst.db")
    code, _, err = _cli(capsys, "--db", db, "import", str(path), "--as", "Deep")
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert f"JSON nested more than {MAX_NESTING} deep" in err
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO(text))
    code, _, err = _cli(capsys, "--db", db, "import", "-", "--as", "Deep")
    assert code == 2 and f"JSON nested more than {MAX_NESTING} deep" in err, err
    assert "Deep" not in Service.open(db).store.campaign_names()


def test_the_bound_is_exact():
    from sawbones.adapters.transfer import check_nesting
    from sawbones.errors import UsageError

    check_nesting(json.loads(_nested(MAX_NESTING)))
    with pytest.raises(UsageError, match="nested more than"):
        check_nesting(json.loads(_nested(MAX_NESTING + 1)))


@pytest.mark.parametrize("field,value,message", [
    ("created_at", "NaN", "is not a number JSON allows"),
    ("created_at", "Infinity", "is not a number JSON allows"),
    ("created_at", "1e400", "too large a number"),
    ("created_at", "-5", "created_at is not a time"),
    ("action", str(2**63), "action is out of range"),
    ("version", str(2**64), "version is out of range"),
    ("schema_version", "true", "wrong type"),
])
def test_numbers_an_import_cannot_hold(tmp_path, capsys, field, value, message):
    doc = _export(tmp_path)
    text = json.dumps(doc)
    event = json.dumps(doc["events"][1])
    changed = json.dumps({**doc["events"][1], field: "@@"}).replace('"@@"', value)
    path = tmp_path / "bad.json"
    path.write_text(text.replace(event, changed))
    code, _, err = _cli(capsys, "--db", str(tmp_path / "dst.db"), "import", str(path), "--as", "Bad")
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert message in err and "already exists" not in err


@pytest.mark.parametrize("url,message", [
    ("postgresql://gm:hunter2@db.example:abc/sawbones", "the port a number"),
    ("postgresql://gm:hunter2@db.example:99999999/sawbones", "a port is 1 to 65535"),
    ("postgresql://gm:hunter2@[::1/sawbones", "cannot read the database URL"),
])
def test_a_database_url_that_cannot_be_read(capsys, url, message):
    code, _, err = _cli(capsys, "--db", url, "campaign", "list")
    assert code == 2 and err.count("\n") == 1 and message in err and "hunter2" not in err, err


LIMITED = """
import resource, sys
from sawbones.interfaces.cli import main
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))   # a size-limited file system
sys.exit(main(["--db", sys.argv[2], "backup", sys.argv[3]]))
"""


@pytest.mark.parametrize("limit", [40_000, 200_000])
def test_a_backup_that_runs_out_of_room_leaves_nothing_behind(tmp_path, limit):
    db = str(tmp_path / "big.db")
    service = Service(open_store(db))
    service.create_campaign("Big", "dnd5e", 1)
    for n in range(60):
        service.act("Big", lambda ctx, n=n: add_character(ctx, f"Pc{n}", {"max_hp": 12, "notes": "x" * 2000}))
    service.store.dispose()
    before = Path(db).read_bytes()
    backups = tmp_path / "backups"
    backups.mkdir()
    done = subprocess.run([sys.executable, "-c", LIMITED, str(limit), db, str(backups)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert "the backup failed (a file reached this process's file-size limit" in done.stderr
    assert list(backups.iterdir()) == [], "no folder, no partial file"
    assert Path(db).read_bytes() == before


def test_a_full_disk_is_called_a_full_disk(tmp_path, monkeypatch):
    import resource
    import shutil
    from collections import namedtuple

    from sawbones.adapters.faults import space_problem

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(resource, "getrlimit", lambda what: (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(100, 100, 0))
    assert str(space_problem(tmp_path / "x.db")).startswith("the disk is full")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(10**12, 0, 10**12))
    assert space_problem(tmp_path / "x.db") == ""


def test_the_docs_say_what_the_code_does():
    text = (ROOT / "docs" / "deployment.md").read_text()
    assert f"up to {service_module.RETRIES} times" in text
    assert f"{locks.LOCK_WAIT:g} seconds" in text and "SAWBONES_LOCK_WAIT" in text
    assert not re.search(r"up to (?!%d )\d+ times" % service_module.RETRIES, text)
