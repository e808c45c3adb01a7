"""A whole number in a query string, read by the project's one reader (numbers.parse_int), not pydantic's:
pydantic takes "1_000", " 12 " and "12.0" for 1000 and 12. Every integer query parameter is declared with
`WholeQuery` instead of FastAPI's `Query` (tests/test_page_names.py walks the routes)."""

from __future__ import annotations

from typing import Any

from fastapi import Query
from pydantic import BeforeValidator
from pydantic_core import PydanticCustomError

from ....numbers import parse_int


def whole(value: Any) -> Any:
    """A query's text as parse_int reads it (digits and an optional sign); pydantic's own error otherwise."""
    if isinstance(value, str):
        number = parse_int(value, signed=True)
        if number is None:
            raise PydanticCustomError("int_parsing", "Input should be a valid integer, unable to parse string as an "
                                                     "integer")
        return number
    return value


def WholeQuery(default: Any = ..., **constraints: Any) -> Any:  # noqa: N802 - declared as FastAPI's Query is
    """FastAPI's `Query(default, ge=…, le=…, description=…)` for a whole number, read by `whole` first. (A validator in
    the parameter's annotation is dropped when its default is a Query: it goes in the Query's own metadata.)"""
    info = Query(default, **constraints)
    info.metadata.append(BeforeValidator(whole))
    return info
