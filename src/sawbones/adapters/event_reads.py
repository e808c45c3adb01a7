"""Reading a campaign's events back (SqlEventStore mixes it in): in order, each checked against its checksum and
upcast to the current shapes; or only those of one character (a player's view reads its character's last
lines among the campaign's last 200 events)."""

from __future__ import annotations

from typing import Any, NoReturn

from ..message import msg
from . import upcast as _upcasting
from .engines import _guarded, _message, db_errors
from .records import Damaged, StoredEvent, damaged_message, read_events

EVENT_COLUMNS = "version, action, type, data, schema_version, content_version, created_at, checksum"


class EventReads:
    _rows: Any
    _value: Any
    where: str
    CHARACTER = "json_extract(data, '$.character')"  # the character an event's data names (PostgreSQL: its own)

    @_guarded
    def events(self, campaign_id: int, after: int = 0, *, upcast: bool = True,
               upto: int | None = None, character: str | None = None) -> list[StoredEvent]:
        if character is not None:
            return self._events_of(campaign_id, after, upcast, upto, character)
        sql, params = self._range(campaign_id, after, upto)
        try:
            rows = self._rows(sql + " ORDER BY version", params)
        except db_errors() as exc:
            if "decode" not in _message(exc).lower():
                raise
            self._undecodable(campaign_id, after)  # SQLite text that is not UTF-8: Damaged, naming the event
            raise  # (not reached: _undecodable always raises)
        return read_events(rows, after, _upcasting.upcast if upcast else None, lambda: self._name(campaign_id), self.where)

    @staticmethod
    def _range(campaign_id: int, after: int, upto: int | None) -> tuple[str, tuple[Any, ...]]:
        sql = f"SELECT {EVENT_COLUMNS} FROM events WHERE campaign_id = ? AND version > ?"
        return (sql, (campaign_id, after)) if upto is None else (sql + " AND version <= ?", (campaign_id, after, upto))

    def _events_of(self, campaign_id: int, after: int, upcast: bool, upto: int | None,
                   character: str) -> list[StoredEvent]:
        """The events whose data names `character`, filtered by the database, which reads data as stored: where
        an event shape is upcast, or a row's data is not JSON (the filter fails), the log is read and filtered."""
        def read_all() -> list[StoredEvent]:
            return [e for e in self.events(campaign_id, after, upcast=upcast, upto=upto)
                    if isinstance(e.data, dict) and e.data.get("character") == character]

        if _upcasting.registered():
            return read_all()
        sql, params = self._range(campaign_id, after, upto)
        try:
            rows = self._rows(f"{sql} AND {self.CHARACTER} = ? ORDER BY version", params + (character,))
        except db_errors():
            return read_all()
        return read_events(rows, after, _upcasting.upcast if upcast else None, lambda: self._name(campaign_id), self.where,
                           every=False)

    def _name(self, campaign_id: int) -> str:
        name = self._value("SELECT name FROM campaigns WHERE id = ?", (campaign_id,))
        return str(name) if name is not None else f"#{campaign_id}"

    def _undecodable(self, campaign_id: int, after: int) -> NoReturn:
        """Damaged for the first event of the campaign (after `after`) whose text is not UTF-8."""
        rows = self._rows(
            "SELECT version, CAST(type AS BLOB), CAST(data AS BLOB), CAST(content_version AS BLOB) FROM events "
            "WHERE campaign_id = ? AND version > ? ORDER BY version", (campaign_id, after))
        for version, *texts in rows:
            try:
                for text in texts:
                    bytes(text or b"").decode("utf-8")
            except UnicodeDecodeError:
                raise Damaged(damaged_message(self._name(campaign_id), int(version), msg("its text is not UTF-8")),
                              self.where) from None
        raise Damaged(msg("campaign {campaign}: an event is damaged (its text is not UTF-8); nothing was written. Restore "
                          "your last backup, see docs/deployment.md", campaign=repr(self._name(campaign_id))), self.where)
