"""Lingering injuries (seed 000): each mechanism with fixed dice, through the CLI."""

import random
from collections import Counter

import pytest

from sawbones.application.service import Context
from sawbones.content.loader import load_rules
from sawbones.domain.injuries import rules as injuries
from sawbones.domain.engine.options import effective_options
from sawbones.domain.engine.rolls import Roller
from sawbones.domain.engine.state import DAY, Campaign, Character


@pytest.fixture
def party(cli):
    assert cli("campaign", "create", "Test", "--seed", "5").code == 0
    assert cli("character", "add", "Aria", "--max-hp", "12", "--prof", "medicine,herbalism_kit",
               "--skills", "medicine=5", "--hit-dice", "3", "--abilities", "con=14").code == 0
    assert cli("character", "add", "Bob", "--max-hp", "20").code == 0
    return cli


def injuries_of(cli, name):
    return cli("--json", "status", name).json["characters"][0]["injuries"]


def character(cli, name):
    return cli("--json", "status", name).json["characters"][0]


def test_drop_to_zero_gives_one_injury_from_the_damage_type(party):
    result = party("--json", "damage", "Aria", "15", "fire", "--d20", "12")
    assert result.code == 0
    gained = [e for e in result.json["events"] if e["type"] == "injury_gained"]
    assert len(gained) == 1 and gained[0]["data"]["injury"] == "blisters" and gained[0]["data"]["table"] == "fire"
    assert character(party, "Aria")["hp"] == 0
    # more damage while at 0 gives no second injury (INJ-1 default)
    party("damage", "Aria", "3", "cold")
    assert len(injuries_of(party, "Aria")) == 1


def test_damage_above_zero_gives_none(party):
    party("damage", "Aria", "5", "fire")
    assert injuries_of(party, "Aria") == [] and character(party, "Aria")["hp"] == 7


def test_largest_share_picks_the_table(party):
    result = party("--json", "damage", "Aria", "4", "fire", "9", "cold", "--d20", "19")
    gained = [e for e in result.json["events"] if e["type"] == "injury_gained"][0]["data"]
    assert gained["table"] == "cold" and gained["injury"] == "stiff_joints"


def test_tie_with_gm_choice_asks_for_type(party):
    party("campaign", "set", "multi_type_tiebreak", "gm_choice")
    result = party("damage", "Aria", "6", "fire", "6", "cold")
    assert result.code == 2 and "--type" in result.err
    assert party("damage", "Aria", "6", "fire", "6", "cold", "--type", "fire", "--d20", "19").code == 0
    assert injuries_of(party, "Aria")[0]["table"] == "fire"


def test_unknown_damage_type_is_a_usage_error(party):
    result = party("damage", "Aria", "5", "sonic")
    assert result.code == 2 and "unknown damage type 'sonic'" in result.err and "Traceback" not in result.err


def test_npcs_get_injuries_only_with_the_option(party):
    party("character", "add", "Goblin", "--max-hp", "5", "--npc")
    party("damage", "Goblin", "9", "fire")
    assert injuries_of(party, "Goblin") == []
    party("campaign", "set", "apply_to_npcs", "true")
    party("heal", "Goblin", "--spell", "cure_wounds", "--hp", "5")
    party("damage", "Goblin", "9", "fire", "--d20", "19")
    assert len(injuries_of(party, "Goblin")) == 1


@pytest.mark.parametrize("d20, bands, injury, severity", [
    (20, "standard", "heatstroke", "minor"), (11, "standard", "blisters", "minor"),
    (6, "standard", "temporary_blindness", "moderate"), (3, "standard", "major_burns", "severe"),
    (2, "standard", "severe_burn", "critical"), (2, "lenient", "major_burns", "severe"),
    (4, "lenient", "temporary_blindness", "moderate"), (1, "lenient", "severe_burn", "critical"),
    (11, "lenient", "blisters", "minor"),
])
def test_one_d20_gives_severity_and_row(party, d20, bands, injury, severity):
    party("campaign", "set", "severity_bands", bands)
    party("injure", "Bob", "--type", "fire", "--d20", str(d20), "--site", "hand")
    got = injuries_of(party, "Bob")[0]
    assert (got["injury"], got["severity"]) == (injury, severity)


