"""Event upcasting: old event shapes are brought to the current shape when they are read.

Every stored event carries the ``schema_version`` it was written with. When the shape of an event
type changes, bump EVENT_SCHEMA_VERSION and register one upcaster per changed type for the step
from the previous version::

    @upcaster("character_added", 1)
    def _(data):                      # data of a version-1 event
        data = dict(data)
        data["max_hp"] = data.pop("hp_max")
        return data                   # or (new_type, data) to rename the event type

Reading applies the steps in order (1 -> 2 -> 3 ...); a type without an upcaster for a step keeps
its shape through that step. The log itself is never rewritten: export and backup keep events
exactly as stored, and an import upcasts on read like any other log.
"""

from __future__ import annotations

from typing import Any, Callable

from ..errors import StoreError
from ..message import msg

EVENT_SCHEMA_VERSION = 1  # the version new events are written with

Upcaster = Callable[[dict[str, Any]], "dict[str, Any] | tuple[str, dict[str, Any]]"]
_UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def registered() -> bool:
    """Some event shape is upcast (a reader that filters stored data by a key must then filter after upcasting)."""
    return bool(_UPCASTERS)


def upcaster(event_type: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Register fn(data) -> data | (type, data) turning a `from_version` event into `from_version + 1`."""

    def register(fn: Upcaster) -> Upcaster:
        key = (event_type, from_version)
        if key in _UPCASTERS:
            raise ValueError(f"an upcaster for {event_type} v{from_version} is already registered")
        _UPCASTERS[key] = fn
        return fn

    return register


def current_version() -> int:
    return EVENT_SCHEMA_VERSION


def upcast(event_type: str, schema_version: int, data: dict[str, Any]) -> tuple[str, int, dict[str, Any]]:
    """(type, version, data) in the current shape."""
    target = EVENT_SCHEMA_VERSION
    if schema_version > target:
        raise StoreError(msg("an event of type {event_type} has schema version {schema_version}, newer than this "
                             "sawbones ({target}): upgrade sawbones to read this campaign", event_type=repr(event_type),
                             schema_version=schema_version, target=target))
    version = schema_version
    while version < target:
        fn = _UPCASTERS.get((event_type, version))
        if fn is not None:
            result = fn(data)
            if isinstance(result, tuple):
                event_type, data = result
            else:
                data = result
        version += 1
    return event_type, version, data


# ---------------------------------------------------------------- upcasters of sawbones' own events
# (none yet: every event shape is still the version-1 shape)
