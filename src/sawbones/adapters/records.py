"""Plain records of the event store, and the schema revision, importable without SQLAlchemy."""

from __future__ import annotations

from dataclasses import dataclass
from hashlib import blake2b
from typing import Any, Sequence

from ..errors import StoreError, UsageError
from ..message import Message, msg

REVISIONS = ("0001", "0002", "0003_event_checksums")  # Alembic revisions, oldest first (migrations/versions/)
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


_SNAPSHOT_TYPES = ((int,), (int,), (str,), (str,), (int, float))


def snapshot_infos(rows: Any) -> list[SnapshotInfo]:
    """The snapshots' rows whose columns hold the types written (SQLite keeps any type in any column): a row
    that does not is no snapshot, and the state is folded from the log instead."""
    return [SnapshotInfo(*row) for row in rows if all(isinstance(v, kinds) and not isinstance(v, bool)
                                                      for v, kinds in zip(row, _SNAPSHOT_TYPES))]


# ---------------------------------------------------------------- damage: a checksum per stored event


class Damaged(StoreError):
    """A stored event (or the file around it) is not what was written: nothing is written after it."""

    code = "damaged"


def checksum(version: int, action: int, etype: str, data: str, schema_version: int, content_version: str,
             created_at: float) -> str:
    """The checksum stored with an event: every column as written (data as its stored JSON text)."""
    head = f"{version}\x1f{action}\x1f{etype}\x1f{schema_version}\x1f{content_version}\x1f{float(created_at)!r}\x1f"
    return blake2b(head.encode() + data.encode(), digest_size=8).hexdigest()


_TYPES = ((int,), (int,), (str,), (str,), (int,), (str,), (int, float))


def damage(row: tuple[Any, ...], stored: Any) -> Message | None:
    """Why a stored row (version, action, type, data, schema_version, content_version, created_at) does
    not match its checksum, or None when it does."""
    for value, kinds in zip(row, _TYPES):
        if isinstance(value, bool) or not isinstance(value, kinds):
            return msg("a column holds {found} where {written} was written", found=type(value).__name__,
                       written=kinds[0].__name__)
    try:
        ok = stored == checksum(*row)
    except (UnicodeError, ValueError, OverflowError):
        return msg("unreadable text")
    return None if ok else msg("its checksum does not match what was written")


def damaged_message(campaign: str, version: int, why: str | Message) -> Message:
    """One line: which campaign and event, and how to recover."""
    if version > 1:
        return msg("campaign {campaign}: event {version} is damaged ({why}); nothing was written. Restore your last "
                   "backup, or keep the intact events before it: `sawbones -c {campaign} export --upto {before} FILE`, "
                   "then `sawbones import FILE --as NEW-NAME`; see docs/deployment.md", campaign=repr(campaign),
                   version=version, why=why, before=version - 1)
    return msg("campaign {campaign}: event {version} is damaged ({why}); nothing was written. Restore your last "
               "backup, see docs/deployment.md", campaign=repr(campaign), version=version, why=why)


def read_events(rows: Any, after: int, upcast: Any, campaign: Any, where: str = "", every: bool = True,
                ) -> list[StoredEvent]:
    """StoredEvents from rows (version, action, type, data, schema_version, content_version, created_at,
    checksum), each checked against its checksum; Damaged (naming campaign() and the event) otherwise.
    `every`: the rows are every event after `after` (none missing between them); False: some of them.

    upcast: None, or fn(type, schema_version, data) -> (type, schema_version, data) for older shapes."""
    from json import loads

    from .upcast import EVENT_SCHEMA_VERSION as current

    out = []
    previous = after
    for *row, stored in rows:
        why = damage(tuple(row), stored)
        payload: Any = None
        if why is None and every and row[0] != previous + 1:
            why = msg("the log jumps from event {previous} to {next}", previous=previous, next=row[0])
            row[0] = previous + 1
        if why is None:
            try:
                payload = loads(row[3])
            except (ValueError, RecursionError):
                why = msg("its data is not JSON")
            else:
                why = None if isinstance(payload, dict) else msg("its data is not a JSON object")
        if why is not None:
            number = row[0] if isinstance(row[0], int) and not isinstance(row[0], bool) else previous + 1
            raise Damaged(damaged_message(campaign(), number, why), where)
        version, action, etype, _, schema_version, content_version, created_at = row
        if upcast is not None and schema_version != current:
            try:
                etype, schema_version, payload = upcast(etype, schema_version, payload)
            except StoreError as exc:  # written by a newer sawbones: say which event
                raise StoreError(msg("campaign {campaign}: event {version}: {message}", campaign=repr(campaign()),
                                     version=version, message=exc.text), where) from None
        out.append(StoredEvent(version, action, etype, payload, schema_version, content_version, created_at))
        previous = version
    return out


def undo_pairs(rows: Any, campaign: Any, where: str = "") -> list[tuple[int, int]]:
    """(version, undone action) from (version, data) rows of undo markers; Damaged if one cannot be read."""
    from json import loads

    out = []
    for version, data in rows:
        try:
            action = loads(data)["action"]
            if not isinstance(action, int) or isinstance(action, bool):
                raise TypeError
        except (ValueError, TypeError, KeyError, RecursionError):
            number = version if isinstance(version, int) else 0
            raise Damaged(damaged_message(campaign(), number, msg("an undo marker that cannot be read")), where) \
                from None
        out.append((version, action))
    return out


def check_sequence(events: Sequence[StoredEvent]) -> None:
    """A log as import writes it: versions 1, 2, 3 ... and actions that never go down."""
    last_action = 0
    for i, ev in enumerate(events, start=1):
        if ev.version != i:
            raise UsageError(msg("event versions must run 1, 2, 3 ... without gaps (found {version} at position {i})",
                                 version=ev.version, i=i))
        if ev.action < last_action or ev.action < 1:
            raise UsageError(msg("event {version}: action numbers must never go down (found {action})",
                                 version=ev.version, action=ev.action))
        last_action = ev.action


def event_row(cid: int, version: int, action: int, etype: str, data: str, schema_version: int, content_version: str,
              created_at: float) -> tuple[Any, ...]:
    """An events row as written (the columns of _INSERT_EVENT), with its checksum."""
    return (cid, version, action, etype, data, schema_version, content_version, created_at,
            checksum(version, action, etype, data, schema_version, content_version, created_at))
