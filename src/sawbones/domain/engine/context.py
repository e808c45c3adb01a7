"""What a decision may read: the typed `Context` every decision takes (docs/architecture.md, the flow of one action).

A decision is `fn(ctx: Context, ...) -> list[event]`: it reads the campaign state, the content (rules),
the campaign's options over the declared defaults, and rolls with the roller (every die it rolls is
recorded inside the events). The service builds one per action; the odds build `Ctx` to run the
engine's own decisions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ...frozen import frozen
from .rolls import Roller
from .state import Campaign

if TYPE_CHECKING:
    from ...content.rules import Rules


class Context(Protocol):
    """Read-only view a decision gets; a decision passes a later state on with `dataclasses.replace(ctx, state=...)`."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def state(self) -> Campaign: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def options(self) -> dict[str, Any]: ...

    @property
    def roller(self) -> Roller: ...


@frozen
class Ctx:
    """A plain Context (the odds run decisions with one)."""

    state: Campaign
    rules: Rules
    options: dict[str, Any]
    roller: Roller
