"""Plain records of the event store, and the schema revision, importable without SQLAlchemy."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

REVISIONS = ("0001", "0002")  # Alembic revisions, oldest first (migrations/versions/)
HEAD = REVISIONS[-1]


@dataclass(frozen=True)
class StoredEvent:
    version: int
    action: int
    type: str
    data: dict[str, Any]
    schema_version: int
    content_version: str
    created_at: float

    def as_event(self) -> dict[str, Any]:
        return {"type": self.type, "data": self.data}


@dataclass(frozen=True)
class SnapshotInfo:
    version: int  # last event folded in
    action: int  # action of that event
    code_version: str  # what folded it (see service.code_version)
    content_version: str  # content version of that event
    created_at: float = 0.0
