"""Ruleset options: declared once in content (options.yaml), set per campaign."""

from __future__ import annotations

import json
from typing import Any

from .. import dice
from ..errors import UsageError

_TRUE = {"true", "yes", "on", "1", "oui", "vrai"}
_FALSE = {"false", "no", "off", "0", "non", "faux"}


def effective_options(rules: Any, overrides: dict[str, Any]) -> dict[str, Any]:
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


def parse_option_value(rules: Any, option_id: str, text: str) -> Any:
    """Turn a GM's text into a checked option value, or raise UsageError saying what is allowed."""
    opt = rules.get("options", option_id)
    raw = text.strip()
    if opt.type == "bool":
        if raw.lower() in _TRUE:
            return True
        if raw.lower() in _FALSE:
            return False
        raise UsageError(f"option {option_id} takes true or false, not {text!r}")
    if opt.type == "choice":
        if raw not in opt.choices:
            raise UsageError(f"option {option_id} takes one of {', '.join(opt.choices)}, not {text!r}")
        return raw
    if opt.type == "int":
        try:
            return int(raw)
        except ValueError:
            raise UsageError(f"option {option_id} takes a whole number, not {text!r}") from None
    if opt.type == "dice":
        dice.parse(raw)
        return raw
    if raw.startswith(("[", "{")):
        try:
            value = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise UsageError(f"option {option_id}: not valid JSON ({exc.msg})") from None
    elif opt.type == "list":
        value = [part.strip() for part in raw.split(",") if part.strip()]
    else:
        value = {}
        for part in filter(None, (p.strip() for p in raw.split(","))):
            key, sep, val = part.partition("=")
            if not sep:
                raise UsageError(f"option {option_id} takes key=value pairs separated by commas, not {text!r}")
            value[key.strip()] = val.strip()
    expected = list if opt.type == "list" else dict
    if not isinstance(value, expected):
        raise UsageError(f"option {option_id} takes a {opt.type}, not {text!r}")
    return value
