"""A content entry not found ("unknown damage table 'x' (known: ...)", content/rules.py), said in French: each
content section named in French (content/schema.py `singular` gives the English). Part of errors_fr.py's
catalog; tests/test_i18n.py checks that every section has its French name."""

from __future__ import annotations

# a content section's entry, as "unknown {section} ..." names it (content/schema.py `singular`): (French, feminine)
SECTION_FR: dict[str, tuple[str, bool]] = {
    "ability": ("caractéristique", True), "condition": ("état", False), "restriction": ("restriction", True),
    "skill": ("compétence", True), "save": ("jet de sauvegarde", False), "spell": ("sort", False),
    "hit point model": ("modèle de points de vie", False), "magic tier": ("palier de magie", False),
    "severity": ("gravité", True), "band set": ("jeu de tranches", False), "injury": ("blessure", True),
    "damage table": ("table de dégâts", True), "body part": ("partie du corps", True),
    "track": ("piste de progression", True), "affliction": ("affliction", True), "option": ("option", True),
    "condition reading": ("lecture d'état", True), "skill sense": ("sens d'une compétence", False),
}


def _unknown_entries() -> list[tuple[str, str]]:
    """"unknown damage table 'x' (known: ...)" and its "did you mean", for each section, its name in French."""
    out = []
    for en, (fr, feminine) in SECTION_FR.items():
        e = "e" if feminine else ""
        out += [(f"unknown {en} {{entry_id}} (known: {{known}})", f"{fr} inconnu{e} : {{entry_id}} (connu{e}s : {{known}})"),
                (f"unknown {en} {{entry_id}}: did you mean {{join_close}}?",
                 f"{fr} inconnu{e} : {{entry_id}} ; vouliez-vous dire {{join_close}} ?")]
    return out


UNKNOWN_ENTRIES_FR = _unknown_entries()
