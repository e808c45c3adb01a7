"""Issue 40, the third rules audit: what a character who cannot act may still do, lasting effects while the
disease runs, body parts already gone, fixed values and the table's dice, French names.

Each test is written from the seed's words (seed 000: lingering injuries, 5e; seed 001: localized wounds;
seed 004: progression tracks), quoted in its docstring, on every rule and stage the kind of fault reaches.
"""

from __future__ import annotations

import pytest

from test_tracks_helpers import ok


def _campaign(cli, system: str = "pf1e", *options: str) -> None:
    ok(cli("campaign", "create", "t", "--system", system, "--seed", "11"))
    for pair in options:
        key, _, value = pair.partition("=")
        ok(cli("campaign", "set", key, value))


def _add(cli, name: str, system: str = "pf1e", max_hp: int = 30, *extra: str) -> None:
    save = "fortitude" if system == "pf1e" else "con"
    ok(cli("character", "add", name, "--max-hp", str(max_hp), "--saves", f"{save}=0", *extra))


def _sheet(cli, name: str) -> dict:
    return ok(cli("--json", "status", name)).json["characters"][0]


def _log(cli) -> list[dict]:
    return ok(cli("--json", "log", "--limit", "1000")).json["events"]


def _results(doc: dict) -> list[dict]:
    return [r for e in doc["events"] if e["type"] == "noted" for r in e["data"]["results"]]


def _conditions(cli, name: str) -> set[str]:
    return {c["id"] if isinstance(c, dict) else c for c in _sheet(cli, name).get("conditions", [])}


# ================================================================ 1. a lost action costs nothing


@pytest.mark.parametrize("system, after_cost", [("pf1e", -1), ("dnd5e", 0)])
def test_impaired_lost_action_does_not_cost_the_disabled_hit_point(cli, system, after_cost):
    """Seed 004, Diminué: « À chaque fois qu'il effectue une action standard, il doit réussir un jet de force …
    ou perdre l'action et gagner l'état Nauséeux pendant 1 minute »; Handicapé: « S'il effectue une action
    standard, ses points de vie diminuent de 1 ou jusqu'à -1 ». A lost action is not performed: it costs nothing
    that performing it costs (both systems: 5e has no negative HP, -1 is 0 there)."""
    _campaign(cli, system)
    _add(cli, "Bo", system)
    ok(cli("expose", "Bo", "filth_fever", "--save", "1", "--deadly", "disabled"))
    doc = ok(cli("--json", "action", "Bo", "--save", "1")).json
    assert [r["applies"] for r in _results(doc)] == [True]  # the Impaired save failed; the Disabled cost not run
    assert _sheet(cli, "Bo")["hp"] == 30
    assert "character_died" not in [e["type"] for e in doc["events"]]
    ok(cli("advance", "2m"))  # Nauseated (1 minute) runs out
    ok(cli("action", "Bo", "--save", "30"))  # performed: it costs the hit point
    assert _sheet(cli, "Bo")["hp"] == after_cost


def test_a_lost_action_skips_a_second_afflictions_cost_whatever_the_order_of_exposure(cli):
    """Seed 004, the Constitution poison's Handicapé costs « ses points de vie diminuent de 1 ou jusqu'à -1 »
    « S'il effectue une action standard »; a disease's Diminué check « ou perdre l'action » comes first: the
    poison was taken first, yet the lost action costs nothing."""
    _campaign(cli, "pf1e")
    _add(cli, "Bo", "pf1e", 30)
    ok(cli("expose", "Bo", "deathblade", "--save", "1", "--deadly", "disabled"))  # 5 poison damage: 25
    ok(cli("expose", "Bo", "filth_fever", "--save", "1", "--deadly", "impaired"))
    doc = ok(cli("--json", "action", "Bo", "--save", "1")).json
    assert [(r["source"]["content_id"], r["applies"]) for r in _results(doc)] == [("filth_fever", True)]
    assert _sheet(cli, "Bo")["hp"] == 25


