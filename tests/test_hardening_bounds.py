"""Importing many characters is bounded and linear. The attacker's steps (a GM, or anyone with the API secret):
import a party file of thousands of characters; fill a campaign past any use, one import after another or one
`character add` at a time. Past the documented bounds (domain/engine/roster.py: 500 characters an import, 1,000
a campaign) each is refused in one line, nothing written; under them, names are still found as the command line
finds them (case- and accent-blind), those the import itself added too."""

from __future__ import annotations

from sawbones.domain.engine.roster import MAX_CHARACTERS, MAX_IMPORT


def _party(tmp_path, name: str, count: int, first: int = 0):
    path = tmp_path / name
    path.write_text("name,max_hp\n" + "".join(f"Member {i:05d},12\n" for i in range(first, first + count)),
                    encoding="utf-8")
    return str(path)


def _count(cli) -> int:
    result = cli("--json", "status")
    assert result.code == 0, result.err
    return len(result.json["characters"])


def test_an_import_past_its_bound_is_one_line_and_writes_nothing(cli, tmp_path):
    assert cli("campaign", "create", "Crowd", "--seed", "1").code == 0
    refused = cli("character", "import", _party(tmp_path, "huge.csv", MAX_IMPORT + 1))
    assert refused.code != 0 and "Traceback" not in refused.err
    assert f"at most {MAX_IMPORT} characters" in refused.err and len(refused.err.strip().splitlines()) == 1
    assert _count(cli) == 0


def test_a_campaign_past_its_bound_refuses_more_characters(cli, tmp_path):
    assert cli("campaign", "create", "Crowd", "--seed", "1").code == 0
    for batch in range(MAX_CHARACTERS // MAX_IMPORT):
        done = cli("character", "import", _party(tmp_path, f"p{batch}.csv", MAX_IMPORT, batch * MAX_IMPORT))
        assert done.code == 0, done.err
    assert _count(cli) == MAX_CHARACTERS
    again = cli("character", "import", _party(tmp_path, "again.csv", 1))  # its member 0 exists: an update
    assert again.code == 0, again.err
    more = cli("character", "import", _party(tmp_path, "more.csv", 1, MAX_CHARACTERS))
    assert more.code != 0 and f"at most {MAX_CHARACTERS} characters" in more.err, more.err
    added = cli("character", "add", "One Too Many", "--max-hp", "10")
    assert added.code != 0 and f"at most {MAX_CHARACTERS} characters" in added.err, added.err
    assert _count(cli) == MAX_CHARACTERS


def test_an_import_finds_names_as_the_command_line_does(cli, tmp_path):
    assert cli("campaign", "create", "Names", "--seed", "1").code == 0
    for name in ("Éloïse", "Eloise Two"):
        assert cli("character", "add", name, "--max-hp", "10").code == 0
    path = tmp_path / "p.csv"
    path.write_text("name,max_hp\neloise,30\nELOISE TWO,25\n", encoding="utf-8")
    assert cli("character", "import", str(path)).code == 0
    assert _count(cli) == 2
    hp = {c["name"]: c["max_hp"] for c in cli("--json", "status").json["characters"]}
    assert hp == {"Éloïse": 30, "Eloise Two": 25}
    path.write_text("name,max_hp\nÉloïse Three,20\néloïse three,21\n", encoding="utf-8")  # added, then updated
    assert cli("character", "import", str(path)).code == 0
    hp = {c["name"]: c["max_hp"] for c in cli("--json", "status").json["characters"]}
    assert hp["Éloïse Three"] == 21 and len(hp) == 3
