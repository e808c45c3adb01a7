"""The loaded content: every rule entry by section then id, with where each came from (content/loader.py builds it)."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from ..frozen import frozen
from ..errors import NotFound, UsageError
from ..message import N_, Listed, Message, msg, msgs, pmsg
from .schema import SECTIONS, singular


@frozen
class Rules:
    """All rule content, by section then id, with where each entry came from."""

    sections: dict[str, dict[str, Any]]
    origins: dict[tuple[str, str], str]
    version: str
    packs: tuple[str, ...] = field(default=())

    def section(self, name: str) -> dict[str, Any]:
        return self.sections[name]

    def get(self, section: str, entry_id: str) -> Any:
        """The entry of this id, or of this name as a screen shows it (`resolve`)."""
        entries = self.sections[section]
        found = entries.get(entry_id) if isinstance(entry_id, str) else None
        return found if found is not None else entries[self.resolve(section, entry_id)]

    def find(self, section: str, typed: str) -> str | None:
        """The id of the one entry this id or name means (as `resolve`), or None: nothing is said of it."""
        if typed in self.sections[section]:
            return typed
        found = _spelled(self, section).get(_folded(str(typed)), ())
        return found[0] if len(found) == 1 else None

    def resolve(self, section: str, typed: str, values_of: str | None = None) -> str:
        """The id of the entry a GM typed: its id, or its name in either language as the screens show it (a
        spell's also under each system's title), case- and accent-blind ("tranchant", "Fievre des marais",
        "filth fever" all find theirs). The one place a typed content name becomes an id: every decision that
        takes one calls it. Unknown: NotFound with a "did you mean" among ids and names alike (what is close to
        what was typed, so in the language it was typed in); two entries of one name: UsageError naming them.
        `values_of`: an option's id: its values are resolved (their ids, or their names: options.yaml choice_names)."""
        entries = self.sections[section]
        what = WHAT.get(section, singular(section))
        unknown, maybe, named = UNKNOWN.get(what) or (N_("unknown {section} {entry_id} (known: {known})"),
                                                     N_("unknown {section} {entry_id}: did you mean {close}?"), what)
        option_id = None
        if values_of is not None:  # one option's values (options.yaml choice_names): `campaign set who_rolls joueurs`
            option = self.get(section, values_of)
            entries = {value: _Named(option.choice_names.get(value)) for value in option.choices}
            option_id = option.id
            unknown, maybe = (N_("unknown option {option_id} value {typed} (known: {known})"),
                              N_("unknown option {option_id} value {typed}: did you mean {close}?"))
            named = msg("option {option_id} value", option_id=option_id)
        if isinstance(typed, str) and typed in entries:
            return typed
        key = _folded(str(typed))
        found = (sorted({eid for eid, entry in entries.items() if key in _spellings(eid, entry)}) if values_of
                 else list(_spelled(self, section).get(key, ())))
        if len(found) == 1:
            return found[0]
        if found:
            raise UsageError(msg("{typed} could be several {what}s ({found}): type the id", typed=repr(typed),
                                 what=named, found=Listed(found, "")))
        import difflib

        said = {"typed": repr(typed), "entry_id": repr(typed), "option_id": option_id, "section": named}
        spelled = {folded: shown for eid, entry in entries.items() for folded, shown in _shown(eid, entry)}
        close = difflib.get_close_matches(key, list(spelled), n=3, cutoff=0.6)
        if close and values_of is not None:  # an option's values, offered by their names, in the reader's language
            owner = {folded: eid for eid, entry in entries.items() for folded, _ in _shown(eid, entry)}
            offered = dict.fromkeys(_name(owner[c], entries[owner[c]]) for c in close)
            raise NotFound(Message(maybe, {**said, "close": Listed(offered, "or")}))
        if close:
            raise NotFound(Message(maybe, {**said, "close": Listed(dict.fromkeys(spelled[c] for c in close), "or")}))
        every = list(entries) if values_of is not None else sorted(entries)
        more = [msgs("… and {n} more", "… and {n} more", len(every) - 30)] if len(every) > 30 else []
        known = Listed([*every[:30], *more], "")  # (a list cut says so)
        raise NotFound(Message(unknown, {**said, "known": known}))

    def __getattr__(self, name: str) -> dict[str, Any]:
        if name in SECTIONS:
            return self.sections[name]
        raise AttributeError(name)


