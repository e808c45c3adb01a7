"""The store's small records beside the events (the `meta` table: secrets, player links, flash messages, the
database's id), read and written on the store's own connections and transactions (SqlEventStore mixes it in)."""

from __future__ import annotations

from typing import Any

from .engines import Conn, _guarded


class MetaRecords:
    _write: Any
    _value: Any

    @staticmethod
    def _upsert_meta(conn: Conn, key: str, value: str) -> None:
        conn.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = "
                     "excluded.value", (key, value))

    @_guarded
    def get_meta(self, key: str) -> str | None:  # (a value that is not text, as SQLite may hold, is none)
        return v if isinstance(v := self._value("SELECT value FROM meta WHERE key = ?", (key,)), str) else None

    @_guarded
    def set_meta(self, key: str, value: str | None) -> None:  # (None deletes the key)
        with self._write() as conn:
            conn.execute("DELETE FROM meta WHERE key = ?", (key,)) if value is None else self._upsert_meta(conn, key, value)

    @_guarded
    def swap_meta(self, key: str, expected: str | None, value: str) -> bool:
        """Set `key` to `value` only if it still holds `expected` (None: absent), in one statement that two
        writers cannot both pass (another worker's too); False, nothing written, when it moved meanwhile."""
        with self._write() as conn:
            if expected is None:
                done = conn.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", (key, value))
            else:
                done = conn.execute("UPDATE meta SET value = ? WHERE key = ? AND value = ?", (value, key, expected))
            return bool(done.rowcount == 1)
