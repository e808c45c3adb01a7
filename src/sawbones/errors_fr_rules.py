"""The French of the rules' refusals added by the third rules audit (issue 40): what a character's state forbids,
a part already lost (errors_fr.py adds them to ERRORS_FR)."""

from __future__ import annotations

RULES_FR: list[tuple[str, str]] = [
    # what a character's state forbids (domain/engine/acting.py); the names are said in French (*name_en*)
    ("{character_name} can't {doing_text}: {cause_name_en} ({cause_source_name_en})",
     "{character_name} ne peut pas {doing_text} : {cause_name_en} ({cause_source_name_en})"),
    ("{character_name} can't {doing_text}: {cause_name_en}", "{character_name} ne peut pas {doing_text} : {cause_name_en}"),
    ("take an action", "agir"),
    ("option {option_id} takes a whole number from {opt_minimum} to {opt_maximum}, not {number}",
     "l'option {option_id} prend un nombre entier de {opt_minimum} à {opt_maximum}, pas {number}"),
    ("take the Dash action", "foncer"),
    # diseases and poisons: every name in the reader's language (affliction, spell, track; *name_en* fields); a
    # spell as seed 004 names it (*pf1e_name_en*: « Guérison suprême », « Restauration suprême »)
    ("{affliction_name_en} ({a_id}) has reached its end state: only Miracle or Wish remove its effects (TRK-10)",
     "{affliction_name_en} ({a_id}) a atteint son état final : seuls Miracle ou Souhait en lèvent les effets (TRK-10)"),
    ("{spell_pf1e_name_en} has no effect on {affliction_name_en} ({a_id}, {status_text}). Conditions imposed by a track are "
     "symptoms: condition removers do not apply (TRK-11).",
     "{spell_pf1e_name_en} n'a aucun effet sur {affliction_name_en} ({a_id}, {status_text}). Les états qu'impose une "
     "échelle sont des symptômes : les sorts qui lèvent des états ne s'y appliquent pas (TRK-11)."),
    ("{spell_pf1e_name_en} has no effect on {affliction_name_en} ({a_id}, {status_text}).",
     "{spell_pf1e_name_en} n'a aucun effet sur {affliction_name_en} ({a_id}, {status_text})."),
    ("running", "en cours"), ("out of the system", "hors de l'organisme"), ("cured", "guérie"),
    ("at its end state", "à son état final"), ("halted", "enrayée"),
    ("{spell_pf1e_name_en} acts on poisons only; {affliction_name_en} is a disease",
     "{spell_pf1e_name_en} n'agit que sur les poisons ; {affliction_name_en} est une maladie"),
    ("{spell_pf1e_name_en} acts on diseases only; {affliction_name_en} is a poison",
     "{spell_pf1e_name_en} n'agit que sur les maladies ; {affliction_name_en} est un poison"),
    ("{spell_pf1e_name_en} can lift {affliction_name_en}'s permanent effects only once the affliction is gone (TRK-S2)",
     "{spell_pf1e_name_en} ne lève les effets définitifs de {affliction_name_en} qu'une fois l'affection disparue (TRK-S2)"),
    ("{spell_pf1e_name_en} needs a caster level check against DC {a_dc}: give --cl-check TOTAL or --cl N (caster level) "
     "to roll it",
     "{spell_pf1e_name_en} demande un test de niveau de lanceur contre DD {a_dc} : donnez --cl-check TOTAL, ou --cl N "
     "(niveau de lanceur) pour le lancer"),
    ("{spell_pf1e_name_en} does nothing to {affliction_name_en}", "{spell_pf1e_name_en} n'a aucun effet sur {affliction_name_en}"),
    ("recovery_multiplier for {affliction_name_en} must be a whole number",
     "recovery_multiplier de {affliction_name_en} doit être un nombre entier"),
    ("{spell_pf1e_name_en} restores {affliction_name_en}'s stage only once it no longer runs ({first_pf1e_name_en} first)",
     "{spell_pf1e_name_en} ne rend le cran de {affliction_name_en} qu'une fois l'affection enrayée (d'abord "
     "{first_pf1e_name_en})"),
    ("{affliction_name_en} ({a_id}) is already halted; its stage improves only with {remedies_pf1e_name_en}",
     "{affliction_name_en} ({a_id}) est déjà enrayée ; son cran ne s'améliore qu'avec {remedies_pf1e_name_en}"),
    ("{character_name} already has {affliction_name_en} ({existing_id}): a new exposure to the same disease has no "
     "effect",
     "{character_name} a déjà {affliction_name_en} ({existing_id}) : une nouvelle exposition à la même maladie est "
     "sans effet"),
    ("{affliction_name_en} ({existing_id}) has reached its end state on {character_name}: no further effects (only "
     "Miracle or Wish remove it)",
     "{affliction_name_en} ({existing_id}) a atteint son état final chez {character_name} : plus d'effet (seuls "
     "Miracle ou Souhait la lèvent)"),
    ("{affliction_name_en} ({a_id}) on {character_name} is {status_text}: no save is due",
     "{affliction_name_en} ({a_id}) de {character_name} : {status_text}, aucun jet n'est dû"),
    ("{affliction_name_en}: no stage {stage} on the {track_name_en} (stages: {names})",
     "{affliction_name_en} : pas de cran {stage} sur l'{track_name_en} (crans : {names})"),
    ("{affliction_name_en}: a deadly start cannot be {stage}",
     "{affliction_name_en} : un début mortel ne peut pas être {stage}"),
    ("nothing for {character_name} to recover from by rest (no afflictions)",
     "rien dont {character_name} puisse se remettre par le repos (aucune affection)"),
    ("nothing for {character_name} to recover from by rest: {reason_texts}",
     "rien dont {character_name} puisse se remettre par le repos : {reason_texts}"),
    ("{id} {affliction_name_en}: a disease does not recover by rest",
     "{id} {affliction_name_en} : une maladie ne se guérit pas par le repos"),
    ("{id} {affliction_name_en}: still in the system (recovery starts once it is out)",
     "{id} {affliction_name_en} : encore dans l'organisme (la récupération commence quand il en est sorti)"),
    ("{id} {affliction_name_en}: at its end state (no recovery)",
     "{id} {affliction_name_en} : à son état final (aucune récupération)"),
    ("{id} {affliction_name_en}: already healthy", "{id} {affliction_name_en} : déjà au cran Sain"),
    ("{id} {affliction_name_en}: only {hours} h of game time since it left the system; advance the clock first",
     "{id} {affliction_name_en} : seulement {hours} h de temps de jeu depuis sa sortie de l'organisme ; avancez "
     "d'abord l'horloge"),
    ("{id} {affliction_name_en}: only {hours} h of game time since the last rest; advance the clock first",
     "{id} {affliction_name_en} : seulement {hours} h de temps de jeu depuis le dernier repos ; avancez d'abord "
     "l'horloge"),
]