def test_broken_ribs_lost_action_costs_nothing_more_in_5e(cli):
    """Seed 000, Côtes cassées: « Dès lors que vous tentez une action en combat, vous devez réussir un jet de
    sauvegarde de Constitution DD 10 ou perdre votre action »; the disease's Handicapé cost is that of an action
    performed, and its Diminué check is not made for an action already lost."""
    _campaign(cli, "dnd5e")
    _add(cli, "Ana", "dnd5e", 20)
    ok(cli("injure", "Ana", "--type", "bludgeoning", "--d20", "1"))  # Broken Ribs
    ok(cli("expose", "Ana", "filth_fever", "--save", "1", "--deadly", "disabled"))
    doc = ok(cli("--json", "action", "Ana", "--save", "3")).json  # one save only: the ribs'
    assert [(r["source"]["content_id"], r["applies"]) for r in _results(doc)] == [("broken_ribs", True)]
    assert _sheet(cli, "Ana")["hp"] == 20


# ================================================================ 2. who cannot act is not asked to


@pytest.mark.parametrize("stage, moment, en, fr", [
    ("bedridden", "action", "Bo can't take an action: Bedridden (Filth Fever)",
     "Bo ne peut pas agir : Alité (Fièvre des marais)"),
    ("bedridden", "dash", "Bo can't take the Dash action: Bedridden (Filth Fever)",
     "Bo ne peut pas foncer : Alité (Fièvre des marais)"),
    ("comatose", "action", "Bo can't take an action: Unconscious (Filth Fever)",
     "Bo ne peut pas agir : Inconscient (Fièvre des marais)"),
])
def test_bedridden_and_comatose_refuse_actions_whole(cli, stage, moment, en, fr):
    """Seed 004, Alité: « il ne peut pas se tenir debout seul ou effectuer des actions standard ou de
    mouvement »; Comateux: « le personnage est Inconscient ». One line, why, nothing applied."""
    _campaign(cli, "pf1e")
    _add(cli, "Bo")
    ok(cli("expose", "Bo", "filth_fever", "--save", "1", "--deadly", stage))
    before = len(_log(cli))
    refused = cli(moment, "Bo", "--save", "1")
    assert refused.code == 1 and refused.err.strip() == f"error: {en}"
    assert cli("--lang", "fr", moment, "Bo").err.strip().endswith(f": {fr}")
    assert len(_log(cli)) == before and _sheet(cli, "Bo")["hp"] == 30
    assert ok(cli("turn", "Bo")).code == 0  # a turn still comes round


@pytest.mark.parametrize("poison, stage, refused, allowed", [
    ("deathblade", "unconscious", ["action", "dash"], []),  # Co: « gagne également l'état Inconscient »
    ("giant_scorpion_venom", "immobile", ["dash"], ["action"]),  # Fo: « ne peut entreprendre que des actions purement mentales »
    ("ungol_dust", "catatonic", ["action", "dash"], []),  # Ch: « ne peut en aucun cas interagir avec le monde »
])
def test_poison_stages_that_forbid_acting(cli, poison, stage, refused, allowed):
    """Seed 004: Inconscient « gagne également l'état Inconscient »; Immobile « ne peut pas du tout déplacer son
    corps … ne peut entreprendre que des actions purement mentales » (a purely mental action stays possible);
    Catatonique « a perdu toute liberté d'action et ne peut en aucun cas interagir avec le monde »."""
    _campaign(cli, "pf1e")
    _add(cli, "Bo", "pf1e", 60)
    ok(cli("expose", "Bo", poison, "--save", "1", "--deadly", stage))
    for moment in refused:
        result = cli(moment, "Bo")
        assert result.code == 1 and "Bo can't" in result.err, (moment, result.err)
    for moment in allowed:
        ok(cli(moment, "Bo"))


