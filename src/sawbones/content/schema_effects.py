"""The effects a rule entry puts on a character (modifiers, conditions, triggers and their outcomes...), one model
per `type` (schema.py re-exports them all: read them as `schema.X`)."""

from __future__ import annotations

from dataclasses import field
from typing import Annotated, Any, Literal, Union

from ..frozen import frozen_kw
from .schema_base import Ability, Check, DiceText, Rolls, Slug, Strict, Text, WhileFlag


@frozen_kw
class Guarded(Strict):
    """Fields every effect has: when it applies."""

    while_: tuple[WhileFlag, ...] = ()  # "while" in the files (schema_base.ALIASES)
    if_option: dict[Slug, Any] = field(default_factory=dict)
    note: Text | None = None


@frozen_kw
class Modifier(Guarded):
    type: Literal["modifier"]
    value: int
    rolls: Annotated[tuple[Rolls, ...], Check(min_length=1)]


@frozen_kw
class Advantage(Guarded):
    type: Literal["advantage", "disadvantage"]
    rolls: Annotated[tuple[Rolls, ...], Check(min_length=1)]


@frozen_kw
class AutoFail(Guarded):
    type: Literal["auto_fail"]
    rolls: Annotated[tuple[Rolls, ...], Check(min_length=1)]


@frozen_kw
class ConditionEffect(Guarded):
    type: Literal["condition"]
    condition: Slug
    permanent: bool = False
    # an option whose value may give the condition a duration on the clock (its `durations`); otherwise it
    # lasts as long as its source (temporary_condition_duration)
    duration_option: Slug | None = None


@frozen_kw
class AbilityChange(Guarded):
    type: Literal["ability"]
    ability: Ability
    change: int | DiceText | None = None  # negative int, or a dice formula prefixed with '-' (e.g. "-1d6")
    set_: int | None = None  # "set" in the files: the score becomes this at most (feeblemind: Int 1); one of the two
    minimum: int = 1


@frozen_kw
class Speed(Guarded):
    type: Literal["speed"]
    multiplier: float | None = None
    change_ft: int | None = None
    set_ft: int | None = None


@frozen_kw
class Restriction(Guarded):
    type: Literal["restriction"]
    restriction: Slug


@frozen_kw
class Carrying(Guarded):
    """Carrying capacity times `multiplier` (outside the sheet: a note), and at least `min_load`: the roll query
    brings the condition `<min_load>_load` (medium_load, heavy_load), whose reading says what the load does."""

    type: Literal["carrying"]
    multiplier: float
    min_load: Literal["light", "medium", "heavy"] | None = None


@frozen_kw
class MaxBonus(Guarded):
    """An ability's modifier counts at most `cap` on these rolls (PF1 load or armour: maximum Dex bonus to AC)."""

    type: Literal["max_bonus"]
    ability: Ability
    cap: int
    rolls: Annotated[tuple[Rolls, ...], Check(min_length=1)]


@frozen_kw
class SaveSpec(Strict):
    save: Slug  # an ability id (5e: "con") or a named save (pf1e: "fortitude")
    dc: int | Literal["affliction"]


@frozen_kw
class Outcome(Strict):
    """What a trigger does. Every field is optional; at least one must be set."""

    lose_action: bool = False
    lose_reactions: bool = False
    fall_prone: bool = False
    hp_loss: DiceText | None = None
    hp_at_most: int | None = None  # HP become min(HP - hp_loss, hp_at_most)
    stable: bool | None = None  # after the HP loss the character is stable (true: no dying rules) or not
    extra_damage: DiceText | None = None
    max_hp_loss: DiceText | None = None
    ability_loss: dict[Ability, DiceText] = field(default_factory=dict)
    poison_damage: bool = False  # the affliction's (DC - 10) / 2
    lose_part: Literal["eye", "hand", "foot", "site"] | None = None
    become: Slug | None = None  # turns into another injury (an injury id)
    condition: Slug | None = None
    condition_minutes: int | None = None
    permanent: bool = False  # the condition outlasts its source
    death: bool = False
    note: Text | None = None
    # a permanent condition: the spells that remove it (listed, or the list held by a `list` option)
    removed_by: tuple[Slug, ...] = ()
    removed_by_option: Slug | None = None
    # its removers work while the affliction still runs (« jusqu'à utilisation de Restauration »); otherwise only
    # once it is gone (Mal aveuglant: TRK-S2)
    lifted_while_running: bool = False

    def is_empty(self) -> bool:
        return self == Outcome()


@frozen_kw
class Trigger(Guarded):
    type: Literal["trigger"]
    on: Literal[
        "turn_start",
        "turn_end",
        "each_round",
        "action_in_combat",
        "standard_action",
        "dash",
        "damaged",
        "gained",
        "day",
        "deadline",
        "affliction_save",
        "stage_entered",
    ]
    deadline_days: DiceText | None = None  # for on: deadline
    # for on: day, a period of 24 hours on the clock whatever option daily_tick says (Sepsis « par tranche de 24
    # heures »); without it the option times it (Rot « pour chaque journée suivante »: every 24 h, dawn, long rest)
    every_24_hours: bool = False
    chance: Annotated[int, Check(ge=1, le=100)] | None = None  # percent
    save: SaveSpec | None = None  # the outcome happens when this save fails
    # on: stage_entered inside an affliction: fires when one of its tracks reaches this stage or passes it
    stage: Slug | None = None
    # on: affliction_save: which saves against the affliction fire it (None: every save, like "any")
    result: Literal["failed", "succeeded", "any"] | None = None
    outcome: Outcome


@frozen_kw
class NoteEffect(Strict):
    """A rule that stays text: shown to the GM, never applied by the engine."""

    type: Literal["note"]
    text: Text
    reason: Text
    if_option: dict[Slug, Any] = field(default_factory=dict)


@frozen_kw
class LosePart(Guarded):
    type: Literal["lose_part"]
    part: Literal["eye", "hand", "foot", "hand_or_foot"]


Effect = Annotated[
    Union[
        Modifier,
        Advantage,
        AutoFail,
        ConditionEffect,
        AbilityChange,
        Speed,
        Restriction,
        Carrying,
        MaxBonus,
        Trigger,
        NoteEffect,
        LosePart,
    ],
    Check(discriminator="type"),
]
