"""Errors as the web says them: the CLI names its flags, the API the fields of its request body, the pages
the labels of their forms (tests/test_i18n.py checks every message and every template that names a flag)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Wording:
    """A message raised in the CLI's words (`cli`, an English template), as the API says it (`api`: English, French)
    and as a page says it (`page`; None: as the API says it, when it names no field)."""

    cli: str
    api: tuple[str, str]
    page: tuple[str, str] | None = None

    def said(self, audience: str) -> tuple[str, str]:
        return self.page if audience == "page" and self.page is not None else self.api


W = Wording
WEB_WORDING: list[Wording] = [
    W("{healer_name} cannot treat injuries: needs {and_join_missing} (add with `character edit {healer_name} "
      "--prof medicine,herbalism_kit`)",
      ("{healer_name} cannot treat injuries: needs {and_join_missing} (add them to {healer_name}'s proficiencies: "
       "PATCH …/characters/{healer_name})",
       "{healer_name} ne peut pas soigner de blessures : il lui faut {and_join_missing} (ajoutez-les aux "
       "proficiencies de {healer_name} : PATCH …/characters/{healer_name})"),
      ("{healer_name} cannot treat injuries: needs {and_join_missing} (add them in {healer_name}'s Edit form)",
       "{healer_name} ne peut pas soigner de blessures : il lui faut {and_join_missing} (ajoutez-les dans le "
       "formulaire Modifier de {healer_name})")),
    W("{definition_name_en} requires magic: mundane treatment has no effect (use `heal {patient_name} --spell SPELL "
      "--injury {injury_id}`)",
      ("{definition_name_en} requires magic: mundane treatment has no effect (use the heal action with a spell and "
       "injury {injury_id})",
       "{definition_name_en} demande de la magie : un traitement ordinaire est sans effet (utilisez l'action heal "
       "avec un spell et l'injury {injury_id})"),
      ("{definition_name_en} requires magic: mundane treatment has no effect (use Heal (magic) on {injury_id})",
       "{definition_name_en} demande de la magie : un traitement ordinaire est sans effet (utilisez Soin magique sur "
       "{injury_id})")),
    W("a save is waiting for a player's die ({waiting}): answer it first (`sawbones pending`, `sawbones answer ID TOTAL`)",
      ("a save is waiting for a player's die ({waiting}): answer it first (GET …/pending, POST …/answer)",
       "un jet attend le dé d'un joueur ({waiting}) : répondez-y d'abord (GET …/pending, POST …/answer)"),
      ("a save is waiting for a player's die ({waiting}): answer it first (Saves waiting for a die)",
       "un jet attend le dé d'un joueur ({waiting}) : répondez-y d'abord (Jets en attente d'un dé)")),
    W("campaign {state_name} loads the content pack {pack}, which is not there: put it back, or point the campaign "
      "to it with `campaign set --pack DIR`",
      ("campaign {state_name} loads the content pack {pack}, which is not there: put it back on the server",
       "la campagne {state_name} charge le paquet de contenu {pack}, qui n'est plus là : remettez-le sur le serveur")),
    W("campaign {self_campaign} has no GM secret yet: make one with `sawbones --campaign {self_campaign} gm-link`",
      ("campaign {self_campaign} has no GM secret yet: the server's administrator makes one (gm-link)",
       "la campagne {self_campaign} n'a pas encore de secret de MJ : l'administrateur du serveur en crée un (gm-link)")),
    W("campaign {campaign} has no API secret yet: make one with `sawbones --campaign {campaign} gm-link --api-secret`",
      ("campaign {campaign} has no API secret yet: the server's administrator makes one (gm-link, its API secret)",
       "la campagne {campaign} n'a pas encore de secret d'API : l'administrateur du serveur en crée un "
       "(gm-link, son secret d'API)")),
    W("this server is closed: listing and creating campaigns need its admin secret (`Authorization: Bearer <admin "
      "secret>`, see `sawbones admin-secret`)",
      ("this server is closed: listing and creating campaigns need its admin secret (`Authorization: Bearer <admin "
       "secret>`; the server's administrator has it)",
       "ce serveur est fermé : lister et créer des campagnes demande son secret d'administration (`Authorization: "
       "Bearer <secret d'administration>` ; l'administrateur du serveur le détient)")),
    W("campaign {campaign}: event {version} has type {type}, unknown to this sawbones (written with event schema "
      "{schema}, rules {rules}): a newer sawbones or a content pack that is not loaded wrote it; upgrade sawbones or "
      "pass the pack with --content. Nothing was written",
      ("campaign {campaign}: event {version} has type {type}, unknown to this sawbones (written with event schema "
       "{schema}, rules {rules}): a newer sawbones or a content pack that is not loaded wrote it; the server's "
       "administrator upgrades sawbones or loads the pack. Nothing was written",
       "campagne {campaign} : l'événement {version} a le type {type}, inconnu de ce sawbones (écrit avec le schéma "
       "d'événements {schema}, règles {rules}) : un sawbones plus récent ou un paquet de contenu non chargé l'a écrit ; "
       "l'administrateur du serveur met sawbones à jour ou charge le paquet. Rien n'a été écrit")),
    # the API's query parameters and the odds' form fields have the same names, without --
    W("--types: a weight is above 0 and at most 1000, not {weight} ({table})",
      ("types: a weight is above 0 and at most 1000, not {weight} ({table})",
       "types : un poids est supérieur à 0 et vaut 1000 au plus, pas {weight} ({table})")),
    W("--compare: option {option_id} has no choices to compare",
      ("compare: option {option_id} has no choices to compare",
       "compare : l'option {option_id} n'a pas de choix à comparer")),
    W("--wait: from 0 to {MAX_WAIT_DAYS} days, not {wait_days}",
      ("wait: from 0 to {MAX_WAIT_DAYS} days, not {wait_days}", "wait : de 0 à {MAX_WAIT_DAYS} jours, pas {wait_days}")),
    W("--bonus: a healer's check bonus from {MIN_BONUS} to {MAX_BONUS}, not {bonus}",
      ("bonus: a healer's check bonus from {MIN_BONUS} to {MAX_BONUS}, not {bonus}",
       "bonus : un bonus de test de soigneur de {MIN_BONUS} à {MAX_BONUS}, pas {bonus}")),
    # the actions' bodies (API) and forms (pages)
    W("give the save's TOTAL (or --d20 N to add the character's bonus)",
      ("give the save's total (or d20 to add the character's bonus)",
       "donnez le total du jet (ou d20 pour ajouter le bonus du personnage)"),
      ("give the save's total (or the d20 to add the character's bonus)",
       "donnez le total du jet (ou le d20 pour ajouter le bonus du personnage)")),
    W("give the save's TOTAL (or --d20 N to add the character's bonus, or --roll)",
      ("give the save's total (or d20 to add the character's bonus, or roll: true)",
       "donnez le total du jet (ou d20 pour ajouter le bonus du personnage, ou roll : true)"),
      ("give the save's total (or the d20 to add the character's bonus, or Roll)",
       "donnez le total du jet (ou le d20 pour ajouter le bonus du personnage, ou Tirer)")),
    W("the hit ties between {join_tied}: choose the injury table with --type",
      ("the hit ties between {join_tied}: choose the injury table with injury_type",
       "le coup est à égalité entre {join_tied} : choisissez la table de blessures avec injury_type")),
    W("--type {chosen} is not one of this hit's damage types",
      ("injury_type {chosen} is not one of this hit's damage types",
       "injury_type {chosen} n'est pas l'un des types de dégâts de ce coup")),
    W("this injury strikes a hand or a foot: say which with --site hand|foot (option extremity_site=gm)",
      ("this injury strikes a hand or a foot: say which with site (hand or foot; option extremity_site=gm)",
       "cette blessure frappe une main ou un pied : dites lequel avec site (hand ou foot ; option extremity_site=gm)"),
      ("this injury strikes a hand or a foot: say which in site (option extremity_site=gm)",
       "cette blessure frappe une main ou un pied : dites lequel dans site (option extremity_site=gm)")),
    W("give the check total with --check, or name a --healer whose bonus is rolled",
      ("give the check total in check, or name a healer whose bonus is rolled",
       "donnez le total du test dans check, ou nommez un healer dont le bonus sera lancé"),
      ("give the check total, or choose a healer whose bonus is rolled",
       "donnez le total du test, ou choisissez un soigneur dont le bonus sera lancé")),
    W("give the check total with --check, or name a --healer whose Heal bonus is rolled",
      ("give the check total in check, or name a healer whose Heal bonus is rolled",
       "donnez le total du test dans check, ou nommez un healer dont le bonus de Premiers secours sera lancé"),
      ("give the check total, or choose a healer whose Heal bonus is rolled",
       "donnez le total du test, ou choisissez un soigneur dont le bonus de Premiers secours sera lancé")),
    W("--skill goes with a skill or check roll",
      ("skill goes with a skill or check roll", "skill va avec un jet de compétence ou un test")),
    W("--save goes with a save roll", ("save goes with a save roll", "save va avec un jet de sauvegarde")),
    W("{len_typed} --save value(s) left over: {character_name} has fewer saves to make",
      ("{len_typed} value(s) of saves left over: {character_name} has fewer saves to make",
       "{len_typed} valeur(s) de saves en trop : {character_name} a moins de jets à faire"),
      ("{len_typed} save total(s) left over: {character_name} has fewer saves to make",
       "{len_typed} total(aux) de jet en trop : {character_name} a moins de jets à faire")),
    W("a wound needs at least 1 point of damage (--damage N)",
      ("a wound needs at least 1 point of damage (damage)", "une blessure demande au moins 1 point de dégâts (damage)"),
      ("a wound needs at least 1 point of damage (Damage)", "une blessure demande au moins 1 point de dégâts (Dégâts)")),
    W("a {part_name_en_lower} wound needs a side: --side {or_join_part_sides}",
      ("a {part_name_en_lower} wound needs a side: side {or_join_part_sides}",
       "une blessure ({part_name_en_lower}) demande un côté : side {or_join_part_sides}"),
      ("a {part_name_en_lower} wound needs a side: choose it in side",
       "une blessure ({part_name_en_lower}) demande un côté : choisissez-le dans côté")),
    W("the {part_name_en_lower} has no sides: leave out --side",
      ("the {part_name_en_lower} has no sides: leave out side",
       "cette partie ({part_name_en_lower}) n'a pas de côté : ôtez side"),
      ("the {part_name_en_lower} has no sides: leave side empty",
       "cette partie ({part_name_en_lower}) n'a pas de côté : laissez côté vide")),
    W("who rolls {name}'s save? The campaign's option who_rolls is ask: say --rolls gm or --rolls players",
      ("who rolls {name}'s save? The campaign's option who_rolls is ask: give rolls, gm or players",
       "qui lance le jet de {name} ? L'option who_rolls de la campagne vaut ask : donnez rolls, gm ou players"),
      ("who rolls {name}'s save? The campaign's option who_rolls is ask: choose who rolls in the form",
       "qui lance le jet de {name} ? L'option who_rolls de la campagne vaut ask : choisissez qui lance dans le "
       "formulaire")),
    W("{spell_pf1e_name_en} needs a caster level check against DC {a_dc}: give --cl-check TOTAL or --cl N (caster "
      "level) to roll it",
      ("{spell_pf1e_name_en} needs a caster level check against DC {a_dc}: give cl_check (its total) or cl (the caster "
       "level) to roll it",
       "{spell_pf1e_name_en} demande un test de niveau de lanceur contre DD {a_dc} : donnez cl_check (son total), ou "
       "cl (le niveau de lanceur) pour le lancer"),
      ("{spell_pf1e_name_en} needs a caster level check against DC {a_dc}: give the caster level check's total",
       "{spell_pf1e_name_en} demande un test de niveau de lanceur contre DD {a_dc} : donnez le total du test de "
       "niveau de lanceur")),
]
# Messages only the command line raises (click's own, the CLI's choices of database and campaign): no web wording.
CLI_ONLY = (
    "no campaign chosen:", "no database at", "give an amount and a damage type", "give AMOUNT TYPE pairs",
    "this needs the campaign's GM secret",  # the API's own instruction to API clients
    "Invalid value for ",  # click's wrapper of a message that has its own wording
    "the export names no campaign", "a campaign named ",  # campaign import (an API create says no flag)
    "cannot open the database", "cannot listen on", "give a VALUE or --reset", "give OPTION VALUE",
    "say --long or --short", "give an AFFLICTION", "give --bed-rest or --night", "{given} goes with --injury",
    "--d20 goes with --injury", "--party takes one bonus", "--server must be", "the export does not replay",
    "--certfile and --keyfile go together",  # serve's TLS (the command line only)
)
