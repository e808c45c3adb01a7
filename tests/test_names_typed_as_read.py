"""Names typed as they are read (issue 39, item 5), from the user's steps: a French GM reads `tranchant`, `feu`,
« Fièvre des marais » and types them back; `damage Gaspard 12 tranchant`, `feu`, `odds "fièvre des marais"`,
`cure gaspard "fièvre des marais"`, `--side gauche` were refused. Every content name a screen shows (damage
types, afflictions, injuries, spells, body parts) is resolved in one place, content/rules.py `Rules.resolve`, in
either language, accents optional, with a "did you mean" among the names close to what was typed; the CLI's
choices (body sides, hands) take the words the screens show too."""

from __future__ import annotations

import pytest

from sawbones.content.rules import fold


@pytest.fixture
def table(cli):
    assert cli("campaign", "create", "Table", "--seed", "3").code == 0
    for name, hp in (("Gaspard", 30), ("Éloïse", 30)):
        assert cli("character", "add", name, "--max-hp", str(hp)).code == 0
    return cli


def test_one_fold_for_every_name():
    assert fold("Fièvre  des MARAIS") == fold("fievre des marais") and fold("Œil") == fold("oeil")


@pytest.mark.parametrize("typed, id_", [("slashing", "slashing"), ("tranchant", "slashing"), ("Tranchant", "slashing"),
                                        ("feu", "fire"), ("Perforant", "piercing"), ("foudre", "lightning")])
def test_a_damage_type_in_either_language(rules, typed, id_):
    assert rules.resolve("damage_tables", typed) == id_


@pytest.mark.parametrize("section, typed, id_", [
    ("afflictions", "fièvre des marais", "filth_fever"), ("afflictions", "Fievre des marais", "filth_fever"),
    ("afflictions", "filth fever", "filth_fever"), ("afflictions", "filth-fever", "filth_fever"),
    ("body_parts", "oeil", "eye"), ("body_parts", "main", "hand"), ("body_parts", "jambe", "foot_leg"),
    ("injuries", "Paralysie temporaire", "temporary_paralysis")])
def test_content_names_in_either_language_accents_optional(rules, section, typed, id_):
    assert rules.resolve(section, typed) == id_


def test_the_gms_commands_take_the_names_they_read(table):
    hit = table("--json", "damage", "Gaspard", "12", "tranchant")
    assert hit.code == 0, hit.err
    assert table("--json", "damage", "eloise", "3", "feu").code == 0
    assert table("--json", "log").json  # both stored with their ids
    exposed = table("--json", "expose", "Éloïse", "Fièvre des marais", "--save", "1")
    assert exposed.code == 0, exposed.err
    odds = table("--json", "odds", "fièvre des marais")
    assert odds.code == 0 and odds.json["affliction"] == "filth_fever"
    cured = table("cure", "eloise", "fievre des marais", "--spell", "remove_disease", "--cl-check", "30")
    assert cured.code == 0, cured.err
    wound = table("--json", "wound", "Gaspard", "main", "--side", "gauche", "--damage", "2")
    assert wound.code == 0, wound.err
    assert table("--json", "odds", "--injury", "perforant", "--d20", "8", "--bonus", "5").json["table"] == "piercing"
    assert table("tables", "tranchant").code == 0


@pytest.mark.parametrize("lang, said", [
    ("en", "unknown damage type 'tranchent': did you mean Tranchant?"),
    ("fr", "type de dégâts inconnu : 'tranchent' ; vouliez-vous dire Tranchant ?")])
def test_did_you_mean_offers_the_names_close_to_what_was_typed(table, lang, said):
    out = table("--lang", lang, "damage", "Gaspard", "3", "tranchent")
    assert out.code != 0 and said in out.err


def test_an_english_typo_gets_the_english_name(table):
    out = table("damage", "Gaspard", "3", "slashng")
    assert "did you mean Slashing?" in out.err


@pytest.mark.parametrize("args", [["--lang", "fr", "--help"], ["--lang", "fr", "damage", "--help"],
                                  ["--lang", "fr", "serve", "--help"], ["--lang", "fr", "campaign", "--help"]])
def test_help_in_french_when_the_language_is_french(cli, args):
    out = cli(*args).out
    assert out.startswith("Utilisation :") and "Affiche ce message et quitte." in out
    assert "Usage:" not in out and "Show this message" not in out and "[default:" not in out


def test_help_in_french_from_the_environment_and_english_otherwise(cli, monkeypatch):
    assert cli("damage", "--help").out.startswith("Usage:")
    monkeypatch.setenv("SAWBONES_LANG", "fr")
    out = cli("--help").out
    assert "Commandes :" in out and "Inflige des dégâts" in out
    monkeypatch.delenv("SAWBONES_LANG")
    assert cli("--help").out.startswith("Usage:")
