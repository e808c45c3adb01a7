"""Export/import: one JSON file per campaign, back losslessly, also across backends; `sawbones backup`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sawbones.adapters.backends import open_store
from sawbones.adapters.transfer import events_equal
from sawbones.application.service import Service
from sawbones.domain.engine import campaign as decide
from sawbones.domain.engine.damage import damage
from sawbones.domain.injuries.rules import injure
from sawbones.domain.engine.timeline import advance
from sawbones.errors import UsageError
from sawbones.interfaces.cli import main

FIXTURES = Path(__file__).parent / "fixtures"


def _played(url: str, name: str = "Trip") -> Service:
    service = Service.open(url)
    service.create_campaign(name, "dnd5e", 11)
    service.act(name, lambda ctx: decide.add_character(ctx, "Aria", {"max_hp": 30, "abilities": {"con": 14}}))
    service.act(name, lambda ctx: decide.add_character(ctx, "Bob", {"max_hp": 12, "notes": "Zoë — «bard»"}))
    service.act(name, lambda ctx: damage(ctx, "Aria", [(25, "fire")]))
    service.act(name, lambda ctx: injure(ctx, "Bob", "cold", 4, site="hand"))
    service.act(name, lambda ctx: decide.set_option(ctx, "severity_bands", "lenient"))
    service.undo(name)
    service.act(name, lambda ctx: advance(ctx, 3 * 86400))
    return service


def _same_document(a: dict, b: dict) -> bool:
    strip = lambda d: {k: v for k, v in d.items() if k != "exported_at"}  # noqa: E731
    return strip(a) == strip(b)


def test_round_trip_is_lossless(store_url, tmp_path):
    source = _played(str(tmp_path / "source.db"))
    doc = source.export_campaign("Trip")
    assert doc["format"] == "sawbones-campaign" and len(doc["events"]) == 8
    text = json.dumps(doc)
    target = Service.open(store_url)  # SQLite -> SQLite, and SQLite -> PostgreSQL
    assert target.import_campaign(json.loads(text)) == "Trip"
    assert events_equal(target.log("Trip"), source.log("Trip"))
    assert _same_document(target.export_campaign("Trip"), doc), "export(import(export)) == export"
    assert target.load("Trip").state == source.load("Trip").state
    back = Service.open(str(tmp_path / "back.db"))  # ... and back again
    back.import_campaign(target.export_campaign("Trip"))
    assert _same_document(back.export_campaign("Trip"), doc)
    target.act("Trip", lambda ctx: advance(ctx, 60))  # the imported campaign plays on
    assert target.load("Trip").state.clock == source.load("Trip").state.clock + 60


def test_postgresql_to_sqlite(pg_url, tmp_path):
    source = _played(pg_url, "FromPg")
    target = Service.open(str(tmp_path / "t.db"))
    target.import_campaign(source.export_campaign("FromPg"))
    assert events_equal(target.log("FromPg"), source.log("FromPg"))
    assert target.load("FromPg").state == source.load("FromPg").state


def test_import_under_another_name(tmp_path):
    service = _played(str(tmp_path / "c.db"))
    doc = service.export_campaign("Trip")
    with pytest.raises(UsageError, match="already exists.*--as"):
        service.import_campaign(doc)
    assert service.import_campaign(doc, "Trip 2") == "Trip 2"
    copy = service.load("Trip 2").state
    assert copy.name == "Trip 2" and copy.characters == service.load("Trip").state.characters
    assert [e.data for e in service.log("Trip 2")][1:] == [e.data for e in service.log("Trip")][1:]


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.update(format="other"), "not a sawbones export"),
    (lambda d: d.update(format_version=99), "format version 99"),
    (lambda d: d.update(events=[]), "holds no events"),
    (lambda d: d["events"].pop(2), "without gaps"),
    (lambda d: d["events"][1].pop("data"), r"events\[1\] lacks data"),
    (lambda d: d["events"][1].update(version="2"), "wrong type"),
    (lambda d: d["events"][1].update(type="no_such_event"), "does not replay"),
    (lambda d: d["events"].pop(0), "first event must be campaign_created"),
])
def test_a_bad_export_is_refused_and_nothing_is_written(tmp_path, mutate, message):
    service = _played(str(tmp_path / "c.db"))
    doc = service.export_campaign("Trip")
    mutate(doc)
    with pytest.raises(UsageError, match=message):
        service.import_campaign(doc, "Copy")
    assert service.store.campaign_names() == ["Trip"]


def test_cli_export_import_and_backup(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    db = str(tmp_path / "c.db")
    _played(db)

    def run(*args):
        capsys.readouterr()
        code = main(["--db", db, *args])
        out = capsys.readouterr()
        return code, out.out, out.err

    code, out, err = run("export", "trip.json")
    assert code == 0 and "exported to trip.json" in out, err
    code, out, _ = run("export")
    assert code == 0 and json.loads(out)["campaign"] == "Trip"
    code, _, err = run("import", "trip.json")
    assert code == 2 and "already exists" in err and "Traceback" not in err
    code, out, _ = run("--json", "import", "trip.json", "--as", "Copy")
    assert code == 0 and json.loads(out) == {"imported": "Copy", "file": "trip.json", "events": 8}
    code, _, err = run("import", "missing.json")
    assert code == 2 and "cannot read missing.json" in err
    Path("junk.json").write_text("{not json")
    code, _, err = run("import", "junk.json")
    assert code == 2 and "not a sawbones export" in err

    code, out, err = run("--json", "backup", "bk")
    assert code == 0, err
    done = json.loads(out)
    assert [c["campaign"] for c in done["campaigns"]] == ["Trip", "Copy"]
    other = str(tmp_path / "restored.db")
    for item in done["campaigns"]:
        assert main(["--db", other, "import", item["file"]]) == 0
    restored = Service.open(other)
    original = Service.open(db)
    for name in ("Trip", "Copy"):
        assert events_equal(restored.log(name), original.log(name))
    copy = open_store(done["database_copy"])  # the SQLite online backup opens as a database of its own
    assert copy.campaign_names() == ["Trip", "Copy"] and copy.check() == []


def test_an_export_of_the_old_fixture_imports_into_the_new_store(tmp_path):
    shutil.copy(FIXTURES / "schema1.db", tmp_path / "old.db")
    old = Service.open(str(tmp_path / "old.db"))
    new = Service.open(str(tmp_path / "new.db"))
    new.import_campaign(old.export_campaign("Old Road"))
    assert events_equal(new.log("Old Road"), old.log("Old Road"))
    assert new.load("Old Road").state == old.load("Old Road").state