def test_treatment_spends_time_and_raises_dc_on_failure(party):
    party("injure", "Bob", "--type", "bludgeoning", "--d20", "8")  # temporary paralysis, moderate, DC 15
    before = party("--json", "clock").json["seconds"]
    result = party("--json", "treat", "Bob", "i1", "--check", "12")
    assert result.code == 0
    after = party("--json", "clock").json["seconds"]
    assert after - before == 30 * 60
    assert injuries_of(party, "Bob")[0]["dc"] == 17
    party("treat", "Bob", "i1", "--check", "16")
    assert injuries_of(party, "Bob")[0]["dc"] == 19  # the +2 stays for good
    party("treat", "Bob", "i1", "--check", "19")
    assert injuries_of(party, "Bob") == []


def test_treatment_needs_medicine_and_kit(party):
    party("injure", "Aria", "--type", "fire", "--d20", "19")
    result = party("treat", "Aria", "i1", "--healer", "Bob")
    assert result.code == 1 and "medicine and herbalism_kit" in result.err


def test_treatment_rolled_with_healer_bonus(party):
    party("injure", "Bob", "--type", "fire", "--d20", "19")
    result = party("--json", "treat", "Bob", "i1", "--healer", "Aria")
    assert result.code == 0
    rolls = [r for e in result.json["events"] for r in e["data"].get("rolls", []) if "treatment check" in r["why"]]
    assert rolls and rolls[0]["formula"] == "1d20"
    outcome = next(e["data"] for e in result.json["events"] if e["type"] in ("injury_healed", "treatment_failed"))
    assert outcome["check"] == rolls[0]["total"] + 5 and outcome["breakdown"]["sheet"] == 5


def test_magic_only_refuses_mundane_treatment(party):
    party("injure", "Bob", "--type", "acid", "--d20", "1")  # lose an eye
    result = party("treat", "Bob", "i1", "--check", "30")
    assert result.code == 1 and "requires magic" in result.err


def test_long_rest_heals_minor_and_moderate_only(party):
    party("injure", "Bob", "--type", "fire", "--d20", "19")      # minor
    party("injure", "Bob", "--type", "fire", "--d20", "7")       # moderate
    party("injure", "Bob", "--type", "acid", "--d20", "4")       # severe, unflagged
    party("injure", "Bob", "--type", "poison", "--d20", "15")    # minor
    party("rest", "--long")
    assert [i["injury"] for i in injuries_of(party, "Bob")] == ["major_burns"]


def test_short_rest_hit_die_heals_one_minor(party):
    party("injure", "Aria", "--type", "fire", "--d20", "19")
    party("injure", "Aria", "--type", "fire", "--d20", "16")
    party("injure", "Aria", "--type", "fire", "--d20", "7")
    result = party("--json", "rest", "Aria", "--short", "--hit-dice", "1", "--injury", "i2", "--roll", "4")
    assert result.code == 0
    left = [i["id"] for i in injuries_of(party, "Aria")]
    assert left == ["i1", "i3"]
    assert character(party, "Aria")["hit_dice"] == 2
    bad = party("rest", "Aria", "--short", "--hit-dice", "1", "--injury", "i3")
    assert bad.code == 1 and "does not heal with a Hit Die" in bad.err


@pytest.mark.parametrize("spell, d20, heals", [
    ("cure_wounds", 19, True), ("cure_wounds", 7, False), ("lesser_restoration", 7, True),
    ("lesser_restoration", 4, False), ("greater_restoration", 4, True), ("greater_restoration", 2, False),
    ("heal", 2, True), ("heal", 19, True),
])
def test_magic_tiers(party, spell, d20, heals):
    party("injure", "Bob", "--type", "bludgeoning", "--d20", str(d20))
    result = party("heal", "Bob", "--spell", spell, "--injury", "i1")
    assert (result.code == 0) == heals
    assert (injuries_of(party, "Bob") == []) == heals


def test_one_injury_per_casting(party):
    party("injure", "Bob", "--type", "fire", "--d20", "19")
    party("injure", "Bob", "--type", "fire", "--d20", "16")
    party("heal", "Bob", "--spell", "heal")
    assert len(injuries_of(party, "Bob")) == 1


def test_minor_magic_needs_a_stable_target(party):
    party("damage", "Aria", "12", "fire", "--d20", "19")
    result = party("heal", "Aria", "--spell", "healing_word", "--injury", "i1", "--hp", "4")
    assert result.code == 1 and "stable" in result.err
    party("stabilize", "Aria")
    assert party("heal", "Aria", "--spell", "healing_word", "--injury", "i1").code == 0


