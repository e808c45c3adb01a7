"""Localized wounds (seed 001, RULES-NOTES 3.2): every body part and roll, stacking, both sides, the
Fortitude suppression and every healing route, through decisions and events."""

from __future__ import annotations

import random

import pytest

from sawbones.message import english
from sawbones.presentation.roll_answer import answer_doc
from sawbones.application.service import Context
from sawbones.content.loader import load_rules
from sawbones.domain.wounds import rules as w
from sawbones.domain.engine.campaign import add_character
from sawbones.domain.engine.evolve import fold
from sawbones.domain.engine.options import effective_options
from sawbones.domain.engine.roll_query import RollContext, query
from sawbones.domain.engine.rolls import Roller
from sawbones.domain.engine.state import DAY, HOUR
from sawbones.domain.engine.timeline import advance
from sawbones.errors import NotFound, RuleViolation, UsageError

RULES = load_rules()


def ctx(state, seed=0):
    return Context(state, RULES, effective_options(RULES, state.option_overrides()), Roller(random.Random(seed)))


def campaign(system="pf1e", sheet=None, **options):
    state = fold([{"type": "campaign_created", "data": {"name": "t", "system": system, "seed": 1}}])
    state = fold(add_character(ctx(state), "Vex", sheet or {"abilities": {"str": 14, "dex": 12}}), state)
    for key, value in options.items():
        state = fold([{"type": "option_set", "data": {"option": key, "value": value}}], state)
    return state


def act(state, decision, *args, **kwargs):
    events = decision(ctx(state), *args, **kwargs)
    return fold(events, state), events


def hurt(state, part, side=None, damage=3, **kwargs):
    return act(state, w.wound, "Vex", part, damage, side, **kwargs)[0]


def vex(state):
    return state.character("vex")


def mods(state, kind, **roll):
    return query(vex(state), RULES, effective_options(RULES, state.option_overrides()), state.system,
                 RollContext(kind, **roll))


def wound_total(answer) -> int:
    return sum(m.value for m in answer.modifiers if m.stacks and m.source.condition is None
               and m.source.key()[0] == "wound")


# ---------------------------------------------------------------- the seed's table, one row per (part, roll)

# (part, roll kind, roll details): every roll of the seed's table, in 3.5/PF terms (a pf1e campaign).
TABLE = [
    ("hand", "attack", {"hand": "left"}),
    *[("hand", "skill", {"skill": k}) for k in ("craft", "forgery", "open_lock", "disable_device", "climb",
                                                "pf_sleight_of_hand", "escape_artist", "use_rope", "heal")],
    ("arm", "attack", {"hand": "left", "range": "melee"}),
    ("arm", "check", {"ability": "str"}),
    *[("arm", "skill", {"skill": k}) for k in ("climb", "swim")],
    ("head", "attack", {}),
    *[("head", "save", {"save": k}) for k in ("fortitude", "reflex", "will")],
    *[("head", "skill", {"skill": k}) for k in ("appraise", "bluff", "climb", "pf_perception")],
    ("eye", "initiative", {}),
    ("eye", "check", {"ability": "dex"}),
    ("eye", "attack", {"range": "ranged"}),
    ("eye", "save", {"save": "reflex"}),
    *[("eye", "skill", {"skill": k}) for k in ("spellcraft", "craft", "forgery", "open_lock", "decipher_script",
                                               "disable_device", "spot", "appraise", "search", "sense_motive")],
    ("eye", "skill", {"skill": "pf_perception", "sense": "sight"}),
    ("ear", "initiative", {}),
    ("ear", "skill", {"skill": "listen"}),
    ("ear", "skill", {"skill": "pf_perception", "sense": "hearing"}),
    ("foot_leg", "check", {"ability": "dex"}),
    ("foot_leg", "save", {"save": "reflex"}),
    *[("foot_leg", "skill", {"skill": k}) for k in ("tumble", "move_silently", "balance", "ride", "climb", "swim",
                                                    "jump", "pf_acrobatics", "pf_stealth")],
]
SIDED = {"hand", "arm", "eye", "ear", "foot_leg"}


