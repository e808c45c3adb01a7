"""The French of the errors about what a GM types: an option's values by their names, a form's whole numbers, a spell
of the other game system (errors_fr.py adds them to ERRORS_FR)."""

from __future__ import annotations

TYPED_FR: list[tuple[str, str]] = [
    # an option's values (content/rules.py Rules.resolve, values_of): offered by their English names, said in French
    ("unknown option {option_id} value {typed}: did you mean {or_join_choice_names_en}?",
     "valeur inconnue pour l'option {option_id} : {typed} ; vouliez-vous dire {or_join_choice_names_en} ?"),
    ("unknown option {option_id} value {typed} (known: {known})",
     "valeur inconnue pour l'option {option_id} : {typed} (au choix : {known})"),
    # a dashboard form's whole numbers (interfaces/web/api/actions.py, read by numbers.parse_int)
    ("{where}: a whole number, not {value}", "{where} : un nombre entier, pas {value}"),
    # a spell of the other system (domain/engine/campaign.py): the system's own spells, listed in French by i18n
    ("{spell_name_en} is not a pf1e spell; pf1e has {spells_pf1e_names_en}",
     "{spell_name_en} n'est pas un sort de pf1e ; pf1e a {spells_pf1e_names_en}"),
    ("{spell_name_en} is not a dnd5e spell; dnd5e has {spells_dnd5e_names_en}",
     "{spell_name_en} n'est pas un sort de dnd5e ; dnd5e a {spells_dnd5e_names_en}"),
]
