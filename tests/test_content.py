"""Every seed rule is present as data, parsed, and either structured or explicitly kept as a note."""

import pytest

from sawbones.content import schema as s
from sawbones.content.checks import band_of
from sawbones.content.loader import load_rules

RULES = load_rules()
DAMAGE_TYPES = ["acid", "bludgeoning", "fire", "force", "lightning", "cold", "necrotic", "piercing", "poison",
                "psychic", "radiant", "thunder", "slashing"]
DISEASES = ["mindfire", "devil_chills", "filth_fever", "cackle_fever", "leprosy", "blinding_sickness", "red_ache",
            "slimy_doom", "bubonic_plague", "demon_fever", "dementia_dust", "mummy_rot", "shakes"]
POISONS = ["blue_whinnis", "id_moss", "insanity_mist", "ungol_dust", "black_lotus_extract", "green_lotus",
           "deathblade", "small_centipede_poison", "giant_scorpion_venom"]
TRACKS = ["physical_disease", "mental_disease", "strength_poison", "dexterity_poison", "constitution_poison",
          "intelligence_poison", "wisdom_poison", "charisma_poison"]
ROWS = [(t, i) for t in DAMAGE_TYPES for i in range(6)]


def structured(effects) -> bool:
    return any(not isinstance(e, s.NoteEffect) for e in effects)


def noted(effects) -> bool:
    return any(isinstance(e, s.NoteEffect) for e in effects)


def test_counts():
    assert sorted(RULES.damage_tables) == sorted(DAMAGE_TYPES)
    assert sum(len(t.rows) for t in RULES.damage_tables.values()) == 78
    assert len(RULES.injuries) == 43
    assert set(TRACKS) <= set(RULES.tracks)
    assert sorted(a for a, x in RULES.afflictions.items() if x.kind == "disease") == sorted(DISEASES)
    assert sorted(a for a, x in RULES.afflictions.items() if x.kind == "poison") == sorted(POISONS)
    assert sorted(RULES.body_parts) == sorted(["hand", "arm", "head", "eye", "ear", "foot_leg"])
    assert set(RULES.severities) == {"minor", "moderate", "severe", "critical"}
    assert set(RULES.band_sets) == {"standard", "lenient"}


@pytest.mark.parametrize("table, index", ROWS)
def test_injury_row(table, index):
    row = RULES.damage_tables[table].rows[index]
    injury = RULES.injuries[row.injury]
    assert row.text.fr and row.text.en
    assert structured(injury.effects) or noted(injury.effects), f"{injury.id} has neither effect nor note"
    expected = ["18-20", "15-17", "11-14", "6-10", "3-5", "1-2"][index]
    assert row.d20 == expected
    severity = ["minor", "minor", "minor", "moderate", "severe", "critical"][index]
    assert band_of(RULES.band_sets["standard"], row.d20) == severity


@pytest.mark.parametrize("injury_id", sorted(RULES.injuries))
def test_injury_has_structure_or_note(injury_id):
    injury = RULES.injuries[injury_id]
    assert structured(injury.effects) or noted(injury.effects)
    for effect in injury.effects:
        if isinstance(effect, s.NoteEffect):
            assert effect.reason.fr and effect.reason.en, "a note says why it stays text"


@pytest.mark.parametrize("track_id", sorted(RULES.tracks))
def test_track(track_id):
    track = RULES.tracks[track_id]
    assert track.stages[0].id == "healthy"
    for stage in track.stages[1:]:
        assert structured(stage.effects) or noted(stage.effects) or stage.inherit or stage.id in ("latent", "pliable_2"), \
            f"{track_id}.{stage.id} has neither effect nor note"


@pytest.mark.parametrize("affliction_id", DISEASES + POISONS)
def test_affliction(affliction_id):
    a = RULES.afflictions[affliction_id]
    assert a.save == "fortitude" and 10 <= a.dc <= 20
    assert a.table_text.fr and a.table_text.en
    assert a.cure.consecutive_saves or a.cure.magic_only or a.cure.spells
    if a.kind == "poison":
        assert a.frequency.count, "poisons have a duration"
    else:
        assert a.frequency.count is None and a.onset is None


@pytest.mark.parametrize("affliction_id, dc, freq, count, cure", [
    ("filth_fever", 12, "day", None, 2), ("devil_chills", 14, "day", None, 3), ("leprosy", 12, "week", None, 2),
    ("dementia_dust", 14, "week", None, None), ("giant_scorpion_venom", 17, "round", 6, 1),
    ("id_moss", 14, "minute", 6, 1), ("blue_whinnis", 14, "round", 2, 1), ("deathblade", 20, "round", 6, 2),
    ("black_lotus_extract", 20, "round", 6, 2), ("small_centipede_poison", 11, "round", 4, 1),
])
def test_catalog_numbers(affliction_id, dc, freq, count, cure):
    a = RULES.afflictions[affliction_id]
    assert (a.dc, a.frequency.unit, a.frequency.count, a.cure.consecutive_saves) == (dc, freq, count, cure)


def test_special_cases():
    A, T = RULES.afflictions, RULES.tracks
    assert A["leprosy"].tracks == ("leprosy",) and T["leprosy"].end_state == "stiffened"
    assert T["blue_whinnis"].end_state is None
    assert [st.id for st in T["black_lotus_extract"].stages] == ["healthy", "weakened", "disabled", "dead"]
    assert T["green_lotus"].end_state == T["green_lotus"].stages[-1].id and len(T["green_lotus"].stages) == 5
    assert A["small_centipede_poison"].failures_per_stage.count == 2
    assert A["mummy_rot"].tracks == ("physical_disease", "mental_disease") and A["mummy_rot"].start_stage == "weakened"
    assert A["dementia_dust"].cure.magic_only
    assert set(A["mummy_rot"].cure.spells) == {"remove_curse", "remove_disease"}
    assert A["id_moss"].onset.amount == 10 and A["id_moss"].onset.unit == "minute"


@pytest.mark.parametrize("part_id", ["hand", "arm", "head", "eye", "ear", "foot_leg"])
def test_body_part(part_id):
    part = RULES.body_parts[part_id]
    assert part.penalty == -2 and part.rolls
    assert (part.sides == ()) == (part_id == "head")


def test_pair_conditions():
    assert RULES.body_parts["eye"].both_sides_condition == "blinded"
    assert RULES.body_parts["ear"].both_sides_condition == "deafened"


@pytest.mark.parametrize("option_id", sorted(RULES.options))
def test_option_is_declared_fully(option_id):
    option = RULES.options[option_id]
    assert option.help.fr and option.help.en
    if option.type == "choice":
        assert option.default in option.choices


def test_seed_wins_by_default_and_original_is_one_switch_away():
    from sawbones.domain.engine.options import effective_options

    seed = effective_options(RULES, {})
    original = effective_options(RULES, {"follow_original_text": True})
    assert seed["mental_weakened_fatigued"] is True and original["mental_weakened_fatigued"] is False
    assert seed["blind_deaf_requires_severe"] is False and original["blind_deaf_requires_severe"] is True
    assert seed["ungol_rule"] == "s4" and original["ungol_rule"] == "en"


def test_ids_are_english_snake_case():
    for section, entries in RULES.sections.items():
        for entry_id in entries:
            assert entry_id.isascii() and entry_id == entry_id.lower(), (section, entry_id)