@pytest.mark.parametrize("part, kind, roll", TABLE, ids=lambda v: str(v))
def test_one_wound_gives_minus_2(part, kind, roll):
    state = hurt(campaign(), part, "left" if part in SIDED else None)
    answer = mods(state, kind, **roll)
    assert wound_total(answer) == -2
    assert answer.modifier == -2
    [line] = [m for m in answer.modifiers if m.stacks]
    assert line.source.effect.source()["part"] == part


@pytest.mark.parametrize("part, kind, roll", TABLE, ids=lambda v: str(v))
def test_a_second_wound_to_the_same_part_does_not_stack(part, kind, roll):
    state = campaign(stacking="per_part_type")
    if part in SIDED:  # the same side twice, then the other side: still -2 (eyes, ears: see both sides below)
        state = hurt(hurt(state, part, "left"), part, "left")
        if roll.get("hand") is None and part not in ("eye", "ear"):
            state = hurt(state, part, "right")
    else:
        state = hurt(hurt(state, part), part)
    answer = mods(state, kind, **roll)
    assert wound_total(answer) == -2
    assert [m.stacks for m in answer.modifiers].count(True) == 1
    assert len(answer.modifiers) >= 2


@pytest.mark.parametrize("part", ["hand", "arm"])
def test_the_other_hand_is_not_penalized(part):
    state = hurt(campaign(), part, "left")
    assert wound_total(mods(state, "attack", hand="right", range="melee")) == 0
    assert wound_total(mods(state, "attack", hand="left", range="melee")) == -2
    both = mods(state, "attack", hand="both", range="melee")  # a two-handed weapon: either hand counts (AMB-1-5)
    assert wound_total(both) == -2


def test_attack_without_a_hand_is_conditional():
    state = hurt(campaign(), "hand", "left")
    answer = mods(state, "attack")
    assert answer.modifier == 0
    [line] = answer.conditional
    assert line.value == -2 and line.needs == ((("hand", "left"),),)
    assert answer_doc(answer)["conditional"][0]["if"] == ["if made with the left hand or arm"]


@pytest.mark.parametrize("part, kind, roll", [
    ("ear", "attack", {"hand": "left"}), ("ear", "skill", {"skill": "climb"}), ("hand", "save", {"save": "reflex"}),
    ("eye", "attack", {"range": "melee"}), ("foot_leg", "attack", {"range": "melee"}),
    ("head", "initiative", {}), ("head", "check", {"ability": "str"}), ("arm", "skill", {"skill": "spot"}),
    ("eye", "skill", {"skill": "pf_perception", "sense": "hearing"}), ("ear", "skill", {"skill": "spot"}),
])
def test_rolls_the_part_does_not_make(part, kind, roll):
    state = hurt(campaign(), part, "left" if part in SIDED else None)
    assert wound_total(mods(state, kind, **roll)) == 0


def test_different_parts_stack_by_default_and_never_more_than_2_caps():
    state = hurt(hurt(campaign(), "hand", "left"), "eye", "left")
    assert mods(state, "skill", skill="open_lock").modifier == -4  # LOC-3 example
    capped = fold([{"type": "option_set", "data": {"option": "stacking", "value": "never_more_than_2"}}], state)
    assert mods(capped, "skill", skill="open_lock").modifier == -2


def test_extra_affected_rolls_option():
    state = hurt(campaign(extra_affected_rolls={"hand": "skill:bluff", "ear": [{"kinds": ["save"],
                                                                               "saves": ["will"]}]}),
                 "hand", "left")
    assert mods(state, "skill", skill="bluff").modifier == -2
    state = hurt(state, "ear", "left")
    assert mods(state, "save", save="will").modifier == -2
    bad = fold([{"type": "option_set", "data": {"option": "extra_affected_rolls", "value": {"hand": "dance"}}}], state)
    with pytest.raises(UsageError, match="extra_affected_rolls: hand"):
        mods(bad, "skill", skill="bluff")