def test_relevant_remedy_is_per_campaign(party):
    party("injure", "Bob", "--type", "bludgeoning", "--d20", "4")  # minor concussion, severe
    assert party("heal", "Bob", "--spell", "lesser_restoration", "--injury", "i1").code == 1
    party("campaign", "set", "relevant_remedies", '{"minor_concussion": ["lesser_restoration"]}')
    assert party("heal", "Bob", "--spell", "lesser_restoration", "--injury", "i1").code == 0


def test_lost_eye_counting_and_regenerate(party):
    party("injure", "Bob", "--type", "acid", "--d20", "1")
    party("injure", "Bob", "--type", "piercing", "--d20", "2")
    bob = character(party, "Bob")
    assert bob["body"]["eyes"] == 0
    status = party("--json", "status", "Bob").json
    assert status["characters"][0]["body"]["eyes"] == 0
    party("campaign", "set", "lost_part_magic", "regenerate")
    assert party("heal", "Bob", "--spell", "heal", "--injury", "i1").code == 1  # lost parts need regenerate
    party("heal", "Bob", "--spell", "regenerate", "--injury", "i1")
    assert character(party, "Bob")["body"]["eyes"] == 1


def test_extremity_deadline_loses_the_part(party):
    party("injure", "Bob", "--type", "necrotic", "--d20", "1", "--site", "foot")
    injury = injuries_of(party, "Bob")[0]
    deadline = injury["timers"]["deadline_at"]
    assert DAY <= deadline <= 4 * DAY
    party("advance", "4d")
    left = injuries_of(party, "Bob")
    assert [i["injury"] for i in left] == ["lose_a_foot_or_hand"] and left[0]["site"] == "foot"
    assert left[0]["magic_only"] and character(party, "Bob")["body"]["feet"] == 1


def test_frostbite_becomes_severe_frostbite(party):
    party("injure", "Bob", "--type", "cold", "--d20", "4")
    party("advance", "4d", )
    assert [i["injury"] for i in injuries_of(party, "Bob")] == ["severe_frostbite"]
    assert injuries_of(party, "Bob")[0]["dc"] == 25


def test_rot_takes_max_hp_each_day_and_is_restored_on_healing(party):
    party("injure", "Bob", "--type", "necrotic", "--d20", "4")
    first = character(party, "Bob")["max_hp"]
    assert 16 <= first <= 19
    party("advance", "2d")
    later = character(party, "Bob")["max_hp"]
    assert first - 8 <= later <= first - 2
    party("heal", "Bob", "--spell", "greater_restoration")
    assert character(party, "Bob")["max_hp"] == 20


def test_sepsis_takes_abilities_each_day(party):
    party("injure", "Aria", "--type", "poison", "--d20", "1")
    party("advance", "3d")
    injury = injuries_of(party, "Aria")[0]
    assert injury["ability_lost"] == {"con": 3, "dex": 3, "str": 3}


def test_open_wound_adds_1d4_when_damaged(party):
    party("injure", "Bob", "--type", "slashing", "--d20", "12")
    result = party("--json", "damage", "Bob", "2", "fire")
    taken = result.json["events"][0]["data"]
    assert len(taken["extra"]) == 1 and 1 <= taken["extra"][0]["amount"] <= 4
    assert taken["total"] == 2 + taken["extra"][0]["amount"]


def test_nausea_save_each_turn(party):
    party("injure", "Bob", "--type", "acid", "--d20", "19")
    result = party("--json", "turn", "Bob", "--save", "7")
    r = result.json["events"][0]["data"]["results"][0]
    assert (r["save"], r["dc"], r["failed"], r["outcome"]) == ("con", 8, True, {"lose_action": True})
    r = party("--json", "turn", "Bob", "--save", "8").json["events"][0]["data"]["results"][0]
    assert not r["failed"]


def test_puncture_wound_loses_hp_while_standing(party):
    party("injure", "Bob", "--type", "piercing", "--d20", "12")
    party("turn", "Bob")
    assert character(party, "Bob")["hp"] == 19


