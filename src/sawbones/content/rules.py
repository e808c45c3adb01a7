"""The loaded content: every rule entry by section then id, with where each came from (content/loader.py builds it)."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from ..frozen import frozen
from ..errors import NotFound, UsageError
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

    def resolve(self, section: str, typed: str, values_of: str | None = None) -> str:
        """The id of the entry a GM typed: its id, or its name in either language as the screens show it (a
        spell's also under each system's title), case- and accent-blind ("tranchant", "Fievre des marais",
        "filth fever" all find theirs). The one place a typed content name becomes an id: every decision that
        takes one calls it. Unknown: NotFound with a "did you mean" among ids and names alike (what is close to
        what was typed, so in the language it was typed in); two entries of one name: UsageError naming them.
        `values_of`: an option's id: its values are resolved (their ids, or their names: options.yaml choice_names)."""
        entries = self.sections[section]
        what = WHAT.get(section, singular(section))
        if values_of is not None:  # one option's values (options.yaml choice_names): `campaign set who_rolls joueurs`
            option = self.get(section, values_of)
            entries = {value: _Named(option.choice_names.get(value)) for value in option.choices}
            what = f"option {option.id} value"
        if isinstance(typed, str) and typed in entries:
            return typed
        key = fold(str(typed)).replace("-", " ").replace("_", " ")
        found = sorted({eid for eid, entry in entries.items() if key in _spellings(eid, entry)})
        if len(found) == 1:
            return found[0]
        if found:
            raise UsageError(f"{typed!r} could be several {what}s ({', '.join(found)}): type the id")
        import difflib

        spelled = {folded: shown for eid, entry in entries.items() for folded, shown in _shown(eid, entry)}
        close = difflib.get_close_matches(key, list(spelled), n=3, cutoff=0.6)
        if close and values_of is not None:  # an option's values, offered by their English names: the reader's
            owner = {folded: eid for eid, entry in entries.items() for folded, _ in _shown(eid, entry)}
            offered = dict.fromkeys(_english(owner[c], entries[owner[c]]) for c in close)  # language by i18n
            raise NotFound(f"unknown {what} {typed!r}: did you mean {' or '.join(offered)}?")
        if close:
            raise NotFound(f"unknown {what} {typed!r}: did you mean {' or '.join(dict.fromkeys(spelled[c] for c in close))}?")
        known = ", ".join((list(entries) if values_of is not None else sorted(entries))[:30])
        raise NotFound(f"unknown {what} {typed!r} (known: {known})")

    def __getattr__(self, name: str) -> dict[str, Any]:
        if name in SECTIONS:
            return self.sections[name]
        raise AttributeError(name)


WHAT = {"damage_tables": "damage type"}


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
    """The names a screen shows for an entry: in both languages, and a spell's title in each system."""
    out: list[str] = []
    for text in (getattr(entry, "name", None), *getattr(entry, "system_names", {}).values()):
        if text is not None and hasattr(text, "en"):
            out += [text.en, text.fr]
    return out + [piece for name in out if "/" in name for piece in name.split("/")]  # "Foot/Leg": foot, leg


def _english(entry_id: str, entry: Any) -> str:
    name: Any = getattr(entry, "name", None)
    return str(name.en) if hasattr(name, "en") else entry_id


def _spellings(entry_id: str, entry: Any) -> set[str]:
    return {fold(x).replace("-", " ").replace("_", " ") for x in (entry_id, *_names(entry))}


def _shown(entry_id: str, entry: Any) -> list[tuple[str, str]]:
    """(folded, as shown) of an entry's id and names, for a "did you mean"."""
    return [(fold(x).replace("-", " ").replace("_", " "), x) for x in (entry_id, *_names(entry))]
