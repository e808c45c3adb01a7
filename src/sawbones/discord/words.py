"""The bot's own words, in English and French (the project's i18n: a keyed catalog, sawbones.i18n.Words).

What the bot shows of the campaign is sawbones' own words (the API's `lines`, the CLI's status and tables,
the player page's words, interfaces/web/words_table.py); these are only the bot's own: its refusals, its
faults, and the names and descriptions of its slash commands (Discord localizations, fr).
"""

from __future__ import annotations

from typing import Any

from ..i18n import Words

SAY = Words("discord", {
    "not_gm": ("Only the GM may do that (the role {role} or the Manage Server permission); nothing was done.",
               "Seul le MJ peut faire cela (le rôle {role} ou la permission Gérer le serveur) ; rien n'a été fait."),
    "down": ("sawbones at {url} does not answer; nothing was done. Try again in a moment.",
             "sawbones à {url} ne répond pas ; rien n'a été fait. Réessayez dans un instant."),
    "moved_on": ("The campaign moved on meanwhile (now at version {version}); nothing was applied. Look again, then "
                 "retry if you still mean it.",
                 "La campagne a avancé entre-temps (version {version}) ; rien n'a été appliqué. Regardez à nouveau, "
                 "puis recommencez si c'est toujours votre intention."),
    "refused": ("sawbones refused: {message}", "sawbones a refusé : {message}"),
    "assigned": ("{member} plays {character}.", "{member} joue {character}."),
    "whoami": ("You play {character}.", "Vous jouez {character}."),
    "no_character": ("No character is linked to you yet: ask the GM for /assign.",
                     "Aucun personnage ne vous est lié pour l'instant : demandez /assign au MJ."),
    "bound": ("Prompts and the feed now go to {channel}.", "Les demandes de jet et le fil vont maintenant dans {channel}."),
    "not_yours": ("This roll is not yours to answer; nothing was done.",
                  "Ce jet n'est pas le vôtre ; rien n'a été fait."),
    "answered_already": ("This roll was already answered.", "Ce jet a déjà reçu sa réponse."),
    "no_longer": ("No longer pending (answered elsewhere, or undone).",
                  "Plus en attente (réponse donnée ailleurs, ou annulé)."),
    "answered": ("Answered:", "Réponse :"),
    "bad_number": ("Give a whole number: the d20 (1 to 20) or the total.",
                   "Donnez un nombre entier : le d20 (1 à 20) ou le total."),
    "nothing_pending": ("No saves are waiting for a die.", "Aucun jet n'attend de dé."),
    "gm_view_only": ("Only the GM sees another character's status.",
                     "Seul le MJ voit l'état d'un autre personnage."),
    "feed_error": ("sawbones answered with an error; the GM can look at the server's log.",
                   "sawbones a répondu par une erreur ; le MJ peut consulter le journal du serveur."),
})

# slash commands: name -> (French name, English description, French description)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "assign": ("attribuer", "GM: link a member to a character", "MJ : lier un membre à un personnage"),
    "whoami": ("quisuisje", "Which character is yours", "Quel personnage est le vôtre"),
    "bind": ("lier", "GM: prompts and the feed go to this channel", "MJ : demandes de jet et fil dans ce salon"),
    "damage": ("degats", "GM: damage; at 0 HP a lingering injury follows",
               "MJ : dégâts ; à 0 PV une blessure persistante suit"),
    "injure": ("blesser", "GM: give a lingering injury directly", "MJ : donner directement une blessure persistante"),
    "treat": ("soigner", "GM: treat an injury (its time passes, then the check)",
              "MJ : traiter une blessure (son temps passe, puis le test)"),
    "rest": ("repos", "GM: a long or short rest", "MJ : un repos long ou court"),
    "heal": ("guerir", "GM: magical healing", "MJ : soins magiques"),
    "expose": ("exposer", "GM: expose a character to a disease or poison",
               "MJ : exposer un personnage à une maladie ou un poison"),
    "wound": ("plaie", "GM: a localized wound (3.5)", "MJ : une blessure localisée (3.5)"),
    "advance": ("avancer", "GM: move the game clock forward", "MJ : avancer l'horloge de jeu"),
    "undo": ("annuler", "GM: undo the last action", "MJ : annuler la dernière action"),
    "pending": ("attente", "GM: the saves waiting for a die", "MJ : les jets qui attendent un dé"),
    "odds": ("chances", "GM: the odds of a disease, a poison or a drop to 0",
             "MJ : les chances d'une maladie, d'un poison ou d'une chute à 0"),
    "status": ("etat", "A character's status (yours, or the party for the GM)",
               "L'état d'un personnage (le vôtre, ou le groupe pour le MJ)"),
    "tables": ("tableaux", "The rule tables", "Les tables des règles"),
}

# options: name -> (French name, English description, French description)
OPTIONS: dict[str, tuple[str, str, str]] = {
    "member": ("membre", "The member", "Le membre"),
    "character": ("personnage", "The character", "Le personnage"),
    "amount": ("montant", "Damage amount", "Montant des dégâts"),
    "type": ("type", "Damage type", "Type de dégâts"),
    "more": ("autres", "More parts: 5 cold, 3 fire", "Autres parts : 5 cold, 3 fire"),
    "d20": ("d20", "The d20 the player rolled (default: rolled)", "Le d20 du joueur (par défaut : lancé)"),
    "injury": ("blessure", "The injury (i3)", "La blessure (i3)"),
    "healer": ("soigneur", "Who treats", "Qui soigne"),
    "check": ("test", "The check's total (default: rolled)", "Le total du test (par défaut : lancé)"),
    "kind": ("genre", "long or short", "long ou court"),
    "hit_dice": ("des_de_vie", "Hit Dice to spend (short rest)", "Dés de vie à dépenser (repos court)"),
    "spell": ("sort", "The spell", "Le sort"),
    "hp": ("pv", "Hit points restored", "Points de vie rendus"),
    "affliction": ("affliction", "The disease or poison", "La maladie ou le poison"),
    "save": ("jds", "The save's total, as rolled", "Le total du jet de sauvegarde"),
    "rolls": ("jets", "Who rolls: gm or players", "Qui lance : gm ou players"),
    "part": ("partie", "Body part", "Partie du corps"),
    "side": ("cote", "left or right", "gauche ou droite"),
    "duration": ("duree", "3r, 10min, 8h, 2d, 1w", "3r, 10min, 8h, 2d, 1w"),
    "auto": ("auto", "Roll every save that falls due", "Lancer chaque jet qui tombe"),
    "table": ("table", "A table id: severity, fire, a track, a disease", "Une table : severity, fire, une piste, une maladie"),
    "bonus": ("bonus", "The save bonus", "Le bonus au jet de sauvegarde"),
    "what": ("quoi", "A disease, a poison, or a damage type", "Une maladie, un poison ou un type de dégâts"),
}


def lang_of(interaction: Any) -> str:
    """A member's language: French for a French Discord locale, English otherwise."""
    return "fr" if str(getattr(interaction, "locale", "")).startswith("fr") else "en"
