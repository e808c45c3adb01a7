"""The web layer's own errors (access refused, cross-site requests): `status` is their HTTP status (errors.py
maps them and the project's errors to the one error shape)."""

from __future__ import annotations

from ....errors import SawbonesError
from ....message import Message, msg


class WebError(SawbonesError):
    """Errors of the web layer itself (access, cross-site requests); `status` is the HTTP status."""

    status = 400
    headers: dict[str, str] = {}


class Unauthorized(WebError):
    code = "unauthorized"
    status = 401
    headers = {"WWW-Authenticate": "Bearer"}


class Forbidden(WebError):
    code = "forbidden"
    status = 403
    heading: Message | None = None  # the error page's title; None: "Error"


class SignInNeeded(Forbidden):
    """A GM's page opened without signing in: the same 403 "forbidden" for programs; the page says what it is."""

    heading = msg("GM sign-in needed")


NO_PLAYER_LINK = msg("This player link is unknown or its character is gone.")
