"""Frozen value classes that cost little to define: `@frozen` is `@dataclass(frozen=True)` (the same fields,
`dataclasses.fields`, `replace`, the snapshot codec and pydantic read them alike) without compiling six methods
per class at import.

`@dataclass` writes `__init__`, `__repr__`, `__eq__`, `__hash__`, `__setattr__` and `__delattr__` as source text
and compiles each, for every class: with the content models and the engine's values, that was about a fifth of
the CPU of `sawbones status` (issue 14, docs/benchmarks.md). Here `__repr__` and the frozen `__setattr__` and
`__delattr__` are shared functions; `__init__`, `__eq__` and `__hash__` are compiled, as `@dataclass` writes
them, the first time a class uses them, for that class only (most values are read from the content cache or a
snapshot, which never call `__init__`).
"""

from __future__ import annotations

from dataclasses import MISSING, FrozenInstanceError, Field, dataclass, field, fields
from typing import Any, Callable, TypeVar, dataclass_transform

C = TypeVar("C", bound=type)


def _init_source(cls: type) -> tuple[str, dict[str, Any]]:
    """A class's `__init__` as `@dataclass(frozen=True)` writes it (`object.__setattr__`: the instance keeps
    CPython's compact attribute storage, which writing into its `__dict__` would give up)."""
    names: dict[str, Any] = {"_MISSING": MISSING, "_set": object.__setattr__}
    positional, keyword, body = [], [], []
    for f in fields(cls):
        if f.default is not MISSING:
            names[f"_d_{f.name}"] = f.default
            param = f"{f.name}=_d_{f.name}"
            body.append(f"    _set(self, {f.name!r}, {f.name})")
        elif f.default_factory is not MISSING:
            names[f"_f_{f.name}"] = f.default_factory
            param = f"{f.name}=_MISSING"
            body.append(f"    _set(self, {f.name!r}, _f_{f.name}() if {f.name} is _MISSING else {f.name})")
        else:
            param = f.name
            body.append(f"    _set(self, {f.name!r}, {f.name})")
        (keyword if f.kw_only else positional).append(param)
    params = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    return f"def __init__({params}):\n" + "\n".join(body or ["    pass"]) + "\n", names


def _tuple(who: str, names: list[str]) -> str:
    return "(" + "".join(f"{who}.{name}, " for name in names) + ")"


def _eq_source(cls: type) -> tuple[str, dict[str, Any]]:
    compared = [f.name for f in fields(cls) if f.compare]
    return ("def __eq__(self, other):\n    if other.__class__ is self.__class__:\n"
            f"        return {_tuple('self', compared)} == {_tuple('other', compared)}\n"
            "    return NotImplemented\n"), {}


def _hash_source(cls: type) -> tuple[str, dict[str, Any]]:
    hashed = [f.name for f in fields(cls) if (f.compare if f.hash is None else f.hash)]
    return f"def __hash__(self):\n    return hash({_tuple('self', hashed)})\n", {}


def _compiled_on_first_call(name: str, source: Callable[[type], tuple[str, dict[str, Any]]]) -> Callable[..., Any]:
    """A method that compiles the class's own `name` when first called, installs it on the class, then runs it."""

    def first(self: Any, *args: Any, **kwargs: Any) -> Any:
        cls = type(self)
        text, names = source(cls)
        exec(text, names)  # noqa: S102 (our own source, as dataclasses does)
        method = names[name]
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        type.__setattr__(cls, name, method)
        return method(self, *args, **kwargs)

    first.__name__ = name
    return first


_first_init = _compiled_on_first_call("__init__", _init_source)
_eq = _compiled_on_first_call("__eq__", _eq_source)
_hash = _compiled_on_first_call("__hash__", _hash_source)


def _repr(self: Any) -> str:
    shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.repr)
    return f"{type(self).__qualname__}({shown})"


def _setattr(self: Any, name: str, value: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _delattr(self: Any, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


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
    return cls


@dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
def frozen(cls: C) -> C:
    """`@dataclass(frozen=True)`, cheap to define (see the module)."""
    return _make(cls, kw_only=False)


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(field, Field))
def frozen_kw(cls: C) -> C:
    """`@dataclass(frozen=True, kw_only=True)`, cheap to define: every field is given by name."""
    return _make(cls, kw_only=True)
