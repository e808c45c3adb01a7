"""Who reads a request, and in which language: set once per request, for everything below it.

A page is read in the language its address asks (`?lang=`, then kept in a cookie), else the one the browser
prefers (`Accept-Language`), else English; the API in `?lang=`, else `Accept-Language`, else English. The audience
is "api" under /api (the fields of its bodies, its parameters), else "page" (the labels of the forms).
`reading(scope)` sets both (presentation.locale's contexts) around the whole request: the app's `__call__`.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Annotated, Any, Iterator
from urllib.parse import parse_qs

from fastapi import Depends, Query
from pydantic import AfterValidator
from pydantic_core import PydanticCustomError
from starlette.requests import cookie_parser

from ....presentation.locale import addressing, languages, speaking

LANG_COOKIE = "sawbones_lang"
def _spoken_in_schema(schema: dict[str, Any]) -> None:
    """The OpenAPI schema of `?lang=` names exactly the languages the server speaks when it is asked (a catalog
    on $SAWBONES_LOCALE_PATH counts): any other value, the empty one too, is answered 422."""
    for part in schema.get("anyOf", [schema]):
        if part.get("type") == "string":
            part["enum"] = list(languages())


LangQuery = Query(alias="lang", description="Language of rule text: en, or a language sawbones has a catalog "
                  "for (fr; $SAWBONES_LOCALE_PATH adds others). Default: Accept-Language, else en.",
                  json_schema_extra=_spoken_in_schema)


def spoken(asked: str | None) -> str | None:
    """`?lang=` when sawbones speaks it, read when the request comes (a catalog on $SAWBONES_LOCALE_PATH counts);
    else refused as a pattern mismatch naming the languages it speaks, as pydantic words one (`^(en|fr)$`)."""
    if asked is None or asked in languages():
        return asked
    raise PydanticCustomError("string_pattern_mismatch", "String should match pattern '{pattern}'",
                              {"pattern": f"^({'|'.join(languages())})$"})


async def asked_language(asked: Annotated[str | None, LangQuery, AfterValidator(spoken)] = None) -> None:
    """The API's `?lang=` (declared here for the routes that document it; `reading` sets the language)."""


def accept_language(header: str | None) -> str | None:
    """The first language sawbones speaks that the browser prefers (by q-value), or None."""
    known = languages()
    best: tuple[float, int, str] | None = None
    for index, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        tag = tag.strip().replace("-", "_")  # fr-CA is fr (or fr_CA, when a catalog has that name); qps is qps
        code = next((c for c in (tag, tag.lower(), tag.split("_")[0].lower()) if c in known), None)
        if code is None:
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0 and (best is None or (q, -index) > (best[0], best[1])):
            best = (q, -index, code)
    return best[2] if best else None


def asked(query: str) -> str | None:
    """The language `?lang=` asks for, when sawbones speaks it."""
    values = parse_qs(query, keep_blank_values=True).get("lang") if "lang" in query else None
    return values[-1] if values and values[-1] in languages() else None


def is_api(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


def language_of(path: str, query: str, headers: dict[str, str]) -> str:
    """The language a request is read in (see the module's docstring)."""
    chosen = asked(query)
    if chosen is None and not is_api(path):
        kept = cookie_parser(headers.get("cookie", "")).get(LANG_COOKIE)
        chosen = kept if kept in languages() else None
    return chosen or accept_language(headers.get("accept-language")) or "en"


@contextmanager
def reading(scope: dict[str, Any]) -> Iterator[None]:
    """The request's language and audience, for everything made while it is served."""
    path = scope.get("path", "")
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
    query = scope.get("query_string", b"").decode("latin-1")
    with speaking(language_of(path, query, headers)), addressing("api" if is_api(path) else "page"):
        yield


Language = Depends(asked_language)  # a route's `dependencies=[Language]`: it documents and checks `?lang=`
