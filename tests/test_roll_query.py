"""The roll query: one answer across the three rules, 3.5/PF terms read in 5e, conditions read in each system."""

from __future__ import annotations

import random

import pytest

from sawbones.message import english
from sawbones.presentation.roll_answer import answer_doc
from sawbones.presentation.roll_bonus import with_sheet
from sawbones.application.service import Context
from sawbones.content import schema as s
from sawbones.content.models import validate
from sawbones.content.loader import load_rules
from sawbones.domain.engine import effects
from sawbones.domain.wounds import rules as w
from sawbones.domain.engine.campaign import add_character
from sawbones.domain.engine.effects import ActiveEffect
from sawbones.domain.engine.evolve import fold
from sawbones.domain.engine.options import effective_options
from sawbones.domain.engine.roll_query import RollContext, query, read_roll
from sawbones.domain.engine.rolls import Roller
from sawbones.errors import ContentError, UsageError

RULES = load_rules()


def ctx(state, seed=0):
    return Context(state, RULES, effective_options(RULES, state.option_overrides()), Roller(random.Random(seed)))


def campaign(system, sheet=None, **options):
    state = fold([{"type": "campaign_created", "data": {"name": "t", "system": system, "seed": 1}}])
    state = fold(add_character(ctx(state), "Vex", sheet or {"abilities": {"str": 14, "dex": 12}}), state)
    for key, value in options.items():
        state = fold([{"type": "option_set", "data": {"option": key, "value": value}}], state)
    return state


def act(state, decision, *args, **kwargs):
    return fold(decision(ctx(state), *args, **kwargs), state)


def mods(state, kind, **roll):
    return query(state.character("vex"), RULES, effective_options(RULES, state.option_overrides()), state.system,
                 RollContext(kind, **roll))


@pytest.fixture
def give(monkeypatch):
    """give(effect, kind=..., name=...): an extra provider for the test's character (no other module's state)."""
    effects._load_providers()
    extra: list[ActiveEffect] = []
    monkeypatch.setattr(effects, "_PROVIDERS", effects._PROVIDERS + [lambda character, rules, options: list(extra)])

    def add(effect, kind="affliction", source_id="x1", content_id="test", name="Test", **detail):
        if isinstance(effect, dict):
            effect = validate(s.ConditionEffect, effect) if effect["type"] == "condition" else \
                validate({"modifier": s.Modifier, "advantage": s.Advantage, "disadvantage": s.Advantage,
                          "auto_fail": s.AutoFail, "ability": s.AbilityChange}[effect["type"]], effect)
        extra.append(ActiveEffect(effect, kind, source_id, content_id, s.Text(fr=name, en=name), detail))

    return add


def condition(give, cond, source_id="x1"):
    give({"type": "condition", "condition": cond}, source_id=source_id, name=f"source of {cond}")


# ---------------------------------------------------------------- the 3.5 -> 5e reading of the wound table

def _five_e_rows():
    """(part, 3.5 skill, 5e skill, sense) for every skill a body part names, read through maps_to."""
    rows = []
    for part in RULES.body_parts.values():
        for sel in part.rolls:
            for skill in sel.skills:
                entry = RULES.skills[skill]
                target = entry.maps_to.get("dnd5e", skill)
                own = RULES.skill_senses.get(skill)
                sense = sel.sense or (own.senses[0] if own and len(own.senses) == 1 else None)
                rows.append((part.id, skill, target, sense))
    return rows


FIVE_E = _five_e_rows()


@pytest.mark.parametrize("part, skill, target, sense", FIVE_E, ids=lambda v: str(v))
def test_wound_skills_read_in_5e(part, skill, target, sense):
    state = act(campaign("dnd5e"), w.wound, "Vex", part, 3, "left" if RULES.body_parts[part].sides else None)
    by_5e = mods(state, "skill", skill=target, sense=sense)
    assert by_5e.modifier == -2, (part, skill, target)
    assert by_5e.roll.skill == target
    typed = mods(state, "skill", skill=skill, sense=sense)  # the 3.5 name typed in a 5e campaign reads the same
    assert typed.modifier == -2 and typed.roll.skill == target


