"""The content's errors said in French (part of errors_fr.py's catalog): a content file or pack that cannot be
read, and an entry not found ("unknown damage table 'x' (known: ...)", content/rules.py), each content section
named in French (content/schema.py `singular` gives the English; tests/test_i18n.py checks that every section
has its French name)."""

from __future__ import annotations

# a content section's entry, as "unknown {section} ..." names it (content/schema.py `singular`): (French, feminine)
SECTION_FR: dict[str, tuple[str, bool]] = {
    "ability": ("caractéristique", True), "condition": ("état", False), "restriction": ("restriction", True),
    "skill": ("compétence", True), "save": ("jet de sauvegarde", False), "spell": ("sort", False),
    "hit point model": ("modèle de points de vie", False), "magic tier": ("palier de magie", False),
    "severity": ("gravité", True), "band set": ("jeu de tranches", False), "injury": ("blessure", True),
    "damage table": ("table de dégâts", True), "damage type": ("type de dégâts", False), "body part": ("partie du corps", True),
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

# the content files and packs themselves
CONTENT_FR: list[tuple[str, str]] = [
    ("a content file must be a mapping of sections, not {type_raw___name}",
     "un fichier de contenu doit être un dictionnaire de sections, pas {type_raw___name}"),
    ("cannot read: {exc}", "lecture impossible : {exc}"),
    ("not valid YAML: {getattr_exc_problem_exc}", "YAML invalide : {getattr_exc_problem_exc}"),
    ("campaign {state_name} loads the content pack {pack}, which is not there: put it back, or point the campaign "
     "to it with `campaign set --pack DIR`",
     "la campagne {state_name} charge le paquet de contenu {pack}, qui n'est plus là : remettez-le, ou indiquez "
     "son nouveau dossier avec `campaign set --pack DOSSIER`"),
    ("content pack is not a directory", "le paquet de contenu n'est pas un dossier"),
    ("content pack has no .yaml files", "le paquet de contenu n'a aucun fichier .yaml"),
    ("unknown {singular_section} {entry_id} (known: {known})", "{singular_section} introuvable : {entry_id} (au choix : {known})"),
    ("unknown {singular_section} {entry_id}: did you mean {join_close}?",
     "{singular_section} introuvable : {entry_id} ; vouliez-vous dire {join_close} ?"),
    ("{typed} could be several {what}s ({found}): type the id",
     "{typed} peut désigner plusieurs entrées ({found}) : tapez l'identifiant"),
    ("duplicate id {entry_id} in {name} (also in {seen_key})", "identifiant {entry_id} en double dans {name} (aussi dans {seen_key})"),
]
