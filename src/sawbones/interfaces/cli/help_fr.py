"""`sawbones --help` in French (issue 39): each command's help by its path, each option's by (path, name), the
options of the less common commands in help_fr_options.py (tests/test_help_in_french.py: none is left out).
cli/parsing.py puts them in place when the language is French (--lang fr before the command, or $SAWBONES_LANG=fr)."""

from __future__ import annotations

from .help_fr_options import MORE_OPTIONS

COMMANDS: dict[str, str] = {
    "": "sawbones : blessures persistantes, blessures localisées et échelles de maladies et de poisons, tenues pour vous.",
    "action": "Un personnage tente une action en combat (jet de Côtes cassées...).",
    "admin-secret": "Crée un nouveau secret d'administration du serveur web (mode fermé : lister et créer des "
                    "campagnes) ; l'ancien cesse de fonctionner.",
    "advance": "Avance l'horloge de jeu (3r, 10min, 8h, 2d, 1w ; « 2 jours », « 1d 12h » aussi) et applique ce qui "
               "tombe à échéance.",
    "answer": "Donne le total d'un jet en attente ; l'avance interrompue reprend jusqu'à son terme.",
    "backup": "Sauvegarde chaque campagne dans un nouveau dossier daté dans DIR (par défaut ./sawbones-backups).\n\n"
              "Un fichier JSON par campagne (restaurez-en une avec `sawbones import FICHIER`) et, pour une base "
              "SQLite, une copie cohérente du fichier entier, prise pendant qu'il sert.",
    "campaign": "Créer, choisir et régler les campagnes.",
    "campaign create": "Crée une campagne et en fait la campagne en cours.",
    "campaign list": "Liste les campagnes ; la campagne en cours est marquée.",
    "campaign options": "Chaque option de règles, avec sa valeur dans cette campagne et son aide.",
    "campaign rename": "Donne à la campagne NAME le nom NEW_NAME (un nom que les liens et le tableau de bord "
                       "peuvent porter).",
    "campaign set": "Règle une option de la campagne en cours (voir `sawbones campaign options`), ou ses paquets "
                    "de contenu.",
    "campaign show": "Montre une campagne : système, horloge, options qui diffèrent des défauts, personnages.",
    "campaign use": "Fait de NAME la campagne en cours.",
    "character": "Ajouter, modifier, lister et retirer des personnages.",
    "character add": "Ajoute un personnage à la campagne en cours.",
    "character edit": "Modifie la fiche d'un personnage.",
    "character import": "Ajoute ou met à jour des personnages depuis des exports d'acteurs Foundry VTT (dnd5e, pf1) "
                        "ou des fichiers de groupe (YAML, CSV).",
    "character list": "Liste les personnages de la campagne en cours.",
    "character remove": "Retire un personnage (annuler le ramène).",
    "clock": "L'horloge de jeu de la campagne.",
    "combat-end": "Le combat est fini : les états qui duraient jusqu'à sa fin cessent (option "
                  "temporary_condition_duration).",
    "cure": "Lance un sort sur une des afflictions de NAME (un id comme a3, ou le nom de l'affliction).",
    "damage": "Inflige des dégâts : `damage NOM MONTANT TYPE [MONTANT TYPE...]` ; à 0 PV suit une blessure "
              "persistante. Le type se tape comme on le lit, en français ou en anglais (tranchant, feu).",
    "discord": "Lance le bot Discord : demandes de jets, jets, état et fil des événements dans le salon du groupe. "
               "Le jeton du bot vient de $DISCORD_TOKEN et le secret d'API de la campagne de $SAWBONES_API_SECRET "
               "(jamais un argument).",
    "dash": "Un personnage fait l'action Foncer (jet de Blessure à la jambe, pied perdu...).",
    "diagnose": "Un test de Premiers secours (5e : Médecine) contre le DD de l'affliction ; avec l'option "
                "check_reveals_affliction, une réussite la montre au joueur de NAME.",
    "export": "Écrit la campagne en cours (ou --campaign) dans FILE en JSON : tout son journal, sans perte.\n\n"
              "Sans FILE (ou avec -), le document va sur la sortie standard. `sawbones import` le relit, dans cette "
              "base ou une autre (SQLite ou PostgreSQL).",
    "expose": "Expose NAME à une maladie ou un poison : jet initial, dégâts du poison, premier cran en cas d'échec.",
    "firstaid": "Un test de premiers secours DD 15 sur une blessure superficielle ; une réussite la guérit.",
    "gm-link": "Affiche un lien de connexion du MJ à usage unique pour la campagne en cours (une fois, "
               "15 minutes) ; les navigateurs déjà connectés le restent.",
    "heal": "Soins magiques : une blessure par lancer, si le palier du sort atteint sa gravité.",
    "import": "Importe une campagne exportée par `sawbones export` (FILE, ou - pour l'entrée standard).\n\n"
              "Le journal est écrit tel qu'exporté : versions, actions, données, versions du schéma et du contenu, "
              "dates. Un nom déjà pris est refusé : choisissez-en un autre avec --as.",
    "injure": "Donne directement une blessure persistante (décision du MJ, ou échec critique).",
    "log": "Le journal des événements de la campagne (les actions annulées sont marquées).",
    "mods": "Ce qui s'applique à un jet de NAME : modificateur, avantage, échec automatique, états, notes, chacun "
            "avec sa source.\n\nROLL : attack, damage, check, skill, save, initiative, ac, concentration, spell_dc, "
            "caster_level (ou leurs noms dans l'une ou l'autre langue : attaque, jet de sauvegarde), ou une "
            "compétence, un jet de sauvegarde ou une caractéristique en raccourci (perception, réflexes, for, Force).",
    "odds": "Chances exactes et durées d'une maladie ou d'un poison, ou des blessures persistantes, calculées "
            "depuis les règles (pas simulées).\n\nLe cran final est celui où la victime finit : un poison éliminé ou "
            "épuisé, une maladie guérie ou à son état final ; « en bonne santé » compte la victime qui a réussi son "
            "jet initial. Durée moyenne : de l'exposition au dernier jet, dans l'unité de fréquence de "
            "l'affliction, incubation comprise.\n\nBlessures (--injury, --party) : voir docs/odds.md.",
    "pending": "Les jets qui attendent le dé d'un joueur (une avance s'y est arrêtée).",
    "player-link": "Affiche les liens joueur de la campagne en cours (chaque personnage, ou ceux nommés) : chacun "
                   "ouvre la page en direct du personnage sur le téléphone d'un joueur, sans connexion.",
    "recover": "Récupération au repos des poisons sortis de l'organisme de NAME.",
    "rest": "Repos : --long guérit les blessures légères et modérées ; --short dépense des dés de vie, une "
            "blessure légère chacun.",
    "reveal": "Montre l'affliction au joueur de NAME (son nom, son DD, son échelle et sa guérison), ou la cache "
              "(--hide).",
    "roll": "Tire une blessure sur la table d'un type de dégâts (par exemple `roll feu --d20 12`).",
    "serve": "Sert l'application web : le tableau de bord du MJ, les pages des joueurs en direct et l'API JSON "
             "(voir /api-docs).",
    "stabilize": "Un personnage mourant à 0 PV devient stable.",
    "status": "Le groupe (ou un personnage) : PV, à l'agonie, stable ou mort, états, blessures, blessures "
              "localisées, cran de chaque maladie, échéances ; en mots, pour se lire pareil dans un tube.",
    "tables": "Parcourt les tables de règles : blessures par type de dégâts, gravités, parties du corps, échelles, "
              "maladies, poisons.\n\nID est l'un de ceux que l'index liste, ou un nom tel qu'on le lit ; GENRE:ID "
              "choisit un genre quand un id en a deux (track:leprosy est l'échelle, leprosy la maladie).",
    "treat": "Soigne une blessure : son temps passe sur l'horloge, puis le test contre son DD (+2 au DD en cas "
             "d'échec).",
    "turn": "Le tour d'un personnage : jets et pertes de chaque tour (Nausée, Blessure perforante...) ; le tour "
            "d'un personnage pf1e mourant est son test pour se stabiliser (son total : le premier --save).",
    "undo": "Annule exactement la dernière action.",
    "wound": "Blesse une partie du corps de NAME : -2 à ce que fait cette partie (main, bras, tête, œil, oreille, "
             "pied/jambe ; --side gauche ou droite).",
    "wound-heal": "Guérit des blessures localisées (toutes celles de NAME, ou les WOUND données) par la magie, une "
                  "journée de repos ou la décision du MJ.",
}