def test_nauseated_from_a_lost_action_forbids_the_next_standard_action_for_a_minute(cli):
    """Seed 004, Diminué: « perdre l'action et gagner l'état Nauséeux pendant 1 minute »; PF1 nauseated: the
    only action it can take is a single move action."""
    _campaign(cli, "pf1e")
    _add(cli, "Bo")
    ok(cli("expose", "Bo", "filth_fever", "--save", "1", "--deadly", "impaired"))
    ok(cli("action", "Bo", "--save", "1"))
    refused = cli("action", "Bo", "--save", "30")
    assert refused.code == 1 and "Nauseated (Filth Fever)" in refused.err
    ok(cli("dash", "Bo"))  # a move action stays possible
    ok(cli("advance", "1m"))
    ok(cli("action", "Bo", "--save", "30"))


def test_5e_unconscious_at_zero_hp_is_not_asked_for_the_broken_ribs_save(cli):
    """Seed 000, Côtes cassées: « Dès lors que vous tentez une action en combat … jet de sauvegarde de
    Constitution »: at 0 HP a 5e character is unconscious (the hit point model) and attempts none."""
    _campaign(cli, "dnd5e")
    _add(cli, "Ana", "dnd5e", 10)
    ok(cli("injure", "Ana", "--type", "bludgeoning", "--d20", "1"))
    ok(cli("damage", "Ana", "10", "fire", "--d20", "15"))
    refused = cli("action", "Ana", "--save", "3")
    assert refused.code == 1 and refused.err.strip() == "error: Ana can't take an action: Unconscious"
    assert cli("--lang", "fr", "action", "Ana").err.strip().endswith("Ana ne peut pas agir : Inconscient")


def test_5e_nausea_is_no_save_for_an_unconscious_character(cli):
    """Seed 000, Nausée: « Faire un jet de sauvegarde de Constitution DD 8 à chaque tour ou passer son action à
    vomir »: unconscious at 0 HP, there is no action to spend; the turn comes round and asks no save."""
    _campaign(cli, "dnd5e")
    _add(cli, "Ana", "dnd5e", 10)
    ok(cli("injure", "Ana", "--type", "acid", "--d20", "19"))
    ok(cli("damage", "Ana", "10", "fire", "--d20", "15"))
    doc = ok(cli("--json", "turn", "Ana")).json
    assert _results(doc) == []


def test_5e_stunned_injury_refuses_action_and_dash(cli):
    """Seed 000, Étourdi: « Vous obtenez la condition Étourdi »; 5e stunned is incapacitated: no actions."""
    _campaign(cli, "dnd5e")
    _add(cli, "Ana", "dnd5e", 10)
    ok(cli("injure", "Ana", "--type", "thunder", "--d20", "12"))
    for moment in ("action", "dash"):
        result = cli(moment, "Ana")
        assert result.code == 1 and result.err.strip().endswith(": Stunned")


def test_a_stable_pf1e_character_below_zero_may_have_come_to(cli):
    """PF1 hit points: a stable character below 0 may regain consciousness and act (disabled); the hit point
    model says so (stable_may_act), so the Disabled stage's action is still taken."""
    _campaign(cli, "pf1e")
    _add(cli, "Marin", "pf1e", 30, "--hp", "-3")
    ok(cli("stabilize", "Marin"))
    ok(cli("action", "Marin"))
    dying = cli("damage", "Marin", "1", "fire")
    ok(dying)
    assert cli("action", "Marin").err.strip().endswith("Marin can't take an action: Unconscious")


# ================================================================ 4. a part already gone is not lost again


@pytest.mark.parametrize("site, part", [("hand", "hands"), ("foot", "feet")])
def test_a_named_site_goes_through_the_possible_roll_check(cli, site, part):
    """Seed 000, Perte d'un pied ou d'une main (slashing 1-2), and the rule for impossible results: a part the
    character no longer has cannot be lost; the impossible roll is rolled again (reroll_impossible), a named
    site as well as a rolled one."""
    _campaign(cli, "dnd5e")
    _add(cli, "Bo", "dnd5e", 30, "--body", f"{part}=1")
    ok(cli("injure", "Bo", "--type", "slashing", "--d20", "1", "--site", site))
    assert _sheet(cli, "Bo")["body"][part] == 0
    doc = ok(cli("--json", "injure", "Bo", "--type", "slashing", "--d20", "1", "--site", site)).json
    gained = next(e["data"] for e in doc["events"] if e["type"] == "injury_gained")
    assert gained["injury"] != "lose_a_foot_or_hand" or gained.get("site") != site
    assert len(gained["rolls"]) >= 2 and "impossible" in gained["rolls"][1]["why"]
    assert not [e for e in doc["events"] if e["type"] == "body_changed" and e["data"]["part"] == part]


