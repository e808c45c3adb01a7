"""The shape of rule content: every YAML file under ``content/data`` is validated against these models.

Models are strict (unknown keys and wrong types are errors) and frozen. Cross-file checks
(dangling ids, d20 coverage, dice formulas) live in :mod:`sawbones.content.checks`.
"""

from __future__ import annotations

from dataclasses import field, fields
from typing import Annotated, Any, Literal

from ..frozen import frozen_kw

# the base vocabulary and the effects are re-exported: content is read as `schema.X` everywhere
from .schema_base import (Ability as Ability, Side as Side, TimeUnit as TimeUnit, SystemId as SystemId,
                          Slug as Slug, D20Range as D20Range, DiceText as DiceText, RollKind as RollKind,
                          WhileFlag as WhileFlag, Check as Check, Strict as Strict, Text as Text,
                          Rolls as Rolls)
from .schema_effects import (Guarded as Guarded, Modifier as Modifier, Advantage as Advantage, AutoFail as AutoFail,
                             ConditionEffect as ConditionEffect, AbilityChange as AbilityChange, Speed as Speed,
                             Restriction as Restriction, Carrying as Carrying, MaxBonus as MaxBonus,
                             SaveSpec as SaveSpec, Outcome as Outcome, Trigger as Trigger, NoteEffect as NoteEffect,
                             LosePart as LosePart, Effect as Effect)


# ---------------------------------------------------------------- vocabulary


@frozen_kw
class Named(Strict):
    id: Slug
    name: Text


@frozen_kw
class ConditionDef(Named):
    systems: tuple[SystemId, ...] = ("dnd5e", "pf1e")
    text: Text | None = None


@frozen_kw
class RestrictionDef(Strict):
    id: Slug
    text: Text
    # the moments of play it forbids, refused whole by engine/acting.py: `action` (an action in combat, a
    # standard action), `dash` (the Dash action: moving), `stand` (standing up from prone: engine/posture.py)
    forbids: tuple[Literal["action", "dash", "stand"], ...] = ()
    # the moments it forbids in one game system only (5e: the Dash is an action; PF1: a move action)
    forbids_in: dict[SystemId, tuple[Literal["action", "dash", "stand"], ...]] = field(default_factory=dict)


@frozen_kw
class SkillDef(Named):
    system: SystemId
    ability: Ability
    maps_to: dict[SystemId, Slug] = field(default_factory=dict)


@frozen_kw
class SaveDef(Named):
    system: SystemId
    ability: Ability  # the 5e reading: Fortitude -> Con save
    maps_to: dict[SystemId, Slug] = field(default_factory=dict)


@frozen_kw
class SpellDef(Named):
    systems: tuple[SystemId, ...]
    injury_tier: Slug | None = None  # the magic tier this spell reaches for lingering injuries
    # the spell's name in a system where it differs (PF French: heal is "Guérison suprême", not 5e "Guérison")
    system_names: dict[SystemId, Text] = field(default_factory=dict)

    def title(self, system: str | None = None) -> Text:
        """The spell's name as this game system's books give it (its usual name where they give none)."""
        named: Text = self.system_names.get(system) or self.name  # type: ignore[call-overload]
        return named


@frozen_kw
class DyingCheck(Strict):
    """Each turn a dying character who is not stable makes this check; a failure loses hit points."""

    ability: Ability
    dc: int
    penalty_per_negative_hp: int = 1  # the check takes -1 per hit point below 0
    hp_loss: DiceText = "1"


@frozen_kw
class HitPointModel(Strict):
    """How hit points behave in one game system: how low they go, when the character is dying or dead."""

    id: SystemId
    name: Text
    floor: int | None = None  # HP never go below this (None: they go negative)
    dying_at: int = 0  # HP at or below this: dying (unconscious) unless stable
    dead_at_minus_ability: Ability | None = None  # dead once HP reach minus this ability's score
    massive_damage: bool = False  # 5e: the damage left after dropping to 0 kills outright if it reaches max HP
    dying_check: DyingCheck | None = None  # the check a dying character makes each turn (None: not modelled)
    # a stable character at or below dying_at: still unconscious (5e), or it may have come to and act (PF1: it
    # is then disabled; the GM says when it wakes)
    stable_may_act: bool = False
    text: Text


# ---------------------------------------------------------------- lingering injuries (5e)


@frozen_kw
class TreatmentTime(Strict):
    amount: DiceText | None = None  # "10", "2d4"; None when taken from an option
    unit: TimeUnit
    bed_rest: bool = False
    from_option: Slug | None = None  # e.g. critical_bedrest


@frozen_kw
class Treatment(Strict):
    dc: int
    time: TreatmentTime
    text: Text


@frozen_kw
class MagicTier(Named):
    rank: Annotated[int, Check(ge=1)]


