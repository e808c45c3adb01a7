"""The loader rejects bad content with file + path + what is wrong, for the built-in files and packs alike."""

import textwrap

import pytest

from sawbones.content.loader import load_rules
from sawbones.errors import ContentError


def pack(tmp_path, name: str, text: str) -> str:
    directory = tmp_path / "pack"
    directory.mkdir(exist_ok=True)
    (directory / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return str(directory)


def error_of(tmp_path, name, text) -> str:
    with pytest.raises(ContentError) as info:
        load_rules([pack(tmp_path, name, text)])
    return str(info.value)


ROWS = """\
    rows:
      - {d20: "18-20", injury: nausea, text: {fr: a, en: a}}
      - {d20: "15-17", injury: blisters, text: {fr: a, en: a}}
      - {d20: "11-14", injury: stunned, text: {fr: a, en: a}}
      - {d20: "6-10", injury: temporary_blindness, text: {fr: a, en: a}}
      - {d20: "3-5", injury: major_burns, text: {fr: a, en: a}}
      - {d20: "1-2", injury: coma, text: {fr: a, en: a}}
"""


def table(rows: str = ROWS) -> str:
    return "damage_tables:\n  - id: sonic\n    name: {fr: Sonique, en: Sonic}\n" + rows


def test_a_valid_pack_loads(tmp_path):
    rules = load_rules([pack(tmp_path, "sonic.yaml", table())])
    assert "sonic" in rules.damage_tables


def test_unknown_key(tmp_path):
    message = error_of(tmp_path, "x.yaml", table().replace("    rows:", "    colour: red\n    rows:"))
    assert "x.yaml" in message and "damage_tables[sonic].colour" in message and "unknown key" in message


def test_unknown_section(tmp_path):
    message = error_of(tmp_path, "x.yaml", "monsters: []\n")
    assert "x.yaml: monsters: unknown key" in message


def test_wrong_type(tmp_path):
    message = error_of(tmp_path, "x.yaml", """
        afflictions:
          - id: bad
            name: {fr: a, en: a}
            kind: poison
            vectors: [injury]
            dc: twelve
            tracks: [strength_poison]
            frequency: {unit: round, count: 6}
            cure: {consecutive_saves: 1, text: {fr: a, en: a}}
            table_text: {fr: a, en: a}
        """)
    assert "afflictions[bad].dc" in message and "integer" in message


def test_dangling_injury_id(tmp_path):
    message = error_of(tmp_path, "sonic.yaml", table(ROWS.replace("injury: coma", "injury: no_such_injury")))
    assert "sonic.yaml" in message and "damage_tables[sonic].rows[5].injury" in message
    assert "unknown injury id 'no_such_injury'" in message


def test_dangling_condition_in_effect(tmp_path):
    message = error_of(tmp_path, "i.yaml", """
        injuries:
          - id: glow
            name: {fr: a, en: a}
            text: {fr: a, en: a}
            effects: [{type: condition, condition: glowing}]
        """)
    assert "i.yaml: injuries[glow].effects[0].condition" in message and "unknown condition id 'glowing'" in message


def test_bad_dice_formula(tmp_path):
    message = error_of(tmp_path, "i.yaml", """
        injuries:
          - id: bleed
            name: {fr: a, en: a}
            text: {fr: a, en: a}
            effects: [{type: trigger, "on": day, outcome: {max_hp_loss: "1d4+"}}]
        """)
    assert "injuries[bleed].effects[0].outcome.max_hp_loss" in message and "bad dice formula" in message


def test_hostile_dice_formula(tmp_path):
    message = error_of(tmp_path, "i.yaml", """
        injuries:
          - id: bleed
            name: {fr: a, en: a}
            text: {fr: a, en: a}
            effects: [{type: trigger, "on": day, outcome: {max_hp_loss: "99999d99999"}}]
        """)
    assert "99999 dice" in message


def test_d20_gap(tmp_path):
    message = error_of(tmp_path, "sonic.yaml", table(ROWS.replace('"1-2"', '"1"')))
    assert "damage_tables[sonic].rows" in message and "[2] are not covered" in message


def test_d20_overlap(tmp_path):
    message = error_of(tmp_path, "sonic.yaml", table(ROWS.replace('"6-10"', '"5-10"')))
    assert "covered twice" in message and "sonic.yaml" in message


def test_d20_out_of_range(tmp_path):
    message = error_of(tmp_path, "sonic.yaml", table(ROWS.replace('"18-20"', '"18-21"')))
    assert "not within 1-20" in message


def test_track_without_healthy_stage(tmp_path):
    message = error_of(tmp_path, "t.yaml", """
        tracks:
          - id: odd
            name: {fr: a, en: a}
            kind: poison
            stages:
              - {id: weakened, name: {fr: a, en: a}}
              - {id: dead, name: {fr: a, en: a}}
            end_state: dead
        """)
    assert "t.yaml: tracks[odd].stages" in message and "healthy" in message


def test_unknown_end_state(tmp_path):
    message = error_of(tmp_path, "t.yaml", """
        tracks:
          - id: odd
            name: {fr: a, en: a}
            kind: poison
            stages:
              - {id: healthy, name: {fr: a, en: a}}
              - {id: dead, name: {fr: a, en: a}}
            end_state: gone
        """)
    assert "tracks[odd].end_state" in message and "gone" in message


def test_unknown_effect_type(tmp_path):
    message = error_of(tmp_path, "i.yaml", """
        injuries:
          - id: glow
            name: {fr: a, en: a}
            text: {fr: a, en: a}
            effects: [{type: sparkle}]
        """)
    assert "injuries[glow].effects[0]" in message and "sparkle" in message


def test_yaml_syntax_error_names_line(tmp_path):
    message = error_of(tmp_path, "broken.yaml", "injuries: [\n  {id: x\n")
    assert "broken.yaml:3:" in message and "not valid YAML" in message


def test_duplicate_id_within_one_pack(tmp_path):
    pack(tmp_path, "a.yaml", table())
    message = error_of(tmp_path, "b.yaml", table())
    assert "duplicate id 'sonic'" in message


def test_pack_must_be_a_directory(tmp_path):
    with pytest.raises(ContentError, match="not a directory"):
        load_rules([str(tmp_path / "missing")])


def test_bad_id_pattern(tmp_path):
    message = error_of(tmp_path, "i.yaml", """
        injuries:
          - id: Bad Id
            name: {fr: a, en: a}
            text: {fr: a, en: a}
        """)
    assert "injuries[Bad Id].id" in message


def test_checked_content_is_cached_and_a_damaged_cache_is_rebuilt(tmp_path, monkeypatch):
    from sawbones.content import loader

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    directory = pack(tmp_path, "sonic.yaml", table())
    first = loader._load((directory,), ("first",))
    cached = list((tmp_path / "cache" / "sawbones").glob("rules-*.pickle"))
    assert len(cached) == 1
    again = loader._load((directory,), ("second",))  # a new key: read back from the pickle
    assert again is not first and again.damage_tables["sonic"] == first.damage_tables["sonic"]
    cached[0].write_bytes(b"not a pickle")
    rebuilt = loader._load((directory,), ("third",))
    assert rebuilt.damage_tables["sonic"] == first.damage_tables["sonic"]