def test_a_named_site_is_kept_when_the_part_is_still_there(cli):
    """Seed 000: « vous perdez une main ou un pied »: with a hand left, the named hand is lost."""
    _campaign(cli, "dnd5e")
    _add(cli, "Bo", "dnd5e", 30, "--body", "hands=1,feet=0")
    doc = ok(cli("--json", "injure", "Bo", "--type", "slashing", "--d20", "1", "--site", "hand")).json
    assert next(e["data"] for e in doc["events"] if e["type"] == "injury_gained")["site"] == "hand"
    assert _sheet(cli, "Bo")["body"]["hands"] == 0


def test_a_burn_deadline_on_a_hand_already_lost_loses_nothing_more(cli):
    """Seed 000, Brûlure sévère (mains ou pieds): « Si cela n'est pas traité dans les 1d4 jours qui suivent, vous
    perdez une main ou un pied »: the burned hand, lost meanwhile, is not lost a second time."""
    _campaign(cli, "dnd5e")
    _add(cli, "Bo", "dnd5e", 30, "--body", "hands=1")
    burn = ok(cli("--json", "injure", "Bo", "--type", "fire", "--d20", "1", "--site", "hand")).json
    assert next(e["data"] for e in burn["events"] if e["type"] == "injury_gained")["injury"] == "severe_burn"
    ok(cli("injure", "Bo", "--type", "slashing", "--d20", "1", "--site", "hand"))  # the hand is lost
    doc = ok(cli("--json", "advance", "5d")).json
    assert not [e for e in doc["events"] if e["type"] == "body_changed"]
    assert [i["injury"] for i in _sheet(cli, "Bo")["injuries"]].count("lose_a_foot_or_hand") == 1
    assert "plus de main à perdre" in ok(cli("--lang", "fr", "log")).out


# ================================================================ 5. a fixed value is not a roll


def test_puncture_wounds_fixed_hit_point_leaves_the_typed_die_to_a_real_roll(cli):
    """Seed 000, Plaie perforante: « Vous perdez 1 point de vie à la fin de chaque tour »: 1 is not a roll, so
    `--dice 19` (the table's own result for the next roll) goes to the Nausea save (« jet de sauvegarde de
    Constitution DD 8 »), the turn's only die."""
    _campaign(cli, "dnd5e")
    _add(cli, "Ana", "dnd5e", 10)
    ok(cli("injure", "Ana", "--type", "piercing", "--d20", "12"))
    left = cli("--dice", "19", "turn", "Ana")  # no roll at all in this turn: the die is left over, said so
    assert left.code == 2 and "rolled only 0 dice" in left.err
    ok(cli("injure", "Ana", "--type", "acid", "--d20", "19"))
    doc = ok(cli("--json", "--dice", "19", "turn", "Ana")).json
    save = next(r for r in _results(doc) if r["source"]["content_id"] == "nausea")
    assert save["d20"] == 19 and not save["applies"]
    assert _sheet(cli, "Ana")["hp"] == 9


def test_a_treatments_fixed_time_leaves_the_typed_die_to_the_check(cli):
    """Seed 000: a minor injury's treatment takes 10 minutes, then the check: `--dice 15` is the check's d20."""
    _campaign(cli, "dnd5e")
    ok(cli("character", "add", "Aria", "--max-hp", "12", "--prof", "medicine,herbalism_kit", "--skills",
           "medicine=5"))
    _add(cli, "Ana", "dnd5e", 10)
    ok(cli("injure", "Ana", "--type", "piercing", "--d20", "12"))
    doc = ok(cli("--json", "--dice", "15", "treat", "Ana", "i1", "--healer", "Aria")).json
    rolls = [r for e in doc["events"] for r in e["data"].get("rolls", [])]
    assert [(r["formula"], r["total"], r["typed"]) for r in rolls] == [("10", 10, False), ("1d20", 15, True)]


