"""Every value of every option in options.yaml changes something, or is refused as not modelled (issue 19, item 7).

For each option and each value other than its default, the GM's own steps (a short story through the CLI)
are played twice on fresh campaigns, once with the default and once with that value: the two must end
differently (an output, an event, a refusal). A value the engine does not model must be refused by
`campaign set` with a message saying so. An option without a story here fails the walk: adding an option
means saying what it changes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sawbones.content.loader import load_rules
from sawbones.interfaces.cli import main

RULES = load_rules()

P5 = [("character", "add", "Aria", "--max-hp", "12", "--prof", "medicine,herbalism_kit", "--skills", "medicine=1",
       "--hit-dice", "3", "--abilities", "con=14,int=16,wis=8"),
      ("character", "add", "Bob", "--max-hp", "20")]
PF = [("character", "add", "Vex", "--max-hp", "30", "--saves", "fortitude=2,reflex=2,will=2",
       "--abilities", "str=14,dex=14")]
FEVER = PF + [("expose", "Vex", "filth_fever", "--save", "1")]
VENOM = PF + [("expose", "Vex", "giant_scorpion_venom", "--save", "1")]
FRAIL = [("character", "add", "Vex", "--max-hp", "30", "--saves", "fortitude=-20")]  # fails every save
# Content packs for options that only matter on an entry the seeds do not have (the GM's homebrew)
CENTIPEDE_2_SAVES = """afflictions:
  - id: small_centipede_poison
    kind: poison
    name: {fr: Venin de mille-pattes de taille P, en: Small Centipede Poison}
    vectors: [injury]
    save: fortitude
    dc: 11
    tracks: [dexterity_poison]
    frequency: {unit: round, count: 4}
    cure: {consecutive_saves: 2, text: {fr: "2 JS consécutifs", en: "2 consecutive saves"}}
    failures_per_stage: {after: sluggish, count: 2}
    table_text: {fr: "Mille-pattes, guérison en 2 JS", en: "Centipede, cure in 2 saves"}
"""
FEVER_WITH_ONSET = """afflictions:
  - id: filth_fever
    kind: disease
    name: {fr: Fièvre des égouts, en: Filth Fever}
    vectors: [injury]
    save: fortitude
    dc: 12
    tracks: [physical_disease]
    onset: {amount: 2, unit: day}
    frequency: {unit: day}
    cure: {consecutive_saves: 2, text: {fr: "2 JS consécutifs", en: "2 consecutive saves"}}
    table_text: {fr: "Fièvre des égouts, incubation 2 jours", en: "Filth fever, onset 2 days"}