def test_broken_ribs_and_leg_injury_triggers(party):
    party("injure", "Bob", "--type", "force", "--d20", "1")
    r = party("--json", "action", "Bob", "--save", "9").json["events"][0]["data"]["results"][0]
    assert r["dc"] == 10 and r["failed"] and r["outcome"] == {"lose_action": True, "lose_reactions": True}
    party("injure", "Bob", "--type", "force", "--d20", "19")
    party("turn", "Bob")  # the lost action comes back as the next turn begins
    r = party("--json", "dash", "Bob", "--save", "12").json["events"][0]["data"]["results"][0]
    assert r["save"] == "dex" and not r["failed"]


def test_undo_reverts_an_injury_exactly(party):
    before = party("--json", "status").json
    party("damage", "Aria", "20", "fire", "--d20", "1", "--site", "hand")
    party("undo")
    assert party("--json", "status").json == before


def test_story_through_the_cli(party):
    """Drop to 0 from fire, fail treatment twice, long rest, deadline passes, hand lost, regenerate."""
    party("damage", "Aria", "14", "fire", "--d20", "2", "--site", "hand")
    assert injuries_of(party, "Aria")[0]["dc"] == 25
    party("advance", "4d")  # untreated: the hand is lost
    hurt = injuries_of(party, "Aria")
    assert [i["injury"] for i in hurt] == ["lose_a_foot_or_hand"] and character(party, "Aria")["body"]["hands"] == 1
    assert party("treat", "Aria", hurt[0]["id"], "--check", "30").code == 1
    party("rest", "--long")
    assert len(injuries_of(party, "Aria")) == 1
    party("injure", "Aria", "--type", "bludgeoning", "--d20", "7")
    party("treat", "Aria", "i3", "--check", "3")
    party("treat", "Aria", "i3", "--check", "5")
    assert injuries_of(party, "Aria")[1]["dc"] == 19
    party("heal", "Aria", "--spell", "regenerate", "--injury", "i2")
    assert character(party, "Aria")["body"]["hands"] == 2
    log = party("--json", "log").json["events"]
    assert [e["type"] for e in log].count("treatment_failed") == 2


RULES = load_rules()
EXPECTED = {
    "standard": {0: 3, 1: 3, 2: 4, 3: 5, 4: 3, 5: 2},
    "lenient": {0: 3, 1: 3, 2: 4, 3: 7, 4: 2, 5: 1},
}


@pytest.mark.parametrize("bands", ["standard", "lenient"])
@pytest.mark.parametrize("table", sorted(RULES.damage_tables))
def test_seeded_injuries_follow_the_seed_frequencies(table, bands):
    options = effective_options(RULES, {"severity_bands": bands})
    bob = Character(id="bob", name="Bob", max_hp=50, hp=0)
    state = Campaign(name="stats", characters=(bob,))
    rng = random.Random(f"{table}{bands}")
    counts: Counter = Counter()
    n = 1000
    for _ in range(n):
        ctx = Context(state, RULES, options, Roller(rng))
        gained = injuries.gain(ctx, bob, table, site="hand")[0]["data"]
        rows = RULES.damage_tables[table].rows
        counts[next(i for i, r in enumerate(rows) if r.injury == gained["injury"])] += 1
    for index, twentieths in EXPECTED[bands].items():
        p = twentieths / 20
        sd = (n * p * (1 - p)) ** 0.5
        assert abs(counts[index] - n * p) <= 5 * sd, (index, counts)


def test_every_roll_can_be_the_tables_own_dice(party):
    """--dice N gives the next roll of the action: here the secret deadline, then the max-HP loss."""
    party("--dice", "3", "injure", "Bob", "--type", "necrotic", "--d20", "1", "--site", "foot")
    assert injuries_of(party, "Bob")[0]["timers"]["deadline_at"] == 3 * DAY
    party("--dice", "4", "injure", "Bob", "--type", "necrotic", "--d20", "4")
    assert character(party, "Bob")["max_hp"] == 16
    impossible = party("--dice", "9", "injure", "Bob", "--type", "necrotic", "--d20", "4")
    assert impossible.code == 2 and "not a possible result of 1d4" in impossible.err
    left_over = party("--dice", "2", "--dice", "2", "injure", "Bob", "--type", "fire", "--d20", "19")
    assert left_over.code == 2 and "left over" in left_over.err
    assert len(injuries_of(party, "Bob")) == 2, "a refused action writes nothing"
