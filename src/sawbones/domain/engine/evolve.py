"""evolve(state, event) -> state: the only place state changes. Pure; no dice, no clock, no I/O.

An event is a JSON-ready dict ``{"type": ..., "data": {...}}``; every die result it needs is inside.
"""

from __future__ import annotations

from typing import Any, Callable

from .state import Body, Campaign, Character, id_number, with_fields

Event = dict[str, Any]
class UnknownEventType(KeyError):
    """No handler for this event type (a newer sawbones, or a content pack that is not loaded wrote it)."""


Handler = Callable[[Campaign, dict[str, Any]], Campaign]
_HANDLERS: dict[str, Handler] = {}
_MINTS: dict[str, str] = {}
KEYED = "request_keyed"  # an action's idempotency key (application/requests.py): kept even when undone
REQUEST_WINDOW = 86400.0  # seconds a key is remembered  # event type -> where in its data the instance id it hands out is ("id", "state.id")


def handles(event_type: str, mints: str | None = None) -> Callable[[Handler], Handler]:
    """Register the event's handler; `mints` names the data field holding an instance id the event hands out."""

    def register(fn: Handler) -> Handler:
        _HANDLERS[event_type] = fn
        if mints:
            _MINTS[event_type] = mints
        return fn

    return register


_RULE_MODULES_LOADED = False


def _load_rule_modules() -> None:
    """Rule modules (injuries, wounds, afflictions) register their own event handlers on import."""
    global _RULE_MODULES_LOADED
    _RULE_MODULES_LOADED = True
    from .effects import _load_providers

    _load_providers()


def event_types() -> tuple[str, ...]:
    return tuple(sorted(_HANDLERS))


def evolve(state: Campaign, event: Event) -> Campaign:
    if not _RULE_MODULES_LOADED:
        _load_rule_modules()
    handler = _HANDLERS.get(event["type"])
    if handler is None:
        raise UnknownEventType(event["type"])
    return with_fields(handler(state, event["data"]), version=state.version + 1)


def passed_over(state: Campaign, event: Event) -> Campaign:
    """An undone event (or an undo marker) changes nothing but two counters: the state's version still
    counts it (a state's version is its log version), and the id it handed out is never handed out
    again (ids never lie, across undo and replay)."""
    if not _RULE_MODULES_LOADED:
        _load_rule_modules()
    path = _MINTS.get(event["type"])
    value: Any = event["data"]
    for part in (path.split(".") if path else ()):
        value = value.get(part) if isinstance(value, dict) else None
    counter = max(state.counter, id_number(value)) if isinstance(value, str) else state.counter
    if event["type"] == KEYED:
        state = _request_keyed(state, event["data"])
    return with_fields(state, version=state.version + 1, counter=counter)


@handles(KEYED)
def _request_keyed(state: Campaign, d: dict[str, Any]) -> Campaign:
    """Remember the key for REQUEST_WINDOW seconds after it was used, with the version of this event."""
    kept = tuple(r for r in state.requests if r[3] > d["at"] - REQUEST_WINDOW and r[0] != d["key"])
    return with_fields(state, requests=kept + ((d["key"], d["digest"], state.version + 1, d["at"]),))


def fold(events: list[Event], state: Campaign | None = None) -> Campaign:
    current = state if state is not None else Campaign(name="")
    for event in events:
        current = evolve(current, event)
    return current


def _pairs(value: Any) -> tuple[tuple[str, Any], ...]:
    if isinstance(value, dict):
        return tuple(value.items())
    return tuple(tuple(p) for p in value)


_CHARACTER_FIELDS: dict[str, Callable[[Any], Any]] = {
    "name": str, "max_hp": int, "hp": int, "npc": bool, "abilities": _pairs, "saves": _pairs, "skills": _pairs,
    "proficiencies": tuple, "hit_die": int, "hit_dice": int, "hit_dice_max": int, "notes": str,
    "body": lambda b: Body(**b), "dead": bool, "stable": bool, "external": tuple,
    "speed": lambda v: None if v is None else int(v),
}


