"""Content models as data: the one place they meet pydantic (validating data into a model), and their dumps,
copies and field names.

The models (schema.py) are frozen dataclasses that need no pydantic to exist; a validator is built on first
use, when content is checked (a cache miss, `sawbones rules check`) or a dump is read back.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from .schema_base import alias

T = TypeVar("T")


class Invalid(Exception):
    """Data that does not fit a model: pydantic's errors (type, loc, msg, input, ctx), first the first."""

    def __init__(self, errors: list[Any]) -> None:
        super().__init__(errors[0].get("msg", "invalid") if errors else "invalid")
        self.errors = errors


_ADAPTERS: dict[Any, Any] = {}  # a model -> its pydantic TypeAdapter, built on first use


def _adapter(model: Any) -> Any:
    if model not in _ADAPTERS:
        from pydantic import TypeAdapter

        _ADAPTERS[model] = TypeAdapter(model)
    return _ADAPTERS[model]


def validate(model: type[T], data: Any) -> T:
    """`data` (parsed YAML or JSON) as a `model`, checked strictly; raises Invalid."""
    from pydantic import ValidationError

    try:
        value: T = _adapter(model).validate_python(data)
    except ValidationError as exc:
        raise Invalid(list(exc.errors())) from None
    return value


def field_names(model: Any) -> tuple[str, ...]:
    """A model's fields (a class or an instance), in order."""
    return tuple(f.name for f in dataclasses.fields(model))


def is_model(value: Any) -> bool:
    return dataclasses.is_dataclass(value) and not isinstance(value, type)


def dump(value: Any, exclude_defaults: bool = True) -> Any:
    """A model as JSON-ready data (lists, dicts; fields by their names in the files), `validate` reads it back."""
    if is_model(value):
        out: dict[str, Any] = {}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if exclude_defaults and _is_default(f, item):
                continue
            out[alias(f.name)] = dump(item, exclude_defaults)
        return out
    if isinstance(value, (tuple, list)):
        return [dump(item, exclude_defaults) for item in value]
    if isinstance(value, dict):
        return {key: dump(item, exclude_defaults) for key, item in value.items()}
    return value


def _is_default(f: dataclasses.Field[Any], value: Any) -> bool:
    if f.default is not dataclasses.MISSING:
        return bool(value == f.default)
    if f.default_factory is not dataclasses.MISSING:
        return bool(value == f.default_factory())
    return False


def replace(model: T, **changes: Any) -> T:
    """A copy of a model with some fields changed (not validated: the caller's values are trusted)."""
    return dataclasses.replace(model, **changes)  # type: ignore[type-var]