# ================================================================ 3. each lasting effect's remedy follows its text


@pytest.mark.parametrize("disease", ["slimy_doom", "demon_fever"])
@pytest.mark.parametrize("spell", ["restoration", "greater_restoration"])
def test_exhausted_made_permanent_is_lifted_by_restoration_while_the_disease_runs(cli, disease, spell):
    """Seed 004, Mort vaseuse: « Au stade Diminué et au-delà, les effets de l'état Épuisé deviennent permanents
    jusqu'à utilisation de Restauration ou Guérison suprême »; Peste infernale: « Au stade Diminué, les effets de
    l'état Épuisé deviennent permanents jusqu'à utilisation de Restauration ou Guérison suprême ». Back at
    Affaibli, the disease still running, what `status` promises is what `cure` does."""
    _campaign(cli, "pf1e", "permanent_set=exhausted")
    _add(cli, "Bo", "pf1e", 60)
    ok(cli("expose", "Bo", disease, "--save", "1", "--deadly", "weakened"))
    doc = ok(cli("--json", "advance", "1d")).json
    ok(cli("answer", doc["pending"][0]["id"], "1"))  # Affaibli → Diminué: Épuisé becomes permanent
    doc = ok(cli("--json", "advance", "1d")).json
    ok(cli("answer", doc["pending"][0]["id"], "30"))  # back to Affaibli: the disease still runs
    status = ok(cli("status", "Bo")).out
    assert "permanent: Exhausted (removed by Restoration" in status and "once the affliction is gone" not in status
    sheet = _sheet(cli, "Bo")["afflictions"][0]
    assert sheet["status"] == "active" and [p["condition"] for p in sheet["permanent"]] == ["exhausted"]
    assert not sheet["permanent"][0]["once_gone"]
    cured = ok(cli("--lang", "fr", "cure", "Bo", "d1", "--spell", spell))
    assert "Épuisé levé (définitif)" in cured.out
    after = _sheet(cli, "Bo")["afflictions"][0]
    assert after["permanent"] == [] and after["status"] == "active"


def test_blinding_sickness_keeps_its_own_rule_and_status_says_so(cli):
    """Seed 004, Mal aveuglant: « Au stade Diminué, devient définitivement Aveugle »; TRK-S2: its removers work
    once the disease is gone, and the status says so before the GM tries."""
    _campaign(cli, "pf1e")
    _add(cli, "Bo", "pf1e", 60)
    ok(cli("expose", "Bo", "blinding_sickness", "--save", "1", "--deadly", "impaired"))
    assert "(removed by Heal, Regenerate, Remove Blindness/Deafness, once the affliction is gone)" in \
        ok(cli("status", "Bo")).out
    assert "une fois l'affection disparue" in ok(cli("--lang", "fr", "status", "Bo")).out
    refused = cli("--lang", "fr", "cure", "Bo", "d1", "--spell", "regenerate")
    assert refused.code == 1 and "Régénération ne lève les effets définitifs de Mal aveuglant" in refused.err
    ok(cli("cure", "Bo", "d1", "--spell", "remove_disease", "--cl-check", "30"))
    assert "Blinded lifted (permanent)" in ok(cli("cure", "Bo", "d1", "--spell", "regenerate")).out


def test_ungol_dust_restoration_returns_to_healthy_while_the_poison_runs(cli):
    """Seed 004, Cendres d'ungol: « Au-delà du stade Diminué, les effets deviennent permanents jusqu'à utilisation
    de Restauration ou Guérison suprême »: Restauration brings the victim back to Sain at once; the poison is not
    neutralized (its saves still come, a failure advances again)."""
    _campaign(cli, "pf1e")
    _add(cli, "Cy", "pf1e", 60)
    ok(cli("expose", "Cy", "ungol_dust", "--save", "1", "--deadly", "pliable"))
    ok(cli("cure", "Cy", "t1", "--spell", "restoration"))
    a = _sheet(cli, "Cy")["afflictions"][0]
    assert a["status"] == "active" and a["tracks"][0]["stage"] == "healthy"
    doc = ok(cli("--json", "advance", "1r")).json
    ok(cli("answer", doc["pending"][0]["id"], "1"))
    assert _sheet(cli, "Cy")["afflictions"][0]["tracks"][0]["stage"] == "weakened"


