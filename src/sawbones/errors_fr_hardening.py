"""The French of the errors that bound what a client sends or a file holds (issue 41): imported sheets, named
undo, costly computations, a closed server's answers, a write whose outcome is unknown. Joined to ERRORS_FR."""

from __future__ import annotations

HARDENING_FR: list[tuple[str, str]] = [
    ("the last action is a{action}, not a{meant}: nothing was undone; look at the log and undo the action that came "
     "last if you mean it",
     "la dernière action est a{action}, pas a{meant} : rien n'a été annulé ; regardez le journal et annulez l'action "
     "arrivée en dernier si c'est voulu"),
    ("{action} is not an action of the log (like a14)", "{action} n'est pas une action du journal (comme a14)"),
    ("{what} is out of range ({low} to {high}): {value}", "{what} est hors limites (de {low} à {high}) : {value}"),
    ("character {index}: {what} is out of range ({low} to {high}): {value}",
     "personnage {index} : {what} est hors limites (de {low} à {high}) : {value}"),
    ("the classes add up to {n} levels (at most {MAX_LEVELS})",
     "les classes totalisent {n} niveaux ({MAX_LEVELS} au plus)"),
    ("the file nests values more than {MAX_DEPTH} deep",
     "le fichier imbrique ses valeurs sur plus de {MAX_DEPTH} niveaux"),
    ("the file stands for more than it holds (YAML aliases expanded): not a character sheet",
     "le fichier représente bien plus qu'il ne contient (alias YAML développés) : ce n'est pas une fiche de personnage"),
    ("{key} goes from {low} to {high}, not {value}", "{key} va de {low} à {high}, pas {value}"),
    ("{key} is a mapping of at most {MAX_PAIRS} names to numbers",
     "{key} est un dictionnaire d'au plus {MAX_PAIRS} noms vers des nombres"),
    ("{key}: a name is letters, digits, _ or - (at most 40)",
     "{key} : un nom est fait de lettres, de chiffres, de _ ou de - (40 au plus)"),
    ("{key}: {name} is a whole number from {low} to {high}", "{key} : {name} est un nombre entier de {low} à {high}"),
    ("proficiencies: each is letters, digits, _ or - (at most 40)",
     "maîtrises : chacune est faite de lettres, de chiffres, de _ ou de - (40 au plus)"),
    ("at most {MAX_PAIRS} proficiencies", "{MAX_PAIRS} maîtrises au plus"),
    ("notes are text of at most {MAX_NOTES} characters", "les notes sont un texte de {MAX_NOTES} caractères au plus"),
    ("at most {MAX_EXTERNAL} external references", "{MAX_EXTERNAL} références externes au plus"),
    ("no campaign of that name opens with this API secret",
     "aucune campagne de ce nom ne s'ouvre avec ce secret d'API"),
    ("{cause}; the write may have been applied: retrying with the same Idempotency-Key is safe (it applies once); "
     "without a key, read the log before trying again",
     "{cause} ; l'écriture a peut-être été appliquée : réessayer avec la même Idempotency-Key est sûr (elle "
     "s'applique une fois) ; sans clé, lisez le journal avant de réessayer"),
    ("this server is closed: the odds without a campaign need its admin secret (`Authorization: Bearer <admin "
     "secret>`); a GM asks a campaign's odds, under /api/campaigns/NAME/odds/…, with its API secret",
     "ce serveur est fermé : les probabilités hors campagne demandent son secret d'administration (`Authorization: "
     "Bearer <secret d'administration>`) ; un MJ demande celles d'une campagne, sous /api/campaigns/NOM/odds/…, "
     "avec son secret d'API"),
    ("this client spent its budget of costly computations ({budget} s): try again in {seconds} s",
     "ce client a dépensé son budget de calculs coûteux ({budget} s) : réessayez dans {seconds} s"),
    ("at most {per_client} costly computations at once per client: wait for the others",
     "{per_client} calculs coûteux à la fois au plus par client : attendez la fin des autres"),
    ("the server is busy with costly computations: try again in a few seconds",
     "le serveur est occupé par des calculs coûteux : réessayez dans quelques secondes"),
    ("the client left: its computation was stopped", "le client est parti : son calcul a été arrêté"),
    ("the client left before its computation started", "le client est parti avant le début de son calcul"),
]
