"""The route of a GM action: FastAPI's own, with a shorter way through for the regular request.

FastAPI's generic handling of a request (solving the route's dependency tree parameter by parameter,
reading the content type with the e-mail parser, its telemetry hooks) took about a sixth of a worker's CPU
per GM action. A regular request is solved here by calling the same pieces directly:

- regular: a JSON body (`Content-Type: application/json`), at most `?lang=`, and an `Idempotency-Key` and an
  `If-Match` no longer than they are declared (deps.py), the campaign's name within its declared bounds;
- the same pieces: the route's bearer scheme, `deps.gm_access`, the body validated by the route's own body
  field, the route's own endpoint, the answer serialized by FastAPI's own `serialize_response`.

Anything else (no body, a body that is not valid JSON or not the model, another query parameter, a header
too long, another content type) takes FastAPI's own way, which answers it as it always did: the short way
never answers an error of its own. An error the action itself raises (a 409, a wrong secret) is raised in the
same order and answered by the same handlers either way. The OpenAPI document is FastAPI's, unchanged.
"""

from __future__ import annotations

from typing import Annotated, Any, Callable, Coroutine

from fastapi import Request, Response
from fastapi.routing import APIRoute, serialize_response
from fastapi.utils import is_body_allowed_for_status_code
from pydantic import TypeAdapter, ValidationError

from ....presentation.locale import languages
from .deps import CampaignName, IdempotencyKey, IfMatch, bearer, gm_access

Handler = Callable[[Request], Coroutine[Any, Any, Response]]


def _checker(info: Any) -> Callable[[Any], bool]:
    """True when a text meets the parameter's declared constraints (its own FieldInfo, validated by pydantic)."""
    adapter = TypeAdapter(Annotated[str, info])

    def fits(value: Any) -> bool:
        try:
            adapter.validate_python(value)
        except ValidationError:
            return False
        return True

    return fits


_CAMPAIGN, _KEY, _IF_MATCH = (_checker(info) for info in (CampaignName, IdempotencyKey, IfMatch))


def _spoken(value: str) -> bool:
    """A language sawbones speaks now (language.spoken: a catalog added on $SAWBONES_LOCALE_PATH counts)."""
    return value in languages()


def _regular_query(query: bytes) -> bool:
    """A regular query: empty, or only a valid `lang=` (language.py set the request's language from it)."""
    if not query:
        return True
    name, sep, value = query.decode("latin-1").partition("=")
    return name == "lang" and bool(sep) and _spoken(value)


def _json_body(request: Request) -> bool:
    kind = request.headers.get("content-type")
    return kind is not None and kind.partition(";")[0].strip().lower() == "application/json"


class ActionRoute(APIRoute):
    """`POST /api/campaigns/{campaign}/{action}`: see the module's docstring."""

    def get_route_handler(self) -> Handler:
        standard = super().get_route_handler()
        if not is_body_allowed_for_status_code(self.status_code):
            return standard

        async def handler(request: Request) -> Response:
            solved = await self.solve_regular(request)
            if solved is None:
                return await standard(request)
            answer = await self.endpoint(**solved)
            if isinstance(answer, Response):
                return answer
            content = await serialize_response(field=self.response_field, response_content=answer, dump_json=True)
            return Response(content=content, status_code=self.status_code, media_type="application/json")

        return handler

    async def solve_regular(self, request: Request) -> dict[str, Any] | None:
        """The endpoint's arguments, as FastAPI would solve them, for a regular request; None for any other."""
        regular = _regular_query(request.scope.get("query_string", b""))
        campaign = request.path_params.get("campaign")
        headers = request.headers
        key, if_match = headers.get("idempotency-key"), headers.get("if-match")
        if not (regular and _CAMPAIGN(campaign) and (key is None or _KEY(key))
                and (if_match is None or _IF_MATCH(if_match))):
            return None
        solved: dict[str, Any] = {"request": request}
        if self.body_field is not None:
            if not _json_body(request):
                return None
            try:
                document = await request.json()
            except ValueError:
                return None
            body, errors = self.body_field.validate(document, {}, loc=("body",))
            if errors:
                return None
            solved["body"] = body
        solved["gm"] = await gm_access(request, campaign, await bearer(request), key, if_match, None)
        return solved
