"""An option's values read as the GM reads them (follow-up of issue 39): `campaign options --lang fr` shows each
choice in French, and `campaign set` takes it in either language, accents optional, through Rules.resolve; the
names are content (options.yaml choice_names), checked at load. And a spell of the other game system is refused
naming the campaign's own spells in the reader's language.
"""

from __future__ import annotations

import textwrap
import unicodedata

import pytest

from sawbones.content.loader import load_rules
from sawbones.content.rules import fold
from sawbones.domain.engine.options import parse_option_value
from sawbones.errors import ContentError, RuleViolation, UsageError
from sawbones.presentation.locale import speaking
from sawbones.presentation.views import options_doc

RULES = load_rules()


def _plain(text: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


def test_the_gm_types_who_rolls_in_french(cli):
    cli("campaign", "create", "Alpha")
    assert cli("campaign", "set", "who_rolls", "joueurs").code == 0
    assert "who_rolls = players" in cli("campaign", "options").out
    assert cli("campaign", "set", "who_rolls", "MJ").code == 0
    assert "who_rolls = gm" in cli("campaign", "options").out
    shown = " ".join(cli("--lang", "fr", "campaign", "options").out.split())  # (wrapped to the terminal)
    assert "MJ (gm), joueurs (players), demander (ask)" in shown


def test_every_value_shown_in_french_is_taken_back_accents_optional():
    """A walk of every choice option: each value as `campaign options --lang fr` (and --lang en) names it, typed
    as shown, without its accents and in capitals, is that value."""
    values = {o.id: o for o in RULES.options.values()}
    walked = 0
    for lang in ("fr", "en"):
        with speaking(lang):
            options = options_doc(RULES, {o: v.default for o, v in values.items()})["options"]
        for option in options:
            if option["type"] != "choice":
                continue
            assert set(option["choice_names"]) == set(option["choices"]), option["id"]
            for value, name in option["choice_names"].items():
                for typed in (name, _plain(name), name.upper()):
                    assert parse_option_value(RULES, option["id"], typed) == value, (option["id"], typed)
                    walked += 1
    assert walked > 150
    refused = next(o for o in values.values() if o.type == "choice" and o.not_modelled)
    value = next(iter(refused.not_modelled))
    with pytest.raises(RuleViolation):  # a value the engine does not model stays refused, by its name too
        parse_option_value(RULES, refused.id, refused.choice_names[value].fr)


@pytest.mark.parametrize("lang, typed, said", [
    ("fr", "joeurs", "vouliez-vous dire joueurs ?"),
    ("fr", "playrs", "vouliez-vous dire joueurs ?"),  # typed in English, offered in the reader's French
    ("en", "playrs", "did you mean players?"),
    ("en", "joeurs", "did you mean players?"),
    ("fr", "baremes clemants", "vouliez-vous dire barèmes cléments ou"),
])
def test_did_you_mean_in_the_readers_language(cli, lang, typed, said):
    cli("campaign", "create", "Alpha")
    option = "severity_bands" if typed.startswith("baremes") else "who_rolls"
    refused = cli("--lang", lang, "campaign", "set", option, typed)
    assert refused.code != 0 and said in refused.err, refused.err


def test_the_api_takes_a_french_value(db):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from sawbones.application.service import Service
    from sawbones.interfaces.web import create_app

    with TestClient(create_app(lambda: Service.open(db)), base_url="http://testserver") as client:
        made = client.post("/api/campaigns", json={"name": "Alpha"}).json()
        auth = {"Authorization": f"Bearer {made['gm_secret']}"}
        done = client.put("/api/campaigns/Alpha/options/who_rolls", json={"value": "Joueurs"}, headers=auth)
        assert done.status_code == 200 and done.json()["value"] == "players", done.text
        typo = client.put("/api/campaigns/Alpha/options/who_rolls?lang=fr", json={"value": "joeurs"}, headers=auth)
        assert typo.status_code == 422 and "vouliez-vous dire joueurs" in typo.json()["error"]["message"]
        client.get(made["gm_link"].split("testserver", 1)[-1])  # the GM's browser signs in
        assert "who_rolls = joueurs" in client.get("/c/Alpha?lang=fr").text
        assert "who_rolls = players" in client.get("/c/Alpha?lang=en").text


OPTION = """\
    options:
      - id: homebrew_choice
        group: general
        type: choice
        default: a
        choices: [a, b]
        {names}
        help: {{fr: "x y", en: "x z"}}
"""


@pytest.mark.parametrize("names, said", [
    ("", "'a' has no name"),
    ('choice_names: {a: {fr: "un", en: "one"}}', "'b' has no name"),
    ('choice_names: {a: {fr: "un", en: "one"}, b: {fr: "Un", en: "two"}, }', "'b' reads as 'a'"),
    ('choice_names: {a: {fr: "un", en: "one"}, b: {fr: "deux", en: "two"}, c: {fr: "trois", en: "three"}}',
     "'c' is not one of the values"),
])
def test_a_choice_options_names_are_checked_at_load(tmp_path, names, said):
    directory = tmp_path / "pack"
    directory.mkdir()
    (directory / "options.yaml").write_text(textwrap.dedent(OPTION.format(names=names)), encoding="utf-8")
    with pytest.raises(ContentError) as info:
        load_rules([str(directory)])
    assert said in str(info.value) and "choice_names" in str(info.value), str(info.value)


def test_a_spell_of_the_other_system_is_refused_naming_the_systems_own_in_the_readers_language(cli):
    cli("campaign", "create", "Alpha", "--system", "pf1e")
    cli("character", "add", "Vex", "--max-hp", "20")
    refused = cli("--lang", "fr", "heal", "Vex", "--spell", "cure_wounds")
    assert refused.code != 0 and "n'est pas un sort de pf1e" in refused.err
    assert "Soins légers" in refused.err and "Cure Light Wounds" not in refused.err, refused.err
    english = cli("heal", "Vex", "--spell", "cure_wounds").err
    assert "Cure Light Wounds" in english and "Soins légers" not in english
    cli("campaign", "create", "Beta")
    cli("--campaign", "Beta", "character", "add", "Ana", "--max-hp", "20")
    five = cli("--campaign", "Beta", "--lang", "fr", "heal", "Ana", "--spell", "neutralize_poison").err
    assert "dnd5e a Guérison, Mot de guérison" in five and "Premiers secours" not in five, five


def test_fold_is_the_one_fold():
    assert fold("Barèmes CLÉMENTS") == fold("baremes clements")