def test_the_mapping_table_is_complete():
    unmapped = {skill for _, skill, target, _ in FIVE_E if skill == target}
    assert unmapped == {"craft", "forgery", "use_rope"}  # 5e: tool checks or a plain Dexterity check
    table = {skill: target for _, skill, target, _ in FIVE_E}
    assert table["spot"] == table["listen"] == table["pf_perception"] == "perception"
    assert table["open_lock"] == table["disable_device"] == "sleight_of_hand"
    assert table["climb"] == table["swim"] == table["jump"] == "athletics"
    assert table["tumble"] == table["balance"] == table["escape_artist"] == "acrobatics"
    assert table["move_silently"] == "stealth" and table["heal"] == "medicine" and table["ride"] == "animal_handling"
    assert table["spellcraft"] == "arcana" and table["sense_motive"] == "insight"
    assert table["decipher_script"] == table["appraise"] == table["search"] == "investigation"


def test_perception_in_5e_depends_on_the_sense():
    eye = act(campaign("dnd5e"), w.wound, "Vex", "eye", 3, "left")
    assert mods(eye, "skill", skill="perception", sense="sight").modifier == -2
    assert mods(eye, "skill", skill="perception", sense="hearing").modifier == 0
    unknown = mods(eye, "skill", skill="perception")
    assert unknown.modifier == 0 and unknown.conditional[0].needs == ((("sense", "sight"),),)
    ear = act(campaign("dnd5e"), w.wound, "Vex", "ear", 3, "left")
    assert mods(ear, "skill", skill="perception", sense="hearing").modifier == -2
    assert mods(ear, "skill", skill="perception", sense="sight").modifier == 0
    assert mods(ear, "skill", skill="Perception auditive").modifier == -2  # Listen, by its French name


def test_5e_skill_checks_are_ability_checks():
    state = act(campaign("dnd5e"), w.wound, "Vex", "eye", 3, "left")  # eye: Dexterity checks
    assert mods(state, "skill", skill="stealth").modifier == -2  # a Dexterity (Stealth) check
    pf = act(campaign("pf1e"), w.wound, "Vex", "eye", 3, "left")
    assert mods(pf, "skill", skill="pf_stealth").modifier == 0  # a PF skill check is not an ability check
    head = act(campaign("dnd5e"), w.wound, "Vex", "head", 3)  # head: skill checks, not plain ability checks
    assert mods(head, "skill", skill="history").modifier == -2
    assert mods(head, "check", ability="int").modifier == 0


@pytest.mark.parametrize("system, save, expected", [
    ("dnd5e", "dex", -2), ("dnd5e", "reflex", -2), ("dnd5e", "con", 0),
    ("pf1e", "reflex", -2), ("pf1e", "dex", -2), ("pf1e", "fortitude", 0),
])
def test_saves_map_between_systems(system, save, expected):
    state = act(campaign(system), w.wound, "Vex", "foot_leg", 3, "left")  # foot/leg: Reflex saves
    answer = mods(state, "save", save=save)
    assert answer.modifier == expected
    assert answer.roll.save == {"dnd5e": {"dex": "dex", "reflex": "dex", "con": "con"},
                                "pf1e": {"reflex": "reflex", "dex": "reflex", "fortitude": "fortitude"}}[system][save]


def test_pf1e_has_no_strength_save():
    with pytest.raises(UsageError, match="no str save"):
        read_roll(RollContext("save", save="str"), RULES, {}, "pf1e")


@pytest.mark.parametrize("roll, match", [
    (RollContext("dance"), "unknown roll"), (RollContext("attack", hand="tail"), "hand must be"),
    (RollContext("attack", skill="climb"), "--skill goes with"), (RollContext("skill", skill="knitting"), "unknown skill"),
    (RollContext("check", ability="luck"), "unknown ability"), (RollContext("attack", save="reflex"), "--save goes"),
])
def test_bad_rolls(roll, match):
    with pytest.raises(UsageError, match=match):
        read_roll(roll, RULES, {}, "dnd5e")


