"""Ruleset options: declared once in content (options.yaml), set per campaign."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ... import dice
from ...errors import NotFound, RuleViolation, UsageError
from ...message import msg

if TYPE_CHECKING:
    from ...content.rules import Rules


_TRUE = {"true", "yes", "on", "1", "oui", "vrai"}
_FALSE = {"false", "no", "off", "0", "non", "faux"}


def effective_options(rules: Rules, overrides: dict[str, Any]) -> dict[str, Any]:
    """Every option's value for a campaign: its own setting, else the default (or the original-text value)."""
    declared = rules.options
    follow = overrides.get("follow_original_text", declared["follow_original_text"].default
                           if "follow_original_text" in declared else False)
    values = {}
    for opt_id, opt in declared.items():
        if opt_id in overrides:
            values[opt_id] = overrides[opt_id]
        elif follow and opt.original is not None:
            values[opt_id] = opt.original
        else:
            values[opt_id] = opt.default
    return values


def parse_option_value(rules: Rules, option_id: str, text: str, system: str | None = None) -> Any:
    """Turn a GM's text into a checked option value, or raise UsageError saying what is allowed."""
    opt = rules.get("options", option_id)
    raw = text.strip()
    if opt.type == "bool":
        if raw.lower() in _TRUE | _FALSE:
            flag = raw.lower() in _TRUE
            _refuse_not_modelled(opt, flag, str(flag).lower())
            return flag
        raise UsageError(msg("option {option_id} takes true or false, not {text}", option_id=option_id, text=repr(text)))
    if opt.type == "choice":  # its id or its name in either language, accents optional (`who_rolls joueurs`)
        try:
            chosen: str = rules.resolve("options", raw, values_of=opt.id)
        except NotFound as exc:
            if "close" in getattr(exc.text, "fields", {}):  # (Rules.resolve offered close values: "did you mean …?")
                raise UsageError(exc.text) from None
            raise UsageError(msg("option {option_id} takes one of {choices}, not {text}", option_id=option_id,
                                 choices=", ".join(opt.choices), text=repr(text))) from None
        _refuse_not_modelled(opt, chosen, chosen)
        return chosen
    if opt.type == "int":
        try:
            number = int(raw)
        except ValueError:
            raise UsageError(msg("option {option_id} takes a whole number, not {text}", option_id=option_id,
                                 text=repr(text))) from None
        too_low = opt.minimum is not None and number < opt.minimum
        if too_low or (opt.maximum is not None and number > opt.maximum):
            if opt.maximum is None:
                raise UsageError(msg("option {option_id} takes a whole number from {minimum}, not {number}",
                                     option_id=option_id, minimum=opt.minimum, number=number))
            raise UsageError(msg("option {option_id} takes a whole number from {minimum} to {maximum}, not {number}",
                                 option_id=option_id, minimum=opt.minimum, maximum=opt.maximum, number=number))
        return number
    if opt.type == "dice":
        dice.parse(raw)
        return raw
    value: Any
    if raw.startswith(("[", "{")):
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise UsageError(msg("option {option_id}: not valid JSON ({detail})", option_id=option_id,
                                 detail=exc.msg)) from None
    elif opt.type == "list":
        value = [part.strip() for part in raw.split(",") if part.strip()]
    else:
        value = {}
        for part in filter(None, (p.strip() for p in raw.split(","))):
            key, sep, val = part.partition("=")
            if not sep:
                raise UsageError(msg("option {option_id} takes key=value pairs separated by commas, not {text}",
                                     option_id=option_id, text=repr(text)))
            value[key.strip()] = val.strip()
    expected = list if opt.type == "list" else dict
    if not isinstance(value, expected):
        raise UsageError(msg("option {option_id} takes a {type}, not {text}", option_id=option_id, type=opt.type,
                             text=repr(text)))
    _refuse_not_modelled(opt, value, raw)
    return _content_ids(rules, opt, value, system)


def _content_ids(rules: Rules, opt: Any, value: Any, system: str | None) -> Any:
    """A list's items and a mapping's keys and values as the content ids they name (`items_of`, `keys_of`: typed
    in either language), refused when one names nothing the program can apply (a remedy `heal --spell` does not
    know, or a spell of the other game system)."""
    def one(section: str | None, typed: Any) -> Any:
        if section is None:
            return typed
        try:
            found: str = rules.resolve(section, str(typed))
        except NotFound as exc:
            raise UsageError(msg("option {option_id}: {why}", option_id=opt.id, why=exc.text)) from None
        entry = getattr(rules, section).get(found)
        systems = getattr(entry, "systems", None)
        if system is not None and systems is not None and system not in systems:
            raise UsageError(msg("option {option_id}: {name} does not exist in {system}", option_id=opt.id,
                                 name=entry.name, system=system))
        return found

    def many(section: str | None, typed: Any) -> Any:
        return [one(section, x) for x in typed] if isinstance(typed, list) else one(section, typed)

    if isinstance(value, list):
        return many(opt.items_of, value)
    return {one(opt.keys_of, k): many(opt.items_of, v) for k, v in value.items()}


def _refuse_not_modelled(opt: Any, value: Any, shown: str) -> None:
    """A declared value the engine does not model (options.yaml `not_modelled`: the value, "true"/"false" for a
    bool, or "*" for any value but the default) is refused, saying why."""
    key = str(value).lower() if isinstance(value, bool) else value if isinstance(value, str) else None
    reason = opt.not_modelled.get(key) if key is not None else None
    if reason is None and "*" in opt.not_modelled and value != opt.default:
        reason = opt.not_modelled["*"]
    if reason is not None:
        raise RuleViolation(msg("option {option_id}: {shown} is not modelled by sawbones: {reason}", option_id=opt.id,
                                shown=shown, reason=reason))  # the content's own words (said in the reader's language)