# ---------------------------------------------------------------- both eyes, both ears


def conditions(state):
    answer = mods(state, "attack", range="melee")
    return {c.id for c in answer.conditions if not c.superseded_by}


@pytest.mark.parametrize("part, condition", [("eye", "blinded"), ("ear", "deafened")])
def test_both_sides_give_the_condition(part, condition):
    one = hurt(campaign(), part, "left")
    assert condition not in conditions(one)
    same_side_twice = hurt(one, part, "left")
    assert condition not in conditions(same_side_twice)
    both = hurt(one, part, "right", damage=2)  # superficial: any wound counts (decision 1 of RULES-NOTES)
    assert condition in conditions(both)
    sources = [c for c in mods(both, "attack").conditions if c.id == condition][0].source.origins
    assert sources[0].detail["wounds"] == ["w1", "w2"] and sources[0].kind == "wound"


def test_severe_wounds_only_with_the_option():
    state = hurt(hurt(campaign(blind_deaf_requires_severe=True), "eye", "left", damage=2), "eye", "right", damage=2)
    assert "blinded" not in conditions(state)
    state = hurt(state, "eye", "left", damage=9)
    assert "blinded" not in conditions(state)
    state = hurt(state, "eye", "right", damage=2, superficial=False)
    assert "blinded" in conditions(state)


def test_follow_original_text_asks_for_severe_wounds():
    state = hurt(hurt(campaign(follow_original_text=True), "eye", "left"), "eye", "right")
    assert "blinded" not in conditions(state)


def test_one_eye_left_blinds_with_one_wound():
    state = hurt(campaign(sheet={"body": {"eyes": 1}}), "eye", "right")
    assert "blinded" in conditions(state)


def test_blinded_by_both_eyes_in_5e_and_pf1e():
    for system in ("dnd5e", "pf1e"):
        state = hurt(hurt(campaign(system), "eye", "left"), "eye", "right")
        attack = mods(state, "attack", range="melee")
        if system == "dnd5e":
            assert attack.mode == "disadvantage" and attack.disadvantages[0].source.condition == "blinded"
        else:
            assert any("50%" in english(n.text) for n in attack.notes)
        assert mods(state, "skill", skill="spot").auto_fail
        assert not mods(state, "skill", skill="listen").auto_fail


def test_deafened_in_pf1e_is_minus_4_initiative():
    state = hurt(hurt(campaign("pf1e"), "ear", "left"), "ear", "right")
    answer = mods(state, "initiative")
    assert answer.modifier == -6  # -2 ear (one line: same part) and -4 deafened
    assert sorted(answer.by_source().values()) == [-4, -2]
    assert mods(state, "skill", skill="listen").auto_fail


# ---------------------------------------------------------------- making a wound


def test_wound_event_and_state():
    state, events = act(campaign(), w.wound, "Vex", "Main", 4, "right", cause="flames")
    [event] = events
    assert event["type"] == "wound_received"
    assert event["data"] | {} == {"character": "vex", "id": "w1", "part": "hand", "side": "right", "damage": 4,
                                  "superficial": True, "superficial_by": "threshold", "at": 0, "cause": "flames"}
    [wound] = vex(state).wounds
    assert wound.part == "hand" and wound.superficial and state.counter == 1
    assert hurt(state, "head", damage=6).character("vex").wounds[1].superficial is False  # above the threshold


@pytest.mark.parametrize("args, error, match", [
    (("hand", 3, None), UsageError, "needs a side"),
    (("head", 3, "left"), UsageError, "no sides"),
    (("tail", 3, None), NotFound, "unknown body part"),
    (("hand", 0, "left"), UsageError, "at least 1"),
])
def test_wound_mistakes(args, error, match):
    with pytest.raises(error, match=match):
        act(campaign(), w.wound, "Vex", *args)


def test_min_damage_and_lost_parts():
    with pytest.raises(RuleViolation, match="min_damage_for_wound"):
        act(campaign(min_damage_for_wound=3), w.wound, "Vex", "hand", 2, "left")
    with pytest.raises(RuleViolation, match="no eyes left"):
        act(campaign(sheet={"body": {"eyes": 0}}), w.wound, "Vex", "eye", 2, "left")