"""

# option -> (system, base options, the story[, a content pack]); values other than the default are walked
STORIES: dict[str, tuple] = {
    # general
    "follow_original_text": ("pf1e", {}, PF + [("expose", "Vex", "cackle_fever", "--save", "1", "--deadly", "weakened"),
                                               ("mods", "Vex", "check", "--ability", "str")]),
    # lingering injuries (5e)
    "apply_to_npcs": ("dnd5e", {}, [("character", "add", "Orc", "--max-hp", "10", "--npc"),
                                    ("damage", "Orc", "10", "fire", "--d20", "12"), ("status", "Orc")]),
    "injury_on_damage_at_zero": ("dnd5e", {}, P5 + [("damage", "Bob", "20", "fire", "--d20", "12"),
                                                    ("damage", "Bob", "3", "cold", "--d20", "12"), ("status", "Bob")]),
    "lost_part_magic": ("dnd5e", {}, P5 + [("injure", "Bob", "--type", "acid", "--d20", "1"),
                                           ("heal", "Bob", "--spell", "heal")]),
    "poison_damage_injury": ("dnd5e", {}, [("character", "add", "Bob", "--max-hp", "5", "--saves", "con=0"),
                                           ("expose", "Bob", "deathblade", "--save", "1"), ("status", "Bob")]),
    "trigger_on_critical_failure": ("dnd5e", {}, P5 + [("injure", "Bob", "--type", "fire", "--d20", "12",
                                                        "--critical-failure")]),
    "multi_type_rule": ("dnd5e", {}, P5 + [("damage", "Bob", "15", "fire", "5", "cold", "--d20", "12"),
                                           ("status", "Bob")]),
    "multi_type_tiebreak": ("dnd5e", {}, P5 + [("damage", "Bob", "10", "fire", "10", "cold", "--d20", "12"),
                                               ("status", "Bob")]),
    "severity_bands": ("dnd5e", {}, P5 + [("injure", "Bob", "--type", "acid", "--d20", "2")]),
    "lenient_row_mapping": ("dnd5e", {"severity_bands": "lenient"}, P5 + [("injure", "Bob", "--type", "acid",
                                                                           "--d20", "2")]),
    "treatment_check": ("dnd5e", {}, P5 + [("injure", "Bob", "--type", "fire", "--d20", "19"),
                                           ("treat", "Bob", "i1", "--healer", "Aria")]),
    "self_treatment": ("dnd5e", {}, P5 + [("injure", "Aria", "--type", "fire", "--d20", "19"),
                                          ("treat", "Aria", "i1", "--healer", "Aria")]),
    "retry_requires_time": ("dnd5e", {}, P5 + [("injure", "Bob", "--type", "fire", "--d20", "19"),
                                               ("treat", "Bob", "i1", "--check", "1"),
                                               ("treat", "Bob", "i1", "--check", "1"), ("clock",)]),
    "critical_bedrest": ("dnd5e", {}, P5 + [("injure", "Bob", "--type", "force", "--d20", "1"),
                                            ("treat", "Bob", "i1", "--check", "30"), ("clock",)]),
    "critical_magic": ("dnd5e", {}, P5 + [("injure", "Bob", "--type", "force", "--d20", "1"), ("status", "Bob"),
                                          ("heal", "Bob", "--spell", "regenerate")]),
    "hd_also_restores_hp": ("dnd5e", {}, P5 + [("damage", "Aria", "5", "fire"),
                                               ("rest", "Aria", "--short", "--hit-dice", "1"), ("status", "Aria")]),
    "long_rest_requires_hp": ("dnd5e", {}, P5 + [("damage", "Bob", "20", "fire", "--d20", "12"),
                                                 ("rest", "Bob", "--long"), ("status", "Bob")]),
    "magic_heals_per_effect": ("dnd5e", {}, P5 + [("injure", "Bob", "--type", "fire", "--d20", "19"),
                                                  ("injure", "Bob", "--type", "poison", "--d20", "15"),
                                                  ("heal", "Bob", "--spell", "cure_wounds"), ("status", "Bob")]),
    "minor_magic_requires_stable": ("dnd5e", {}, P5 + [("damage", "Bob", "20", "fire", "--d20", "12"),
                                                       ("heal", "Bob", "--spell", "cure_wounds")]),
    "relevant_remedies": ("dnd5e", {}, P5 + [("injure", "Bob", "--type", "fire", "--d20", "4"),
                                             ("heal", "Bob", "--spell", "lesser_restoration")]),
    "unflagged_severe_natural_recovery": ("dnd5e", {}, P5 + [("injure", "Bob", "--type", "acid", "--d20", "4")]
                                          + [("rest", "Bob", "--long")] * 7 + [("status", "Bob")]),
    "ability_roll_scope": ("dnd5e", {}, P5 + [("injure", "Bob", "--type", "cold", "--d20", "16"),
                                              ("mods", "Bob", "save", "--save", "dex")]),
    "temporary_condition_duration": ("dnd5e", {}, P5 + [("injure", "Bob", "--type", "force", "--d20", "7"),
                                                        ("advance", "2min"), ("mods", "Bob", "save", "--save", "str"),
                                                        ("combat-end",), ("mods", "Bob", "save", "--save", "str")]),
    "nausea_timing": ("dnd5e", {}, P5 + [("injure", "Bob", "--type", "acid", "--d20", "19"), ("turn", "Bob")]),
    "puncture_zero_hp_injury": ("dnd5e", {}, P5 + [("injure", "Bob", "--type", "piercing", "--d20", "12"),
                                                   ("character", "edit", "Bob", "--hp", "1"), ("turn", "Bob"),
                                                   ("status", "Bob")]),
    "daily_tick": ("dnd5e", {}, P5 + [("advance", "10h"), ("injure", "Bob", "--type", "necrotic", "--d20", "4"),
                                      ("advance", "30h"), ("status", "Bob")]),
    "dawn_hour": ("dnd5e", {"daily_tick": "dawn"}, P5 + [("injure", "Bob", "--type", "necrotic", "--d20", "4"),
                                                           ("advance", "7h"), ("status", "Bob")]),
    "restore_maxhp_on_heal": ("dnd5e", {}, P5 + [("injure", "Bob", "--type", "necrotic", "--d20", "4"),
                                                 ("heal", "Bob", "--spell", "greater_restoration"), ("status", "Bob")]),
    "ability_zero_rule": ("dnd5e", {}, [("character", "add", "Cy", "--abilities", "con=1"),
                                        ("injure", "Cy", "--type", "poison", "--d20", "1"), ("advance", "25h"),
                                        ("status", "Cy")]),
    "open_wound_type": ("dnd5e", {}, P5 + [("injure", "Bob", "--type", "slashing", "--d20", "12"),
                                           ("damage", "Bob", "4", "fire")]),
    "extremity_site": ("dnd5e", {}, P5 + [("injure", "Bob", "--type", "fire", "--d20", "1")]),
    # players at the table (issue 12): who rolls, the GM's confirmation, what the player knows, the party view
    "who_rolls": ("pf1e", {}, FEVER + [("advance", "2d"), ("pending",)]),
    "confirm_player_answers": ("pf1e", {"who_rolls": "players"}, FEVER + [("advance", "2d"), ("@answer", "10"),
                                                                         ("pending",)]),
    "afflictions_known": ("pf1e", {}, FEVER + [("@view", "vex")]),
    "check_reveals_affliction": ("pf1e", {"afflictions_known": "false"},
                                 FEVER + [("diagnose", "Vex", "filth_fever", "--check", "30"), ("@view", "vex")]),
    "share_party_view": ("pf1e", {}, FEVER + [("character", "add", "Ola", "--max-hp", "9"), ("@view", "vex")]),
    "reveal_deadline": ("dnd5e", {}, P5 + [("injure", "Bob", "--type", "fire", "--d20", "1", "--site", "hand"),
                                           ("@view", "bob")]),
    "deadline_satisfied_by": ("dnd5e", {}, P5 + [("injure", "Bob", "--type", "fire", "--d20", "1", "--site", "hand"),
                                                 ("treat", "Bob", "i1", "--check", "1"), ("status", "Bob")]),
    "frostbite_escalates_to": ("dnd5e", {}, P5 + [("injure", "Bob", "--type", "cold", "--d20", "4"), ("advance", "5d"),
                                                  ("status", "Bob")]),
    "carry_failures": ("dnd5e", {"deadline_satisfied_by": "healed"},
                       P5 + [("injure", "Bob", "--type", "cold", "--d20", "4"), ("treat", "Bob", "i1", "--check", "1"),
                             ("status", "Bob")]),
    "metal_armor": ("dnd5e", {}, P5 + [("injure", "Bob", "--type", "acid", "--d20", "16"),
                                       ("mods", "Bob", "check", "--ability", "str", "--armor", "leather")]),
    "anatomy": ("dnd5e", {}, [("character", "add", "Cyc"), ("status", "Cyc")]),
    "reroll_impossible": ("dnd5e", {}, [("character", "add", "One", "--body", "eyes=0"),
                                        ("injure", "One", "--type", "acid", "--d20", "1")]),
    "stack_identical_ability_reductions": ("dnd5e", {}, P5 + [("injure", "Bob", "--type", "fire", "--d20", "4"),
                                                              ("injure", "Bob", "--type", "fire", "--d20", "4"),
                                                              ("mods", "Bob", "check", "--ability", "cha")]),
    # localized wounds
    "min_damage_for_wound": ("pf1e", {}, PF + [("wound", "Vex", "hand", "--side", "left", "--damage", "1")]),
    "stacking": ("pf1e", {}, PF + [("wound", "Vex", "hand", "--side", "left", "--damage", "3"),
                                   ("wound", "Vex", "eye", "--side", "left", "--damage", "3"),
                                   ("mods", "Vex", "skill", "--skill", "disable_device")]),
    "blind_deaf_requires_severe": ("pf1e", {}, PF + [("wound", "Vex", "eye", "--side", "left", "--damage", "2"),
                                                     ("wound", "Vex", "eye", "--side", "right", "--damage", "2"),
                                                     ("mods", "Vex", "attack")]),
    "superficial_threshold": ("pf1e", {}, PF + [("wound", "Vex", "hand", "--side", "left", "--damage", "3"),
                                                ("status", "Vex")]),
    "nonsuperficial_heal": ("pf1e", {}, PF + [("wound", "Vex", "hand", "--side", "left", "--damage", "8"),
                                              ("wound-heal", "Vex", "--rest", "--hp", "8"), ("status", "Vex")]),
    "allow_fort_ignore": ("pf1e", {}, PF + [("wound", "Vex", "hand", "--side", "left", "--damage", "3"),
                                            ("status", "Vex")]),
    "fort_ignore_duration": ("pf1e", {"allow_fort_ignore": "true"},
                             PF + [("wound", "Vex", "hand", "--side", "left", "--damage", "3", "--fort", "30"),
                                   ("status", "Vex")]),
    "day_of_rest": ("pf1e", {}, PF + [("wound", "Vex", "hand", "--side", "left", "--damage", "2"), ("advance", "1d"),
                                      ("status", "Vex")]),
    "extra_affected_rolls": ("pf1e", {}, PF + [("wound", "Vex", "hand", "--side", "left", "--damage", "3"),
                                               ("mods", "Vex", "skill", "--skill", "swim")]),
    # progression tracks
    "disease_onset": ("pf1e", {}, PF + [("expose", "Vex", "filth_fever", "--save", "1"), ("status", "Vex")],
                      FEVER_WITH_ONSET),
    "first_step_timing": ("pf1e", {}, PF + [("expose", "Vex", "id_moss", "--save", "1"), ("status", "Vex")]),
    "initial_save_counts_toward_duration": ("pf1e", {}, VENOM + [("status", "Vex")]),
    "initial_damage_rounding": ("pf1e", {}, PF + [("expose", "Vex", "giant_scorpion_venom", "--save", "30"),
                                                  ("status", "Vex")]),
    "extra_dose_damage": ("pf1e", {}, VENOM + [("expose", "Vex", "giant_scorpion_venom", "--save", "30"),
                                               ("status", "Vex")]),
    "require_cl_check": ("pf1e", {}, PF + [("expose", "Vex", "filth_fever", "--save", "1"),
                                           ("cure", "Vex", "filth_fever", "--spell", "remove_disease")]),
    "heal_check_doubles": ("pf1e", {}, VENOM + [("advance", "1d", "--auto"), ("recover", "Vex", "--bed-rest", "--care"),
                                                ("status", "Vex")]),
    "recovery_multiplier": ("pf1e", {}, VENOM + [("advance", "1d", "--auto"), ("recover", "Vex", "--bed-rest"),
                                                 ("status", "Vex")]),
    "irreversible_when_no_cure": ("pf1e", {}, PF + [("expose", "Vex", "dementia_dust", "--save", "1", "--deadly",
                                                     "weakened"),
                                                    ("cure", "Vex", "dementia_dust", "--spell", "remove_disease",
                                                     "--cl-check", "40"), ("status", "Vex")]),
    "mental_weakened_fatigued": ("pf1e", {}, PF + [("expose", "Vex", "cackle_fever", "--save", "1", "--deadly",
                                                    "weakened"), ("mods", "Vex", "check", "--ability", "str")]),
    "apply_legacy_ability_damage": ("pf1e", {}, FRAIL + [("expose", "Vex", "red_ache", "--save", "1"),
                                                         ("advance", "1d", "--auto"), ("status", "Vex")]),
    "permanent_set": ("pf1e", {}, PF + [("expose", "Vex", "slimy_doom", "--save", "1", "--deadly", "impaired"),
                                        ("status", "Vex")]),
    "ungol_rule": ("pf1e", {}, PF + [("expose", "Vex", "ungol_dust", "--save", "1", "--deadly", "catatonic"),
                                     ("cure", "Vex", "ungol_dust", "--spell", "neutralize_poison", "--cl-check", "40")]
                   + [("advance", "1d"), ("recover", "Vex", "--bed-rest")] * 3 + [("status", "Vex")]),
    "blinding_removers": ("pf1e", {}, PF + [("expose", "Vex", "blinding_sickness", "--save", "1", "--deadly",
                                             "dead"), ("status", "Vex")]),
    "centipede_failures_consecutive": ("pf1e", {}, PF + [("expose", "Vex", "small_centipede_poison", "--save", "1"),
                                                         ("advance", "1r"), ("answer", "p2", "1"),
                                                         ("advance", "1r"), ("answer", "p3", "30"),
                                                         ("advance", "1r"), ("answer", "p4", "1"), ("status", "Vex")],
                                       CENTIPEDE_2_SAVES),
    "mummy_rot_heal_cures": ("pf1e", {}, PF + [("expose", "Vex", "mummy_rot", "--save", "1"),
                                               ("cure", "Vex", "mummy_rot", "--spell", "heal"), ("status", "Vex")]),
    "disabled_stage_dying": ("pf1e", {}, PF + [("expose", "Vex", "black_lotus_extract", "--save", "1", "--deadly",
                                                "disabled"), ("action", "Vex"), ("turn", "Vex"), ("status", "Vex")]),
    "multi_affliction_stacking": ("pf1e", {}, VENOM + [("expose", "Vex", "small_centipede_poison", "--save", "1"),
                                                      ("mods", "Vex", "reflex")]),
    "catatonic_helpless": ("pf1e", {}, PF + [("expose", "Vex", "ungol_dust", "--save", "1", "--deadly", "catatonic"),
                                            ("mods", "Vex", "ac")]),
    "deadly_start": ("pf1e", {}, PF + [("expose", "Vex", "filth_fever", "--save", "1"), ("status", "Vex")]),
}

# values walked for options that are not a bool or a choice
OTHER_VALUES = {
    "critical_bedrest": ["1d4"], "magic_heals_per_effect": ["2"], "min_damage_for_wound": ["2"], "dawn_hour": ["8"],
    "superficial_threshold": ["2"], "relevant_remedies": ['{"major_burns": ["lesser_restoration"]}'],
    "metal_armor": ["leather"], "anatomy": ["eyes=1,hands=2,feet=2"], "extra_affected_rolls": ["hand=skill:swim"],
    "recovery_multiplier": ["giant_scorpion_venom=2"], "blinding_removers": ["heal"],
    "bubonic_plague_vectors": ["injury,inhaled"], "deadly_start": ["filth_fever=weakened"],
}


def values(option) -> list[str]:
    if option.type == "bool":
        return ["false" if option.default else "true"]
    if option.type == "choice":
        return [c for c in option.choices if c != option.default]
    return OTHER_VALUES[option.id]


WALK = [(o.id, v) for o in RULES.options.values() for v in (values(o) if o.type in ("bool", "choice")
                                                                  or o.id in OTHER_VALUES else ["?"])]


def play(capsys, db, system, options, story, pack=None):
    """The story's outcome: each step's exit code and its JSON (or its error), on a fresh campaign."""
    def run(*args):
        capsys.readouterr()
        code = main(["--db", db, *args])
        out = capsys.readouterr()
        return code, out

    packed = []
    if pack is not None:
        directory = Path(db).with_suffix(".pack")
        directory.mkdir()
        (directory / "pack.yaml").write_text(pack, encoding="utf-8")
        packed = ["--pack", str(directory)]
    created = run("campaign", "create", "Walk", "--system", system, "--seed", "11", *packed)
    assert created[0] == 0, created[1].err
    for key, value in options.items():
        code, out = run("campaign", "set", key, value)
        assert code == 0, out.err
    outcome = []
    for step in story:
        if step[0] == "@view":  # what the character's player sees (the player page and API)
            from sawbones.application.service import Service
            from sawbones.interfaces.web.api.player_view import player_view

            from sawbones.presentation.locale import speaking

            with speaking("en"):  # (its version counts the options set)
                view = player_view(Service.open(db), "Walk", step[1])
            outcome.append((step, 0, {k: view[k] for k in ("character", "party", "prompts", "rolls")}))
            continue
        if step[0] == "@answer":  # the first pending save's player answers it with this d20 (the player API)
            from sawbones.application.service import Service
            from sawbones.domain.afflictions.decide import answer

            service = Service.open(db)
            first = service.load("Walk").state.pending[0]
            service.act("Walk", lambda ctx: answer(ctx, first.id, d20=int(step[1]), by="player",
                                                   player=first.character))
            continue
        code, out = run("--json", *step)
        outcome.append((step, code, json.loads(out.out) if code == 0 and out.out.strip() else out.err.strip()))
    return outcome


@pytest.mark.parametrize(("option_id", "value"), WALK, ids=[f"{o}={v}" for o, v in WALK])
def test_every_option_value_changes_something_or_is_refused(option_id, value, tmp_path, capsys):
    option = RULES.options[option_id]
    assert value != "?", f"{option_id}: no value to walk (add one to OTHER_VALUES)"
    capsys.readouterr()
    code = main(["--db", str(tmp_path / "probe.db"), "campaign", "create", "Probe", "--seed", "1"])
    assert code == 0
    capsys.readouterr()
    code = main(["--db", str(tmp_path / "probe.db"), "campaign", "set", option_id, value])
    refusal = capsys.readouterr().err
    if code != 0:
        assert code == 1 and "is not modelled by sawbones" in refusal, refusal
        assert refusal.count("\n") == 1 and "Traceback" not in refusal
        return
    assert option_id in STORIES, f"{option_id}={value} is accepted: add the story that shows what it changes"
    system, base, story, *pack = STORIES[option_id]
    default = play(capsys, str(tmp_path / "default.db"), system, base, story, *pack)
    changed = play(capsys, str(tmp_path / "changed.db"), system, base | {option_id: value}, story, *pack)
    assert default != changed, f"{option_id}={value} ({option.help.en}) changes nothing in its story"


def test_every_option_has_a_story_or_a_refusal():
    for option in RULES.options.values():
        walked = [v for o, v in WALK if o == option.id]
        refused_all = option.not_modelled and all(
            v in option.not_modelled or "*" in option.not_modelled for v in walked)
        assert option.id in STORIES or refused_all, option.id
