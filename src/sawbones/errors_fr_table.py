"""The French of the errors at the table: live streams and players' rolls (errors_fr.py adds them to ERRORS_FR)."""

from __future__ import annotations

TABLE_FR: list[tuple[str, str]] = [
    # live streams (interfaces/web/live/hub.py)
    ("too many live streams for this link or secret (at most {most} at once): close another tab, then try again",
     "trop de flux en direct pour ce lien ou ce secret ({most} à la fois au plus) : fermez un autre onglet, puis "
     "réessayez"),
    ("too many live streams from this address (at most {most} at once): close another tab, then try again",
     "trop de flux en direct depuis cette adresse ({most} à la fois au plus) : fermez un autre onglet, puis "
     "réessayez"),
    # the API's events (interfaces/web/api/events.py)
    ("after must be a log version (a whole number), not {after}",
     "after doit être une version du journal (un nombre entier), pas {after}"),
    ("lang must be en or fr, not {asked}", "lang doit valoir en ou fr, pas {asked}"),
    # players roll their own saves (domain/engine/player_rolls.py, interfaces/web/api/player.py)
    ("who rolls {name}'s save? The campaign's option who_rolls is ask: say --rolls gm or --rolls players",
     "qui lance le jet de {name} ? L'option who_rolls de la campagne vaut ask : indiquez --rolls gm ou --rolls players"),
    ("who rolls: {choices}, not {choice}", "qui lance : {choices}, pas {choice}"),
    ("{id} is not your character's roll", "{id} n'est pas un jet de votre personnage"),
    ("{id} waits for the GM's die, not the player's", "{id} attend le dé du MJ, pas celui du joueur"),
    ("{id} is already answered: it waits for the GM's confirmation",
     "{id} a déjà une réponse : elle attend la confirmation du MJ"),
    ("{id} has no player's answer to {what}", "{id} n'a pas de réponse de joueur à traiter ({what})"),
    ("give the save's TOTAL (or --d20 N to add the character's bonus, or --roll)",
     "donnez le TOTAL du jet (ou --d20 N pour ajouter le bonus du personnage, ou --roll)"),
    ("no pending save {id}", "aucun jet en attente {id}"),
    ("{id} is another character's roll", "{id} est le jet d'un autre personnage"),
    ("{id} is no longer pending (already answered, or undone)", "{id} n'est plus en attente (déjà répondu, ou annulé)"),
    # a moment (turn, dash, action) that waits for a player's die (domain/engine/turns.py)
    ("{name}'s {moment} waits for a roll ({id}): answer it first",
     "{name} : son {moment} attend un jet ({id}) : répondez-y d'abord"),
]
