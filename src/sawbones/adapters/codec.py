"""A generic, exact codec between sawbones' frozen dataclasses and JSON (for state snapshots).

`loads(dumps(x)) == x` for any value built from: None, bool, int, float, str, tuple, list, dict,
set, frozenset, Enum members and dataclasses defined in sawbones modules. The encoding keeps
the difference between a tuple and a list (frozen state uses tuples, event data uses lists):

- tuple -> JSON array
- list -> {"$list": [...]}
- dict with string keys not starting with "$" -> JSON object; any other dict -> {"$dict": [[k, v], ...]}
- set / frozenset -> {"$set": [...]} / {"$frozenset": [...]} (sorted by their encoding, for stable output)
- dataclass -> {"$dc": "module:QualName", "field": value, ...}
- Enum member -> {"$enum": "module:QualName", "value": value}

Classes are looked up by their recorded path, only inside the ``sawbones`` package: a snapshot can
never make the loader import anything else. A snapshot that no longer fits the code (a field was
added or renamed) raises CodecError; the caller then rebuilds the state from the log.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from importlib import import_module
from typing import Any

ALLOWED_PREFIXES: tuple[str, ...] = ("sawbones.",)  # modules whose classes a document may name
# Snapshots written before the domain was split by rule (issue 16) name the state's classes at their old
# module: read them at the new one, so those snapshots stay usable.
MOVED_MODULES: dict[str, str] = {
    "sawbones.domain.state": "sawbones.domain.engine.state",
    "sawbones.domain.wounds": "sawbones.domain.wounds.rules",
    "sawbones.domain.afflictions": "sawbones.domain.afflictions.rules",
}


class CodecError(ValueError):
    """The document does not decode to a value of the current code."""


def _path(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


_CLASSES: dict[str, type] = {}


def _resolve(path: str) -> type:
    cls = _CLASSES.get(path)
    if cls is not None:
        return cls
    module_name, _, qualname = path.partition(":")
    module_name = MOVED_MODULES.get(module_name, module_name)
    if not any((module_name + ".").startswith(p) for p in ALLOWED_PREFIXES) or not qualname:
        raise CodecError(f"class {path!r} is outside the sawbones package")
    try:
        obj: Any = import_module(module_name)
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise CodecError(f"class {path!r} no longer exists ({exc})") from None
    if not isinstance(obj, type):
        raise CodecError(f"{path!r} is not a class")
    _CLASSES[path] = obj
    return obj


def encode(value: Any) -> Any:
    """A JSON-ready structure that decode() turns back into an equal value."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, enum.Enum):
        return {"$enum": _path(type(value)), "value": encode(value.value)}
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, tuple):
        if hasattr(value, "_fields"):
            raise TypeError(f"cannot encode named tuple {type(value).__name__}")
        return [encode(v) for v in value]
    if isinstance(value, list):
        return {"$list": [encode(v) for v in value]}
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("$") for k in value):
            return {k: encode(v) for k, v in value.items()}
        return {"$dict": [[encode(k), encode(v)] for k, v in value.items()]}
    if isinstance(value, (set, frozenset)):
        items = sorted((encode(v) for v in value), key=lambda e: json.dumps(e, sort_keys=True))
        return {"$frozenset" if isinstance(value, frozenset) else "$set": items}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {"$dc": _path(type(value))}
        for f in dataclasses.fields(value):
            out[f.name] = encode(getattr(value, f.name))
        return out
    raise TypeError(f"cannot encode a {type(value).__module__}.{type(value).__qualname__} as JSON")


def decode(doc: Any) -> Any:
    if doc is None or isinstance(doc, (bool, int, float, str)):
        return doc
    if isinstance(doc, list):
        return tuple(decode(v) for v in doc)
    if not isinstance(doc, dict):
        raise CodecError(f"unexpected JSON value {doc!r}")
    if "$dc" in doc:
        return _decode_dataclass(doc)
    if "$list" in doc:
        return [decode(v) for v in doc["$list"]]
    if "$dict" in doc:
        return {decode(k): decode(v) for k, v in doc["$dict"]}
    if "$set" in doc:
        return {decode(v) for v in doc["$set"]}
    if "$frozenset" in doc:
        return frozenset(decode(v) for v in doc["$frozenset"])
    if "$enum" in doc:
        cls = _resolve(doc["$enum"])
        try:
            return cls(decode(doc["value"]))
        except ValueError as exc:
            raise CodecError(str(exc)) from None
    return {k: decode(v) for k, v in doc.items()}


def _decode_dataclass(doc: dict[str, Any]) -> Any:
    cls = _resolve(doc["$dc"])
    if not dataclasses.is_dataclass(cls):
        raise CodecError(f"{doc['$dc']!r} is not a dataclass")
    names = {f.name for f in dataclasses.fields(cls)}
    extra = set(doc) - names - {"$dc"}
    if extra:
        raise CodecError(f"{doc['$dc']} has no field(s) {', '.join(sorted(extra))}")
    obj = object.__new__(cls)  # no __init__/__post_init__: the values were valid when encoded
    for f in dataclasses.fields(cls):
        if f.name in doc:
            value = decode(doc[f.name])
        elif f.default is not dataclasses.MISSING:
            value = f.default
        elif f.default_factory is not dataclasses.MISSING:
            value = f.default_factory()
        else:
            raise CodecError(f"{doc['$dc']} lacks field {f.name!r}")
        object.__setattr__(obj, f.name, value)
    return obj


def dumps(value: Any) -> str:
    return json.dumps(encode(value), separators=(",", ":"), ensure_ascii=False)


def loads(text: str) -> Any:
    try:
        return decode(json.loads(text))
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise CodecError(f"not a state document ({exc})") from None
