"""What every command gets: the CLI's environment (database, campaign, language, output), its service and console."""

from __future__ import annotations

import json
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator

import click

if TYPE_CHECKING:
    from ...application.service import Service
    from ...domain.engine.context import Context


@dataclass
class Env:
    db: str | None
    campaign: str | None
    json: bool
    content: tuple[str, ...]
    dice: tuple[int, ...] = ()
    expect_version: int | None = None
    _service: Service | None = field(default=None, repr=False)

    @property
    def service(self) -> Service:
        if self._service is None:
            from ...application.requests import Request
            from ...application.service import Service

            self._service = Service.open(self.db, self.content, create=_creates_database())
            if self.expect_version is not None:  # the same check as the API's If-Match
                self._service.request = Request(expected_version=self.expect_version)
        return self._service

    def campaign_name(self) -> str:
        return self.service.current(self.campaign)

    def act(self, decision: Callable[[Context], list[dict[str, Any]]]) -> tuple[Any, list[dict[str, Any]]]:
        return self.service.act(self.campaign_name(), decision, dice=self.dice)

    def emit(self, doc: Any, render: Callable[[Any], None] | None = None) -> None:
        if self.json or render is None:
            click.echo(json.dumps(doc, ensure_ascii=False, indent=2, default=str))
        elif typesets_french():
            with french_marks():
                render(console())
        else:
            render(console())


def typesets_french() -> bool:
    """Whether what is printed is typeset as French is (a space before the high marks): the catalog says so, its
    colon having a space before it (typeset.colon)."""
    from ...presentation.typeset import colon

    return colon().startswith((" ", "\u00a0", "\u202f"))


_MARKS = re.compile(r"(?<=[^\s\d/])([:;!?])(?=\s|$|\x1b)")  # a colon after a word, not in 12:05 or https://


class _French:
    """stdout as French is typeset: a space before ":", ";", "!" and "?" that follow a word ("Éloïse :",
    "Jet d'attaque ;"), as the web pages do; everything else passes through."""

    def __init__(self, out: Any) -> None:
        self._out = out

    def write(self, text: str) -> int:
        self._out.write(_MARKS.sub(r" \1", text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._out, name)


@contextmanager
def french_marks() -> Iterator[None]:
    import sys

    real = sys.stdout
    sys.stdout = _French(real)  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout = real


def console() -> Any:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True, emoji=False)  # a name like :fire: stays text


pass_env = click.make_pass_decorator(Env)

# the commands that may make a new database file; the others refuse to (a typo in --db makes no empty file)
CREATING = {("campaign", "create"), ("import",), ("serve",), ("admin-secret",)}


def _creates_database() -> bool:
    ctx = click.get_current_context(silent=True)
    names: list[str] = []
    while ctx is not None and ctx.parent is not None:
        names.insert(0, ctx.info_name or "")
        ctx = ctx.parent
    return tuple(names) in CREATING
