"""The vocabulary every content model is built from: ids, dice text, roll kinds, strict frozen models, Text
in both languages, and the selector of rolls (schema.py re-exports them all: read them as `schema.X`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

Ability = Literal["str", "dex", "con", "int", "wis", "cha"]
Lang = Literal["fr", "en"]
Side = Literal["left", "right"]
TimeUnit = Literal["round", "minute", "hour", "day", "week"]
SystemId = Literal["dnd5e", "pf1e"]
Slug = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=64)]
D20Range = Annotated[str, Field(pattern=r"^\s*\d{1,2}\s*(-\s*\d{1,2}\s*)?$")]
DiceText = Annotated[str, Field(min_length=1, max_length=64)]

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


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)


class Text(Strict):
    """Display text in both languages."""

    fr: Annotated[str, Field(min_length=1)]
    en: Annotated[str, Field(min_length=1)]

    def __call__(self, lang: str) -> str:
        return self.fr if lang == "fr" else self.en


class Rolls(Strict):
    """Selects rolls. A roll matches when its kind is listed and every other given field matches."""

    kinds: Annotated[tuple[RollKind, ...], Field(min_length=1)]
    abilities: tuple[Ability, ...] = ()
    skills: tuple[Slug, ...] = ()
    saves: tuple[Slug, ...] = ()  # named saves: fortitude, reflex, will
    range: Literal["ranged", "melee"] | None = None
    sense: Literal["sight", "hearing"] | None = None
    limb: Literal["this"] | None = None  # only rolls made with the wounded hand or arm
