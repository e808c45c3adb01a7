"""The application service: load a campaign (fold its log), decide, append. CLI and API both call this."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from typing import Any, Callable

from ..adapters.sqlite_store import SqliteStore, StoredEvent
from ..content.loader import Rules, load_rules
from ..domain.evolve import Event, evolve
from ..domain.options import effective_options
from ..domain.rolls import Roller
from ..domain.state import Campaign
from ..errors import RuleViolation, UsageError

UNDO = "action_undone"
CURRENT_KEY = "current_campaign"


@dataclass(frozen=True)
class Loaded:
    campaign_id: int
    state: Campaign
    head: int  # last stored version (including undone actions and undo markers)
    next_action: int
    actions: tuple[tuple[int, str, bool], ...]  # (action, first event type, undone)


@dataclass(frozen=True)
class Context:
    """What a decision gets: the state, the rules, the options and a roller."""

    state: Campaign
    rules: Rules
    options: dict[str, Any]
    roller: Roller


Decision = Callable[[Context], list[Event]]


def replay(stored: list[StoredEvent]) -> tuple[Campaign, tuple[tuple[int, str, bool], ...]]:
    """Fold the log, skipping undone actions; also list the actions for the log view."""
    undone = {e.data["action"] for e in stored if e.type == UNDO}
    state = Campaign(name="")
    first_type: dict[int, str] = {}
    for event in stored:
        first_type.setdefault(event.action, event.type)
        if event.type == UNDO or event.action in undone:
            continue
        state = evolve(state, event.as_event())
    actions = tuple((a, t, a in undone) for a, t in first_type.items())
    return state, actions


class Service:
    def __init__(self, store: SqliteStore, packs: tuple[str, ...] = ()) -> None:
        self.store = store
        self.packs = packs

    @classmethod
    def open(cls, db: str | None = None, packs: tuple[str, ...] = ()) -> "Service":
        url = db or os.environ.get("SAWBONES_DATABASE_URL") or "sawbones.db"
        if url.startswith("sqlite:///"):
            url = url[len("sqlite:///"):]
        elif "://" in url:
            raise UsageError(f"unsupported database URL {url!r} (this build stores campaigns in SQLite files)")
        return cls(SqliteStore(url), packs)

    def rules_for(self, state: Campaign | None = None) -> Rules:
        packs = tuple(dict.fromkeys((state.content_packs if state else ()) + self.packs))
        return load_rules(packs)

    # ------------------------------------------------------------ campaigns
    def current(self, explicit: str | None = None) -> str:
        name = explicit or self.store.get_meta(CURRENT_KEY)
        if not name:
            raise UsageError("no campaign chosen: create one with `sawbones campaign create NAME` or pass --campaign")
        return name

    def use(self, name: str) -> None:
        self.store.campaign_id(name)
        self.store.set_meta(CURRENT_KEY, name)

    def create_campaign(self, name: str, system: str, seed: int | None = None,
                        packs: tuple[str, ...] = ()) -> Campaign:
        if not name.strip():
            raise UsageError("a campaign needs a name")
        if system not in ("dnd5e", "pf1e"):
            raise UsageError(f"unknown game system {system!r} (dnd5e or pf1e)")
        load_rules(tuple(packs) + self.packs)  # a bad pack must fail before anything is written
        seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        cid = self.store.create_campaign(name)
        event = {"type": "campaign_created",
                 "data": {"name": name, "system": system, "seed": seed, "content_packs": list(packs)}}
        self.store.append(cid, 0, 1, [event], self.rules_for().version)
        self.store.set_meta(CURRENT_KEY, name)
        return self.load(name).state

    def load(self, name: str) -> Loaded:
        cid = self.store.campaign_id(name)
        stored = self.store.events(cid)
        state, actions = replay(stored)
        head = stored[-1].version if stored else 0
        next_action = (max(e.action for e in stored) + 1) if stored else 1
        return Loaded(cid, state, head, next_action, actions)

    def context(self, loaded: Loaded) -> Context:
        rules = self.rules_for(loaded.state)
        return Context(loaded.state, rules, effective_options(rules, loaded.state.option_overrides()),
                       Roller.for_campaign(loaded.state.seed, loaded.head))

    def act(self, name: str, decide: Decision) -> tuple[Campaign, list[Event]]:
        """Run one action: decide on the current state, append its events atomically, return the new state."""
        loaded = self.load(name)
        ctx = self.context(loaded)
        events = decide(ctx)
        if not events:
            return loaded.state, []
        state = loaded.state
        for event in events:  # fold before writing: an event that cannot apply is never stored
            state = evolve(state, event)
        self.store.append(loaded.campaign_id, loaded.head, loaded.next_action, events, ctx.rules.version)
        return state, events

    def undo(self, name: str) -> tuple[Campaign, int]:
        loaded = self.load(name)
        candidates = [a for a, first, undone in loaded.actions if not undone and first not in (UNDO, "campaign_created")]
        if not candidates:
            raise RuleViolation("nothing to undo")
        action = candidates[-1]
        event = {"type": UNDO, "data": {"action": action}}
        self.store.append(loaded.campaign_id, loaded.head, loaded.next_action, [event], self.rules_for(loaded.state).version)
        return self.load(name).state, action

    def log(self, name: str) -> list[StoredEvent]:
        return self.store.events(self.store.campaign_id(name))