# ---------------------------------------------------------------- conditions, read in each system


def test_sickened_pf1e_and_5e(give):
    condition(give, "sickened")
    pf = campaign("pf1e")
    assert mods(pf, "attack", range="melee").modifier == -2
    assert mods(pf, "save", save="will").modifier == -2
    damage = mods(pf, "damage", range="melee", weapon=True)
    assert damage.modifier == -2 and damage.modifiers[0].note.en == "Weapon damage only."
    assert mods(pf, "damage", range="melee").conditional[0].needs == ((("weapon", True),),)
    five = campaign("dnd5e")
    attack = mods(five, "attack", range="melee")
    assert attack.modifier == 0 and attack.mode == "disadvantage"
    assert attack.disadvantages[0].source.condition == "sickened"
    assert [c.official for c in attack.conditions] == [False]
    assert mods(five, "skill", skill="athletics").mode == "disadvantage"
    assert mods(five, "save", save="con").mode == "normal"


def test_shaken_reads_as_minus_2_in_5e(give):
    condition(give, "shaken")
    assert mods(campaign("dnd5e"), "save", save="wis").modifier == -2
    assert mods(campaign("pf1e"), "skill", skill="bluff").modifier == -2


def test_fatigued_and_exhausted(give):
    condition(give, "fatigued", "a1")
    pf = campaign("pf1e")  # Str 14 -> 12: the modifier goes from +2 to +1
    answer = mods(pf, "attack", range="melee")
    assert answer.modifier == -1 and dict(answer.modifiers[0].extra)["score_change"] == -2
    assert any(r.extra == (("restriction", "cannot_run_or_charge"),) for r in answer.restrictions)
    assert mods(pf, "initiative").modifier == -1  # Dex 12 -> 10
    unknown = mods(pf, "attack")  # which ability? both are conditional
    assert unknown.modifier == 0 and {dict(c.extra)["ability"] for c in unknown.conditional} == {"str", "dex"}
    assert mods(campaign("dnd5e"), "check", ability="str").mode == "disadvantage"
    condition(give, "exhausted", "a1")  # exhausted replaces fatigued: Str 14 -> 8, -3
    answer = mods(pf, "attack", range="melee")
    assert answer.modifier == -3
    assert {c.id: c.superseded_by for c in answer.conditions} == {"fatigued": "exhausted", "exhausted": None}
    assert mods(campaign("dnd5e"), "save", save="con").mode == "disadvantage"


def test_conditions_bring_other_conditions(give):
    condition(give, "paralyzed")
    five = campaign("dnd5e")
    dex_save = mods(five, "save", save="dex")
    assert dex_save.auto_fail and not mods(five, "save", save="wis").auto_fail
    by_id = {c.id: c for c in dex_save.conditions}
    assert by_id["incapacitated"].source.via == ("paralyzed",)
    assert {r.extra[0][1] for r in dex_save.restrictions} == {"cannot_move_or_speak", "no_actions_or_reactions"}
    assert any("critical hit" in english(n.text) for n in mods(five, "ac").notes)
    pf = campaign("pf1e")
    assert "helpless" in {c.id for c in mods(pf, "ac").conditions}


def test_the_same_condition_from_two_sources_applies_once(give):
    condition(give, "shaken", "a1")
    condition(give, "shaken", "a2")
    answer = mods(campaign("pf1e"), "attack", range="melee")
    assert answer.modifier == -2
    [shaken] = answer.conditions
    assert [o.source_id for o in shaken.source.origins] == ["a1", "a2"]


def test_frightened_supersedes_shaken_in_pf1e(give):
    condition(give, "shaken", "a1")
    condition(give, "frightened", "i1")
    assert mods(campaign("pf1e"), "attack", range="melee").modifier == -2


