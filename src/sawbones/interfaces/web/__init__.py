"""The table's web app: the JSON API (/api), the GM dashboard and player pages, live updates (SSE).

Only `sawbones serve` (and the tests) build the app: `create_app` imports FastAPI and Jinja2 when
called, so the CLI can use `web.access.security` without them. The modules are grouped by concern: http/ (what
every request goes through), access/, api/, pages/ (with templates/ and static/), live/ (the streams).
"""

from typing import Any


def create_app(*args: Any, **kwargs: Any) -> Any:
    from .app import create_app as make

    return make(*args, **kwargs)


__all__ = ["create_app"]
