"""The CLI through its runner: every foundation command, its JSON, and its errors (one line, right exit code)."""

import json
import subprocess
import sys
import textwrap

import pytest


@pytest.fixture
def campaign(cli):
    assert cli("campaign", "create", "Alpha", "--seed", "1").code == 0
    return cli


def test_no_campaign_yet_is_a_usage_error(cli):
    result = cli("status")
    assert result.code == 2 and result.err.startswith("error:") and "campaign create" in result.err
    assert len(result.err.strip().splitlines()) == 1


def test_campaign_create_list_use_show(cli):
    assert cli("campaign", "create", "Alpha", "--seed", "1").code == 0
    assert cli("campaign", "create", "Beta", "--system", "pf1e").code == 0
    listed = cli("--json", "campaign", "list").json
    assert listed == {"campaigns": ["Alpha", "Beta"], "current": "Beta"}
    assert cli("campaign", "use", "Alpha").code == 0
    shown = cli("--json", "campaign", "show").json
    assert shown["name"] == "Alpha" and shown["system"] == "dnd5e" and shown["seed"] == 1
    assert cli("--json", "--campaign", "Beta", "campaign", "show").json["system"] == "pf1e"


def test_duplicate_campaign_and_bad_system(cli):
    cli("campaign", "create", "Alpha")
    assert cli("campaign", "create", "Alpha").code == 2
    result = cli("campaign", "create", "Gamma", "--system", "gurps")
    assert result.code == 2 and "gurps" in result.err


def test_use_unknown_campaign(campaign):
    result = campaign("campaign", "use", "Nope")
    assert result.code == 2 and "no campaign named 'Nope'" in result.err


def test_campaign_set_and_reset(campaign):
    assert campaign("campaign", "set", "severity_bands", "lenient").code == 0
    assert campaign("--json", "campaign", "show").json["options"] == {"severity_bands": "lenient"}
    assert campaign("campaign", "set", "severity_bands", "--reset").code == 0
    assert campaign("--json", "campaign", "show").json["options"] == {}
    bad = campaign("campaign", "set", "severity_bands", "gentle")
    assert bad.code == 2 and "standard, lenient" in bad.err
    unknown = campaign("campaign", "set", "no_such_option", "1")
    assert unknown.code == 2 and "no_such_option" in unknown.err
    assert campaign("campaign", "set", "apply_to_npcs", "maybe").code == 2
    assert campaign("campaign", "set", "critical_bedrest", "9999d9999").code == 2


def test_campaign_options_lists_every_option(campaign, rules):
    doc = campaign("--json", "campaign", "options").json
    assert {o["id"] for o in doc["options"]} == set(rules.options)


def test_character_add_edit_list_remove(campaign):
    added = campaign("--json", "character", "add", "Aria", "--max-hp", "20", "--abilities", "str=14,dex=12",
                     "--saves", "con=3", "--prof", "medicine", "--hit-die", "d8", "--hit-dice", "2",
                     "--body", "eyes=1").json
    assert added["id"] == "aria" and added["abilities"]["str"] == 14 and added["body"]["eyes"] == 1
    assert added["injuries"] == []
    edited = campaign("--json", "character", "edit", "aria", "--hp", "5", "--name", "Aria the Bold").json
    assert edited["hp"] == 5 and edited["name"] == "Aria the Bold"
    listed = campaign("--json", "character", "list").json["characters"]
    assert [c["name"] for c in listed] == ["Aria the Bold"]
    assert campaign("character", "remove", "Aria the Bold").code == 0
    assert campaign("--json", "character", "list").json["characters"] == []


@pytest.mark.parametrize("args, message", [
    (["character", "add", "X", "--abilities", "str=abc"], "NAME=NUMBER"),
    (["character", "add", "X", "--abilities", "luck=3"], "unknown ability 'luck'"),
    (["character", "add", "X", "--abilities", "str=50"], "1 to 30"),
    (["character", "add", "X", "--hit-die", "d7"], "d7"),
    (["character", "add", "X", "--max-hp", "0"], "--max-hp"),
    (["character", "add", "X", "--body", "tails=1"], "unknown body part"),
    (["character", "edit", "Nobody", "--hp", "3"], "no character named 'Nobody'"),
    (["character", "add"], "Missing argument"),
    (["status", "Nobody"], "no character named"),
    (["advance", "soon"], "cannot read duration"),
    (["advance", "0d"], "zero"),
    (["roll", "fire", "--d20", "21"], "1 to 20"),
    (["roll", "sonic"], "unknown damage type 'sonic'"),
    (["tables", "nothing"], "no table 'nothing'"),
    (["frobnicate"], "No such command"),
])
def test_usage_errors_are_one_line_exit_2(campaign, args, message):
    result = campaign(*args)
    assert result.code == 2, result.err
    assert message in result.err and "Traceback" not in result.err
    assert len(result.err.strip().splitlines()) == 1


def test_duplicate_character(campaign):
    campaign("character", "add", "Aria")
    result = campaign("character", "add", "aria")
    assert result.code == 2 and "already has a character" in result.err


def test_json_error_document(campaign):
    result = campaign("--json", "status", "Nobody")
    assert result.code == 2 and json.loads(result.out)["error"]["code"] == "not_found"