def test_dementia_dust_keeps_its_own_rule(cli):
    """Seed 004, Poussière de démence: « Même si la maladie est éliminée avec Guérison des maladies, la condition ne
    s'améliore pas sans une Restauration suprême ou Guérison suprême »: Restauration suprême works once the
    disease is removed, not while it runs."""
    _campaign(cli, "pf1e")
    _add(cli, "Di", "pf1e", 60)
    ok(cli("expose", "Di", "dementia_dust", "--save", "1", "--deadly", "impaired"))
    refused = cli("cure", "Di", "d1", "--spell", "greater_restoration")
    assert refused.code == 1 and "only once it no longer runs" in refused.err
    ok(cli("cure", "Di", "d1", "--spell", "remove_disease", "--cl-check", "30"))
    cured = ok(cli("cure", "Di", "d1", "--spell", "greater_restoration")).out
    assert "→ Healthy" in cured and "cured" in cured and _sheet(cli, "Di")["afflictions"] == []


# ================================================================ 6. French messages say French names


def test_french_refusals_of_afflictions_name_them_in_french(cli):
    """Seed 004 names every affliction and spell in French (« Lèpre », « Poussière de démence », « Guérison des
    maladies », « Restauration suprême »): a French message says those names, never an id or the English."""
    _campaign(cli, "pf1e")
    _add(cli, "Le", "pf1e", 60)
    ok(cli("expose", "Le", "leprosy", "--save", "1", "--deadly", "stiffened"))
    said = cli("--lang", "fr", "cure", "Le", "d1", "--spell", "remove_disease", "--cl-check", "30").err
    assert "Lèpre (d1) a atteint son état final : seuls Miracle ou Souhait en lèvent les effets" in said
    assert "Le a déjà Lèpre (d1)" in cli("--lang", "fr", "expose", "Le", "leprosy", "--save", "1").err
    _add(cli, "Di", "pf1e", 60)
    ok(cli("expose", "Di", "dementia_dust", "--save", "1", "--deadly", "impaired"))
    ok(cli("cure", "Di", "d2", "--spell", "remove_disease", "--cl-check", "30"))
    said = cli("--lang", "fr", "cure", "Di", "d2", "--spell", "remove_disease", "--cl-check", "30").err
    assert "Poussière de démence (d2) est déjà enrayée ; son cran ne s'améliore qu'avec Restauration suprême" in said
    said = cli("--lang", "fr", "cure", "Di", "d2", "--spell", "neutralize_poison", "--cl-check", "30").err
    assert "Neutralisation du poison n'agit que sur les poisons ; Poussière de démence est une maladie" in said
    said = cli("--lang", "fr", "cure", "Di", "d2", "--spell", "restoration").err
    assert "Restauration n'a aucun effet sur Poussière de démence (d2, enrayée). Les états" in said
    said = cli("--lang", "fr", "recover", "Di", "--night").err
    assert "d2 Poussière de démence : une maladie ne se guérit pas par le repos" in said
    said = cli("--lang", "fr", "expose", "Di", "filth_fever", "--save", "1", "--deadly", "nowhere").err
    assert "Fièvre des marais : pas de cran 'nowhere' sur l'Échelle de progression des maladies physiques" in said
    for text in (said,):
        assert "filth_fever" not in text and "dementia_dust" not in text


def test_french_messages_of_injuries_name_them_in_french(cli):
    """Seed 000 names the injuries and severities in French (« Côtes cassées », « Sérieuse »): a French refusal says
    them so; a moment's save names the save (« jet de sauvegarde de Constitution »)."""
    _campaign(cli, "dnd5e")
    _add(cli, "Ana", "dnd5e", 20, "--hit-dice", "2")
    ok(cli("injure", "Ana", "--type", "bludgeoning", "--d20", "1"))  # Broken Ribs: critical
    said = cli("--lang", "fr", "rest", "Ana", "--short", "--hit-dice", "1", "--injury", "i1").err
    assert "i1 (Côtes cassées) ne guérit pas avec un dé de vie (Sérieuse)" in said, said
    line = ok(cli("--lang", "fr", "action", "Ana", "--save", "3")).out
    assert "Côtes cassées — jet de sauvegarde de Constitution 3 contre DD 10" in line


