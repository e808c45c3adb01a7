"""presentation/typeset.py: numbers from Babel's CLDR data, units and ordinals from the catalog, in the reader's
language (issue 38): the outputs every screen showed before, English for a language Babel does not know, and
Babel imported only when a number is written (the CLI's start does not pay for it)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sawbones.presentation.locale import speaking
from sawbones.presentation.typeset import (amount, colon, counted, decimal, general, labelled, listed, ordinal,
                                           percent, span, unit_name, unit_plural)

NNBSP = "\u202f"  # French groups thousands with a narrow no-break space (CLDR)


def said(lang, words, *args):
    with speaking(lang):
        return words(*args)


@pytest.mark.parametrize("lang, expected", [
    ("en", ["18.9%", "<0.1%", ">99.9%", "0%", "1.09", "2.5", "4", "2.52 days", "1.00 day", "1.5 drops to 0",
            "1 drop to 0", "0 events", "1st", "22nd", "13th", "50 min", "2.4 hours", "1.5 days", "a; b", "x: y"]),
    ("fr", ["18,9\u00a0%", "<0,1\u00a0%", ">99,9\u00a0%", "0\u00a0%", "1,09", "2,5", "4", "2,52 jours", "1,00 jour",
            "1,5 chute à 0", "1 chute à 0", "0 événement", "1er", "22e", "13e", "50 min", "2,4 heures", "1,5 jour",
            "a ; b", "x : y"]),
])
def test_the_words_of_numbers_as_before(lang, expected):
    with speaking(lang):
        got = [percent(0.189), percent(0.0004), percent(0.9996), percent(0), decimal(1.094, 2), general(2.5),
               general(4.0), amount(2.52, 2, "day"), amount(1, 2, "day"), counted(1.5, "drop"), counted(1, "drop"),
               counted(0, "event"), ordinal(1), ordinal(22), ordinal(13), span(50 / 60 / 24), span(0.1), span(1.5),
               listed(["a", "b"]), labelled("x", "y")]
    assert got == expected


def test_plural_forms_come_from_the_catalog_and_cldr():
    # whole amounts: the catalog's Plural-Forms (French: singular for 0 and 1); fractions: CLDR's categories
    assert [said("fr", unit_name, "week", n) for n in (0, 1, 1.5, 2, 3)] == \
        ["semaine", "semaine", "semaine", "semaines", "semaines"]
    assert [said("en", unit_name, "week", n) for n in (0, 1, 1.5, 2)] == ["weeks", "week", "weeks", "weeks"]
    assert said("fr", unit_plural, "day") == "jours" and said("en", unit_name, "fortnight", 2) == "fortnight"


def test_thousands_are_grouped_as_the_language_groups_them():
    assert said("en", decimal, 1234.5, 2) == "1,234.50" and said("fr", decimal, 1234.5, 2) == f"1{NNBSP}234,50"
    assert said("en", general, 12345) == "12,345"


@pytest.mark.parametrize("lang", ["qps", "en_XA", "zz"])
def test_a_language_babel_does_not_know_writes_numbers_as_english(lang):
    with speaking(lang):
        assert (percent(0.189), decimal(1234.5, 1)) == ("18.9%", "1,234.5")


def test_python_rounds_as_before():
    assert said("en", decimal, 2.675, 2) == f"{2.675:.2f}" and said("fr", colon) == " : "


def test_babel_is_not_imported_until_a_number_is_written():
    code = ("import sys\nimport sawbones.presentation.typeset, sawbones.presentation.views, "
            "sawbones.presentation.sentences\nassert 'babel' not in sys.modules, 'babel imported at start'\n"
            "from sawbones.presentation.typeset import percent\npercent(0.5)\nassert 'babel.numbers' in sys.modules\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
