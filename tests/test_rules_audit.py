"""Issue 19 (part B): every roll reads the roll query, conditions with durations, options that do something.

Each test is written from the seed's words (seed 000: lingering injuries, 5e; seed 001: localized
wounds; seed 004: progression tracks) or from a GM's steps, not from the audit's commands.
"""

from __future__ import annotations

import random

import pytest

from sawbones.presentation.locale import speaking
from sawbones.presentation.roll_answer import answer_doc
from sawbones.application.service import Context
from sawbones.content.loader import load_rules
from sawbones.domain.engine.campaign import add_character
from sawbones.domain.engine.evolve import fold
from sawbones.domain.engine.options import effective_options
from sawbones.domain.engine.roll_query import RollContext, query
from sawbones.domain.engine.rolls import Roller

RULES = load_rules()


def ctx(state, seed=0):
    return Context(state, RULES, effective_options(RULES, state.option_overrides()), Roller(random.Random(seed)))


def campaign(system, **options):
    state = fold([{"type": "campaign_created", "data": {"name": "t", "system": system, "seed": 1}}])
    for key, value in options.items():
        state = fold([{"type": "option_set", "data": {"option": key, "value": value}}], state)
    return state


def with_character(state, name, sheet=None):
    return fold(add_character(ctx(state), name, sheet or {}), state)


def act(state, decision, *args, **kwargs):
    return fold(decision(ctx(state), *args, **kwargs), state)


def mods(state, name, kind, **roll):
    return query(state.character(name), RULES, effective_options(RULES, state.option_overrides()), state.system,
                 RollContext(kind, **roll))


# ---------------------------------------------------------------- item 9: 5e frightened needs its source in sight


def test_psychic_fright_disadvantage_only_while_the_source_is_in_sight():
    """Seed 000, Psychic 18-20 "Effrayé : vous gagnez la condition effrayé"; 5e frightened gives disadvantage on
    checks and attacks only while the source of fear is within line of sight."""
    from sawbones.domain.injuries import rules as injuries

    state = with_character(campaign("dnd5e"), "Mira")
    state = fold(injuries.gain(ctx(state), state.character("mira"), "psychic", d20=19), state)
    unknown = mods(state, "mira", "attack")
    assert unknown.mode == "normal" and not unknown.disadvantages
    assert [line.needs for line in unknown.conditional] == [((("fear_source_in_sight", True),),)]
    assert "source of its fear is in sight" in answer_doc(unknown)["conditional"][0]["if"][0]
    with speaking("fr"):
        assert "source de sa peur est en vue" in answer_doc(unknown)["conditional"][0]["if"][0]
    assert mods(state, "mira", "check", ability="wis", fear_source_in_sight=True).mode == "disadvantage"
    assert mods(state, "mira", "attack", fear_source_in_sight=False).mode == "normal"


# ---------------------------------------------------------------- item 11: a 5e long rest needs at least 1 HP


def test_long_rest_at_zero_hp_gives_no_benefit(cli):
    """5e: a character must have at least 1 hit point at the start of a long rest to gain its benefits;
    seed 000 L5: long rests heal minor and moderate injuries, a benefit of the rest like the others."""
    assert cli("campaign", "create", "Rest", "--seed", "3").code == 0
    assert cli("character", "add", "Tam", "--max-hp", "18").code == 0
    assert cli("character", "add", "Ysa", "--max-hp", "10").code == 0
    cli("damage", "Tam", "18", "bludgeoning", "--d20", "19")  # down, with a minor Leg Injury
    cli("damage", "Ysa", "4", "fire")
    rested = cli("--lang", "en", "rest", "--long")
    assert rested.code == 0 and "no benefit" in rested.out
    tam, ysa = (cli("--json", "status", n).json["characters"][0] for n in ("Tam", "Ysa"))
    assert tam["hp"] == 0 and [i["injury"] for i in tam["injuries"]] == ["leg_injury"]
    assert ysa["hp"] == 10
    assert "aucun bienfait" in cli("--lang", "fr", "rest", "--long", "Tam").out
    cli("campaign", "set", "long_rest_requires_hp", "false")
    cli("rest", "--long", "Tam")
    tam = cli("--json", "status", "Tam").json["characters"][0]
    assert tam["hp"] == 18 and tam["injuries"] == []


