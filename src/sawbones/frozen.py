"""Frozen value classes that cost little to define: `@frozen` is `@dataclass(frozen=True)` (the same fields,
`dataclasses.fields`, `replace`, the snapshot codec and pydantic read them alike) without compiling six methods
per class at import.

`@dataclass` writes `__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__` and `__delattr__` as source text
and compiles each, for every class: with the content models and the engine's values, that was about a fifth of
the CPU of `sawbones status` (issue 14, docs/benchmarks.md). Here the last five are shared functions, and
`__init__` is compiled the first time a class is built by its constructor, for that class only (most are read
from the content cache or a snapshot, which never call it).
"""

from __future__ import annotations

from dataclasses import MISSING, FrozenInstanceError, Field, dataclass, field, fields
from operator import attrgetter
from typing import Any, Callable, TypeVar, dataclass_transform

C = TypeVar("C", bound=type)


def _init_source(cls: type) -> tuple[str, dict[str, Any]]:
    """The source of a class's `__init__`, as `@dataclass(frozen=True)` would write it, and its globals."""
    names: dict[str, Any] = {"_MISSING": MISSING}
    positional, keyword, body = [], [], []
    for f in fields(cls):
        if f.default is not MISSING:
            names[f"_d_{f.name}"] = f.default
            param = f"{f.name}=_d_{f.name}"
            body.append(f"    _s[{f.name!r}] = {f.name}")
        elif f.default_factory is not MISSING:
            names[f"_f_{f.name}"] = f.default_factory
            param = f"{f.name}=_MISSING"
            body.append(f"    _s[{f.name!r}] = _f_{f.name}() if {f.name} is _MISSING else {f.name}")
        else:
            param = f.name
            body.append(f"    _s[{f.name!r}] = {f.name}")
        (keyword if f.kw_only else positional).append(param)
    params = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    return f"def __init__({params}):\n    _s = self.__dict__\n" + "\n".join(body or ["    pass"]) + "\n", names


def _first_init(self: Any, *args: Any, **kwargs: Any) -> None:
    """Compiles the class's own `__init__` on its first construction, installs it, then builds."""
    cls = type(self)
    source, names = _init_source(cls)
    exec(source, names)  # noqa: S102 (our own source, as dataclasses does)
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    type.__setattr__(cls, "__init__", init)
    init(self, *args, **kwargs)


def _eq(self: Any, other: object) -> bool:
    if other.__class__ is not self.__class__:
        return NotImplemented
    compared = type(self).__frozen_compared__
    return bool(compared(self) == compared(other))


def _hash(self: Any) -> int:
    return hash(type(self).__frozen_hashed__(self))


def _repr(self: Any) -> str:
    shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.repr)
    return f"{type(self).__qualname__}({shown})"


def _setattr(self: Any, name: str, value: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _delattr(self: Any, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda value: (one(value),)
    return attrgetter(*names) if names else (lambda value: ())


def _make(cls: C, kw_only: bool) -> C:
    if not cls.__doc__:
        cls.__doc__ = cls.__name__  # else @dataclass reads the signature to write one
    dataclass(init=False, repr=False, eq=False, kw_only=kw_only)(cls)  # the fields, their defaults, match args
    for name, method in (("__init__", _first_init), ("__repr__", _repr), ("__eq__", _eq),
                         ("__setattr__", _setattr), ("__delattr__", _delattr)):
        if name not in cls.__dict__:  # a method the class writes itself stays, as with @dataclass
            type.__setattr__(cls, name, method)
    if cls.__dict__.get("__hash__") is None:  # none, or the None that writing __eq__ leaves
        type.__setattr__(cls, "__hash__", _hash)
    found = fields(cls)
    type.__setattr__(cls, "__frozen_compared__", _getter(tuple(f.name for f in found if f.compare)))
    type.__setattr__(cls, "__frozen_hashed__", _getter(tuple(
        f.name for f in found if (f.compare if f.hash is None else f.hash))))
    return cls


@dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
def frozen(cls: C) -> C:
    """`@dataclass(frozen=True)`, cheap to define (see the module)."""
    return _make(cls, kw_only=False)


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(field, Field))
def frozen_kw(cls: C) -> C:
    """`@dataclass(frozen=True, kw_only=True)`, cheap to define: every field is given by name."""
    return _make(cls, kw_only=True)
