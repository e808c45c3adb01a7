"""The French of the storage and export / import errors (errors_fr.py puts them first in ERRORS_FR)."""

from __future__ import annotations

STORAGE_FR: list[tuple[str, str]] = [
    # storage
    ("not a sawbones database (it holds other tables: {shown})",
     "ce n'est pas une base sawbones (elle contient d'autres tables : {shown})"),
    ("the database schema (revision {rev}) is newer than this sawbones (revision {HEAD}): upgrade sawbones",
     "le schéma de la base (révision {rev}) est plus récent que ce sawbones (révision {HEAD}) : mettez sawbones à jour"),
    ("the database file is damaged ({first}{more}): restore it from a backup (see docs/deployment.md)",
     "le fichier de la base est abîmé ({first}{more}) : restaurez-le depuis une sauvegarde (voir docs/deployment.md)"),
    ("the database schema ({row}) is newer than this sawbones: upgrade sawbones",
     "le schéma de la base ({row}) est plus récent que ce sawbones : mettez sawbones à jour"),
    ("the database is damaged (its schema revision is missing): restore it from a backup (see docs/deployment.md)",
     "la base est abîmée (sa révision de schéma manque) : restaurez-la depuis une sauvegarde (voir docs/deployment.md)"),
    ("no campaign named {name} (campaigns: {known})", "aucune campagne nommée {name} (campagnes : {known})"),
    ("unsupported database URL {hide_target}: use a file path, sqlite:///path or "
     "postgresql+psycopg://user:password@host/dbname",
     "adresse de base non prise en charge {hide_target} : donnez un chemin de fichier, sqlite:///chemin ou "
     "postgresql+psycopg://utilisateur:motdepasse@hôte/base"),
    ("cannot open the database: this is a directory", "impossible d'ouvrir la base : c'est un dossier"),
    ("all {self_limit} database connections stayed busy for {self_WAIT} s; nothing was written, try again",
     "les {self_limit} connexions à la base sont restées occupées {self_WAIT} s ; rien n'a été écrit, réessayez"),
    ("a campaign named {name} already exists", "une campagne nommée {name} existe déjà"),
    ("event versions must run 1, 2, 3 ... without gaps (found {ev_version} at position {i})",
     "les versions des événements doivent suivre 1, 2, 3… sans trou ({ev_version} trouvé en position {i})"),
    ("event {ev_version}: action numbers must never go down (found {ev_action})",
     "événement {ev_version} : les numéros d'action ne doivent jamais baisser ({ev_action} trouvé)"),
    ("cannot read the database URL {hide_target}", "impossible de lire l'adresse de la base {hide_target}"),
    ("unsupported SQLite driver {driver} (use sqlite:///path)",
     "pilote SQLite non pris en charge {driver} (utilisez sqlite:///chemin)"),
    ("a SQLite URL needs a path: sqlite:///campaigns.db", "une adresse SQLite demande un chemin : sqlite:///campagnes.db"),
    ("unsupported PostgreSQL driver {driver} (use postgresql+psycopg://...)",
     "pilote PostgreSQL non pris en charge {driver} (utilisez postgresql+psycopg://…)"),
    ("another write reached the campaign first; nothing was written, try again",
     "une autre écriture a touché la campagne avant vous ; rien n'a été écrit, réessayez"),
    ("the campaign changed while you renamed it; nothing was written, try again",
     "la campagne a changé pendant que vous la renommiez ; rien n'a été écrit, réessayez"),
    ("the campaign was deleted meanwhile; nothing was written",
     "la campagne a été supprimée entre-temps ; rien n'a été écrit"),
    ("the campaign changed while you acted (version {current}, you read {expected_version}); nothing was written, "
     "try again",
     "la campagne a changé pendant votre action (version {current}, vous aviez lu {expected_version}) ; rien n'a "
     "été écrit, réessayez"),
    # export / import
    ('not a sawbones export (expected "format": "{FORMAT}")',
     'ce n\'est pas un export sawbones ("format": "{FORMAT}" attendu)'),
    ("export format version {doc_get_format_version} is not supported (this sawbones reads {FORMAT_VERSION})",
     "la version d'export {doc_get_format_version} n'est pas prise en charge (ce sawbones lit la {FORMAT_VERSION})"),
    ("the export holds no events", "l'export ne contient aucun événement"),
    ("the first event must be {CREATED}, not {out_0_type}", "le premier événement doit être {CREATED}, pas {out_0_type}"),
    ("the export names no campaign: pass --as NAME", "l'export ne nomme aucune campagne : donnez --as NOM"),
    ("a campaign named {name} already exists: import it under another name with --as NAME",
     "une campagne nommée {name} existe déjà : importez-la sous un autre nom avec --as NOM"),
    ("cannot read {path}: {exc_strerror_or_exc}", "impossible de lire {path} : {exc_strerror_or_exc}"),
    ("not a sawbones export: invalid JSON at line {exc_lineno} ({exc_msg})",
     "ce n'est pas un export sawbones : JSON invalide ligne {exc_lineno} ({exc_msg})"),
    ("events[{i}] lacks {join_missing}", "il manque {join_missing} à events[{i}]"),
    ("events[{i}] has a field of the wrong type", "events[{i}] a un champ du mauvais type"),
    ("cannot create {target}: {exc_strerror_or_exc}", "impossible de créer {target} : {exc_strerror_or_exc}"),
    ("the export does not replay ({type_exc___name}: {exc})", "l'export ne se rejoue pas ({type_exc___name} : {exc})"),
    ("an event of type {event_type} has schema version {schema_version}, newer than this sawbones ({target}): "
     "upgrade sawbones to read this campaign",
     "un événement de type {event_type} a la version de schéma {schema_version}, plus récente que ce sawbones "
     "({target}) : mettez sawbones à jour pour lire cette campagne"),
    ("cannot open the database: the folder {folder} does not exist (create it, or choose another --db)",
     "impossible d'ouvrir la base : le dossier {folder} n'existe pas (créez-le, ou choisissez une autre --db)"),
    ("no database at {path} yet: create a campaign first (`sawbones campaign create NAME`), or choose another --db",
     "pas encore de base à {path} : créez d'abord une campagne (`sawbones campaign create NOM`), ou choisissez "
     "une autre --db"),
]