# ---------------------------------------------------------------- item 6: "Guérison ou Régénération (choix du DM)"


def test_critical_injury_magic_follows_the_dms_choice(cli):
    """Seed 000 L15: a critical injury's magical care is "Guérison ou Régénération (choix du DM)"."""
    assert cli("campaign", "create", "Ribs", "--seed", "8").code == 0
    assert cli("character", "add", "Odo", "--max-hp", "30").code == 0

    def ribs():
        cli("injure", "Odo", "--type", "force", "--d20", "1")  # Broken Ribs, critical
        return cli("--json", "status", "Odo").json["characters"][0]["injuries"][-1]

    first = ribs()
    assert first["injury"] == "broken_ribs" and first["heals_by"][-1] == "magic: Heal or Regenerate"
    assert cli("heal", "Odo", "--spell", "regenerate", "--injury", first["id"]).code == 0  # either spell, by default
    cli("campaign", "set", "critical_magic", "regenerate")
    second = ribs()
    assert second["heals_by"][-1] == "magic: Regenerate"
    fr = cli("--lang", "fr", "--json", "status", "Odo").json["characters"][0]["injuries"][-1]
    assert fr["heals_by"][-1] == "magie : Régénération"
    refused = cli("heal", "Odo", "--spell", "heal", "--injury", second["id"])
    assert refused.code == 1 and "needs Regenerate" in refused.err and "needs Heal" not in refused.err
    cli("campaign", "set", "critical_magic", "heal")
    refused = cli("heal", "Odo", "--spell", "regenerate", "--injury", second["id"])
    assert refused.code == 1 and "needs Heal" in refused.err
    assert cli("heal", "Odo", "--spell", "heal", "--injury", second["id"]).code == 0
    assert cli("--json", "status", "Odo").json["characters"][0]["injuries"] == []


# ---------------------------------------------------------------- item 3: every check the engine rolls reads the query


def test_first_aid_with_a_cut_hand_takes_the_minus_2(cli):
    """Seed 001: a wound to the hand gives -2 on "Premiers secours" (Heal) checks; the healer whose hand is cut
    rolls their first aid with it, and the log says why the bonus is what it is."""
    assert cli("campaign", "create", "Trap", "--system", "pf1e", "--seed", "4").code == 0
    assert cli("character", "add", "Lio", "--max-hp", "20", "--skills", "heal=6").code == 0
    assert cli("character", "add", "Pak", "--max-hp", "20").code == 0
    cli("wound", "Pak", "foot", "--side", "right", "--damage", "2")  # a caltrop: superficial
    cli("wound", "Lio", "hand", "--damage", "3", "--side", "left")
    done = cli("--json", "--dice", "10", "firstaid", "Pak", "w1", "--healer", "Lio")
    assert done.code == 0, done.err
    attempt = done.json["events"][0]["data"]
    assert attempt["total"] == 10 + 6 - 2 and attempt["success"] is False
    lines = attempt["breakdown"]["lines"]
    assert [(x["value"], x["source"]["kind"], x["source"]["id"]) for x in lines] == [(-2, "wound", "w2")]
    assert "sheet +6" in cli("--dice", "10", "firstaid", "Pak", "w1", "--healer", "Lio").out


def test_a_poisoned_healer_treats_at_disadvantage(cli):
    """Seed 000: treating an injury is a Wisdom (Medicine) check; a healer with Temporary Poisoning (poisoned:
    disadvantage on ability checks) rolls it at disadvantage, and treating oneself is at disadvantage too
    without doubling it."""
    assert cli("campaign", "create", "Camp", "--seed", "2").code == 0
    assert cli("character", "add", "Ines", "--max-hp", "12", "--prof", "medicine,herbalism_kit",
               "--skills", "medicine=5").code == 0
    assert cli("character", "add", "Rolf", "--max-hp", "20").code == 0
    cli("injure", "Rolf", "--type", "fire", "--d20", "19")  # Heat Stroke, minor: DC 10
    cli("injure", "Ines", "--type", "poison", "--d20", "7")  # Temporary Poisoning: poisoned
    done = cli("--json", "--dice", "4", "treat", "Rolf", "i1", "--healer", "Ines")  # (10 minutes: no roll)
    assert done.code == 0, done.err
    failed = next(e["data"] for e in done.json["events"] if e["type"] == "treatment_failed")
    assert failed["check"] == 4 + 5  # the lower of two d20s (10 minutes of care first)
    assert failed["breakdown"]["mode"] == "disadvantage"
    assert [x["source"]["id"] for x in failed["breakdown"]["lines"]] == ["poisoned"]
    cli("injure", "Ines", "--type", "fire", "--d20", "19")
    own = cli("--json", "--dice", "3", "treat", "Ines", "i3", "--healer", "Ines").json
    failed = next(e["data"] for e in own["events"] if e["type"] == "treatment_failed")
    assert failed["check"] == 3 + 5 and failed["self_treatment_disadvantage"] is True
    assert sorted(x["source"]["id"] for x in failed["breakdown"]["lines"]) == ["poisoned", "self_treatment"]