def test_poisoned_reads_as_sickened_in_pf1e(give):
    condition(give, "poisoned")
    answer = mods(campaign("pf1e"), "skill", skill="climb")
    assert answer.modifier == -2 and answer.modifiers[0].source.condition == "sickened"


def test_blinded_5e_auto_fails_sight_checks_only(give):
    condition(give, "blinded")
    five = campaign("dnd5e")
    assert mods(five, "check", ability="wis", sense="sight").auto_fail
    assert not mods(five, "skill", skill="athletics").auto_fail
    perception = mods(five, "skill", skill="perception")
    assert not perception.auto_fail and perception.conditional[0].type == "auto_fail"


def test_every_condition_has_a_reading_in_both_systems():
    for cond in RULES.conditions:
        entry = RULES.condition_readings.get(cond)
        assert entry is not None, cond
        for system in ("dnd5e", "pf1e"):
            reading = entry.reading(system)
            assert reading is not None and reading.text.fr and reading.text.en, (cond, system)


# ---------------------------------------------------------------- advantage and disadvantage (5e)


def test_advantage_and_disadvantage_cancel(give):
    five = campaign("dnd5e")
    give({"type": "disadvantage", "rolls": [{"kinds": ["attack"]}]}, kind="injury", source_id="i1")
    give({"type": "disadvantage", "rolls": [{"kinds": ["attack"]}]}, kind="injury", source_id="i2")
    answer = mods(five, "attack")
    assert answer.mode == "disadvantage" and len(answer.disadvantages) == 2  # several do not stack, all are named
    give({"type": "advantage", "rolls": [{"kinds": ["attack"]}]}, kind="injury", source_id="i3")
    answer = mods(five, "attack")
    assert answer.mode == "normal" and answer.advantages and answer.disadvantages
    assert english(mods(campaign("pf1e"), "attack").notes[-1].text).startswith("Advantage and disadvantage are 5e")


def test_roll_guards_armour_standing_combat(give):
    give({"type": "disadvantage", "while": ["wearing_metal_armor"], "rolls": [{"kinds": ["check"],
                                                                               "abilities": ["dex"]}]},
         kind="injury", source_id="i1")
    five = campaign("dnd5e")
    assert mods(five, "check", ability="dex", armor="metal").mode == "disadvantage"
    assert mods(five, "check", ability="dex", armor="chain_mail").mode == "disadvantage"  # option metal_armor
    assert mods(five, "check", ability="dex", armor="leather").mode == "normal"
    unknown = mods(five, "check", ability="dex")
    assert unknown.mode == "normal" and unknown.conditional[0].needs == ((("wearing_metal_armor", True),),)


# ---------------------------------------------------------------- the three rules on one character


def _with_injury_and_poison(state, give):
    """A Blisters injury (fire table, d20 12) and a Str poison at Impaired, through the real modules when they exist."""
    from sawbones.domain.injuries import rules as injuries

    state = fold(injuries.gain(ctx(state), state.character("vex"), "fire", d20=12), state)
    try:
        from sawbones.domain.afflictions.decide import expose
    except ImportError:
        expose = None
    if expose is not None:  # a failed initial save (Weakened), then a failed save against an extra dose (Impaired)
        state = act(state, expose, "Vex", "giant_scorpion_venom", total=1)
        state = act(state, expose, "Vex", "giant_scorpion_venom", total=1)
    else:
        track = RULES.tracks["strength_poison"]
        for stage in track.stages[1:3]:
            for effect in stage.effects:
                give(effect, kind="affliction", source_id="a9", content_id="giant_scorpion_venom",
                     name="Giant Scorpion Venom", stage=stage.id)
    return state