# ================================================================ documentation findings


def test_a_wounded_hand_penalizes_its_attacks_and_the_hands_skills_whichever_hand(cli):
    """Seed 001: « si un aventurier se fait entailler les doigts d'une main, il subit un malus au jet d'attaque s'il
    se sert de cette main pour combattre, ainsi qu'aux tests de compétences telles que Contrefaçon, Crochetage… »:
    the attack with the other hand is spared; the listed skills are penalized whichever hand is used."""
    _campaign(cli, "pf1e")
    _add(cli, "Vex", "pf1e", 30)
    ok(cli("wound", "Vex", "hand", "--side", "left", "--damage", "4"))
    assert ok(cli("--json", "mods", "Vex", "attack", "--hand", "right", "--melee")).json["modifier"] == 0
    assert ok(cli("--json", "mods", "Vex", "attack", "--hand", "left", "--melee")).json["modifier"] == -2
    for hand in ("left", "right"):
        assert ok(cli("--json", "mods", "Vex", "open_lock", "--hand", hand)).json["modifier"] == -2
    ok(cli("wound", "Vex", "arm", "--side", "left", "--damage", "4"))
    # Bras: « Jet d'attaque; tests de Force; tests d'Escalade et de Natation »
    assert ok(cli("--json", "mods", "Vex", "str", "--hand", "right")).json["modifier"] == -2


def test_multi_type_tiebreak_only_breaks_ties(cli):
    """Seed 000: the injury table is that of the damage type that dealt the most; `last_listed` only decides
    between types that dealt as much (its help says so)."""
    _campaign(cli, "dnd5e", "multi_type_tiebreak=last_listed")
    help_text = ok(cli("--json", "campaign", "options")).out
    assert "only breaks a tie between types" in help_text
    _add(cli, "Ana", "dnd5e", 10)
    doc = ok(cli("--json", "damage", "Ana", "8", "fire", "2", "cold", "--d20", "20")).json
    assert next(e["data"] for e in doc["events"] if e["type"] == "injury_gained")["table"] == "fire"
    _add(cli, "Bo", "dnd5e", 10)
    doc = ok(cli("--json", "damage", "Bo", "5", "fire", "5", "cold", "--d20", "20")).json
    assert next(e["data"] for e in doc["events"] if e["type"] == "injury_gained")["table"] == "cold"


@pytest.mark.parametrize("dawn_hour, due", [(None, "06:00"), ("8", "08:00")])
def test_daily_tick_dawn_ticks_at_the_campaigns_dawn(cli, dawn_hour, due):
    """Seed 000, Pourrissement: the loss comes each day; `daily_tick dawn` takes it at dawn on the game clock
    (option dawn_hour, 6 by default), not at midnight."""
    _campaign(cli, "dnd5e", "daily_tick=dawn", *([f"dawn_hour={dawn_hour}"] if dawn_hour else []))
    _add(cli, "Bob", "dnd5e", 20)
    ok(cli("injure", "Bob", "--type", "necrotic", "--d20", "4"))  # Rot
    before = _sheet(cli, "Bob")["max_hp"]
    hour = int(due[:2])
    ok(cli("advance", f"{hour - 1}h"))
    assert _sheet(cli, "Bob")["max_hp"] == before
    ok(cli("advance", "1h"))
    assert _sheet(cli, "Bob")["max_hp"] < before
    refused = cli("campaign", "set", "dawn_hour", "24")
    assert refused.code == 2 and "from 0 to 23" in refused.err


