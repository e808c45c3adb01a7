"""Compatibility names: the store now lives in store.py (one contract, SQLite and PostgreSQL backends)."""

from __future__ import annotations

from .store import SqliteEventStore as SqliteStore, StoredEvent
from .upcast import EVENT_SCHEMA_VERSION

__all__ = ["EVENT_SCHEMA_VERSION", "SqliteStore", "StoredEvent"]
