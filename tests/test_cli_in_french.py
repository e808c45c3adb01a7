"""Every line the CLI prints reads in the reader's language, and a count agrees with its noun in both ("1 événement",
"2 événements", "1 event", "0 events"): the storage commands, `wound-heal`, `odds --party`, the combat's end."""

from __future__ import annotations

import re

import pytest

ENGLISH = re.compile(r"\b(Campaign|exported|imported|Backed up|events?|database copy|Healed|No wound|HP recovered"
                     r"|drop\(s\)|drops? to 0|extra dose|condition\(s\))\b")


@pytest.fixture
def table(cli):
    assert cli("campaign", "create", "T", "--seed", "4").code == 0
    assert cli("character", "add", "Vex", "--hp", "12").code == 0
    return cli


def test_the_storage_commands_speak_french(table, tmp_path):
    lines = []
    for args in (("export", str(tmp_path / "t.json")), ("import", str(tmp_path / "t.json"), "--as", "T2"),
                 ("backup", str(tmp_path / "bk"))):
        done = table("--lang", "fr", *args)
        assert done.code == 0, done.err
        lines += done.out.splitlines()
    assert not [line for line in lines if ENGLISH.search(line)], lines
    assert any("exportée dans" in line and "(2 événements)" in line for line in lines), lines
    assert any(line.startswith("Sauvegarde de 2 campagnes dans") for line in lines), lines
    assert "(2 events)" in table("export", str(tmp_path / "u.json")).out


def test_wound_heal_speaks_french(table):
    table("wound", "Vex", "hand", "--side", "left", "--damage", "3")
    out = table("--lang", "fr", "wound-heal", "Vex", "--gm", "w1").out
    assert out.startswith("Guéries : w1") and not ENGLISH.search(out), out


@pytest.mark.parametrize("drops, en, fr", [("1", "1 drop to 0", "1 chute à 0"), ("1.5", "1.5 drops to 0", "1,5 chute à 0"),
                                           ("2", "2 drops to 0", "2 chutes à 0")])
def test_a_count_agrees_with_its_noun_in_both_languages(cli, drops, en, fr):
    """English: plural unless exactly 1; French: singular under 2 ("1,5 chute")."""
    assert en in cli("odds", "--party", "--drops", drops, "--compare", "severity_bands").out
    assert fr in cli("--lang", "fr", "odds", "--party", "--drops", drops, "--compare", "severity_bands").out


def test_a_french_error_names_the_content_in_french_and_says_ou(cli):
    """An error carries content names and lists (a spell, an injury, its severity, the magic it needs, the sides
    of a body part, the names one may have meant, "none"): in French, the French names, "ou", "aucune", never the
    English ones ("Lose a Foot or Hand", "Critical", "or", "none")."""
    assert cli("campaign", "create", "T", "--seed", "4").code == 0
    assert cli("character", "add", "Cy", "--hp", "30").code == 0
    cli("damage", "Cy", "30", "slashing", "--d20", "1")  # a lost hand or foot: Heal or Regenerate (critical_magic)
    cli("stabilize", "Cy")
    said = {args: cli("--lang", "fr", *args).err for args in (
        ("heal", "Cy", "--spell", "cure_wounds"), ("wound", "Cy", "hand", "--damage", "2"),
        ("treat", "Cy", "i9"), ("expose", "Cy", "filth_fevr"), ("wound-heal", "Cy", "w1", "--gm"),
        ("answer", "p9", "12"))}
    english = re.compile(r"\b(or|none|Lose|Foot|Hand|Critical|Regenerate|needs|injuries|wounds)\b")
    assert not {args: err for args, err in said.items() if english.search(err)}, said
    heal = said[("heal", "Cy", "--spell", "cure_wounds")]
    assert "Perte d'un pied ou d'une main, Sérieuse) demande Guérison ou Régénération" in heal, heal
    assert "--side left ou right" in said[("wound", "Cy", "hand", "--damage", "2")]  # (the flag once: the API says `side`)
    assert "(aucune blessure)" in said[("wound-heal", "Cy", "w1", "--gm")]