@pytest.mark.parametrize("system", ["dnd5e", "pf1e"])
def test_burnt_hand_blisters_and_str_poison(system, give):
    state = act(campaign(system), w.wound, "Vex", "hand", 4, "right", cause="flames")
    state = _with_injury_and_poison(state, give)
    injury_id = state.character("vex").injuries[0].id
    answer = mods(state, "attack", hand="right", range="melee")
    totals = answer.by_source()
    wound_key = ("wound", "w1")
    [poison_key] = [k for k in totals if k[0] == "affliction"]
    assert totals == {wound_key: -2, poison_key: -4}
    assert answer.modifier == -6
    assert answer.mode == "disadvantage"
    heavy = system == "dnd5e"  # Impaired: at least a heavy load, read in 5e as heavily encumbered (seed 004 L61)
    assert [d.source.key() for d in answer.disadvantages] == [("injury", injury_id)] + ([poison_key] if heavy else [])
    doc = answer_doc(answer)
    names = {m["source"]["name"] for m in doc["modifiers"]} | {d["source"]["name"] for d in doc["disadvantage"]}
    assert names == {"Hand (right)", "Giant Scorpion Venom", "Blisters"} | ({"Heavy load"} if heavy else set())
    assert {m["source"].get("stage") for m in doc["modifiers"] if m["source"]["kind"] == "affliction"} == \
        {"weakened", "impaired"}
    # the other hand: no wound penalty, the rest still applies
    other = mods(state, "attack", hand="left", range="melee")
    assert other.modifier == -4 and other.mode == "disadvantage"
    # a Dex-based ranged attack: the poison does not apply
    assert mods(state, "attack", hand="right", range="ranged").by_source() == {wound_key: -2}


def test_library_and_json_give_the_same_answer(cli, db):
    from sawbones.application.service import Service

    assert cli("campaign", "create", "T", "--seed", "1").code == 0
    cli("character", "add", "Vex", "--abilities", "str=14,dex=12")
    cli("wound", "Vex", "hand", "--side", "right", "--damage", "4")
    result = cli("--json", "mods", "Vex", "attack", "--hand", "right", "--melee")
    assert result.code == 0
    doc = result.json
    assert doc["modifier"] == -2 and doc["by_source"] == [{"kind": "wound", "id": "w1", "total": -2}]
    assert doc["roll"]["ability"] == "str" and doc["roll"]["hand"] == "right"
    assert doc["modifiers"][0]["source"] == {"kind": "wound", "id": "w1", "content_id": "hand", "name": "Hand (right)",
                                             "part": "hand", "side": "right", "stack_group": "wound:hand"}
    state = Service.open(db).load("T").state
    library = with_sheet(answer_doc(query(state.character("vex"), RULES, effective_options(RULES, state.option_overrides()),
                                          state.system, RollContext("attack", hand="right", range="melee"))),
                         state.character("vex"), RULES, state.system)  # (the sheet joined: roll_bonus.py)
    assert {k: v for k, v in doc.items() if k not in ("character", "name")} == library


# ---------------------------------------------------------------- content checks of the new sections


def _pack(tmp_path, text):
    directory = tmp_path / "pack"
    directory.mkdir()
    (directory / "x.yaml").write_text(text, encoding="utf-8")
    return str(directory)


@pytest.mark.parametrize("text, match", [
    ("condition_readings:\n  - {id: glowing, pf1e: {text: {fr: a, en: a}}}\n", "unknown condition id 'glowing'"),
    ("condition_readings:\n  - {id: shaken, pf1e: {text: {fr: a, en: a}, supersedes: [gone]}}\n",
     "condition_readings[shaken].pf1e.supersedes"),
    ("condition_readings:\n  - {id: shaken, pf1e: {text: {fr: a, en: a}, effects: [{type: condition, condition: x}]}}\n",
     "unknown condition id 'x'"),
    ("skill_senses:\n  - {id: knitting, senses: [sight]}\n", "unknown skill id 'knitting'"),
    ("skill_senses:\n  - {id: spot, senses: [smell]}\n", "skill_senses[spot].senses"),
])
def test_bad_readings_are_content_errors(tmp_path, text, match):
    with pytest.raises(ContentError, match=match.replace("[", r"\[").replace("]", r"\]")):
        load_rules([_pack(tmp_path, text)])
