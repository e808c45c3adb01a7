"""The vocabulary every content model is built from: ids, dice text, roll kinds, strict frozen models, Text
in both languages, and the selector of rolls (schema.py re-exports them all: read them as `schema.X`).

Content models are plain frozen dataclasses (`@frozen_kw`, sawbones/frozen.py): they exist, and unpickle from the
checked cache, without pydantic. pydantic validates them only when content is checked (content/models.py): it reads
`__pydantic_config__` and the `Check` marks in the annotations, which import pydantic only then.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Annotated, Any, ClassVar, Literal

from ..frozen import frozen_kw


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

ALIASES = {"while_": "while", "set_": "set"}  # a field named after a Python keyword or builtin, its name in the files


def alias(name: str) -> str:
    """The name a field has in content files and dumps."""
    return ALIASES.get(name, name)


class Strict:
    """Every content model (made with `@frozen_kw`: frozen, built by keyword): validated strictly, unknown keys
    are errors, the files' names of fields (`while`) read and written."""

    __pydantic_config__: ClassVar[dict[str, Any]] = {
        "extra": "forbid", "alias_generator": alias, "populate_by_name": True,
    }


@frozen_kw
class Text(Strict):
    """Display text in both languages."""

    fr: Annotated[str, Check(min_length=1)]
    en: Annotated[str, Check(min_length=1)]

    @classmethod
    def compose(cls, template: str, *parts: "Text") -> "Text":
        """Text made of other texts, the same way in every language: `compose("{} ({})", part, side)`."""
        return cls(**{f.name: template.format(*(getattr(p, f.name) for p in parts)) for f in fields(cls)})

    def by_language(self) -> dict[str, str]:
        """The words in each language, by language tag (an event keeps them all)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def lower(self) -> "Text":
        """The same words in lower case, in every language (a name inside a sentence: "a hand wound")."""
        return type(self)(**{f.name: getattr(self, f.name).lower() for f in fields(self)})


@frozen_kw
class Rolls(Strict):
    """Selects rolls. A roll matches when its kind is listed and every other given field matches."""

    kinds: Annotated[tuple[RollKind, ...], Check(min_length=1)]
    abilities: tuple[Ability, ...] = ()
    skills: tuple[Slug, ...] = ()
    saves: tuple[Slug, ...] = ()  # named saves: fortitude, reflex, will
    range: Literal["ranged", "melee"] | None = None
    sense: Literal["sight", "hearing"] | None = None
    limb: Literal["this"] | None = None  # only rolls made with the wounded hand or arm
