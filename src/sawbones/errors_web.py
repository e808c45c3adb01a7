"""Errors as the web says them: a message naming a command gets web wording (tests/test_i18n.py checks every one)."""

from __future__ import annotations

# On the web, a message does not send the GM to the command line: (English as raised, English for the
# web, French for the web). tests/test_i18n.py fails on a message naming a command with no web wording,
# unless only the command line can raise it (CLI_ONLY).
WEB_WORDING: list[tuple[str, str, str]] = [
    ("{healer_name} cannot treat injuries: needs {and_join_missing} (add with `character edit {healer_name} "
     "--prof medicine,herbalism_kit`)",
     "{healer_name} cannot treat injuries: needs {and_join_missing} (add them in {healer_name}'s Edit form)",
     "{healer_name} ne peut pas soigner de blessures : il lui faut {and_join_missing} (ajoutez-les dans le "
     "formulaire Modifier de {healer_name})"),
    ("{definition_name_en} requires magic: mundane treatment has no effect (use `heal {patient_name} --spell SPELL "
     "--injury {injury_id}`)",
     "{definition_name_en} requires magic: mundane treatment has no effect (use Heal (magic) on {injury_id})",
     "{definition_name_en} demande de la magie : un traitement ordinaire est sans effet (utilisez Soin magique sur "
     "{injury_id})"),
    ("a save is waiting for a player's die ({waiting}): answer it first (`sawbones pending`, `sawbones answer ID TOTAL`)",
     "a save is waiting for a player's die ({waiting}): answer it first (Saves waiting for a die)",
     "un jet attend le dé d'un joueur ({waiting}) : répondez-y d'abord (Jets en attente d'un dé)"),
    ("campaign {state_name} loads the content pack {pack}, which is not there: put it back, or point the campaign "
     "to it with `campaign set --pack DIR`",
     "campaign {state_name} loads the content pack {pack}, which is not there: put it back on the server",
     "la campagne {state_name} charge le paquet de contenu {pack}, qui n'est plus là : remettez-le sur le serveur"),
    ("campaign {self_campaign} has no GM secret yet: make one with `sawbones --campaign {self_campaign} gm-link`",
     "campaign {self_campaign} has no GM secret yet: the server's administrator makes one (gm-link)",
     "la campagne {self_campaign} n'a pas encore de secret de MJ : l'administrateur du serveur en crée un (gm-link)"),
    ("campaign {campaign} has no API secret yet: make one with `sawbones --campaign {campaign} gm-link --api-secret`",
     "campaign {campaign} has no API secret yet: the server's administrator makes one (gm-link --api-secret)",
     "la campagne {campaign} n'a pas encore de secret d'API : l'administrateur du serveur en crée un "
     "(gm-link --api-secret)"),
    ("this server is closed: listing and creating campaigns need its admin secret (`Authorization: Bearer <admin "
     "secret>`, see `sawbones admin-secret`)",
     "this server is closed: listing and creating campaigns need its admin secret (`Authorization: Bearer <admin "
     "secret>`; the server's administrator has it)",
     "ce serveur est fermé : lister et créer des campagnes demande son secret d'administration (`Authorization: "
     "Bearer <secret d'administration>` ; l'administrateur du serveur le détient)"),
    ("--types: a weight is above 0 and at most 1000, not {weight} ({table})",  # the API's parameters have no --
     "types: a weight is above 0 and at most 1000, not {weight} ({table})",
     "types : un poids est supérieur à 0 et vaut 1000 au plus, pas {weight} ({table})"),
    ("--compare: option {option_id} has no choices to compare", "compare: option {option_id} has no choices to compare",
     "compare : l'option {option_id} n'a pas de choix à comparer"),
]
CLI_ONLY = (
    "no campaign chosen:", "no database at", "give an amount and a damage type", "give AMOUNT TYPE pairs",
    "this needs the campaign's GM secret",  # the API's own instruction to API clients
)