def test_a_lost_action_answered_by_the_player_costs_nothing_either(cli):
    """Seed 004, Diminué « ou perdre l'action »: the Impaired save waits for the player's die; a failed answer
    loses the action, and the moment resumed runs nothing that performing it costs (Handicapé's hit point)."""
    _campaign(cli, "pf1e", "who_rolls=players")
    _add(cli, "Bo")
    ok(cli("expose", "Bo", "filth_fever", "--save", "1", "--deadly", "disabled"))
    ok(cli("action", "Bo"))
    [waiting] = ok(cli("--json", "pending")).json["pending"]
    assert waiting["kind"] == "moment"
    ok(cli("answer", waiting["id"], "1"))
    assert _sheet(cli, "Bo")["hp"] == 30 and ok(cli("--json", "pending")).json["pending"] == []
    undone = ok(cli("undo"))
    assert undone.code == 0 and len(ok(cli("--json", "pending")).json["pending"]) == 1


def test_a_healer_who_cannot_act_treats_no_one_in_any_rule(cli):
    """The same kind in the other rules: a treatment (seed 000), first aid (seed 001, « un test de Premiers secours
    réussi (DD 15) ») and a Heal check that diagnoses (seed 004) are made by a healer who can act; unconscious at
    0 HP (5e), the healer is refused in one line, nothing applied."""
    _campaign(cli, "dnd5e")
    ok(cli("character", "add", "Aria", "--max-hp", "12", "--prof", "medicine,herbalism_kit", "--skills",
           "medicine=5"))
    _add(cli, "Ana", "dnd5e", 10)
    ok(cli("injure", "Ana", "--type", "piercing", "--d20", "12"))
    ok(cli("wound", "Ana", "hand", "--side", "left", "--damage", "1", "--superficial"))
    ok(cli("expose", "Ana", "filth_fever", "--save", "1"))
    ok(cli("damage", "Aria", "12", "fire", "--d20", "15"))  # Aria down at 0 HP
    wound = _sheet(cli, "Ana")["wounds"][0]["id"]
    before = len(_log(cli))
    for args in (("treat", "Ana", "i1", "--healer", "Aria"), ("firstaid", "Ana", wound, "--healer", "Aria"),
                 ("diagnose", "Ana", "filth_fever", "--healer", "Aria")):
        refused = cli(*args)
        assert refused.code == 1 and refused.err.strip() == "error: Aria can't take an action: Unconscious", (args, refused.err)
    assert len(_log(cli)) == before


def test_the_api_refuses_what_the_state_forbids_in_its_one_error_shape(db):
    """Seed 004, Alité « ne peut pas … effectuer des actions standard ou de mouvement »: the API's `action` and
    `dash` refuse in the project's JSON error shape, said in French with `?lang=fr`, nothing applied."""
    from fastapi.testclient import TestClient

    from sawbones.application.service import Service
    from sawbones.interfaces.web.app import create_app

    with TestClient(create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=3),
                    base_url="http://testserver") as client:
        created = client.post("/api/campaigns", json={"name": "Alpha", "seed": 7, "system": "pf1e"})
        assert created.status_code == 201, created.text
        client.headers["Authorization"] = f"Bearer {created.json()['gm_secret']}"
        assert client.post("/api/campaigns/Alpha/characters", json={"name": "Bo", "max_hp": 30}).status_code in (
            200, 201)
        exposed = client.post("/api/campaigns/Alpha/expose",
                              json={"character": "Bo", "affliction": "filth_fever", "save": 1, "deadly": "bedridden"})
        assert exposed.status_code == 200, exposed.text
        version = len(client.get("/api/campaigns/Alpha/log").json()["events"])
        for moment, fr in (("action", "Bo ne peut pas agir : Alité (Fièvre des marais)"),
                           ("dash", "Bo ne peut pas foncer : Alité (Fièvre des marais)")):
            refused = client.post(f"/api/campaigns/Alpha/{moment}?lang=fr", json={"character": "Bo"})
            body = refused.json()
            assert refused.status_code == 409 and set(body["error"]) == {"code", "message", "where"}, body
            assert body["error"]["code"] == "rule_violation" and body["error"]["message"] == fr
        assert len(client.get("/api/campaigns/Alpha/log").json()["events"]) == version