@frozen_kw
class TierChoice(Strict):
    """The magic that heals a severity, chosen by a campaign option: option value -> the tiers that heal it."""

    option: Slug
    tiers: dict[str, Annotated[tuple[Slug, ...], Check(min_length=1)]]


@frozen_kw
class Severity(Named):
    rank: Annotated[int, Check(ge=1)]
    untreated: Text
    rests: tuple[Literal["long_rest", "hit_die"], ...] = ()
    treatment: Treatment
    magic_tier: Slug
    magic_tier_choice: TierChoice | None = None  # the option that picks the tiers (critical: critical_magic)
    magic_text: Text


@frozen_kw
class Band(Strict):
    d20: D20Range
    severity: Slug


@frozen_kw
class BandSet(Strict):
    """How one d20 maps to a severity (standard bands, or the lenient variant)."""

    id: Literal["standard", "lenient"]
    name: Text  # how the pages and the CLI name it (the severity table, the odds' columns)
    bands: Annotated[tuple[Band, ...], Check(min_length=1)]


@frozen_kw
class InjuryDef(Named):
    """One injury, shared by every table row that names it."""

    text: Text  # the effect as the seed words it (row texts may add a flag sentence)
    effects: tuple[Effect, ...] = ()
    magic_tier: Slug | None = None  # overrides the severity's tier (lost parts need regenerate)


@frozen_kw
class InjuryRow(Strict):
    d20: D20Range
    injury: Slug
    no_natural_healing: bool = False
    magic_only: bool = False
    text: Text  # the row's full text, as in the seed (typos fixed)


@frozen_kw
class DamageTable(Named):
    """The injury table of one damage type (its id is the damage type's id)."""

    rows: Annotated[tuple[InjuryRow, ...], Check(min_length=1)]


# ---------------------------------------------------------------- localized wounds (3.5)


@frozen_kw
class BodyPart(Named):
    sides: tuple[Side, ...] = ()
    affects: Text  # the seed's "Affecte" cell
    penalty: int = -2
    rolls: Annotated[tuple[Rolls, ...], Check(min_length=1)]
    both_sides_condition: Slug | None = None
    notes: tuple[NoteEffect, ...] = ()
    side_names: dict[Side, Text] = field(default_factory=dict)  # a side as a wound's name says it: Main (côté gauche)
    both_sides_name: Text | None = None  # the part wounded on every side (both_sides_condition): Œil (des deux côtés)


# ---------------------------------------------------------------- progression tracks (PF1)


@frozen_kw
class Stage(Named):
    text: Text | None = None
    effects: tuple[Effect, ...] = ()
    inherit: str | None = None  # "track_id.stage_id": this stage has that stage's effects too
    end_state: bool = False


@frozen_kw
class Track(Named):
    kind: Literal["disease", "poison", "special"]
    stages: Annotated[tuple[Stage, ...], Check(min_length=2)]
    end_state: Slug | None = None  # the stage id that ends the track; None: no end state
    cumulative: bool = True


@frozen_kw
class Duration(Strict):
    amount: Annotated[int, Check(ge=1)]
    unit: TimeUnit


@frozen_kw
class Frequency(Strict):
    every: Annotated[int, Check(ge=1)] = 1
    unit: TimeUnit
    count: Annotated[int, Check(ge=1)] | None = None  # None: until cured


@frozen_kw
class Cure(Strict):
    consecutive_saves: Annotated[int, Check(ge=1)] | None = None
    magic_only: bool = False
    spells: tuple[Slug, ...] = ()
    within: Duration | None = None  # the spells must land within this time of each other
    text: Text
    # heal (TRK-9: "works for both") cures this affliction; or only under these option values
    heal_cures: bool = True
    heal_cures_if_option: dict[Slug, Any] = field(default_factory=dict)


@frozen_kw
class RecoveryFloor(Strict):
    """A stage the victim cannot recover past (by rest, saves or the usual spells) without `lifted_by`."""

    floor: Slug | None = None  # the best stage reachable; None: the stage the victim is on (no recovery)
    once_reached: Slug | None = None  # applies only once a track has reached this stage (None: always)
    lifted_by: Annotated[tuple[Slug, ...], Check(min_length=1)]  # spells that bring the victim to healthy
    # the spells work while the affliction still runs: back to healthy on the track, the affliction runs on
    # (Cendres d'ungol: « permanents jusqu'à utilisation de Restauration »); otherwise only once it is gone
    lifted_while_running: bool = False
    if_option: dict[Slug, Any] = field(default_factory=dict)
    note: Text | None = None


@frozen_kw
class FailuresPerStage(Strict):
    after: Slug  # from this stage on
    count: Annotated[int, Check(ge=2)]


