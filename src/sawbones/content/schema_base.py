"""The vocabulary every content model is built from: ids, dice text, roll kinds, strict frozen models, Text
in both languages, and the selector of rolls (schema.py re-exports them all: read them as `schema.X`).

Content models are plain frozen dataclasses (`@model`): they exist, and unpickle from the checked cache,
without pydantic. pydantic validates them only when content is checked (content/models.py): it reads
`__pydantic_config__` and the `Check` marks in the annotations, which import pydantic only then.
"""

from __future__ import annotations

from dataclasses import MISSING, FrozenInstanceError, dataclass, field, fields
from typing import Annotated, Any, ClassVar, Literal, TypeVar, cast, dataclass_transform


class Check:
    """A constraint on a field's type, in `pydantic.Field` words (pattern, min_length, ge, discriminator...).

    A mark in `Annotated[...]`: pydantic calls `__get_pydantic_core_schema__` when it builds a validator, and
    only then is pydantic imported; reading or unpickling content never does.
    """

    __slots__ = ("constraints",)

    def __init__(self, **constraints: Any) -> None:
        self.constraints = constraints

    def __repr__(self) -> str:
        return f"Check({', '.join(f'{k}={v!r}' for k, v in self.constraints.items())})"

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        from pydantic import Field

        return handler.generate_schema(Annotated[source, Field(**self.constraints)])


Ability = Literal["str", "dex", "con", "int", "wis", "cha"]
Lang = Literal["fr", "en"]
Side = Literal["left", "right"]
TimeUnit = Literal["round", "minute", "hour", "day", "week"]
SystemId = Literal["dnd5e", "pf1e"]
Slug = Annotated[str, Check(pattern=r"^[a-z][a-z0-9_]*$", max_length=64)]
D20Range = Annotated[str, Check(pattern=r"^\s*\d{1,2}\s*(-\s*\d{1,2}\s*)?$")]
DiceText = Annotated[str, Check(min_length=1, max_length=64)]

RollKind = Literal[
    "attack",  # attack rolls
    "damage",  # damage rolls
    "check",  # ability checks (in 5e, skill checks are ability checks too)
    "skill",  # skill checks (3.5 / PF)
    "save",  # saving throws
    "initiative",
    "ac",  # armour class (a modifier to AC)
    "concentration",  # saves or checks to keep concentration
    "spell_dc",  # the save DC of the character's own spells
    "caster_level",
]

WhileFlag = Literal[
    "wearing_metal_armor",
    "standing",
    "in_combat",
    "fear_source_in_sight",
    "weapon",
    "site_hand",
    "site_foot",
]

ALIASES = {"while_": "while"}  # a field named after a Python keyword, and its name in the content files


def alias(name: str) -> str:
    """The name a field has in content files and dumps."""
    return ALIASES.get(name, name)


class Strict:
    """Every content model: frozen, built by keyword; validated strictly (unknown keys are errors).

    Its methods are shared by every model (made with `@model`), rather than generated for each as
    `@dataclass` does: compiling them cost ~1 ms a model at every start.
    """

    __pydantic_config__: ClassVar[dict[str, Any]] = {
        "extra": "forbid", "alias_generator": alias, "populate_by_name": True,
    }
    _names: ClassVar[tuple[str, ...]] = ()
    _required: ClassVar[frozenset[str]] = frozenset()
    _defaults: ClassVar[dict[str, Any]] = {}
    _factories: ClassVar[tuple[tuple[str, Any], ...]] = ()

    def __init__(self, **values: Any) -> None:
        cls = type(self)
        if not cls._required <= values.keys() or not values.keys() <= set(cls._names):
            missing = sorted(cls._required - values.keys())
            unknown = sorted(values.keys() - set(cls._names))
            raise TypeError(f"{cls.__name__}: " + (f"missing {missing}" if missing else f"unknown {unknown}"))
        state = self.__dict__
        state.update(cls._defaults)
        for name, factory in cls._factories:
            state[name] = factory()
        state.update(values)

    def __eq__(self, other: object) -> bool:
        return other.__class__ is self.__class__ and self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        return hash((self.__class__, tuple(self.__dict__[name] for name in self._names)))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{name}={self.__dict__[name]!r}' for name in self._names)})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")


M = TypeVar("M", bound=type[Strict])


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(field,))
def model(cls: M) -> M:
    """A content model: a dataclass (for pydantic and `dataclasses.fields`) with Strict's shared methods."""
    if not cls.__doc__:
        cls.__doc__ = cls.__name__  # else @dataclass reads the signature to write one
    dataclass(init=False, repr=False, eq=False, kw_only=True)(cls)
    found = fields(cast(Any, cls))
    type.__setattr__(cls, "_names", tuple(f.name for f in found))
    type.__setattr__(cls, "_required", frozenset(
        f.name for f in found if f.default is MISSING and f.default_factory is MISSING))
    type.__setattr__(cls, "_defaults", {f.name: f.default for f in found if f.default is not MISSING})
    type.__setattr__(cls, "_factories", tuple(
        (f.name, f.default_factory) for f in found if f.default_factory is not MISSING))
    return cls


@model
class Text(Strict):
    """Display text in both languages."""

    fr: Annotated[str, Check(min_length=1)]
    en: Annotated[str, Check(min_length=1)]

    def __call__(self, lang: str) -> str:
        return self.fr if lang == "fr" else self.en


@model
class Rolls(Strict):
    """Selects rolls. A roll matches when its kind is listed and every other given field matches."""

    kinds: Annotated[tuple[RollKind, ...], Check(min_length=1)]
    abilities: tuple[Ability, ...] = ()
    skills: tuple[Slug, ...] = ()
    saves: tuple[Slug, ...] = ()  # named saves: fortitude, reflex, will
    range: Literal["ranged", "melee"] | None = None
    sense: Literal["sight", "hearing"] | None = None
    limb: Literal["this"] | None = None  # only rolls made with the wounded hand or arm