# ---------------------------------------------------------------- the Fortitude save (LOC-7)


def test_fortitude_save_is_off_by_default():
    with pytest.raises(RuleViolation, match="allow_fort_ignore"):
        act(campaign(), w.wound, "Vex", "hand", 3, "left", fort_total=20)


def test_fortitude_success_suppresses_until_healed():
    state, events = act(campaign(allow_fort_ignore=True), w.wound, "Vex", "hand", 4, "left", fort_total=14)
    assert events[0]["data"]["fort"] == {"dc": 14, "total": 14, "success": True, "until": None}
    answer = mods(state, "skill", skill="climb")
    assert answer.modifier == 0
    [line] = answer.suppressed
    assert line.value == -2 and dict(line.extra)["suppressed_until"] is None
    assert answer_doc(answer)["suppressed"][0]["suppressed_until"] is None
    # the save never removes blindness (LOC-7 default)
    state = hurt(hurt(state, "eye", "left", fort_total=30), "eye", "right", fort_total=30)
    assert "blinded" in conditions(state)


def test_fortitude_failure_keeps_the_penalty():
    state, events = act(campaign(allow_fort_ignore=True), w.wound, "Vex", "hand", 4, "left", fort_total=13)
    assert events[0]["data"]["fort"]["success"] is False
    assert mods(state, "skill", skill="climb").modifier == -2


def test_fortitude_rolled_with_the_sheet_bonus():
    state = campaign(allow_fort_ignore=True, sheet={"saves": {"fortitude": 5}})
    state, events = act(state, w.wound, "Vex", "hand", 4, "left")
    [roll] = events[0]["data"]["rolls"]
    assert roll["formula"] == "1d20" and events[0]["data"]["fort"]["total"] == roll["total"] + 5
    from sawbones.domain.engine import saves

    assert saves.sheet_bonus(vex(campaign("dnd5e", sheet={"saves": {"con": 4}})), RULES, "dnd5e", "fortitude") == 4


def test_timed_suppression_ends_on_the_clock():
    state = campaign(allow_fort_ignore=True, fort_ignore_duration="1_hour")
    state, events = act(state, w.wound, "Vex", "hand", 4, "left", fort_total=20)
    assert events[0]["data"]["fort"]["until"] == HOUR
    assert mods(state, "skill", skill="climb").suppressed[0].extra[-1] == ("suppressed_until", HOUR)
    state, events = act(state, advance, 2 * HOUR)
    assert [e["type"] for e in events] == ["clock_advanced", "wound_suppression_ended", "clock_advanced"]
    assert events[1]["data"]["at"] == HOUR
    assert mods(state, "skill", skill="climb").modifier == -2


# ---------------------------------------------------------------- healing (LOC-6)


def test_first_aid_dc_15():
    state = hurt(campaign(), "foot_leg", "left", cause="caltrops")
    state, events = act(state, w.first_aid, "Vex", "w1", total=14)
    assert [e["type"] for e in events] == ["wound_first_aid"] and vex(state).wounds[0].first_aid_failures == 1
    state, events = act(state, w.first_aid, "Vex", "w1", total=15)
    assert [e["type"] for e in events] == ["wound_first_aid", "wound_healed"]
    assert events[1]["data"]["how"] == "first_aid" and not vex(state).wounds


def test_first_aid_rolled_by_a_healer():
    state = hurt(campaign(sheet={"skills": {"heal": 7}}), "foot_leg", "left")
    with pytest.raises(UsageError, match="--check"):
        act(state, w.first_aid, "Vex", "w1")
    _, events = act(state, w.first_aid, "Vex", "w1", healer_name="Vex")
    data = events[0]["data"]
    assert data["rolls"][0]["formula"] == "1d20" and data["total"] == data["d20"] + 7
    assert data["breakdown"]["sheet"] == 7
    assert w.heal_bonus(vex(campaign("dnd5e", sheet={"skills": {"medicine": 3}})), RULES) == 3


