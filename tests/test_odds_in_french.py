"""Every odds screen reads whole in French and is typeset as French: `sawbones --lang fr odds ...` in each of its
forms, and the dashboard's and the tables' charts. The checks are the reader's, not the code's:

- no word of the English screen is left on the French one, but true cognates and what the GM types (ids of
  options, the `--system` value, dice) — "DC", "day", a save's id ("fortitude") once were;
- a decimal comma ("1,09", "18,9 %"), never a decimal point;
- a space before the colon and before "%" ("mort : 20,7 %").
"""

from __future__ import annotations

import re

import pytest

from sawbones.presentation.typeset import amount, decimal, ordinal, percent, unit_name
from sawbones.presentation.locale import speaking
from test_i18n import COGNATES
from test_pages_in_french import WORD, site, visible  # noqa: F401 (site: a fixture)

# the same in both languages: cognates, the `--system` values and what the dice and the JSON hint say (the ids
# of options and their values, which a GM types, are added from the content: `_typed`)
SHARED = {"bonus", "d20", "kl", "dnd5e", "pf1e", "D&D", "json", "t", "min", "round", "rounds", "minutes", "option",
          "options", "Latent", "Lotus", "affliction", "dose", "table", "true", "false", *COGNATES}


def said(lang, words, *args):
    """What a typeset function writes for a reader of `lang`."""
    with speaking(lang):
        return words(*args)


def _typed(rules) -> set[str]:
    """What a GM types to set an option: its id and its values (`campaign set severity_bands lenient`)."""
    out = set()
    for o in rules.options.values():
        out |= {o.id, *(str(c) for c in o.choices or ())}
    return out


def english_left(fr: str, en: str) -> set[str]:
    """The words of the English screen still on the French one (less the shared ones)."""
    from sawbones.content.loader import load_rules

    shared = SHARED | _typed(load_rules())
    return (set(WORD.findall(fr)) & set(WORD.findall(en))) - {w for s in shared for w in WORD.findall(s)}


def typeset_wrong(fr: str) -> list[str]:
    """The places where French typesetting is broken: a decimal point, a colon or "%" glued to what precedes."""
    wrong = re.findall(r"\d\.\d+", fr)
    wrong += re.findall(r"\S+(?<![ \u00a0])(?:%|:(?=\s))", fr)
    return wrong


CLI_FORMS = [
    ("odds", "filth_fever", "--bonus", "3"),
    ("odds", "filth_fever", "--bonus", "3", "--curve", "--days", "4"),
    ("odds", "deathblade", "--bonus", "0..3"),
    ("odds", "deathblade", "--bonus", "2", "--from-stage", "impaired", "--doses", "1"),
    ("odds", "--all", "--bonus", "0..2"),
    ("odds", "--injury", "slashing"),
    ("odds", "--injury", "cold", "--d20", "3", "--bonus", "5", "--wait", "2"),
    ("odds", "--injury", "slashing", "--d20", "12", "--bonus", "2", "--self"),
    ("odds", "--injury", "fire", "--d20", "1", "--bonus", "0..3"),
    ("odds", "--party", "--types", "fire=2,cold", "--wait", "1.5", "--compare",
     "severity_bands,retry_requires_time"),
]


@pytest.mark.parametrize("args", CLI_FORMS, ids=lambda a: " ".join(a[1:4]))
def test_every_odds_command_reads_in_french(cli, args):
    en, fr = cli("--lang", "en", *args), cli("--lang", "fr", *args)
    assert en.code == fr.code == 0, (en.err, fr.err)
    assert not english_left(fr.out, en.out), (english_left(fr.out, en.out), fr.out)
    assert not typeset_wrong(fr.out), (typeset_wrong(fr.out), fr.out)
    assert bool(re.search(r"\d\.\d", en.out)) == bool(re.search(r"\d,\d", fr.out))  # (each decimal, in French)


