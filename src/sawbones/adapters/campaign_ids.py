"""A campaign's id by its name (SqlEventStore mixes it in), read once per piece of work inside
`names_read_once()`: a web request asks for it three or four times (the GM's secret, the campaign's name as
stored, the action, its load), each a statement of its own. Outside that scope every call reads it; a campaign
that another program renames or deletes meanwhile is read as it is then at the next piece of work."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from ..errors import NotFound
from ..message import Listed, msg
from .engines import _guarded


class CampaignIds:
    _rows: Any
    _value: Any
    _ids: dict[str, int] | None = None  # the ids read in this piece of work (None: none kept)

    @contextmanager
    def names_read_once(self) -> Iterator[None]:
        """Within (one piece of work, as a web request): a campaign's id is read once by its name."""
        self._ids = {}
        try:
            yield
        finally:
            self._ids = None

    def _forget_names(self) -> None:
        """A campaign was renamed or deleted by this store: its name no longer says its id."""
        if self._ids is not None:
            self._ids.clear()

    @_guarded
    def campaign_id(self, name: str) -> int:
        if self._ids is not None and name in self._ids:
            return self._ids[name]
        cid = self._value("SELECT id FROM campaigns WHERE name = ?", (name,))
        if cid is None:
            known = Listed(names, "") if (names := self.campaign_names()) else msg("none yet")
            raise NotFound(msg("no campaign named {name} (campaigns: {known})", name=repr(name), known=known))
        if self._ids is not None:
            self._ids[name] = int(cid)
        return int(cid)

    @_guarded
    def campaign_names(self) -> list[str]:
        return [r[0] for r in self._rows("SELECT name FROM campaigns ORDER BY id") if isinstance(r[0], str)]
