"""Pydantic models of the API: requests (strict: unknown fields are errors) and responses.

Responses are the JSON documents the CLI prints too (presentation/views.py, presentation/tables.py,
presentation/afflictions.py); their models name the fields every client can rely on and allow more (rule modules add
sections to a character).
"""

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, model_validator

from ....domain.engine.names import check_name
from ....errors import UsageError
from ....message import msg


def _unicode(text: str) -> str:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(msg("text must be valid Unicode (no lone surrogates)")) from None
    return text


def Str(max_length: int = 80, min_length: int = 1, pattern: str | None = None) -> Any:  # noqa: N802
    return Annotated[str, StringConstraints(min_length=min_length, max_length=max_length, pattern=pattern),
                     AfterValidator(_unicode)]


def _name_rule(what: str) -> Any:
    """The one name rule (domain/engine/names.py), as a pydantic validator."""
    def check(text: str) -> str:
        try:
            return check_name(text, what)
        except UsageError as exc:
            raise ValueError(exc.text) from None
    return AfterValidator(check)


CampaignNameStr = Annotated[str, StringConstraints(min_length=1, max_length=80), _name_rule("campaign")]
NameStr = Str(80)
CharacterNameStr = Annotated[str, StringConstraints(min_length=1, max_length=80), _name_rule("character")]
IdStr = Str(60)
Key = Annotated[str, StringConstraints(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_\-]+$")]
PairKey = Annotated[str, StringConstraints(min_length=1, max_length=40)]  # the rules check the names
Pairs = dict[PairKey, Annotated[int, Field(ge=-1000, le=1000)]]


def _whole(value: Any) -> Any:
    """53.0 is the number 53 (JSON has one number type; JavaScript clients send what they computed)."""
    if isinstance(value, float) and value.is_integer() and abs(value) <= 2**53:
        return int(value)
    if isinstance(value, list):
        return [_whole(v) for v in value]
    if isinstance(value, dict):
        return {k: _whole(v) for k, v in value.items()}
    return value


class Strict(BaseModel):
    """A request: unknown fields and wrong JSON types (true for a number, "3" for 3) are errors; a whole
    number written 53.0 is 53. HTML forms send text: they validate with strict=False (see pages.py)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    @model_validator(mode="before")
    @classmethod
    def _whole_numbers(cls, data: Any) -> Any:
        return _whole(data)


class Doc(BaseModel):
    model_config = ConfigDict(extra="allow")


# ------------------------------------------------------------------ errors


class ErrorDetail(BaseModel):
    code: str = Field(description="Stable code for programs: not_found, usage, rule_violation, conflict, ...")
    message: str = Field(description="What went wrong, for people.")
    where: str = Field(description="Where: the field, the command or the request.")


class ErrorResponse(BaseModel):
    error: ErrorDetail


# ------------------------------------------------------------------ campaigns


class CampaignIn(Strict):
    name: CampaignNameStr = Field(description="The campaign's name (no '/', '?', '#', '%', '\\', control or invisible characters).")
    system: Literal["dnd5e", "pf1e"] = "dnd5e"
    seed: int | None = Field(None, ge=0, le=2**53, description="Seed of the campaign's dice (default: random).")


class CharacterRef(Doc):
    id: str
    name: str


class CampaignOut(Doc):
    name: str
    system: str
    seed: int
    version: int
    clock: int
    clock_text: str
    options: dict[str, Any]
    content_packs: list[str]
    content_version: str
    characters: list[CharacterRef]


class CampaignCreated(Doc):
    campaign: CampaignOut
    gm_secret: str = Field(description="The API secret: send it as `Authorization: Bearer <secret>` (the GM can "
                                      "reveal it again on the dashboard).")
    gm_link: str = Field(description="A one-time GM sign-in link (path, valid 15 minutes) for the web dashboard.")


class GmSecretOut(Doc):
    gm_secret: str
    gm_link: str = Field(description="A one-time GM sign-in link (path, valid 15 minutes).")


class SignInLink(Doc):
    gm_link: str = Field(description="A one-time GM sign-in link (path): it signs one browser in, once.")
    expires_in: int = Field(description="Seconds the link stays valid.")


class SessionsEnded(Doc):
    campaign: str
    ended: bool


class CampaignList(Doc):
    campaigns: list[str]
    current: str | None


class OptionOut(Doc):
    id: str
    group: str
    type: str
    value: Any = None
    default: Any = None
    choices: list[str]
    help: str


class OptionsOut(Doc):
    options: list[OptionOut]


class OptionIn(Strict):
    value: Any = Field(None, description="The new value: text as the CLI takes it, or JSON (true, 3, [..], {..}).")
    reset: bool = Field(False, description="Go back to the default value.")


class OptionSet(Doc):
    option: str
    value: Any = None
    reset: bool


# ------------------------------------------------------------------ characters


class Sheet(Strict):
    max_hp: int | None = Field(None, ge=1, le=10000)
    hp: int | None = Field(None, ge=-10000, le=10000)
    npc: bool | None = None
    abilities: Pairs | None = Field(None, description="Ability scores, e.g. {\"str\": 14, \"con\": 12}.")
    saves: Pairs | None = Field(None, description="Save bonuses, e.g. {\"con\": 5} or {\"fortitude\": 6}.")
    skills: Pairs | None = Field(None, description="Skill bonuses, e.g. {\"medicine\": 5}.")
    proficiencies: list[Key] | None = Field(None, max_length=60, description="e.g. [\"medicine\", \"herbalism_kit\"].")
    hit_die: int | None = Field(None, ge=1, le=100, description="Hit die size: 6, 8, 10 or 12.")
    hit_dice: int | None = Field(None, ge=0, le=40, description="Hit Dice left.")
    speed: int | None = Field(None, ge=0, le=1000, description="Base walking speed in feet, e.g. 30.")
    body: Pairs | None = Field(None, description="Body counts, e.g. {\"eyes\": 2, \"hands\": 2}.")
    notes: Str(4000, 0) | None = None  # type: ignore[valid-type]
    external: list[Str(231)] | None = Field(  # type: ignore[valid-type]
        None, max_length=20, description="References elsewhere, SYSTEM:ID, unique in the campaign: "
                                         "[\"foundry:Actor.abc\", \"discord:1234\"].")


class CharacterIn(Sheet):
    name: CharacterNameStr  # type: ignore[valid-type]


class CharacterEdit(Sheet):
    name: CharacterNameStr | None = None  # type: ignore[valid-type]


class InjuryOut(Doc):
    id: str
    injury: str
    name: str
    table: str
    severity: str
    severity_name: str
    d20: int
    dc: int
    failures: int
    no_natural_healing: bool
    magic_only: bool
    site: str | None = None
    text: str
    heals_by: list[str]
    gained_at: int
    treatment_started: bool
    timers: dict[str, int]


class CharacterOut(Doc):
    id: str
    name: str
    npc: bool
    hp: int
    max_hp: int
    dead: bool
    stable: bool
    abilities: dict[str, int]
    saves: dict[str, int]
    skills: dict[str, int]
    proficiencies: list[str]
    hit_die: int
    hit_dice: int
    hit_dice_max: int
    body: dict[str, int]
    notes: str
    injuries: list[InjuryOut]
    prone: bool = False  # also `lost` (the action/reaction lost until the next turn) and `speed` (base, effective)


class CharacterSummary(Doc):
    id: str
    name: str
    hp: int
    max_hp: int
    npc: bool
    external: list[str] = []


class CharacterList(Doc):
    characters: list[CharacterSummary]


class Removed(Doc):
    removed: str


class PlayerLink(Doc):
    character: str
    token: str
    url: str = Field(description="The player's page (path): their character, and the saves routed to them.")


class PlayerLinkRevoked(Doc):
    character: str
    revoked: bool = Field(description="False when the character had no live link.")


class StatusOut(Doc):
    campaign: str
    clock: int
    characters: list[CharacterOut]


# ------------------------------------------------------------------ actions


class EventOut(Doc):
    type: str
    data: dict[str, Any]


class ActionOut(Doc):
    events: list[EventOut]
    characters: list[CharacterOut]
    lines: list[str] = Field(description="What happened, one line each, in the request's language.")


class CharacterName(Strict):
    character: NameStr = Field(description="The character's name or id.")  # type: ignore[valid-type]


class DamagePart(Strict):
    amount: int = Field(ge=0, le=100000)
    type: Key = Field(description="Damage type: fire, slashing, cold, ...")


class DamageIn(CharacterName):
    parts: list[DamagePart] = Field(min_length=1, max_length=12)
    d20: int | None = Field(None, ge=1, le=20, description="The injury d20 the player rolled (default: rolled).")
    site: Literal["hand", "foot"] | None = None
    injury_type: Key | None = Field(None, description="Injury table when the hit's damage types tie.")


class InjureIn(CharacterName):
    type: Key = Field(description="Damage type whose table to roll on.")
    d20: int | None = Field(None, ge=1, le=20)
    site: Literal["hand", "foot"] | None = None
    critical_failure: bool = False


class TreatIn(CharacterName):
    injury: IdStr = Field(description="Injury id (i1) or content id.")  # type: ignore[valid-type]
    check: int | None = Field(None, ge=-20, le=60, description="The check total (default: rolled for the healer).")
    healer: NameStr | None = Field(None, description="Who treats (needs Medicine and an herbalism kit).")  # type: ignore[valid-type]
    rolls: Literal["gm", "players"] | None = Field(None, description=(
        "Who rolls the healer's check when no total is given: the server (gm) or the healer's player (the treatment "
        "waits for their die). Default: the option who_rolls."))


class RestIn(Strict):
    kind: Literal["long", "short"]
    characters: list[NameStr] = Field(default_factory=list, max_length=40,  # type: ignore[valid-type]
                                      description="Long rest: who rests (default: everyone). Short rest: exactly one.")
    hit_dice: int = Field(0, ge=0, le=40)
    injuries: list[IdStr] = Field(default_factory=list, max_length=40)  # type: ignore[valid-type]
    rolls: list[Annotated[int, Field(ge=1, le=20)]] = Field(default_factory=list, max_length=40)


class HealIn(CharacterName):
    spell: Key
    injury: IdStr | None = None  # type: ignore[valid-type]
    hp: int | None = Field(None, ge=0, le=10000)


class MomentIn(CharacterName):
    saves: list[Annotated[int, Field(ge=-20, le=80)]] = Field(default_factory=list, max_length=20)
    rolls: Literal["gm", "players"] | None = Field(None, description=(
        "Who rolls the saves with no total in `saves`: the server (gm) or the character's player (the moment waits "
        "for each of their dice in turn). Default: the option who_rolls."))


class AdvanceIn(Strict):
    duration: Str(40) = Field(description="3r, 10min, 8h, 2d, 1w, or 1d12h.")  # type: ignore[valid-type]
    auto: bool = Field(False, description="Roll every save that falls due (else stop at the first one).")
    rolls: Literal["gm", "players"] | None = Field(None, description=(
        "Who rolls the saves that fall due: the GM, or each character's player (default: the option who_rolls; "
        "gm with auto)."))


class PendingOut(Doc):
    id: str
    character: str
    name: str
    affliction: str
    save: str
    dc: int
    at: int
    at_text: str
    target: int
    target_text: str


class AdvanceOut(Doc):
    clock: int
    text: str
    events: list[EventOut]
    pending: list[PendingOut] = Field(default_factory=list)
    characters: list[CharacterOut]
    lines: list[str]


class UndoOut(Doc):
    undone_action: int
    version: int
    reverted: list[str] = Field(description="What the undone action had done, one sentence per event.")


class LogEvent(Doc):
    version: int
    action: int
    type: str
    data: dict[str, Any]
    undone: bool
    schema_version: int
    content_version: str
    text: str = Field(description="The event as a sentence, in the language asked for.")


class LogOut(Doc):
    campaign: str
    events: list[LogEvent]


class ClockOut(Doc):
    campaign: str
    seconds: int
    text: str


# ------------------------------------------------------------------ rules


class NamedId(Doc):
    id: str
    name: str


class TablesIndex(Doc):
    severity: str
    damage_tables: list[NamedId]
    body_parts: list[NamedId]
    tracks: list[NamedId]
    diseases: list[NamedId]
    poisons: list[NamedId]


class TableOut(Doc):
    kind: str


class RollOut(Doc):
    table: str
    d20: int
    typed: bool
    severity: str
    severity_name: str
    injury: str
    name: str
    text: str
    no_natural_healing: bool
    magic_only: bool


class SheetFile(Strict):
    filename: Str(200) = Field(description="The file's name: .json (Foundry actor export or party file), "  # type: ignore[valid-type]
                                           ".yaml/.yml or .csv (party file).")
    content: Str(2_000_000, 1) = Field(description="The file's text.")  # type: ignore[valid-type]


class ImportIn(Strict):
    files: list[SheetFile] = Field(min_length=1, max_length=20)


class ImportOut(Doc):
    added: list[str]
    updated: list[str]
    lines: list[str]
    characters: list[CharacterOut]
