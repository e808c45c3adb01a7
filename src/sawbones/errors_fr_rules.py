"""The French of the rules' refusals added by the third rules audit (issue 40): what a character's state forbids,
a part already lost (errors_fr.py adds them to ERRORS_FR)."""

from __future__ import annotations

RULES_FR: list[tuple[str, str]] = [
    # what a character's state forbids (domain/engine/acting.py); the names are said in French (*name_en*)
    ("{character_name} can't {doing_text}: {cause_name_en} ({cause_source_name_en})",
     "{character_name} ne peut pas {doing_text} : {cause_name_en} ({cause_source_name_en})"),
    ("{character_name} can't {doing_text}: {cause_name_en}", "{character_name} ne peut pas {doing_text} : {cause_name_en}"),
    ("take an action", "agir"),
    ("take the Dash action", "foncer"),
]
