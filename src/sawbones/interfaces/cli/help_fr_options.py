"""The French help of the options help_fr.py leaves out (the less common commands', the character sheet's, the web
server's and the Discord bot's), keyed like its OPTIONS by (command path, option name); help_fr.py merges them in.
Flags that share one option name (--long/--short, --ranged/--melee, --bed-rest/--night) share one text here."""

from __future__ import annotations

_WHO_ROLLS = ("Qui lance les jets de sauvegarde sans total --save : le serveur (gm) ou le joueur du personnage (le "
              "moment attend chacun de ses dés à son tour). Par défaut : l'option who_rolls.")
_SAVES = "Un total de jet de sauvegarde lancé à la table (dans l'ordre)."

_SHEET: dict[str, str] = {
    "max_hp": "PV maximum (un nouveau personnage : --hp, sinon 10).",
    "hp": "PV actuels (par défaut : le maximum).",
    "npc": "Un personnage non joueur (blessures seulement avec apply_to_npcs).",
    "abilities": "Valeurs de caractéristiques, par exemple str=14,dex=12,con=13.",
    "saves": "Bonus de jets de sauvegarde, par exemple con=5,dex=2 ou fortitude=6,reflex=3.",
    "skills": "Bonus de compétences, par exemple medicine=5,perception=3.",
    "prof": "Maîtrises et outils, par exemple medicine,herbalism_kit.",
    "hit_die": "Taille du dé de vie, par exemple d8.",
    "hit_dice": "Dés de vie restants.",
    "body": "Nombre de parties du corps, par exemple eyes=2,hands=2,feet=2,ears=2.",
    "notes": "Notes libres sur le personnage.",
    "external": "Une référence ailleurs, par exemple foundry:Actor.abc ou discord:1234 (répétable).",
}

