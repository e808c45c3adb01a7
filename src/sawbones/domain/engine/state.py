"""The campaign's state: frozen values, rebuilt by folding the event log (see evolve.py)."""

from __future__ import annotations

from dataclasses import field, fields, replace
from typing import Any, TypeVar

from ...frozen import frozen

T = TypeVar("T")
_FIELDS: dict[type, frozenset[str]] = {}


def with_fields(value: T, **changes: Any) -> T:
    """`dataclasses.replace` for the frozen values of the state (and the contexts that carry them), without
    calling `__init__` again: the fold's hot path (every event rebuilds a campaign, a character, an injury).
    The same result, since these classes have no `__post_init__` and no `init=False` field; a name that is
    not a field goes to `dataclasses.replace`, which says so as before."""
    cls = type(value)
    names = _FIELDS.get(cls)
    if names is None:
        plain = not hasattr(cls, "__post_init__") and all(f.init for f in fields(cls))  # type: ignore[arg-type]
        names = _FIELDS[cls] = frozenset(f.name for f in fields(cls)) if plain else frozenset()  # type: ignore[arg-type]
    if not names or not names.issuperset(changes):
        return replace(value, **changes)  # type: ignore[type-var]
    new = object.__new__(cls)
    state = new.__dict__
    state.update(value.__dict__)
    state.update(changes)
    return new

ABILITIES = ("str", "dex", "con", "int", "wis", "cha")
SYSTEMS = ("dnd5e", "pf1e")

ROUND = 6
MINUTE = 60
HOUR = 3600
DAY = 86400
WEEK = 7 * DAY
UNIT_SECONDS = {"round": ROUND, "minute": MINUTE, "hour": HOUR, "day": DAY, "week": WEEK}


@frozen
class Body:
    eyes: int = 2
    ears: int = 2
    hands: int = 2
    feet: int = 2


@frozen
class Injury:
    """A lingering injury (5e) on one character."""

    id: str
    injury: str  # content id of the injury
    table: str  # damage type whose table gave it
    d20: int
    severity: str
    dc: int  # current treatment DC (base + 2 per failed check)
    failures: int = 0
    no_natural_healing: bool = False
    magic_only: bool = False
    site: str | None = None  # hand / foot for extremity injuries
    gained_at: int = 0  # game clock, seconds
    deadline_at: int | None = None  # secret from players
    treatment_started: bool = False
    deadline_passed: bool = False  # the deadline fell while treatment was under way
    long_rests: int = 0  # long rests taken with it (unflagged_severe_natural_recovery)
    next_tick_at: int | None = None  # next daily effect
    max_hp_lost: int = 0
    ability_lost: tuple[tuple[str, int], ...] = ()


@frozen
class TimedCondition:
    """A condition with a duration on the game clock, from one source (conditions.py)."""

    id: str  # "<source id>:<condition>"
    condition: str
    until: int | None  # game clock, seconds
    source_kind: str  # injury | affliction | wound
    source_id: str
    content_id: str
    name_fr: str
    name_en: str
    replaces: bool = False  # stands for its source's own condition effect (kept, ended, once over)
    ended: bool = False
    until_combat_end: bool = False  # ends when the GM ends the combat (`combat-end`)


@frozen
class Lost:
    """An action and/or a reaction lost until the start of the character's next turn (turns.py), and what took it
    (the source's name in both languages)."""

    action: bool
    reaction: bool
    name_en: str
    name_fr: str
    at: int = 0  # game clock when lost: a round later its next turn has begun (posture.py)
    next_turn: bool = False  # lost at the end of a turn: the next turn's action (Nausea, nausea_timing end)