# ---------------------------------------------------------------- item 5: Nauseated for 1 minute, on the clock


def test_impaired_disease_nauseates_for_one_minute_of_game_time(cli):
    """Seed 004 L37-38, physical track, Diminué: "À chaque fois qu'il effectue une action standard, il doit
    réussir un jet ... ou perdre l'action et gagner l'état Nauséeux pendant 1 minute"."""
    assert cli("campaign", "create", "Plague", "--system", "pf1e", "--seed", "6").code == 0
    assert cli("character", "add", "Ulf", "--max-hp", "25").code == 0
    assert cli("expose", "Ulf", "slimy_doom", "--save", "1", "--deadly", "impaired").code == 0
    made = cli("--lang", "en", "action", "Ulf", "--save", "30")
    assert made.code == 0 and "Nauseated" not in made.out
    failed = cli("--lang", "en", "action", "Ulf", "--save", "2")
    assert failed.code == 0, failed.err
    assert "loses the action, becomes Nauseated (1 min)" in failed.out
    assert "lose_action" not in failed.out and "condition_minutes" not in failed.out
    ulf = cli("--json", "status", "Ulf").json["characters"][0]
    assert [(t["condition"], t["left"]) for t in ulf["timed_conditions"]] == [("nauseated", 60)]
    nauseated = [c["id"] for c in cli("--json", "mods", "Ulf", "attack").json["conditions"]]
    assert "nauseated" in nauseated
    assert "Nauséeux" in cli("--lang", "fr", "status", "Ulf").out
    cli("advance", "5r")
    assert cli("--json", "status", "Ulf").json["characters"][0]["timed_conditions"][0]["left"] == 30
    cli("advance", "5r")
    assert cli("--json", "status", "Ulf").json["characters"][0]["timed_conditions"] == []
    assert "nauseated" not in [c["id"] for c in cli("--json", "mods", "Ulf", "attack").json["conditions"]]


# ---------------------------------------------------------------- item 4: Strength poison's load, through the query


def test_strength_poison_loads_weigh_on_str_dex_skills_ac_and_are_noted(cli):
    """Seed 004 L60-61: Affaibli, "sa capacité de charge est divisée par 3 ; il est toujours considéré comme
    portant au moins une charge moyenne"; Diminué, "au moins une lourde charge". PF1 loads: check penalty on
    Str- and Dex-based skills (-3 / -6), maximum Dex bonus to AC (+3 / +1), speed; capacity is not on the sheet."""
    assert cli("campaign", "create", "Sting", "--system", "pf1e", "--seed", "9").code == 0
    assert cli("character", "add", "Hild", "--max-hp", "40", "--abilities", "str=14,dex=18").code == 0
    cli("expose", "Hild", "giant_scorpion_venom", "--save", "1")  # Weakened
    climb = cli("--json", "mods", "Hild", "climb").json
    assert climb["modifier"] == -2 - 3
    load = [m for m in climb["modifiers"] if m["source"]["kind"] == "condition"]
    assert [(m["source"]["id"], m["value"]) for m in load] == [("medium_load", -3)]
    assert load[0]["source"]["from"][0]["name"] == "Giant Scorpion Venom"
    assert any("Carrying capacity ÷ 3" in n["text"] for n in climb["notes"])
    assert any("Capacité de charge ÷ 3" in n["text"] for n in cli("--lang", "fr", "--json", "mods", "Hild",
                                                                    "climb").json["notes"])
    ac = cli("--json", "mods", "Hild", "ac").json
    assert ac["modifier"] == 3 - 4  # Dex +4 counts +3 at most
    assert any("30 ft → 20 ft" in n["text"] for n in ac["notes"])
    assert cli("--json", "mods", "Hild", "will").json["modifier"] == 0  # a load weighs on no save in PF1
    cli("expose", "Hild", "giant_scorpion_venom", "--save", "1")  # another dose: Impaired
    assert cli("--json", "mods", "Hild", "climb").json["modifier"] == -2 - 2 - 6
    escape = cli("--json", "mods", "Hild", "escape_artist").json
    assert escape["modifier"] == -6 and [c["id"] for c in escape["conditions"] if c.get("superseded_by")] == \
        ["medium_load"]
    assert cli("--json", "mods", "Hild", "ac").json["modifier"] == 1 - 4