MORE_OPTIONS: dict[tuple[str, str], str] = {
    ("", "version"): "Affiche la version et quitte.",
    ("action", "saves"): _SAVES,
    ("action", "rolls"): _WHO_ROLLS,
    ("advance", "rolls"): "Qui lance les jets de sauvegarde qui tombent à échéance : le MJ, ou le joueur de chaque "
                          "personnage (par défaut : l'option who_rolls ; gm avec --auto).",
    ("answer", "d20"): "Le d20 naturel (avec TOTAL : pour un 1 ou un 20 naturel ; seul : le bonus du personnage est "
                       "ajouté).",
    ("answer", "auto"): "Lance chaque jet de sauvegarde suivant de l'avance reprise.",
    ("answer", "roll"): "Lance ce jet de sauvegarde avec les dés de la campagne (bonus du personnage ajouté).",
    ("answer", "confirm"): "Applique la réponse du joueur qui vous attend (confirm_player_answers).",
    ("answer", "reject"): "Refuse la réponse du joueur : le jet de sauvegarde attend de nouveau le joueur.",
    ("campaign create", "system"): "Système de jeu : vocabulaire des caractéristiques, jets de sauvegarde, "
                                   "compétences, états.",
    ("campaign create", "seed"): "Graine des dés de la campagne (par défaut : aléatoire).",
    ("campaign create", "packs"): "Paquet de contenu que cette campagne charge toujours.",
    ("campaign set", "reset"): "Revient à la valeur par défaut.",
    ("campaign set", "packs"): "Les paquets de contenu que cette campagne charge désormais (répétable ; remplace la "
                               "liste).",
    ("campaign set", "no_packs"): "La campagne ne charge plus aucun paquet de contenu.",
    **{("character add", name): text for name, text in _SHEET.items()},
    **{("character edit", name): text for name, text in _SHEET.items()},
    ("character edit", "new_name"): "Renomme le personnage.",
    ("cure", "spell"): "neutralize_poison, remove_disease, heal, restoration, greater_restoration, "
                       "lesser_restoration, remove_curse, remove_blindness_deafness, regenerate, miracle, wish.",
    ("cure", "cl_check"): "Le total du test de niveau de lanceur (1d20 + NLS), tel que lancé.",
    ("cure", "cl"): "Niveau de lanceur de sorts : lance le test de niveau de lanceur.",
    ("damage", "site"): "Main ou pied, pour les blessures qui en frappent un.",
    ("damage", "injury_type"): "Table de blessures quand les types de dégâts du coup sont à égalité.",
    ("dash", "saves"): _SAVES,
    ("dash", "rolls"): _WHO_ROLLS,
    ("diagnose", "healer"): "Qui fait le test de Premiers secours (5e : Médecine) (par défaut : NAME).",
    ("diagnose", "total"): "Le total du test, tel que lancé à la table.",
    ("diagnose", "d20"): "Le d20 naturel (le bonus du soigneur est ajouté).",
    ("discord", "server"): "Le serveur sawbones auquel parle le bot (son API JSON).",
    ("discord", "campaign_name"): "La campagne de cette table.",
    ("discord", "gm_role"): "Les membres qui ont ce rôle sont le MJ (comme ceux qui ont la permission Gérer le "
                            "serveur).",
    ("discord", "gm_channel"): "Un salon pour les lignes complètes du MJ (échéances secrètes, afflictions cachées). "
                               "Par défaut : aucun.",
    ("discord", "table_channel"): "Le salon de la table : demandes de jets et fil des événements (par défaut : celui "
                                  "que /bind a choisi).",
    ("discord", "state_file"): "Où le bot garde le salon de la table, le dernier événement et ses demandes.",
    ("export", "upto"): "Seulement les événements jusqu'à celui-ci (la partie intacte d'un journal abîmé).",
    ("expose", "total"): "Le total du jet de sauvegarde initial, tel que lancé à la table.",
    ("expose", "d20"): "Le d20 naturel (pf1e : 1 échoue, 20 réussit) ; seul, le bonus du personnage est ajouté.",
    ("expose", "deadly"): "Une affliction vraiment mortelle : commence à ce cran (TRK-3).",
    ("expose", "rolls"): "Qui lance le jet de sauvegarde initial quand aucun total n'est donné : le serveur (gm) ou "
                         "le joueur du personnage (il attend comme un jet en attente).",
    ("firstaid", "total"): "Total du test de Premiers secours.",
    ("firstaid", "healer"): "Qui donne les premiers secours (le test se lance avec son bonus de Premiers secours ou "
                            "de Médecine).",
    ("heal", "spell"): "Le sort ou l'effet (cure_wounds, lesser_restoration, heal, regenerate...).",
    ("heal", "injury"): "Quelle blessure (par défaut : la plus grave qu'il peut guérir).",
    ("heal", "hp"): "Les PV qu'il rend aussi.",
    ("import", "as_name"): "Importe sous ce nom (quand le nom de l'export est déjà pris).",
    ("injure", "table"): "Type de dégâts sur la table duquel lancer.",
    ("injure", "d20"): "Le d20 de blessure lancé par le joueur.",
    ("injure", "site"): "Main ou pied, pour les blessures qui en frappent un.",
    ("injure", "critical_failure"): "La blessure est la conséquence d'un échec critique.",
    ("log", "limit"): "Les N derniers événements.",
    ("mods", "ability"): "Caractéristique qu'utilise le jet.",
    ("mods", "skill"): "Compétence (id ou nom, 5e ou 3.5/PF : perception, spot, Escalade...).",
    ("mods", "save"): "Jet de sauvegarde (fortitude, reflex, will, ou une caractéristique).",
    ("mods", "hand"): "Main (ou bras) avec laquelle l'attaque est faite.",
    ("mods", "range_"): "Une attaque à distance (--ranged) ou au corps à corps (--melee).",
    ("mods", "sense"): "Le sens sur lequel repose le jet.",
    ("mods", "armor"): "Armure portée : metal, none, ou un id d'armure.",
    ("mods", "standing"): "Debout ou à terre.",
    ("mods", "combat"): "En combat ou non.",
    ("mods", "fear"): "5e effrayé : la source de sa peur est en vue, ou non.",
    ("mods", "weapon"): "Fait avec une arme, ou non (PF1 fiévreux : dégâts des armes).",
    ("odds", "bonus_text"): "Le bonus de jet de sauvegarde de la victime (sans les malus des crans de l'affliction), "
                            "ou un intervalle A..B (par défaut 0 ; avec --all, -5..25).",
    ("odds", "everything"): "Toutes les afflictions : chance de mort selon le bonus.",
    ("odds", "from_stage"): "Commence à ce cran, comme si le jet initial avait échoué et y avait mis la victime (un "
                            "début mortel), plutôt qu'à l'exposition.",
    ("odds", "doses"): "Doses en plus prises au même moment (poisons : +50 % de durée et un cran à chaque jet de "
                       "sauvegarde raté ; maladies : une autre chance de l'attraper).",
    ("odds", "curve"): "Aussi la répartition des crans après chaque jet de sauvegarde périodique.",
    ("odds", "days"): "Horizon de la courbe en jours de jeu (implique --curve ; par défaut : jusqu'à ce que tout soit "
                      "fini).",
    ("odds", "system"): "pf1e : un 1 naturel échoue et un 20 naturel réussit (par défaut : le système de la campagne, "
                        "sinon dnd5e).",
    ("odds", "injury"): "Blessures persistantes : une chute à 0 PV avec ce type de dégâts (les deux bandes de "
                        "gravité) ; avec --d20, le traitement de cette blessure (--bonus : le bonus de test du "
                        "soigneur).",
    ("odds", "d20"): "Avec --injury : la face du d20 de blessure.",
    ("odds", "party"): "Blessures persistantes par séance pour un profil de groupe, et sous chaque option qui les "
                       "change.",
    ("odds", "wait"): "Blessures : jours de jeu avant le début du traitement (une échéance de 1d4 jours peut "
                      "passer).",
    ("odds", "self_treatment"): "Blessures : le blessé se soigne lui-même.",
    ("odds", "drops"): "--party : personnages joueurs tombant à 0 PV par séance.",
    ("odds", "types"): "--party : types de dégâts rencontrés, avec leurs poids (par défaut : tous pareils).",
    ("odds", "npc_drops"): "--party : PNJ tombant à 0 PV par séance (comptés avec apply_to_npcs).",
    ("odds", "critical_failures"): "--party : échecs critiques par séance (comptés avec trigger_on_critical_failure).",
    ("odds", "compare"): "--party : les options à comparer (par défaut : chaque option de blessures qui est un choix "
                         "ou un interrupteur).",
    ("recover", "how"): "Une journée entière de repos au lit (--bed-rest : un cran) ou une nuit de repos normal "
                        "(--night : deux nuits, un cran).",
    ("recover", "care"): "Avec des soins de longue durée (test de Premiers secours réussi) : récupération doublée.",
    ("rest", "kind"): "Un repos long (--long, 8 heures) pour ces personnages (par défaut : tous), ou un repos court "
                      "(--short, 1 heure) pour un personnage.",
    ("rest", "hit_dice"): "Dés de vie à dépenser pendant un repos court.",
    ("rest", "injuries"): "Blessure légère à guérir avec un dé de vie (répétable).",
    ("rest", "rolls"): "Un dé de vie lancé par le joueur (répétable).",
    ("reveal", "hide"): "La cache au joueur à la place (seuls ses symptômes se voient).",
    ("roll", "d20"): "Le d20 lancé par le joueur (par défaut : lancé pour vous).",
    ("roll", "bands"): "Bandes de gravité (par défaut : celles de la campagne).",
    ("serve", "workers"): "Nombre de processus de travail (workers).",
    ("serve", "access"): "open : quiconque joint le serveur liste et crée des campagnes (un portable à la table). "
                         "closed : il faut le secret d'administration du serveur. Par défaut : open sur 127.0.0.1, "
                         "closed sinon.",
    ("serve", "allowed_hosts"): "Un nom d'hôte auquel le serveur répond (répétable ; contre le DNS rebinding). Par "
                                "défaut : les noms de bouclage à l'écoute sur 127.0.0.1, sinon les noms et adresses "
                                "de la machine ; '*' : n'importe lequel (derrière un proxy qui le vérifie).",
    ("serve", "max_body"): "Le plus grand corps de requête accepté (413 au-delà, avant de le lire).",
    ("serve", "cors_origins"): "Laisse les pages de cette origine appeler l'API avec le secret d'API (répétable ; "
                               "$SAWBONES_CORS_ORIGINS, séparées par des espaces). Désactivé par défaut.",
    ("serve", "certfile"): "Sert en https avec ce certificat (PEM, chaîne comprise) ; demande --keyfile. Un Foundry "
                           "VTT en https ne peut appeler que des serveurs https, ou http sur 127.0.0.1/localhost.",
    ("serve", "keyfile"): "La clé privée du certificat (PEM, non chiffrée) ; demande --certfile.",
    ("treat", "check"): "Le total du test de traitement (par défaut : lancé pour le soigneur).",
    ("treat", "healer"): "Qui soigne (il lui faut Médecine et une trousse d'herboriste sur sa fiche).",
    ("treat", "rolls"): "Qui lance le test du soigneur quand aucun --check n'est donné : le serveur (gm) ou le "
                        "joueur du soigneur (le traitement attend son dé).",
    ("turn", "saves"): _SAVES,
    ("turn", "rolls"): _WHO_ROLLS,
    ("wound", "damage"): "Dégâts subis par cette partie.",
    ("wound", "superficial"): "Superficielle (les premiers secours, 1 PV de magie ou une journée de repos la "
                              "guérissent) ou non (par défaut : selon les dégâts, option superficial_threshold).",
    ("wound", "fort_total"): "Total du jet de Vigueur facultatif (DD 10 + dégâts ; option allow_fort_ignore).",
    ("wound", "cause"): "Ce qui l'a faite (chausse-trapes, flammes...).",
    ("wound", "rolls"): "Qui lance le jet de Vigueur quand aucun --fort n'est donné : le serveur (gm) ou le joueur "
                        "du personnage (la blessure attend son dé).",
    ("wound-heal", "magic"): "PV de soins magiques.",
    ("wound-heal", "rest"): "Une journée de repos vient de finir (les blessures superficielles d'un jour guérissent).",
    ("wound-heal", "hp"): "Avec --rest : les PV que le repos a rendus.",
    ("wound-heal", "gm"): "Le MJ déclare la blessure guérie.",
}