def test_first_aid_only_for_superficial_wounds():
    state = hurt(campaign(), "hand", "left", damage=8)
    with pytest.raises(RuleViolation, match="not superficial"):
        act(state, w.first_aid, "Vex", "w1", total=30)


def test_one_hp_of_magic_heals_superficial_wounds():
    state = hurt(hurt(campaign(), "hand", "left"), "eye", "left", damage=8)
    state, events = act(state, w.heal_wounds_by_magic, "vex", 1)
    assert [(e["type"], e["data"]["wound"]) for e in events] == [("wound_healed", "w1"), ("wound_recovery", "w2")]
    assert [x.id for x in vex(state).wounds] == ["w2"] and vex(state).wounds[0].recovered == 1
    assert act(state, w.heal_wounds_by_magic, "vex", 0)[1] == []


def test_severe_wounds_heal_when_their_hp_are_back_oldest_first():
    state = hurt(hurt(campaign(), "hand", "left", damage=8), "eye", "left", damage=6)
    state, events = act(state, w.heal_wounds_by_magic, "vex", 10)
    assert [(e["type"], e["data"]["wound"], e["data"]["hp"]) for e in events] == [
        ("wound_healed", "w1", 8), ("wound_recovery", "w2", 2)]
    state, events = act(state, w.rest, "Vex", hp=4)
    assert [(e["type"], e["data"]["how"]) for e in events] == [("wound_healed", "rest")] and not vex(state).wounds


def test_nonsuperficial_magic_only_and_gm():
    state = hurt(campaign(nonsuperficial_heal="magic_only"), "hand", "left", damage=8)
    with pytest.raises(RuleViolation, match="only by magic"):
        act(state, w.rest, "Vex", ["w1"], hp=8)
    healed, _ = act(state, w.heal_wounds_by_magic, "vex", 8)
    assert not vex(healed).wounds
    state = hurt(campaign(nonsuperficial_heal="gm"), "hand", "left", damage=8)
    assert act(state, w.heal_wounds_by_magic, "vex", 50)[1] == []
    state, events = act(state, w.gm_heal, "Vex", "w1")
    assert events[0]["data"]["how"] == "gm" and not vex(state).wounds


def test_a_day_of_rest_on_the_clock():
    state = hurt(campaign(), "foot_leg", "left")
    with pytest.raises(RuleViolation, match="less than a day"):
        act(state, w.rest, "Vex")
    state, _ = act(state, advance, DAY)
    assert vex(state).wounds  # full_day_complete_rest: the GM says when the day was rest
    state, events = act(state, w.rest, "Vex")
    assert events[0]["data"] | {} == {"character": "vex", "wound": "w1", "how": "rest", "at": DAY}
    assert not vex(state).wounds


def test_a_normal_day_heals_superficial_wounds_by_itself():
    state = hurt(hurt(campaign(day_of_rest="normal_day"), "foot_leg", "left"), "hand", "left", damage=9)
    state, events = act(state, advance, 2 * DAY)
    healed = [e for e in events if e["type"] == "wound_healed"]
    assert [(e["data"]["wound"], e["data"]["at"]) for e in healed] == [("w1", DAY)]
    assert [x.id for x in vex(state).wounds] == ["w2"]


def test_replaying_the_events_gives_the_same_state():
    state = campaign(allow_fort_ignore=True, fort_ignore_duration="10_minutes")
    log = []
    for step in (lambda c: w.wound(c, "Vex", "eye", 3, "left", fort_total=20),
                 lambda c: w.wound(c, "Vex", "eye", 9, "right"),
                 lambda c: advance(c, HOUR),
                 lambda c: w.heal_wounds_by_magic(c, "vex", 4)):
        events = step(ctx(state))
        log += events
        state = fold(events, state)
    replayed = fold(log, campaign(allow_fort_ignore=True, fort_ignore_duration="10_minutes"))
    assert replayed.characters == state.characters and replayed.clock == state.clock
