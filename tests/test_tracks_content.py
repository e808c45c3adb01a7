"""Content for the tracks: the new fields are validated, and a homebrew affliction runs like the catalog."""

from __future__ import annotations

import textwrap

import pytest

from sawbones.content.loader import load_rules
from sawbones.errors import ContentError
from test_tracks_helpers import affliction, character, expose, ok, saves, stages

HOMEBREW = """\
tracks:
  - id: rot_track
    kind: special
    name: {fr: Pourriture, en: Rot}
    end_state: dead
    stages:
      - {id: healthy, name: {fr: Sain, en: Healthy}}
      - id: itchy
        name: {fr: Démangeaisons, en: Itchy}
        effects: [{type: condition, condition: sickened}]
      - id: oozing
        name: {fr: Suintant, en: Oozing}
        inherit: physical_disease.impaired
      - id: dead
        name: {fr: Mort, en: Dead}
        effects: [{type: condition, condition: dead}]
afflictions:
  - id: bog_rot
    kind: disease
    name: {fr: Pourriture des marais, en: Bog Rot}
    vectors: [contact]
    dc: 13
    tracks: [rot_track]
    frequency: {unit: day, every: 2}
    cure: {consecutive_saves: 1, text: {fr: "1 JS", en: "1 save"}}
    effects:
      - type: trigger
        "on": stage_entered
        stage: oozing
        outcome: {condition: deafened, permanent: true, removed_by: [heal]}
    table_text: {fr: "Pourriture des marais", en: "Bog Rot"}
"""

AFFLICTION = """\
afflictions:
  - id: bad
    kind: poison
    name: {fr: a, en: a}
    vectors: [injury]
    dc: 12
    tracks: [strength_poison]
    frequency: {unit: round, count: 4}
    cure: {consecutive_saves: 1, text: {fr: a, en: a}%s}
    table_text: {fr: a, en: a}
%s"""


def write_pack(tmp_path, text: str) -> str:
    directory = tmp_path / "pack"
    directory.mkdir(exist_ok=True)
    (directory / "homebrew.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    return str(directory)


def error_of(tmp_path, text: str) -> str:
    with pytest.raises(ContentError) as info:
        load_rules([write_pack(tmp_path, text)])
    return str(info.value)


def test_catalog_uses_the_new_fields():
    rules = load_rules()
    blinding = rules.afflictions["blinding_sickness"].effects[0]
    assert blinding.stage == "impaired" and blinding.outcome.removed_by_option == "blinding_removers"
    assert rules.afflictions["red_ache"].effects[0].result == "failed"
    assert rules.afflictions["mummy_rot"].cure.heal_cures is False
    assert {f.if_option["ungol_rule"] for f in rules.afflictions["ungol_dust"].recovery_floors} == {"s4", "en"}


@pytest.mark.parametrize("cure_extra, effects, expected", [
    ("", "    effects:\n      - {type: trigger, \"on\": stage_entered, stage: nowhere, outcome: {condition: blinded, "
         "permanent: true}}\n", "effects[0].stage"),
    ("", "    effects:\n      - {type: trigger, \"on\": stage_entered, outcome: {condition: blinded, permanent: true}}\n",
     "needs the stage"),
    ("", "    effects:\n      - {type: trigger, \"on\": gained, stage: weakened, outcome: {death: true}}\n",
     "only a stage_entered trigger takes a stage"),
    ("", "    effects:\n      - {type: trigger, \"on\": day, result: failed, outcome: {death: true}}\n",
     "only an affliction_save trigger takes a result"),
    ("", "    effects:\n      - {type: trigger, \"on\": affliction_save, result: sometimes, outcome: {death: true}}\n",
     "result"),
    ("", "    effects:\n      - {type: trigger, \"on\": stage_entered, stage: impaired, outcome: {condition: blinded, "
         "permanent: true, removed_by: [fireball]}}\n", "unknown spell id 'fireball'"),
    ("", "    effects:\n      - {type: trigger, \"on\": stage_entered, stage: impaired, outcome: {condition: blinded, "
         "permanent: true, removed_by_option: ungol_rule}}\n", "not a list of spells"),
    ("", "    effects:\n      - {type: trigger, \"on\": stage_entered, stage: impaired, outcome: {death: true, "
         "removed_by: [heal]}}\n", "permanent condition"),
    ("", "    recovery_floors:\n      - {floor: nowhere, lifted_by: [heal]}\n", "recovery_floors[0].floor"),
    ("", "    recovery_floors:\n      - {once_reached: impaired, lifted_by: [nope]}\n", "unknown spell id 'nope'"),
    ("", "    recovery_floors:\n      - {lifted_by: [heal], if_option: {no_such_option: true}}\n", "no_such_option"),
    ("", "    recovery_floors:\n      - {lifted_by: []}\n", "lifted_by"),
    (", heal_cures_if_option: {no_such_option: true}", "", "heal_cures_if_option"),
    (", heal_cures: maybe", "", "heal_cures"),
])
def test_new_fields_are_validated(tmp_path, cure_extra, effects, expected):
    message = error_of(tmp_path, AFFLICTION % (cure_extra, effects))
    assert "homebrew.yaml" in message and expected in message, message


def test_track_stage_trigger_must_name_its_own_stage(tmp_path):
    text = HOMEBREW.replace("effects: [{type: condition, condition: sickened}]",
                            "effects: [{type: trigger, \"on\": stage_entered, stage: dead, outcome: {death: true}}]")
    assert "a stage's own stage_entered trigger" in error_of(tmp_path, text)


def test_homebrew_disease_runs_like_the_catalog(tmp_path, cli):
    directory = write_pack(tmp_path, HOMEBREW)
    ok(cli("campaign", "create", "t", "--system", "pf1e", "--seed", "2", "--pack", directory))
    ok(cli("character", "add", "Aria", "--saves", "fortitude=1"))
    expose(cli, "Aria", "bog_rot", 1)
    a = affliction(cli)
    assert stages(a) == ["itchy"] and a["next_save"]["in"] == 2 * 86400
    saves(cli, [1], "2d")
    a = affliction(cli)
    assert stages(a) == ["oozing"] and [p["condition"] for p in a["permanent"]] == ["deafened"]
    saves(cli, [30, 30], "4d")
    a = affliction(cli)
    assert a["status"] == "cured" and a["permanent"][0]["condition"] == "deafened"
    ok(cli("cure", "Aria", "bog_rot", "--spell", "heal"))
    assert affliction(cli) is None
    expose(cli, "Aria", "bog_rot", 1, "--deadly", "oozing")
    saves(cli, [1], "2d")
    assert character(cli)["dead"]
