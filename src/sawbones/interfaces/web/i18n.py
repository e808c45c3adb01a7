"""The web pages' own words, in English and French (rule text comes from the content, already translated)."""

from __future__ import annotations

import re

from typing import Callable

# key: (en, fr)
STRINGS: dict[str, tuple[str, str]] = {
    "tagline": ("Lingering injuries, localized wounds and disease/poison tracks, run for the whole table.",
                "Blessures persistantes, blessures localisées et maladies/poisons, gérés pour toute la table."),
    "campaigns": ("Campaigns", "Campagnes"),
    "no_campaigns": ("No campaign yet.", "Aucune campagne pour l'instant."),
    "gm": ("GM", "MJ"),
    "open": ("Open", "Ouvrir"),
    "ask_gm_link": ("needs the GM link", "lien du MJ requis"),
    "new_campaign": ("New campaign", "Nouvelle campagne"),
    "name": ("Name", "Nom"),
    "system": ("Game system", "Système de jeu"),
    "system_dnd5e": ("D&D 5e", "D&D 5e"),
    "system_pf1e": ("Pathfinder 1e", "Pathfinder 1e"),
    "seed": ("Dice seed (optional)", "Graine des dés (facultative)"),
    "create": ("Create", "Créer"),
    "tables": ("Tables", "Tables"),
    "api": ("API", "API"),
    "language": ("Language", "Langue"),
    "gm_link_made": ("Your GM link — keep it: it is shown only now, and opens this dashboard on any device:",
                     "Votre lien de MJ — gardez-le : il n'est affiché qu'une fois et ouvre ce tableau de bord "
                     "sur n'importe quel appareil :"),
    "sign_in_needed": ("GM sign-in needed", "Connexion du MJ requise"),
    "need_gm_link": ("This dashboard needs a GM sign-in link (/c/NAME?code=…): `sawbones --campaign {campaign} gm-link` "
                     "prints one, and so does the dashboard of a browser already signed in.",
                     "Ce tableau de bord demande un lien de connexion du MJ (/c/NOM?code=…) : "
                     "`sawbones --campaign {campaign} gm-link` en affiche un, tout comme le tableau de bord d'un "
                     "navigateur déjà connecté."),
    "wrong_gm_link": ("Links with ?key= no longer sign in (they put the API secret in the browser's history): "
                      "ask for a sign-in link with `sawbones --campaign NAME gm-link`.",
                      "Les liens avec ?key= ne connectent plus (ils laissaient le secret d'API dans l'historique "
                      "du navigateur) : demandez un lien de connexion avec `sawbones --campaign NOM gm-link`."),
    "no_player_link": ("This player link is unknown or its character is gone.",
                       "Ce lien de joueur est inconnu, ou son personnage n'existe plus."),
    "error": ("Error", "Erreur"),
    "back_home": ("Back to the campaigns", "Retour aux campagnes"),
    "party": ("Party", "Groupe"),
    "no_characters": ("No characters yet: add the party below.",
                      "Aucun personnage : ajoutez le groupe ci-dessous."),
    "clock": ("Clock", "Horloge"),
    "next_due": ("Next due", "Prochaine échéance"),
    "nothing_due": ("nothing scheduled", "rien de prévu"),
    "in": ("in", "dans"),
    "hp": ("HP", "PV"),
    "hit_dice": ("Hit Dice", "Dés de vie"),
    "npc": ("NPC", "PNJ"),
    "dead": ("dead", "mort"),
    "stable": ("stable", "stable"),
    "dying": ("dying", "mourant"),
    "conditions": ("Conditions", "États"),
    "injuries": ("Injuries", "Blessures"),
    "no_injuries": ("no injuries", "aucune blessure"),
    "wounds": ("Wounds", "Blessures localisées"),
    "afflictions": ("Diseases and poisons", "Maladies et poisons"),
    "dc": ("DC", "DD"),
    "heals_by": ("heals by", "guérit par"),
    "secret_deadline": ("secret deadline in", "échéance secrète dans"),
    "deadline_passed": ("deadline passed", "échéance dépassée"),
    "deadline_in": ("the limb is lost unless treated within", "le membre est perdu sans traitement d'ici"),
    "next_daily": ("next daily effect", "prochain effet quotidien"),
    "treatment_started": ("treatment under way", "traitement en cours"),
    "treat": ("Treat", "Soigner"),
    "check_total": ("check total", "total du test"),
    "rolled": ("rolled", "lancé"),
    "healer": ("healer", "soigneur"),
    "gm_vouches": ("(GM's word)", "(parole du MJ)"),
    "heal": ("Heal (magic)", "Soin magique"),
    "spell": ("spell", "sort"),
    "hp_restored": ("HP restored", "PV rendus"),
    "damage": ("Damage", "Dégâts"),
    "amount": ("amount", "montant"),
    "type": ("type", "type"),
    "d20_blank": ("d20 (blank: rolled)", "d20 (vide : lancé)"),
    "site": ("site", "site"),
    "hand": ("hand", "main"),
    "foot": ("foot", "pied"),
    "any": ("—", "—"),
    "edit": ("Edit", "Modifier"),
    "save": ("Save", "Enregistrer"),
    "remove": ("Remove", "Retirer"),
    "removed": ("Removed", "Retiré :"),
    "confirm_remove": ("Remove this character? (undo brings it back)",
                       "Retirer ce personnage ? (annuler le ramène)"),
    "notes": ("Notes (GM only)", "Notes (MJ seulement)"),
    "player_link": ("player link", "lien joueur"),
    "form": ("form", "formulaire"),
    "stale": ("Changed elsewhere: reload", "Modifié ailleurs : recharger"),
    "stale_help": ("A part you are typing in was not updated (or the party changed): reload the page to see it",
                   "Une partie où vous tapiez n'a pas été mise à jour (ou le groupe a changé) : rechargez la page"),
    "player_link_qr": ("Player link · QR", "Lien joueur · QR"),
    "player_link_qr_help": ("The link and its QR code: the player scans it with their phone",
                            "Le lien et son QR code : le joueur le scanne avec son téléphone"),
    "add_character": ("Add a character", "Ajouter un personnage"),
    "import_characters": ("Import from sheets", "Importer des fiches"),
    "sheet_files": ("Foundry VTT actor exports (dnd5e, pf1) or party files (YAML, CSV)",
                    "Exports d'acteurs Foundry VTT (dnd5e, pf1) ou fichiers de groupe (YAML, CSV)"),
    "import": ("Import", "Importer"),
    "max_hp": ("max HP", "PV max"),
    "current_hp": ("current HP", "PV actuels"),
    "abilities": ("abilities (str=14,con=12)", "caractéristiques (str=14,con=12)"),
    "saves_pairs": ("saves (con=5 or fortitude=6)", "sauvegardes (con=5 ou fortitude=6)"),
    "skills_pairs": ("skills (medicine=5)", "compétences (medicine=5)"),
    "proficiencies": ("proficiencies (medicine,herbalism_kit)", "maîtrises (medicine,herbalism_kit)"),
    "hit_die": ("hit die", "dé de vie"),
    "add": ("Add", "Ajouter"),
    "advance": ("Advance the clock", "Avancer l'horloge"),
    "duration": ("duration (3r, 10min, 8h, 2d, 1w)", "durée (3r, 10min, 8h, 2j, 1sem)"),
    "auto_saves": ("roll every save", "lancer tous les jets"),
    "go": ("Go", "Avancer"),
    "rest": ("Rest", "Repos"),
    "long_rest": ("Long rest", "Repos long"),
    "short_rest": ("Short rest", "Repos court"),
    "who_rests": ("who (blank: everyone)", "qui (vide : tout le monde)"),
    "hd_spent": ("Hit Dice spent", "dés de vie dépensés"),
    "hd_rolls": ("Hit Die rolls (4,6)", "jets de dés de vie (4,6)"),
    "minor_injuries": ("minor injuries healed (i1,i3)", "blessures mineures soignées (i1,i3)"),
    "pending": ("Saves waiting for a die", "Jets en attente d'un dé"),
    "no_pending": ("none", "aucun"),
    "answer": ("Answer", "Répondre"),
    "total": ("total", "total"),
    "resumes_to": ("resumes up to", "reprend jusqu'à"),
    "more_actions": ("More actions", "Autres actions"),
    "injure": ("Give an injury", "Infliger une blessure"),
    "critical_failure": ("a critical failure", "un échec critique"),
    "stabilize": ("Stabilize", "Stabiliser"),
    "moment": ("Turn, Dash, action", "Tour, Foncer, action"),
    "turn": ("turn", "tour"),
    "dash": ("Dash", "Foncer"),
    "action": ("action", "action"),
    "saves_typed": ("save totals (blank: rolled)", "totaux des jets (vide : lancés)"),
    "run": ("Run", "Lancer"),
    "expose": ("Expose to a disease or poison", "Exposer à une maladie ou un poison"),
    "affliction": ("disease or poison", "maladie ou poison"),
    "diseases": ("Diseases", "Maladies"),
    "poisons": ("Poisons", "Poisons"),
    "initial_save": ("initial save total (blank: rolled)", "jet initial (vide : lancé)"),
    "cure": ("Cure", "Guérir"),
    "cl_check": ("caster level check", "test de niveau de lanceur"),
    "recover": ("Recover", "Récupérer"),
    "bed_rest": ("a day of bed rest", "un jour d'alitement"),
    "night": ("a night's rest", "une nuit de repos"),
    "care": ("with long-term care", "avec soins de longue durée"),
    "streak": ("cure streak", "série"),
    "cure_text": ("cure", "guérison"),
    "failures": ("failures", "échecs"),
    "next_save": ("next save", "prochain jet"),
    "options": ("Ruleset options", "Options de règles"),
    "option": ("option", "option"),
    "value": ("value", "valeur"),
    "reset": ("back to the default", "revenir au défaut"),
    "set": ("Set", "Régler"),
    "default": ("(default)", "(défaut)"),
    "roll_table": ("Roll on an injury table", "Tirer sur une table de blessures"),
    "roll": ("Roll", "Tirer"),
    "log": ("Log", "Journal"),
    "undo": ("Undo the last action", "Annuler la dernière action"),
    "undone": ("Action {action} undone.", "Action {action} annulée."),
    "undone_mark": ("undone", "annulée"),
    "done": ("Done.", "Fait."),
    "player_view": ("Player view", "Vue du joueur"),
    "live": ("live", "en direct"),
    "updated": ("updated", "mis à jour"),
    "d20": ("d20", "d20"),
    "stages": ("stages", "crans"),
    "status_active": ("active", "en cours"),
    "status_eliminated": ("eliminated, recovering", "éliminé, récupération"),
    "status_end_state": ("end state", "état final"),
    "status_cured": ("cured (after-effects)", "guéri (séquelles)"),
    "halted": ("halted", "enrayée"),
    "permanent": ("permanent", "définitif"),
    "ability_damage": ("ability damage", "dégâts de caractéristique"),
    "sources": ("from", "par"),
    "api_docs": ("API documentation", "Documentation de l'API"),
    "wound": ("Wound", "Blesser"),
    "part": ("body part", "partie du corps"),
    "side": ("side", "côté"),
    "left": ("left", "gauche"),
    "right": ("right", "droite"),
    "both": ("both hands", "deux mains"),
    "superficial": ("superficial", "superficielle"),
    "severe": ("severe", "grave"),
    "suppressed": ("ignored (Fortitude)", "ignorée (Vigueur)"),
    "first_aid": ("First aid", "Premiers secours"),
    "magic_hp": ("HP of magic", "PV de magie"),
    "roll_query": ("What applies to a roll?", "Qu'est-ce qui s'applique à un jet ?"),
    "roll_kind": ("roll (attack, save, Perception, Strength…)", "jet (attaque, jet de sauvegarde, Perception, Force…)"),
    "range": ("range", "portée"),
    "ranged": ("ranged", "à distance"),
    "melee": ("melee", "au contact"),
    "sense": ("sense", "sens"),
    "sight": ("sight", "vue"),
    "hearing": ("hearing", "ouïe"),
    "ask": ("Ask", "Demander"),
    "mode_normal": ("normal roll", "jet normal"),
    "mode_advantage": ("advantage", "avantage"),
    "mode_disadvantage": ("disadvantage", "désavantage"),
    "mode_auto_fails": ("automatic failure", "échec automatique"),
    "auto_fail": ("AUTOMATIC FAILURE", "ÉCHEC AUTOMATIQUE"),
    "no_stack": ("does not stack", "ne se cumule pas"),
    "condition": ("condition", "état"),
    "odds": ("Odds of a disease or poison", "Chances d'une maladie ou d'un poison"),
    "save_bonus": ("save bonus", "bonus au jet"),
    "show": ("Show", "Afficher"),
    "death": ("death", "mort"),
    "expected_duration": ("expected duration", "durée attendue"),
    "api_intro": ("Every action of the dashboard, for bots and virtual tabletops. Routes marked GM need the campaign's "
                  "API secret (on the dashboard, under Access): Authorization: Bearer <secret>. Every failure is {\"error\": {\"code\", \"message\", "
                  "\"where\"}}.",
                  "Toutes les actions du tableau de bord, pour les bots et les tables virtuelles. Les routes marquées "
                  "MJ demandent le secret d'API de la campagne (sur le tableau de bord, sous Accès) : "
                  "Authorization: Bearer <secret>. Toute erreur est "
                  "{\"error\": {\"code\", \"message\", \"where\"}}."),
    "path": ("path", "chemin"),
    "what": ("what it does", "ce qu'elle fait"),
    "kind_disease": ("disease", "maladie"),
    "kind_poison": ("poison", "poison"),
    "healthy": ("Nothing afflicts this character.", "Rien n'afflige ce personnage."),
    # injury odds (issue 17)
    "injury_odds": ("Odds of an injury", "Chances d'une blessure"),
    "one_drop": ("One drop to 0", "Une chute à 0"),
    "magic_only_heals": ("only magic heals it", "seule la magie la soigne"),
    "permanent_loss": ("permanent loss (eye, hand, foot) before any treatment",
                       "perte définitive (œil, main, pied) avant tout soin"),
    "healer_bonus": ("healer's bonus", "bonus du soigneur"),
    "wait_days": ("days before treatment", "jours avant les soins"),
    "what_if": ("What each option changes", "Ce que change chaque option"),
    "what_if_help": ("Lingering injuries per session for this party: under the campaign's options, then under each "
                     "other value of an injury option that changes a number.",
                     "Les blessures persistantes par séance pour ce groupe : avec les options de la campagne, puis avec "
                     "chaque autre valeur d'une option des blessures qui change un nombre."),
    "drops_per_session": ("drops to 0 per session", "chutes à 0 par séance"),
    "per_session": ("per session", "par séance"),
    "compare": ("Compare", "Comparer"),
    "campaign_options": ("The campaign's options", "Les options de la campagne"),
    "injuries_per_session": ("injuries per session", "blessures par séance"),
    "npc_injuries": ("NPC", "PNJ"),
    "no_effect": ("no effect on these numbers", "sans effet sur ces nombres"),
    "not_compared": ("not compared", "non comparé"),
    "gm_call": ("a call the GM makes at the table, which the odds cannot make",
                "un choix que le MJ fait à la table, que les chances ne peuvent pas faire"),
    "odds_range": ("{what}: from {low} to {high}, not {value}", "{what} : de {low} à {high}, pas {value}"),
    "odds_whole": ("{what}: a whole number, not {value!r}", "{what} : un nombre entier, pas {value!r}"),
    "odds_number": ("{what}: a number, not {value!r}", "{what} : un nombre, pas {value!r}"),
    "healed": ("heals by treatment", "guérit par les soins"),
    "lost": ("hand or foot lost", "main ou pied perdu"),
    "never_heals": ("never heals without magic", "ne guérit jamais sans magie"),
    "on_average": ("on average, when it heals", "en moyenne, quand elle guérit"),
    "attempts": ("attempts", "essais"),
    "days": ("days", "jours"),
    "days_until_healed": ("game days from the drop until it heals", "jours de jeu de la chute à la guérison"),
    "damage_type": ("damage type", "type de dégâts"),
    # access (sign-in codes, API secret, player links, server modes)
    "signin_unknown": ("This sign-in link is not valid for this campaign. Ask for a new one: "
                       "`sawbones --campaign NAME gm-link`, or the dashboard of a signed-in browser.",
                       "Ce lien de connexion n'est pas valable pour cette campagne. Demandez-en un nouveau : "
                       "`sawbones --campaign NOM gm-link`, ou le tableau de bord d'un navigateur connecté."),
    "signin_used": ("This sign-in link was already used: each link signs in one browser, once. Ask for a new one: "
                    "`sawbones --campaign NAME gm-link`, or the dashboard of a signed-in browser.",
                    "Ce lien de connexion a déjà servi : chaque lien connecte un navigateur, une fois. Demandez-en "
                    "un nouveau : `sawbones --campaign NOM gm-link`, ou le tableau de bord d'un navigateur connecté."),
    "signin_expired": ("This sign-in link has expired (a link is valid 15 minutes). Ask for a new one: "
                       "`sawbones --campaign NAME gm-link`, or the dashboard of a signed-in browser.",
                       "Ce lien de connexion a expiré (un lien vaut 15 minutes). Demandez-en un nouveau : "
                       "`sawbones --campaign NOM gm-link`, ou le tableau de bord d'un navigateur connecté."),
    "access": ("Access", "Accès"),
    "signin_link": ("Sign in another device", "Connecter un autre appareil"),
    "signin_link_made": ("A sign-in link for another device: it works once, within 15 minutes.",
                         "Un lien de connexion pour un autre appareil : il sert une fois, dans les 15 minutes."),
    "api_secret": ("API secret", "Secret d'API"),
    "reveal": ("Reveal", "Afficher"),
    "new_api_secret": ("New API secret (the old one stops working)",
                       "Nouveau secret d'API (l'ancien cesse de fonctionner)"),
    "api_secret_is": ("The campaign's API secret, for bots and virtual tabletops (Authorization: Bearer …):",
                      "Le secret d'API de la campagne, pour les bots et les tables virtuelles "
                      "(Authorization: Bearer …) :"),
    "no_api_secret": ("This campaign has no API secret yet: make one.", "Cette campagne n'a pas encore de secret "
                      "d'API : créez-en un."),
    "end_sessions": ("Sign out every browser (this one too)", "Déconnecter tous les navigateurs (celui-ci aussi)"),
    "sessions_ended": ("Every browser is signed out: sign in again with `sawbones --campaign NAME gm-link`.",
                       "Tous les navigateurs sont déconnectés : reconnectez-vous avec "
                       "`sawbones --campaign NOM gm-link`."),
    "new_player_link": ("New link", "Nouveau lien"),
    "revoke_player_link": ("Revoke link", "Révoquer le lien"),
    "player_link_revoked": ("Player link revoked:", "Lien de joueur révoqué :"),
    "player_link_renewed": ("New player link (the old one stops working):",
                            "Nouveau lien de joueur (l'ancien cesse de fonctionner) :"),
    "back_dashboard": ("Back to the dashboard", "Retour au tableau de bord"),
    "campaign_made": ("Campaign created: you are its GM in this browser. Its API secret is under Access.",
                      "Campagne créée : vous en êtes le MJ dans ce navigateur. Son secret d'API est sous Accès."),
    "closed_server": ("This server is closed: its admin lists and creates campaigns. A GM opens their campaign "
                      "with a sign-in link.",
                      "Ce serveur est fermé : son administrateur liste et crée les campagnes. Un MJ ouvre sa "
                      "campagne avec un lien de connexion."),
    "admin_secret": ("Admin secret", "Secret d'administration"),
    "admin_sign_in": ("Sign in as admin", "Se connecter comme administrateur"),
    "wrong_admin_secret": ("Wrong admin secret for this server.", "Mauvais secret d'administration pour ce serveur."),
    "need_admin": ("This server is closed: creating a campaign needs its admin secret.",
                   "Ce serveur est fermé : créer une campagne demande son secret d'administration."),
    "host_refused": ("This server does not answer to the host name {host!r} (see --allowed-host).",
                     "Ce serveur ne répond pas au nom d'hôte {host!r} (voir --allowed-host)."),
    "too_large": ("The request is larger than this server accepts ({limit} bytes at most).",
                  "La requête dépasse ce que ce serveur accepte ({limit} octets au plus)."),
    "too_deep": ("The JSON body nests arrays and objects more than {limit} deep.",
                 "Le corps JSON imbrique tableaux et objets sur plus de {limit} niveaux."),
    "colon": (": ", " : "),
}


