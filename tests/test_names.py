"""The one name rule (domain/names.py) at every entry point, and accent- and case-blind lookups."""

from __future__ import annotations

import json

import pytest

from sawbones.domain.engine.names import check_name, fold, pick
from sawbones.errors import UsageError
from sawbones.interfaces.cli import main

REFUSED = ["a\nb", "a\x00b", "a\u202eb", "a\u200bb", "a\ud800b", "\x7fx", "tab\there"]


@pytest.mark.parametrize("bad", REFUSED)
def test_control_format_and_surrogate_characters_are_refused(bad):
    for what in ("campaign", "character"):
        with pytest.raises(UsageError, match="cannot contain U\\+"):
            check_name(bad, what)


@pytest.mark.parametrize("bad", ["a/b", "?", "#1", "50%", "a\\b"])
def test_campaign_names_cannot_hold_what_links_reserve(bad):
    with pytest.raises(UsageError, match="campaign name cannot contain"):
        check_name(bad, "campaign")
    assert check_name(bad, "character") == bad  # a character name is never in a path


def test_names_are_trimmed_and_composed():
    assert check_name("  E\u0301loi\u0308se ", "character") == "Éloïse"
    with pytest.raises(UsageError, match="needs a name"):
        check_name("   ", "campaign")
    with pytest.raises(UsageError, match="at most 80"):
        check_name("x" * 81, "character")


def test_folding_ignores_case_and_accents():
    assert fold("Éloïse") == fold("ELOISE") == fold("eloise")


def test_pick_prefers_exact_and_refuses_ambiguity():
    items = ["Éloïse", "Eloise", "Bran"]
    assert pick("Eloise", items, lambda n: (n,)) == "Eloise"
    assert pick("bran", items, lambda n: (n,)) == "Bran"
    assert pick("nobody", items, lambda n: (n,)) is None
    with pytest.raises(UsageError, match="could be several"):
        pick("eloise", items, lambda n: (n,))


def run(tmp_path, *args):
    return main(["--db", str(tmp_path / "s.db"), *args])


@pytest.mark.parametrize("bad", ["a/b", "?", "#", "%", "x\u202ey"])
def test_cli_refuses_what_the_web_refuses(tmp_path, capsys, bad):
    assert run(tmp_path, "campaign", "create", bad) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and err.count("\n") == 1


def test_cli_finds_eloise_without_accents(tmp_path, capsys):
    assert run(tmp_path, "campaign", "create", "Forêt", "--seed", "1") == 0
    assert run(tmp_path, "character", "add", "Éloïse", "--max-hp", "20") == 0
    assert run(tmp_path, "-c", "foret", "--json", "status", "eloise") == 0
    out = capsys.readouterr().out
    assert '"name": "Éloïse"' in out
    assert run(tmp_path, "character", "add", "ELOISE") == 2  # the same name, folded: refused
    assert "already has a character" in capsys.readouterr().err


def test_campaign_rename_keeps_the_story_and_the_current_choice(tmp_path, capsys):
    assert run(tmp_path, "campaign", "create", "Old", "--seed", "1") == 0
    assert run(tmp_path, "character", "add", "Aria", "--max-hp", "12") == 0
    assert run(tmp_path, "campaign", "rename", "old", "Nouvelle ère") == 0
    capsys.readouterr()
    assert run(tmp_path, "--json", "campaign", "show") == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["name"] == "Nouvelle ère" and [c["name"] for c in doc["characters"]] == ["Aria"]
    assert run(tmp_path, "campaign", "rename", "Nouvelle ère", "a/b") == 2
    assert run(tmp_path, "undo") == 0  # undoes the character, not the rename
    capsys.readouterr()
    assert run(tmp_path, "--json", "campaign", "list") == 0
    assert json.loads(capsys.readouterr().out)["campaigns"] == ["Nouvelle ère"]


def test_import_applies_the_name_rule(tmp_path, capsys):
    from sawbones.application.service import Service

    service = Service.open(str(tmp_path / "s.db"))
    service.create_campaign("Good", "dnd5e", 1)
    doc = service.export_campaign("Good")
    with pytest.raises(UsageError, match="cannot contain"):
        service.import_campaign(doc, "bad\nname")
    with pytest.raises(UsageError, match="campaign name cannot contain"):
        service.import_campaign(doc, "a/b")