def test_a_save_is_named_as_the_system_names_it(cli):
    """The affliction's save: a Constitution save in 5e, Fortitude (Vigueur) in Pathfinder; never its id."""
    assert "Constitution save DC 12" in cli("odds", "filth_fever", "--system", "dnd5e").out
    assert "Fortitude DC 12" in cli("odds", "filth_fever", "--system", "pf1e").out
    assert "Vigueur DD 12" in cli("--lang", "fr", "odds", "filth_fever", "--system", "pf1e").out
    assert "fortitude" not in cli("odds", "filth_fever", "--system", "pf1e").out


def test_the_words_of_numbers():
    assert said("fr", percent, 0.189) == "18,9\u00a0%" and said("en", percent, 0.189) == "18.9%"
    assert said("fr", percent, 0.0004) == "<0,1\u00a0%" and said("en", percent, 0.9996) == ">99.9%" and said("en", percent, 0) == "0%"
    assert said("fr", decimal, 1.094, 2) == "1,09"
    assert said("en", amount, 2.52, 2, "day") == "2.52 days" and said("en", amount, 1, 2, "day") == "1.00 day"
    assert said("fr", amount, 1.5, 2, "day") == "1,50 jour" and said("fr", amount, 2, 0, "hour") == "2 heures"
    assert said("fr", unit_name, "week", 3) == "semaines" and said("en", unit_name, "fortnight", 2) == "fortnight"
    assert [said("en", ordinal, n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == \
        ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]
    assert [said("fr", ordinal, n) for n in (1, 2, 10)] == ["1er", "2e", "10e"]


@pytest.fixture(scope="module")
def browser(site):
    """The GM's browser on the French pages' campaign (test_pages_in_french.site)."""
    return site[0]


def _panels(html: str) -> str:
    """The visible texts of the odds panels (the dashboard's two, the tables' chart)."""
    chunks = re.findall(r'<(?:section class="panel" id="(?:odds|injury-odds|what-if)"|div class="injury-odds").*?</section>',
                        html, re.S)
    return "\n".join(sorted(t for chunk in chunks for t in visible(chunk)))


@pytest.mark.parametrize("url", [
    "/c/Alpha?odds=filth_fever&bonus=4&itype=cold&id20=4&ibonus=5&iwait=1.5",
    "/c/Alpha?odds=deathblade&bonus=1&itype=slashing&id20=12&ibonus=0",
    "/c/Alpha?odds=filth_fever&bonus=4&itype=fire&id20=1&ibonus=3&iwait=2",
    "/c/Alpha?whatif=1&wdrops=1.5&wbonus=4",
    "/tables/cold",
])
def test_every_odds_chart_reads_in_french(browser, url):
    en, fr = (_panels(browser.get(f"{url}&lang={lang}" if "?" in url else f"{url}?lang={lang}").text)
              for lang in ("en", "fr"))
    assert re.search(r"\d,\d", fr) and re.search(r"\d\.\d", en)  # (the panels are there, with their numbers)
    assert not english_left(fr, en), (english_left(fr, en), fr)
    assert not typeset_wrong(fr), (typeset_wrong(fr), fr)


def test_a_french_decimal_is_read_and_a_wrong_number_said_in_french(browser):
    """The days before treatment typed as a French GM types them (1,5); a number out of range, in the page's
    language, with what was typed."""
    fr = browser.get("/c/Alpha?itype=cold&id20=4&ibonus=5&iwait=1,5&lang=fr").text
    assert "jours avant les soins 1,5" in fr
    bad = visible(browser.get("/c/Alpha?itype=cold&id20=25&lang=fr").text)
    assert "d20\u00a0: de 1 à 20, pas 25" in bad, sorted(bad)
    bad = visible(browser.get("/c/Alpha?itype=cold&id20=4&ibonus=abc&lang=en").text)
    assert "healer's bonus: a whole number, not 'abc'" in bad, sorted(bad)
