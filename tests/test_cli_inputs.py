"""What a GM types on the command line (issue 39, item 8), from the user's steps: `campaign set
magic_heals_per_effect -1` and `advance -1d` answered "No such option '-1'"; `advance 2 days` gave no hint;
`damag` got no "did you mean". Each now reaches the command or gets a line saying what to type, in both
languages; a mistyped option is still refused."""

from __future__ import annotations

import pytest


@pytest.fixture
def table(cli):
    assert cli("campaign", "create", "Table", "--seed", "3").code == 0
    assert cli("character", "add", "Aria", "--max-hp", "20").code == 0
    return cli


@pytest.mark.parametrize("lang, said", [
    ("en", "option magic_heals_per_effect takes a whole number from 1, not -1"),
    ("fr", "l'option magic_heals_per_effect prend un nombre entier à partir de 1, pas -1")])
def test_a_negative_option_value_is_read_and_refused_for_what_it_is(table, lang, said):
    out = table("--lang", lang, "campaign", "set", "magic_heals_per_effect", "-1")
    assert out.code != 0 and said in out.err and "No such option" not in out.err and "inconnue" not in out.err
    assert table("campaign", "set", "magic_heals_per_effect", "2").code == 0


@pytest.mark.parametrize("lang, said", [
    ("en", "the clock only moves forward: '-1d' is negative"),
    ("fr", "l'horloge n'avance que vers l'avant : '-1d' est négatif")])
def test_a_negative_advance_says_the_clock_only_moves_forward(table, lang, said):
    out = table("--lang", lang, "advance", "-1d")
    assert out.code != 0 and said in out.err and out.err.count("\n") == 1


def test_a_duration_typed_in_words_is_read(table):
    before = table("--json", "clock").json["seconds"]
    assert table("advance", "2", "days").code == 0
    assert table("advance", "1", "jour", "12", "heures").code == 0
    assert table("--json", "clock").json["seconds"] - before == (2 + 1.5) * 86400


@pytest.mark.parametrize("lang, typed, said", [
    ("en", ["damag", "Aria", "3", "fire"], "No such command 'damag'. Did you mean damage?"),
    ("fr", ["damag", "Aria", "3", "fire"], "Commande inconnue : 'damag'. Vouliez-vous dire damage ?"),
    ("en", ["campaign", "sett", "who_rolls", "gm"], "No such command 'sett'. Did you mean set?")])
def test_a_mistyped_command_gets_a_did_you_mean(table, lang, typed, said):
    out = table("--lang", lang, *typed)
    assert out.code == 2 and said in out.err and out.err.count("\n") == 1


def test_an_unknown_option_is_still_refused_and_option_values_may_be_negative(table):
    out = table("advance", "1d", "--bonsu")
    assert out.code == 2 and "No such option '--bonsu'" in out.err
    assert table("--json", "odds", "--injury", "fire", "--d20", "3", "--bonus", "-2").json["bonus"] == -2
    refused = table("damage", "Aria", "-5", "fire")  # reaches the command, which says what is allowed
    assert refused.code != 0 and "between 0 and" in refused.err
