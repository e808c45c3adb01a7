"""Words of the pages players and the GM use at the table (issue 12): the player's page, its prompt card,
the dashboard's top bar, undo and the toasts. Merged into i18n.STRINGS (one catalog for the pages)."""

from __future__ import annotations

# key: (en, fr)
STRINGS: dict[str, tuple[str, str]] = {
    # the GM's top bar, undo, toasts
    "undo_action": ("Undo", "Annuler"),  # what it undoes is said beside it (the action's id is the log's business)
    "undo_confirm": ("Undo: {what}?", "Annuler : {what} ?"),
    "nothing_to_undo": ("nothing to undo", "rien à annuler"),
    "stale_action": ("Nothing was done: the campaign changed since this page was shown (another action arrived). "
                     "Look at the log, then try again if you still mean it.",
                     "Rien n'a été fait : la campagne a changé depuis l'affichage de cette page (une autre action "
                     "est arrivée). Regardez le journal, puis recommencez si c'est toujours votre intention."),
    "saves_waiting": ("saves waiting", "jets en attente"),
    "close": ("Close", "Fermer"),
    "no_part": ("The dashboard has no such part (bar, pending).", "Le tableau de bord n'a pas cette partie (bar, pending)."),
    "reload": ("The campaign changed elsewhere: reload", "La campagne a changé ailleurs : recharger"),
    "confirm_signin_link": ("Make a new sign-in link for another device? Whoever opens it becomes GM of this "
                            "campaign.",
                            "Créer un nouveau lien de connexion pour un autre appareil ? Quiconque l'ouvre devient "
                            "MJ de cette campagne."),
    "confirm_new_api_secret": ("Make a new API secret? The current one stops working at once.",
                               "Créer un nouveau secret d'API ? L'actuel cesse aussitôt de fonctionner."),
    "confirm_revoke_link": ("Revoke this player link? The player's page stops at once.",
                            "Révoquer ce lien de joueur ? La page du joueur s'arrête aussitôt."),
    "confirm_renew_link": ("Make a new player link? The old one stops working.",
                           "Créer un nouveau lien de joueur ? L'ancien cesse de fonctionner."),
    "players_answered": ("Players' latest answers", "Dernières réponses des joueurs"),
    "awaiting_player": ("the player rolls", "le joueur lance"),
    "who_rolls": ("who rolls", "qui lance"),
    "rolls_default": ("as the campaign says (who_rolls)", "selon la campagne (who_rolls)"),
    "rolls_gm": ("the GM (typed, or rolled here)", "le MJ (saisi, ou lancé ici)"),
    "rolls_players": ("the character's player", "le joueur du personnage"),
    "player_proposes": ("the player proposes", "le joueur propose"),
    "confirm_answer": ("Confirm", "Confirmer"),
    "reject_answer": ("Refuse", "Refuser"),
    "reveal_affliction": ("Tell the player", "Le dire au joueur"),
    "hide_affliction": ("Hide from the player", "Le cacher au joueur"),
    "unknown_to_player": ("unknown to the player", "inconnu du joueur"),
    # the player's page
    "link_gone": ("This link no longer works. Ask your GM for a new one.",
                  "Ce lien ne fonctionne plus. Demandez-en un nouveau à votre MJ."),
    "your_rolls": ("What applies to my rolls", "Ce qui s'applique à mes jets"),
    "since_you_looked": ("Since you last looked", "Depuis votre dernière visite"),
    "nothing_new": ("nothing new", "rien de nouveau"),
    "next_step": ("next step", "prochaine étape"),
    "effect_in_play": ("in play", "en jeu"),
    "symptoms": ("symptoms", "symptômes"),
    "penalties": ("penalties", "malus"),
    "next_save_in": ("next save", "prochain jet"),
    "prompt_title": ("Your GM asks for a roll", "Votre MJ demande un jet"),
    "prompt_against": ("against", "contre"),
    "your_bonus": ("your bonus", "votre bonus"),
    "roll_for_me": ("Roll for me", "Lancez pour moi"),
    "i_rolled": ("I rolled", "J'ai lancé"),
    "my_d20": ("my d20", "mon d20"),
    "or_total": ("or the total", "ou le total"),
    "your_roll": ("Your roll: d20 {d20} {bonus} = {total}", "Votre jet : d20 {d20} {bonus} = {total}"),
    "roll_succeeded": ("success", "réussite"),
    "roll_failed": ("failure", "échec"),
    "waiting_for_gm": ("Sent: waiting for the GM to confirm.", "Envoyé : en attente de la confirmation du MJ."),
    "party_view": ("The party", "Le groupe"),
}