def test_sickened_takes_two_from_weapon_damage_only(cli):
    """PF1 sickened (the physical Weakened stage, seed 004 L34-36): -2 on weapon damage rolls; a damage roll the
    GM does not say is a weapon's is conditional, a spell's damage takes nothing."""
    assert cli("campaign", "create", "Fever", "--system", "pf1e", "--seed", "5").code == 0
    assert cli("character", "add", "Ren", "--max-hp", "20").code == 0
    cli("expose", "Ren", "filth_fever", "--save", "1", "--deadly", "weakened")
    unknown = cli("--json", "mods", "Ren", "damage").json
    assert unknown["modifier"] == 0 and any("if made with a weapon" in c["if"][0] for c in unknown["conditional"])
    assert cli("--json", "mods", "Ren", "damage", "--weapon").json["modifier"] == -2
    assert cli("--json", "mods", "Ren", "damage", "--no-weapon").json["modifier"] == 0


# ---------------------------------------------------------------- item 7: temporary conditions for 1 minute


def test_temporary_paralysis_for_one_minute_when_the_gm_shortens_it(cli):
    """Seed 000, Force 06-10 "Paralysie temporaire : vous obtenez la condition Paralysée"; the GM's option makes
    such conditions last 1 minute of game time (AMB-0-13); the injury stays until a long rest heals it."""
    assert cli("campaign", "create", "Quake", "--seed", "4").code == 0
    assert cli("character", "add", "Nia", "--max-hp", "20").code == 0
    assert cli("campaign", "set", "temporary_condition_duration", "1_minute").code == 0
    cli("injure", "Nia", "--type", "force", "--d20", "7")
    assert cli("--json", "mods", "Nia", "save", "--save", "str").json["auto_fail"] is True
    nia = cli("--json", "status", "Nia").json["characters"][0]
    assert [(t["condition"], t["source"]["id"], t["left"]) for t in nia["timed_conditions"]] == \
        [("paralyzed", "i1", 60)]
    cli("advance", "9r")
    assert cli("--json", "mods", "Nia", "save", "--save", "str").json["auto_fail"] is True
    cli("advance", "1r")
    assert cli("--json", "mods", "Nia", "save", "--save", "str").json["auto_fail"] is False
    nia = cli("--json", "status", "Nia").json["characters"][0]
    assert nia["timed_conditions"] == [] and [i["injury"] for i in nia["injuries"]] == ["temporary_paralysis"]
    cli("rest", "--long")
    assert cli("--json", "status", "Nia").json["characters"][0]["injuries"] == []


def test_the_player_sees_the_limb_deadline_only_when_the_gm_reveals_it(cli, db):
    """Seed 000, Brûlure sévère: "Si cela n'est pas traité dans les 1d4 jours qui suivent, vous perdez une main";
    the deadline is the GM's secret unless the option reveal_deadline shows it on the player's page."""
    from sawbones.application.service import Service
    from sawbones.interfaces.web.api.player_view import player_view
    from sawbones.presentation.locale import speaking

    assert cli("campaign", "create", "Burn", "--seed", "3").code == 0
    assert cli("character", "add", "Kit", "--max-hp", "20").code == 0
    cli("injure", "Kit", "--type", "fire", "--d20", "1", "--site", "hand")
    service = Service.open(db)

    def burn(lang="en"):
        with speaking(lang):
            return player_view(service, "Burn", "kit")["character"]["injuries"][0]

    assert not {"deadline_in", "deadline_at", "deadline_in_text", "timers"} & set(burn())
    assert cli("campaign", "set", "reveal_deadline", "true").code == 0
    assert burn()["deadline_in_text"].startswith("in ") and burn("fr")["deadline_in_text"].startswith("dans ")


