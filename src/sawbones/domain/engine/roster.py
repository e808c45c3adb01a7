"""The campaign's characters indexed once for an import of many (campaign.import_characters): by id, by name, by
their names' fold and by external reference, kept up to date as the import adds characters. A lookup is then a
dictionary's, where `Campaign.character` folds every character's name for each name that is new: importing
2,000 characters folded four million names.

The bounds: at most MAX_IMPORT characters in one import (its files together), MAX_CHARACTERS in a campaign
(`character add` and the import both refuse past it, nothing written).
"""

from __future__ import annotations

from typing import Iterable

from ...content.rules import fold
from ...errors import UsageError
from ...message import msg
from .names import pick
from .state import Character

MAX_IMPORT = 500  # characters in one import
MAX_CHARACTERS = 1_000  # characters in one campaign


def check_room(present: int, more: int) -> None:
    """UsageError when `more` characters would take a campaign of `present` past MAX_CHARACTERS."""
    if present + more > MAX_CHARACTERS:
        raise UsageError(msg("a campaign has at most {most} characters: it has {present}, this would add {more}",
                         most=MAX_CHARACTERS, present=present, more=more))


def check_import(count: int) -> None:
    if count > MAX_IMPORT:
        raise UsageError(msg("one import adds or updates at most {most} characters (this one {count}): split the "
                             "files", most=MAX_IMPORT, count=count))


class Roster:
    def __init__(self, characters: Iterable[Character]) -> None:
        self.exact: dict[str, str] = {}  # an id or a name: the character's id
        self.folded: dict[str, list[Character]] = {}
        self.refs: dict[str, str] = {}
        self.ids: set[str] = set()
        for character in characters:
            self.add(character)

    def add(self, character: Character) -> None:
        self.ids.add(character.id)
        for key in (character.id, character.name):
            self.exact.setdefault(key, character.id)
        for key in {fold(character.name), fold(character.id)}:
            self.folded.setdefault(key, []).append(character)
        for ref in character.external:
            self.refs.setdefault(ref, character.id)

    def named(self, key: str) -> str | None:
        """The id of the character `key` names, as `Campaign.character` finds it (exact, else folded; two folded
        matches are its UsageError)."""
        if key in self.exact:
            return self.exact[key]
        found = pick(key, self.folded.get(fold(key), []), lambda c: (c.name, c.id))
        return found.id if found is not None else None

    def by_external(self, refs: Iterable[str]) -> str | None:
        return next((self.refs[ref] for ref in refs if ref in self.refs), None)
