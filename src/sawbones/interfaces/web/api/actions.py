"""The GM's actions, declared once: each becomes `POST /api/campaigns/{campaign}/{name}` (JSON body)
and a dashboard form posted to `/c/{campaign}/act/{name}` (same model, same decision, same document).

A rule module adds its actions in its own web module (api/*.py) with `@action(...)`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from pydantic import BaseModel

from ....message import msg
from ....numbers import parse_int

# run(service, campaign, body) -> the response document (in the request's language: language.py)
Runner = Callable[[Any, str, Any], dict[str, Any]]


@dataclass(frozen=True)
class Action:
    name: str
    body: type[BaseModel] | None
    response: type[BaseModel]
    run: Runner
    summary: str
    description: str = ""
    path: str | None = None  # default /{name}
    status_code: int = 200
    api: bool = True  # False: a dashboard form only (its API route is written by hand)
    tags: tuple[str, ...] = ("actions",)
    form_lists: tuple[str, ...] = field(default=())  # form fields that are comma-separated lists
    body_optional: bool = False  # the JSON body may be left out (`undo`: the action meant is optional)
    on_lane: bool = True  # False: in the thread pool (reading files the client sent: writers_lane.run_action)


ACTIONS: dict[str, Action] = {}


def register(act: Action) -> Action:
    ACTIONS[act.name] = act
    return act


def decided(decide: Callable[[Any], Callable[[Any], list[dict]]], report: Callable[..., dict[str, Any]]) -> Runner:
    """A runner from `decide(body) -> decision(ctx) -> events` and `report(service, state, events)`."""

    def run(service: Any, campaign: str, body: Any) -> dict[str, Any]:
        def render(state: Any, events: list[dict]) -> dict[str, Any]:
            return {**report(service, state, events), "version": state.version}

        return service.answer(campaign, decide(body), render)[2]

    return run


def form_to_body(act: Action, form: Any) -> dict[str, Any]:
    """A dashboard form as the action's JSON body: empty fields are absent; lists are repeated fields or
    comma-separated text; nested `parts.0.amount` fields become lists of objects; checkboxes are true."""
    out: dict[str, Any] = {}
    nested: dict[str, dict[int, dict[str, Any]]] = {}
    fields = act.body.model_fields if act.body is not None else {}
    for key, value in form.multi_items():
        if key in fields and hasattr(value, "filename") and hasattr(value, "file"):  # an uploaded file
            if value.filename:
                out.setdefault(key, []).append({"filename": value.filename,
                                                "content": value.file.read().decode("utf-8-sig", "replace")})
            continue
        if key in ("csrf", "back", "expected_version") or not isinstance(value, str):
            continue
        value = value.strip()
        if value == "":
            continue
        if key.count(".") == 2:
            name, index, sub = key.split(".")
            number = parse_int(index, 0, 999)
            if number is not None:
                nested.setdefault(name, {}).setdefault(number, {})[sub] = value
            continue
        if key.endswith("_text") and key[:-5] in fields:  # "str=14,con=12" for a dict field
            out[key[:-5]] = _pairs(value)
            continue
        if key not in fields:
            out[key] = value  # unknown: the model says so
            continue
        annotation = str(fields[key].annotation)
        if key in act.form_lists or annotation.startswith("list"):
            out.setdefault(key, [])
            out[key] += [part.strip() for part in value.split(",") if part.strip()]
        elif "bool" in annotation and value in ("on", "1", "true", "yes"):
            out[key] = True
        else:
            out[key] = value
    for name, items in nested.items():
        out[name] = [items[i] for i in sorted(items)]
    return {key: _whole(key, value, fields[key].annotation) if key in fields else value for key, value in out.items()}


def _whole(where: str, value: Any, annotation: Any) -> Any:
    """A form's text meant for a whole number, read by numbers.parse_int (pydantic would take "1_000" and "12.0"),
    in lists, pairs and nested objects too; text that is not one is a clear 422 naming the field."""
    import types
    import typing

    from ....errors import UsageError

    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return _whole(where, value, args[0])
    if origin in (typing.Union, types.UnionType):
        meant = [a for a in args if a is not type(None)]
        return _whole(where, value, meant[0]) if len(meant) == 1 else value
    if annotation is int and isinstance(value, str):
        number = parse_int(value, signed=True)
        if number is None:
            raise UsageError(msg("{where}: a whole number, not {value}", where=where, value=repr(value[:20])), where)
        return number
    if origin is list and args and isinstance(value, list):
        return [_whole(f"{where}[{i}]", item, args[0]) for i, item in enumerate(value)]
    if origin is dict and len(args) == 2 and isinstance(value, dict):
        return {k: _whole(f"{where}.{k}", v, args[1]) for k, v in value.items()}
    fields = getattr(annotation, "model_fields", None)
    if isinstance(fields, dict) and isinstance(value, dict):
        return {k: _whole(f"{where}.{k}", v, fields[k].annotation) if k in fields else v for k, v in value.items()}
    return value


def _pairs(text: str) -> dict[str, str] | str:
    """NAME=NUMBER pairs as the CLI reads them (the model checks the numbers); anything else stays text."""
    out: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        if not sep:
            return text
        out[key.strip().lower()] = value.strip()
    return out