def test_stunned_until_the_gm_ends_the_combat(cli):
    """Seed 000, Force 11-14 "Etourdit : vous obtenez la condition Etourdit"; with the option until_end_of_combat
    (AMB-0-13: playtesting may favour it for Stunned), the condition ends when the GM says the combat is over."""
    assert cli("campaign", "create", "Brawl", "--seed", "4").code == 0
    assert cli("character", "add", "Oz", "--max-hp", "20").code == 0
    assert cli("campaign", "set", "temporary_condition_duration", "until_end_of_combat").code == 0
    cli("injure", "Oz", "--type", "force", "--d20", "12")
    cli("advance", "1h")
    oz = cli("--json", "status", "Oz").json["characters"][0]
    assert [(t["condition"], t["until_combat_end"]) for t in oz["timed_conditions"]] == [("stunned", True)]
    assert "until the end of combat" in cli("--lang", "en", "status", "Oz").out
    assert cli("--json", "mods", "Oz", "save", "--save", "dex").json["auto_fail"] is True
    ended = cli("--lang", "fr", "combat-end")
    assert ended.code == 0 and "Fin du combat : fin de 1 état" in ended.out, ended.out
    assert cli("--json", "mods", "Oz", "save", "--save", "dex").json["auto_fail"] is False
    assert [i["injury"] for i in cli("--json", "status", "Oz").json["characters"][0]["injuries"]] == ["stunned"]


def test_untreated_frostbite_can_become_a_random_critical_injury(cli):
    """Seed 000, Froid 03-05 "Gelure : ... si cela n'est pas traité dans les 1d4 jours suivants, cela évolue en
    blessure sérieuse"; the option reads "blessure sérieuse" as any critical injury, rolled at random."""
    assert cli("campaign", "create", "Frost", "--seed", "2").code == 0
    assert cli("character", "add", "Ivo", "--max-hp", "20").code == 0
    assert cli("campaign", "set", "frostbite_escalates_to", "reroll_critical_any").code == 0
    cli("injure", "Ivo", "--type", "cold", "--d20", "4")
    log = cli("--json", "--dice", "1", "--dice", "2", "advance", "5d").json["events"]  # acid, then 2 on 1d2
    gained = [e["data"] for e in log if e["type"] == "injury_gained"]
    assert [(g["table"], g["d20"], g["severity"], g["injury"]) for g in gained] == \
        [("acid", 2, "critical", "lose_an_eye")]
    assert [i["injury"] for i in cli("--json", "status", "Ivo").json["characters"][0]["injuries"]] == ["lose_an_eye"]


def test_frostbite_that_turns_critical_after_its_treatment_gets_its_own_days(cli):
    """Seed 000 L69-70: untreated Gelure "évolue en blessure sérieuse" within 1d4 days, and the serious
    Gelure Sévère loses the hand "si cela n'est pas traité dans les 1d4 jours qui suivent". A treatment begun
    in time but failed after the deadline turns it worse at the moment of the failed check; the new
    injury's 1d4 days run from that moment, not from before the treatment."""
    assert cli("campaign", "create", "Frost", "--seed", "3").code == 0
    assert cli("character", "add", "Bob", "--max-hp", "20").code == 0
    assert cli("--dice", "1", "injure", "Bob", "--type", "cold", "--d20", "4").code == 0  # Gelure, 1 day
    # the DC 20 treatment's 2d4 days (8), the failed check, then the new injury's site and 1d4 days (4)
    failed = cli("--dice", "8", "--dice", "1", "--dice", "4", "treat", "Bob", "i1", "--check", "1")
    assert failed.code == 0, failed.err
    status = cli("--json", "status", "Bob").json
    worse = status["characters"][0]["injuries"][0]
    assert worse["injury"] == "severe_frostbite"
    assert worse["timers"]["deadline_at"] == status["clock"] + 4 * 86400  # four days from now, still to come
    assert cli("advance", "3d").code == 0
    assert cli("--json", "status", "Bob").json["characters"][0]["injuries"][0]["injury"] == "severe_frostbite"
