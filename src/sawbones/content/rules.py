"""The loaded content: every rule entry by section then id, with where each came from (content/loader.py builds it)."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from ..frozen import frozen
from ..errors import NotFound
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
        try:
            return self.sections[section][entry_id]
        except KeyError:
            import difflib

            close = difflib.get_close_matches(str(entry_id), list(self.sections[section]), n=3, cutoff=0.6)
            if close:
                raise NotFound(f"unknown {singular(section)} {entry_id!r}: did you mean {' or '.join(close)}?") from None
            known = ", ".join(sorted(self.sections[section])[:30])
            raise NotFound(f"unknown {singular(section)} {entry_id!r} (known: {known})") from None

    def __getattr__(self, name: str) -> dict[str, Any]:
        if name in SECTIONS:
            return self.sections[name]
        raise AttributeError(name)