OPTIONS: dict[tuple[str, str], str] = {
    ("", "db"): "Base des campagnes : un fichier SQLite, sqlite:///CHEMIN ou postgresql+psycopg://… (par défaut "
                "$SAWBONES_DATABASE_URL, sinon ./sawbones.db).",
    ("", "campaign"): "Agir sur cette campagne plutôt que sur la campagne en cours.",
    ("", "lang"): "Langue de tout ce qui est affiché, erreurs comprises (par défaut : $SAWBONES_LANG ou en).",
    ("", "as_json"): "Affiche un document JSON sur la sortie standard.",
    ("", "content"): "Charge un paquet de contenu en plus (répétable).",
    ("", "typed_dice"): "Le résultat de la table pour le prochain jet de l'action (répétable, dans l'ordre).",
    ("", "expect_version"): "N'agir que si la campagne est encore à la version N (voir `campaign show`) ; sinon "
                            "rien n'est appliqué.",
    ("damage", "d20"): "Le d20 de la table pour la blessure, si elle tombe à 0 PV.",
    ("serve", "host"): "Adresse d'écoute (0.0.0.0 : tout le réseau ; les liens affichés portent alors l'adresse "
                       "de la machine sur le réseau).",
    ("serve", "port"): "Port d'écoute.",
    ("serve", "demo"): "Crée la campagne de démonstration si elle manque et affiche ses liens (MJ et joueurs).",
    ("serve", "qr"): "Avec --demo : dessine aussi chaque lien joueur en QR code, pour les téléphones.",
    ("serve", "base"): "L'adresse où joueurs et MJ joignent le serveur, dans les liens et les QR codes (l'https://… "
                       "d'un proxy inverse ; $SAWBONES_BASE). Par défaut : l'adresse réseau de la machine et le port "
                       "sur 0.0.0.0, sinon --host et --port.",
    ("serve", "forwarded_allow_ips"): "Les proxys inverses dont X-Forwarded-For et X-Forwarded-Proto sont crus "
                                      "(adresses ou réseaux séparés par des virgules, * pour tous ; "
                                      "$SAWBONES_FORWARDED_ALLOW_IPS) : chaque joueur derrière compte pour son adresse.",
    ("gm-link", "base"): "L'adresse de l'application web (par défaut : $SAWBONES_BASE, sinon celle que le dernier "
                         "`sawbones serve` de cette base a affichée, sinon http://127.0.0.1:8000).",
    ("gm-link", "api_secret"): "Crée aussi un nouveau secret d'API (l'ancien cesse de fonctionner) et l'affiche.",
    ("player-link", "base"): "L'adresse de l'application web (par défaut : $SAWBONES_BASE, sinon celle que le "
                             "dernier `sawbones serve` de cette base a affichée, sinon http://127.0.0.1:8000).",
    ("player-link", "qr"): "Dessine aussi chaque lien en QR code, pour les téléphones des joueurs.",
    ("advance", "auto"): "Lance chaque jet qui tombe avec le bonus du personnage (sinon l'avance s'arrête au premier "
                         "jet qui attend le dé d'un joueur).",
    ("wound", "side"): "Gauche ou droite (main, bras, œil, oreille, pied/jambe ; left, right).",
}

OPTIONS.update(MORE_OPTIONS)  # the rest, in help_fr_options.py (this module stays under the size limit)

WORDS = (("Usage:", "Utilisation :"), ("Options:", "Options :"), ("Commands:", "Commandes :"),
         ("Show this message and exit.", "Affiche ce message et quitte."),
         ("Show the version and exit.", "Affiche la version et quitte."), ("[default:", "[défaut :"),
         ("[required]", "[obligatoire]"), ("Arguments:", "Arguments :"))