def text(key: str, lang: str) -> str:
    en, fr = STRINGS.get(key, (key, key))
    return fr if lang == "fr" else en


def translator(lang: str) -> Callable[[str], str]:
    return lambda key: text(key, lang)


_TAG_OR_TEXT = re.compile(r"(<(script|style|textarea|pre)\b.*?</\2>|<[^>]*>)", re.S | re.I)
_BEFORE_MARK = re.compile(r" ([?!;:»])|(«) ")
_NO_BREAK = {"?": "\u202f?", "!": "\u202f!", ";": "\u202f;", ":": "\u00a0:", "»": "\u00a0»", "«": "«\u00a0"}


def french_marks(html: str) -> str:
    """A French page's text with each "?", "!", ";", ":" and "»" held to the word before it, and "«" to the word
    after (no-break spaces, thin before ?!; as French sets them): never alone at the start of a line on a phone.
    Only the text between tags changes: tags, attributes, scripts, styles and what a GM may edit (a textarea, a
    preformatted block) stay as they are."""
    parts = _TAG_OR_TEXT.split(html)
    for i in range(0, len(parts), 3):  # (the text between the tags; each tag and its name follow it)
        if " " in parts[i]:
            parts[i] = _BEFORE_MARK.sub(lambda m: _NO_BREAK[m.group(1) or m.group(2)], parts[i])
    return "".join(p for i, p in enumerate(parts) if i % 3 != 2)


def _table_words() -> None:
    """The words of the table pages (issue 12), kept in their own module."""
    from .words_table import STRINGS as table

    STRINGS.update({key: pair for key, pair in table.items() if key not in STRINGS})


_table_words()