@frozen
class Character:
    id: str
    name: str
    max_hp: int
    hp: int
    npc: bool = False
    abilities: tuple[tuple[str, int], ...] = tuple((a, 10) for a in ABILITIES)
    saves: tuple[tuple[str, int], ...] = ()  # bonus by save id (con, fortitude, ...)
    skills: tuple[tuple[str, int], ...] = ()  # bonus by skill id
    proficiencies: tuple[str, ...] = ()  # medicine, herbalism_kit, ...
    hit_die: int = 8
    hit_dice: int = 1  # remaining
    hit_dice_max: int = 1
    body: Body = field(default_factory=Body)
    injuries: tuple[Injury, ...] = ()
    wounds: tuple[Any, ...] = ()  # localized wounds (domain/wounds/)
    afflictions: tuple[Any, ...] = ()  # diseases and poisons on their tracks (domain/afflictions/)
    conditions: tuple[TimedCondition, ...] = ()  # conditions with a duration on the clock (conditions.py)
    dead: bool = False
    stable: bool = False
    prone: bool = False  # à terre: fallen (a failed Dash save...) or set by the GM; `stand` ends it (turns.py)
    lost: Lost | None = None  # an action/reaction lost until the start of its next turn (turns.py)
    speed: int | None = None  # base walking speed in feet, from the sheet (abilities.py: effective_speed)
    notes: str = ""
    external: tuple[str, ...] = ()  # references elsewhere ("foundry:Actor.abc", "discord:1234"), unique per campaign

    def ability(self, name: str) -> int:
        return dict(self.abilities)[name]

    def save_bonus(self, name: str) -> int:
        saves = dict(self.saves)
        if name in saves:
            return saves[name]
        return dict(self.abilities_mod()).get(name, 0)

    def abilities_mod(self) -> tuple[tuple[str, int], ...]:
        return tuple((a, (score - 10) // 2) for a, score in self.abilities)

    def injury(self, injury_id: str) -> Injury | None:
        return next((i for i in self.injuries if i.id == injury_id), None)


@frozen
class Campaign:
    name: str
    system: str = "dnd5e"
    seed: int = 0
    options: tuple[tuple[str, Any], ...] = ()  # only values the GM set; defaults come from content
    clock: int = 0  # game time in seconds since the campaign started
    characters: tuple[Character, ...] = ()
    counter: int = 0  # last id handed out
    version: int = 0
    content_packs: tuple[str, ...] = ()
    pending: tuple[Any, ...] = ()  # rolls waiting for a die (domain/engine/player_rolls.py)
    requests: tuple[tuple[str, str, int, float], ...] = ()  # recent idempotency keys: (key, digest, version, at)
    known: tuple[tuple[str, str, bool], ...] = ()  # (character, affliction, known to the player): domain/afflictions/secrets.py

    def character(self, key: str) -> Character | None:
        """By id or name, case- and accent-blind (names.py); two folded matches are an error."""
        for c in self.characters:  # the exact match first, as `pick` would: the fold's hot path
            if c.id == key or c.name == key:
                return c
        from .names import pick

        return pick(key, self.characters, lambda c: (c.name, c.id))

    def by_external(self, ref: str) -> Character | None:
        return next((c for c in self.characters if ref in c.external), None)

    def with_character(self, updated: Character) -> "Campaign":
        uid = updated.id
        return with_fields(self, characters=tuple([updated if c.id == uid else c for c in self.characters]))

    def option_overrides(self) -> dict[str, Any]:
        return dict(self.options)


def id_number(instance_id: str) -> int:
    """The number in an instance id the campaign's counter handed out: letters, then digits (injury `i7`,
    wound `w8`, disease `d9`, poison `t9`, an affliction from before the split `a9`, pending roll `p10`);
    0 when it has none. The one parser of ids: a prefix added later reads here with no other change."""
    digits = instance_id.lstrip("abcdefghijklmnopqrstuvwxyz")
    return int(digits) if digits.isascii() and digits.isdigit() else 0


def slug(name: str) -> str:
    out = "".join(ch if ch.isalnum() else "_" for ch in name.casefold()).strip("_")
    while "__" in out:
        out = out.replace("__", "_")
    return out or "character"