def _character_fields(data: dict[str, Any]) -> dict[str, Any]:
    return {k: _CHARACTER_FIELDS[k](v) for k, v in data.items() if k in _CHARACTER_FIELDS}


def _update(state: Campaign, character_id: str, **changes: Any) -> Campaign:
    current = next(c for c in state.characters if c.id == character_id)
    return state.with_character(with_fields(current, **changes))


def _character(state: Campaign, character_id: str) -> Character:
    return next(c for c in state.characters if c.id == character_id)


# ---------------------------------------------------------------- campaign


@handles("campaign_created")
def _campaign_created(state: Campaign, d: dict[str, Any]) -> Campaign:
    return Campaign(name=d["name"], system=d["system"], seed=d["seed"], content_packs=tuple(d.get("content_packs", ())))


@handles("campaign_renamed")
def _campaign_renamed(state: Campaign, d: dict[str, Any]) -> Campaign:
    return with_fields(state, name=d["name"])


@handles("content_packs_set")
def _content_packs_set(state: Campaign, d: dict[str, Any]) -> Campaign:
    return with_fields(state, content_packs=tuple(d["content_packs"]))


@handles("option_set")
def _option_set(state: Campaign, d: dict[str, Any]) -> Campaign:
    options = dict(state.options)
    if d.get("reset"):
        options.pop(d["option"], None)
    else:
        options[d["option"]] = d["value"]
    return with_fields(state, options=tuple(sorted(options.items())))


@handles("clock_advanced")
def _clock_advanced(state: Campaign, d: dict[str, Any]) -> Campaign:
    return with_fields(state, clock=state.clock + d["seconds"])


# ---------------------------------------------------------------- characters


@handles("character_added")
def _character_added(state: Campaign, d: dict[str, Any]) -> Campaign:
    fields = _character_fields(d)
    return with_fields(state, characters=state.characters + (Character(id=d["id"], **fields),))


@handles("character_edited")
def _character_edited(state: Campaign, d: dict[str, Any]) -> Campaign:
    return _update(state, d["id"], **_character_fields(d["changes"]))


@handles("character_removed")
def _character_removed(state: Campaign, d: dict[str, Any]) -> Campaign:
    return with_fields(state, characters=tuple(c for c in state.characters if c.id != d["id"]))


# ---------------------------------------------------------------- hit points


@handles("hp_changed")
def _hp_changed(state: Campaign, d: dict[str, Any]) -> Campaign:
    """Damage, HP loss or healing already resolved: the new HP (and max HP) values."""
    changes: dict[str, Any] = {"hp": d["hp"]}
    if "max_hp" in d:
        changes["max_hp"] = d["max_hp"]
    if "stable" in d:
        changes["stable"] = d["stable"]
    if "hit_dice" in d:
        changes["hit_dice"] = d["hit_dice"]
    if d.get("prone"):  # fell unconscious, and prone (hit_points.falls_prone)
        changes["prone"] = True
    return _update(state, d["character"], **changes)


@handles("noted")
def _noted(state: Campaign, d: dict[str, Any]) -> Campaign:
    """Something worth the log that changes no state: a save made, an action lost."""
    return state


@handles("character_stabilized")
def _character_stabilized(state: Campaign, d: dict[str, Any]) -> Campaign:
    return _update(state, d["character"], stable=True)


@handles("damage_taken")
def _damage_taken(state: Campaign, d: dict[str, Any]) -> Campaign:
    if d.get("prone"):  # fell unconscious, and prone (hit_points.falls_prone)
        return _update(state, d["character"], hp=d["hp"], stable=False, prone=True)
    return _update(state, d["character"], hp=d["hp"], stable=False)


@handles("character_died")
def _character_died(state: Campaign, d: dict[str, Any]) -> Campaign:
    return _update(state, d["character"], dead=True, hp=min(0, _character(state, d["character"]).hp))
