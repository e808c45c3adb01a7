"""Content models are plain frozen dataclasses (content/schema*.py, `@frozen_kw` of sawbones/frozen.py); pydantic validates them only when
content is checked (content/models.py). What the rest of sawbones relies on: every model is one, dumps read back
equal, the files' names ("while") are kept, and the checked cache gives back equal content."""

import dataclasses
import pickle

import pytest

from sawbones.content import models
from sawbones.content import schema as s
from sawbones.content.loader import load_rules

RULES = load_rules()
MODELS = sorted({cls for cls in vars(s).values() if isinstance(cls, type) and issubclass(cls, s.Strict)
                 and cls is not s.Strict}, key=lambda cls: cls.__name__)
ENTRIES = [(section, entry_id) for section, entries in RULES.sections.items() for entry_id in entries]


@pytest.mark.parametrize("cls", MODELS, ids=lambda cls: cls.__name__)
def test_every_content_model_is_made_with_frozen_kw(cls):
    """A subclass left without `@frozen_kw` would take its parent's fields: built wrong, validated wrong."""
    assert "__dataclass_fields__" in vars(cls) and "__init__" in vars(cls), cls
    assert all(f.kw_only for f in dataclasses.fields(cls))


@pytest.mark.parametrize("section,entry_id", ENTRIES)
def test_every_entry_dumps_and_reads_back_equal(section, entry_id):
    entry = RULES.sections[section][entry_id]
    assert models.validate(type(entry), models.dump(entry)) == entry


def test_a_dump_uses_the_files_names_and_leaves_defaults_out():
    effect = s.Modifier(type="modifier", value=-2, rolls=(s.Rolls(kinds=("attack",)),), while_=("standing",))
    assert models.dump(effect) == {"while": ["standing"], "type": "modifier", "value": -2,
                                   "rolls": [{"kinds": ["attack"]}]}
    assert models.validate(s.Modifier, {"while": ["standing"], "type": "modifier", "value": -2,
                                        "rolls": [{"kinds": ["attack"]}]}) == effect
    assert models.dump(s.Frequency(unit="day"), exclude_defaults=False) == {"every": 1, "unit": "day", "count": None}


def test_models_are_frozen_built_by_keyword_and_hash_by_value():
    text = s.Text(fr="Brûlure", en="Burn")
    with pytest.raises(dataclasses.FrozenInstanceError):
        text.fr = "x"  # type: ignore[misc]
    with pytest.raises(TypeError, match="missing"):
        s.Text(fr="Brûlure")
    with pytest.raises(TypeError, match="unexpected"):
        s.Text(fr="a", en="b", de="c")
    with pytest.raises(TypeError):
        s.Text("a", "b")  # type: ignore[misc]
    assert text == s.Text(fr="Brûlure", en="Burn") != s.Text(fr="Brûlure", en="Burns")
    assert hash(text) == hash(models.validate(s.Text, {"fr": "Brûlure", "en": "Burn"}))
    assert models.replace(text, en="Burns") == s.Text(fr="Brûlure", en="Burns")
    assert s.Outcome().is_empty() and not s.Outcome(death=True).is_empty()


def test_validation_is_strict():
    with pytest.raises(models.Invalid) as failed:
        models.validate(s.Text, {"fr": "a", "en": "b", "de": "c"})
    assert failed.value.errors[0]["loc"] == ("de",)
    with pytest.raises(models.Invalid):
        models.validate(s.Duration, {"amount": 0, "unit": "day"})
    with pytest.raises(models.Invalid):
        models.validate(s.Rolls, {"kinds": ["attack"], "skills": ["Not A Slug"]})


def test_the_checked_cache_gives_back_equal_content():
    again = pickle.loads(pickle.dumps(RULES, protocol=pickle.HIGHEST_PROTOCOL))
    assert again.sections == RULES.sections and again.version == RULES.version