def test_tables_browse_in_both_languages(cli):
    index = cli("--json", "tables").json
    assert len(index["damage_tables"]) == 13 and len(index["diseases"]) == 13 and len(index["poisons"]) == 9
    fire_en = cli("--json", "tables", "fire").json
    fire_fr = cli("--json", "--lang", "fr", "tables", "fire").json
    assert fire_en["name"] == "Fire" and fire_fr["name"] == "Feu"
    assert [r["injury"] for r in fire_en["rows"]] == [r["injury"] for r in fire_fr["rows"]]
    assert fire_fr["rows"][2]["name"] == "Cloques"
    for table_id in ("severity", "body_parts", "physical_disease", "filth_fever", "deathblade", "lose_an_eye"):
        assert cli("--json", "tables", table_id).code == 0
    assert "Fièvre des marais" in cli("--lang", "fr", "tables", "filth_fever").out


def test_roll_takes_the_players_d20(cli):
    doc = cli("--json", "roll", "fire", "--d20", "12").json
    assert (doc["injury"], doc["severity"], doc["typed"]) == ("blisters", "minor", True)
    assert cli("--json", "roll", "fire", "--d20", "2", "--bands", "lenient").json["injury"] == "major_burns"
    random_doc = cli("--json", "roll", "cold").json
    assert 1 <= random_doc["d20"] <= 20 and not random_doc["typed"]


def test_roll_uses_the_campaign_bands(campaign):
    campaign("campaign", "set", "severity_bands", "lenient")
    assert campaign("--json", "roll", "fire", "--d20", "4").json["severity"] == "moderate"


def test_log_and_undo(campaign):
    campaign("character", "add", "Aria")
    campaign("character", "add", "Bob")
    assert campaign("--json", "undo").json["undone_action"] == 3
    assert [c["name"] for c in campaign("--json", "character", "list").json["characters"]] == ["Aria"]
    log = campaign("--json", "log").json["events"]
    assert [(e["type"], e["undone"]) for e in log] == [
        ("campaign_created", False), ("character_added", False), ("character_added", True), ("action_undone", False)]
    assert all(e["schema_version"] == 1 and e["content_version"] for e in log)
    campaign("undo")
    assert campaign("--json", "character", "list").json["characters"] == []
    result = campaign("undo")
    assert result.code == 1 and "nothing to undo" in result.err


def test_clock_and_advance(campaign):
    assert campaign("--json", "clock").json["seconds"] == 0
    campaign("advance", "3r")
    campaign("advance", "10min")
    campaign("advance", "1d2h")
    doc = campaign("--json", "clock").json
    assert doc["seconds"] == 18 + 600 + 86400 + 7200
    assert doc["text"] == "day 2, 02:10:18"
    assert campaign("--json", "--lang", "fr", "clock").json["text"].startswith("jour 2")


def test_status_carries_ids(campaign):
    campaign("character", "add", "Aria", "--max-hp", "5")
    campaign("damage", "Aria", "9", "fire", "--d20", "19")
    doc = campaign("--json", "status").json
    assert doc["characters"][0]["injuries"][0]["id"] == "i1"


def test_escaped_names_are_just_names(campaign):
    name = "<script>alert(1)</script> [bold]x[/]"
    assert campaign("character", "add", name).code == 0
    assert name in campaign("status").out


def test_content_pack_adds_a_damage_type_and_a_poison(cli, tmp_path):
    pack = tmp_path / "homebrew"
    pack.mkdir()
    (pack / "sonic.yaml").write_text(textwrap.dedent("""\
        damage_tables:
          - id: sonic
            name: {fr: Sonique, en: Sonic}
            rows:
              - {d20: "11-20", injury: tinnitus, text: {fr: Acouphènes., en: Tinnitus.}}
              - {d20: "6-10", injury: temporary_deafness, text: {fr: Sourd., en: Deaf.}}
              - {d20: "3-5", injury: minor_concussion, text: {fr: Commotion., en: Concussion.}}
              - {d20: "1-2", injury: torn_auditory_nerve, magic_only: true, text: {fr: Nerf., en: Nerve.}}
        afflictions:
          - id: drow_sleep_poison
            name: {fr: Poison de sommeil drow, en: Drow Sleep Poison}
            kind: poison
            vectors: [injury]
            dc: 13
            tracks: [constitution_poison]
            frequency: {unit: round, count: 2}
            cure: {consecutive_saves: 1, text: {fr: 1 JS, en: 1 save}}
            table_text: {fr: Homebrew, en: Homebrew}
        """), encoding="utf-8")
    result = cli("--content", str(pack), "--json", "roll", "sonic", "--d20", "2")
    assert result.code == 0, result.err
    assert result.json["injury"] == "torn_auditory_nerve"
    assert cli("--content", str(pack), "--json", "tables", "drow_sleep_poison").json["dc"] == 13
    (pack / "bad.yaml").write_text("afflictions:\n  - id: x\n    dc: 3\n", encoding="utf-8")
    bad = cli("--content", str(pack), "tables")
    assert bad.code == 2 and "bad.yaml" in bad.err and "afflictions[x]" in bad.err


def test_damaged_database_is_a_clear_error(tmp_path, capsys):
    from sawbones.interfaces.cli import main

    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not a database at all" * 100)
    code = main(["--db", str(path), "campaign", "list"])
    err = capsys.readouterr().err
    assert code == 1 and "not a sawbones database" in err and "Traceback" not in err


def test_python_dash_m_and_help_work():
    out = subprocess.run([sys.executable, "-m", "sawbones", "--help"], capture_output=True, text=True, check=True)
    assert "Usage" in out.stdout and "damage" in out.stdout