WHAT = {"damage_tables": "damage type"}
# an entry not found, by the section's singular (`singular`, WHAT): (not found, did you mean, the section's name)
UNKNOWN: dict[str, tuple[str, str, Message]] = {
    "ability": (N_("unknown ability {entry_id} (known: {known})"),
               N_("unknown ability {entry_id}: did you mean {close}?"),
               pmsg("content section", "ability")),
    "condition": (N_("unknown condition {entry_id} (known: {known})"),
                 N_("unknown condition {entry_id}: did you mean {close}?"),
                 pmsg("content section", "condition")),
    "restriction": (N_("unknown restriction {entry_id} (known: {known})"),
                   N_("unknown restriction {entry_id}: did you mean {close}?"),
                   pmsg("content section", "restriction")),
    "skill": (N_("unknown skill {entry_id} (known: {known})"),
             N_("unknown skill {entry_id}: did you mean {close}?"),
             pmsg("content section", "skill")),
    "save": (N_("unknown save {entry_id} (known: {known})"),
            N_("unknown save {entry_id}: did you mean {close}?"),
            pmsg("content section", "save")),
    "spell": (N_("unknown spell {entry_id} (known: {known})"),
             N_("unknown spell {entry_id}: did you mean {close}?"),
             pmsg("content section", "spell")),
    "hit point model": (N_("unknown hit point model {entry_id} (known: {known})"),
                       N_("unknown hit point model {entry_id}: did you mean {close}?"),
                       pmsg("content section", "hit point model")),
    "magic tier": (N_("unknown magic tier {entry_id} (known: {known})"),
                  N_("unknown magic tier {entry_id}: did you mean {close}?"),
                  pmsg("content section", "magic tier")),
    "severity": (N_("unknown severity {entry_id} (known: {known})"),
                N_("unknown severity {entry_id}: did you mean {close}?"),
                pmsg("content section", "severity")),
    "band set": (N_("unknown band set {entry_id} (known: {known})"),
                N_("unknown band set {entry_id}: did you mean {close}?"),
                pmsg("content section", "band set")),
    "injury": (N_("unknown injury {entry_id} (known: {known})"),
              N_("unknown injury {entry_id}: did you mean {close}?"),
              pmsg("content section", "injury")),
    "damage table": (N_("unknown damage table {entry_id} (known: {known})"),
                    N_("unknown damage table {entry_id}: did you mean {close}?"),
                    pmsg("content section", "damage table")),
    "damage type": (N_("unknown damage type {entry_id} (known: {known})"),
                   N_("unknown damage type {entry_id}: did you mean {close}?"),
                   pmsg("content section", "damage type")),
    "body part": (N_("unknown body part {entry_id} (known: {known})"),
                 N_("unknown body part {entry_id}: did you mean {close}?"),
                 pmsg("content section", "body part")),
    "track": (N_("unknown track {entry_id} (known: {known})"),
             N_("unknown track {entry_id}: did you mean {close}?"),
             pmsg("content section", "track")),
    "affliction": (N_("unknown affliction {entry_id} (known: {known})"),
                  N_("unknown affliction {entry_id}: did you mean {close}?"),
                  pmsg("content section", "affliction")),
    "option": (N_("unknown option {entry_id} (known: {known})"),
              N_("unknown option {entry_id}: did you mean {close}?"),
              pmsg("content section", "option")),
    "condition reading": (N_("unknown condition reading {entry_id} (known: {known})"),
                         N_("unknown condition reading {entry_id}: did you mean {close}?"),
                         pmsg("content section", "condition reading")),
    "skill sense": (N_("unknown skill sense {entry_id} (known: {known})"),
                   N_("unknown skill sense {entry_id}: did you mean {close}?"),
                   pmsg("content section", "skill sense")),
}


@frozen
class _Named:
    """An option's value as `_names` reads an entry: its name in both languages (None: its id alone)."""

    name: Any  # a section's entry as a GM names it, where it is not `singular`'s


def fold(text: str) -> str:
    """Case- and accent-blind form: "Éloïse" and "ELOISE" fold alike (names of characters and of content)."""
    import unicodedata

    decomposed = unicodedata.normalize("NFKD", text.strip())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()
    return " ".join(plain.replace("œ", "oe").replace("æ", "ae").replace("’", "'").split())  # "oeil" finds "Œil"


def _names(entry: Any) -> list[str]:
    """The names a screen shows for an entry: in every language, and a spell's title in each system."""
    out: list[str] = []
    for text in (getattr(entry, "name", None), *getattr(entry, "system_names", {}).values()):
        if text is not None and hasattr(text, "by_language"):
            out += list(text.by_language().values())
    return out + [piece for name in out if "/" in name for piece in name.split("/")]  # "Foot/Leg": foot, leg


def _name(entry_id: str, entry: Any) -> Any:
    """An entry by its name (a content Text, said in the reader's language), or by its id when it has none."""
    name: Any = getattr(entry, "name", None)
    return name if hasattr(name, "en") else entry_id


def _folded(text: str) -> str:
    """A spelling as lookups compare it: folded (`fold`), with dashes and underscores as spaces."""
    return fold(text).replace("-", " ").replace("_", " ")


def _spellings(entry_id: str, entry: Any) -> set[str]:
    return {_folded(x) for x in (entry_id, *_names(entry))}


_SPELLED: dict[tuple[str, str], dict[str, tuple[str, ...]]] = {}  # (content version, section): spelling → ids


def _spelled(rules: Rules, section: str) -> dict[str, tuple[str, ...]]:
    """Each way a GM may spell an entry of the section (`_spellings`) → the ids spelled so, made once per content
    version (folding every entry's names at each lookup cost 0.2 ms; the tables' index made 166 of them)."""
    key = (rules.version, section)
    found = _SPELLED.get(key)
    if found is None:
        spelled: dict[str, list[str]] = {}
        for eid, entry in rules.sections[section].items():
            for spelling in _spellings(eid, entry):
                spelled.setdefault(spelling, []).append(eid)
        found = {spelling: tuple(sorted(ids)) for spelling, ids in spelled.items()}
        if len(_SPELLED) > 256:  # (a server whose packs keep changing)
            _SPELLED.clear()
        _SPELLED[key] = found
    return found


def _shown(entry_id: str, entry: Any) -> list[tuple[str, str]]:
    """(folded, as shown) of an entry's id and names, for a "did you mean"."""
    return [(_folded(x), x) for x in (entry_id, *_names(entry))]