@frozen_kw
class Affliction(Named):
    kind: Literal["disease", "poison"]
    vectors: Annotated[tuple[Literal["injury", "contact", "inhaled", "ingested"], ...], Check(min_length=1)]
    vectors_original: tuple[Literal["injury", "contact", "inhaled", "ingested"], ...] = ()
    save: Slug = "fortitude"
    dc: Annotated[int, Check(ge=1, le=60)]
    tracks: Annotated[tuple[Slug, ...], Check(min_length=1)]
    start_stage: Slug | None = None  # default: the first stage after healthy
    onset: Duration | None = None
    frequency: Frequency
    cure: Cure
    failures_per_stage: FailuresPerStage | None = None
    effects: tuple[Effect, ...] = ()  # the "Effets particuliers" column, structured
    table_text: Text  # the seed's row, as text
    recovery_floors: tuple[RecoveryFloor, ...] = ()


# ---------------------------------------------------------------- roll readings (the roll query)


@frozen_kw
class RollNote(Strict):
    """Text the GM must read when a roll matches (e.g. "50% miss chance" on a blinded PF attack)."""

    rolls: Annotated[tuple[Rolls, ...], Check(min_length=1)]
    text: Text


@frozen_kw
class SystemReading(Strict):
    """What a condition does to rolls in one game system: its own rule, or the reading sawbones chose."""

    text: Text  # the reading in words, and why when it is a chosen reading
    effects: tuple[Effect, ...] = ()  # a condition effect here brings that condition too
    roll_notes: tuple[RollNote, ...] = ()
    supersedes: tuple[Slug, ...] = ()  # conditions whose reading this one replaces (exhausted > fatigued)


@frozen_kw
class ConditionReading(Strict):
    """A condition's reading in each game system (id: the condition's id)."""

    id: Slug
    dnd5e: SystemReading | None = None
    pf1e: SystemReading | None = None

    def reading(self, system: str) -> SystemReading | None:
        return getattr(self, system, None)


@frozen_kw
class SkillSense(Strict):
    """The senses a skill relies on (id: the skill's id): Spot is sight, Listen hearing, Perception both."""

    id: Slug
    senses: Annotated[tuple[Literal["sight", "hearing"], ...], Check(min_length=1)]


# ---------------------------------------------------------------- options


@frozen_kw
class OptionDef(Strict):
    id: Slug
    group: Literal["general", "injuries", "wounds", "tracks"]
    type: Literal["bool", "choice", "int", "dice", "list", "mapping"]
    default: Any
    choices: tuple[str, ...] = ()
    choice_names: dict[str, Text] = field(default_factory=dict)  # choice -> its name, as a GM reads and types it
    original: Any = None  # value under follow_original_text (None: same as default)
    help: Text
    durations: dict[str, str] = field(default_factory=dict)  # choice -> a span of game time ("1min"), or end_of_combat
    not_modelled: dict[str, Text] = field(default_factory=dict)  # choice -> why the engine refuses it
    ref: str = ""  # the rule or ambiguity it settles (INJ-6, AMB-4-5, ...)
    minimum: int | None = None  # an int option's smallest value (magic_heals_per_effect: 1)
    maximum: int | None = None  # and its largest (dawn_hour: 23); a maximum comes with a minimum
    # a list's items / a mapping's values are ids of this content section (spells: what `heal --spell` can apply),
    # a mapping's keys ids of `keys_of` (injuries): a value that can never apply is refused when set
    items_of: Slug | None = None
    keys_of: Slug | None = None


# ---------------------------------------------------------------- one content file


@frozen_kw
class ContentFile(Strict):
    """Any content file: a mapping of sections, each a list of entries with an id.

    A content pack uses the same shape; an entry whose id already exists replaces it.
    """

    abilities: tuple[Named, ...] = ()
    conditions: tuple[ConditionDef, ...] = ()
    restrictions: tuple[RestrictionDef, ...] = ()
    skills: tuple[SkillDef, ...] = ()
    saves: tuple[SaveDef, ...] = ()
    spells: tuple[SpellDef, ...] = ()
    hit_point_models: tuple[HitPointModel, ...] = ()
    magic_tiers: tuple[MagicTier, ...] = ()
    severities: tuple[Severity, ...] = ()
    band_sets: tuple[BandSet, ...] = ()
    injuries: tuple[InjuryDef, ...] = ()
    damage_tables: tuple[DamageTable, ...] = ()
    body_parts: tuple[BodyPart, ...] = ()
    tracks: tuple[Track, ...] = ()
    afflictions: tuple[Affliction, ...] = ()
    options: tuple[OptionDef, ...] = ()
    condition_readings: tuple[ConditionReading, ...] = ()
    skill_senses: tuple[SkillSense, ...] = ()


SECTIONS: tuple[str, ...] = tuple(f.name for f in fields(ContentFile))


def singular(section: str) -> str:
    """'injuries' -> 'injury', 'damage_tables' -> 'damage table' (for messages)."""
    word = section[:-3] + "y" if section.endswith("ies") else section[:-1]
    return word.replace("_", " ")
