"""The application service: load a campaign (fold its log), decide, append. CLI and API both call this.

Loading costs the same with 100 or 100,000 events: the fold starts from the newest usable state
snapshot (a cache in the store, rebuilt from the log whenever in doubt) or from this process's own
last state of the campaign, and folds only the tail. A snapshot is usable when it was made by the
same fold code (code_version) and no undo marker after it reverts an action it contains; otherwise
an older snapshot, or the full log, is used. Snapshots are written every SNAPSHOT_EVERY events.

Acting takes turns: a writer holds the store's writer turn (adapters/locks.py: first come, first
served in a process, a lock shared by every process) across load, decide and append, so writers
queue instead of refusing each other; a turn that does not come within the deadline (locks.lock_wait)
is refused with a clear line. The append still names the version it read: should another writer
get in first anyway (one that takes no turn), the command is decided again on the new state (at
most RETRIES times); a command the new state no longer allows fails with its own clear error, and
nothing is ever written twice. Decisions must therefore be pure functions of their Context.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import field
from functools import cached_property
from typing import Any, Callable

from ..frozen import frozen
from ..content.rules import Rules
from ..content.loader import load_rules
from ..domain.engine.context import Ctx as Context  # what a decision gets: state, rules, options, roller
from ..domain.engine.evolve import Event, evolve
from ..domain.engine.options import effective_options
from ..domain.engine.rolls import Roller
from ..domain.engine.state import Campaign
from ..errors import ConflictError, NoDatabase, PackMissing, RuleViolation, StoreError, StorePlaceError, UsageError
from ..message import Option, PerAudience, msg
from . import requests
from .memory import MEMORY, _Base, _writer_turn
from .folding import code_version, fold_tail, read_snapshot, replay, seal  # noqa: F401 (replay: re-exported)
from .requests import Request

UNDO = "action_undone"
CREATED = "campaign_created"
PACKS_SET = "content_packs_set"
RENAMED = "campaign_renamed"  # not undoable: the campaign's row carries the name too
CURRENT_KEY = "current_campaign"
SNAPSHOT_EVERY = 100  # events between two stored snapshots
KEEP_SNAPSHOTS = 3  # per campaign; older ones let a load survive undos that reach behind the newest
RETRIES = 8  # re-decisions after a ConflictError (a writer that did not take its turn: an older sawbones)


def resolve_packs(packs: Any) -> tuple[str, ...]:
    """Content pack folders as absolute paths (a relative one would break from another directory)."""
    from pathlib import Path  # here: a command without packs imports no pathlib

    return tuple(str(Path(p).expanduser().resolve()) for p in packs)


@frozen
class Loaded:
    campaign_id: int
    state: Campaign
    head: int  # last stored version (including undone actions and undo markers)
    next_action: int
    _actions: Callable[[], tuple[tuple[int, str, bool], ...]] = field(default=lambda: (), repr=False, compare=False)

    @cached_property
    def actions(self) -> tuple[tuple[int, str, bool], ...]:
        """(action, first event type, undone) for the whole log (read on demand: it grows with the log)."""
        return self._actions()


Decision = Callable[[Context], list[Event]]


class Service:
    def __init__(self, store: Any, packs: tuple[str, ...] = (), *, snapshot_every: int = SNAPSHOT_EVERY,
                 keep_snapshots: int = KEEP_SNAPSHOTS, retries: int = RETRIES, memory_cache: bool = True) -> None:
        self.store = store
        self.packs = packs
        self.snapshot_every = snapshot_every
        self.keep_snapshots = keep_snapshots
        self.retries = retries
        self.memory_cache = memory_cache and bool(getattr(store, "database_id", None))
        self._db = f"{getattr(store, 'database_id', '')}@{getattr(store, 'where', '')}"
        self._rebuild: set[int] = set()  # campaigns whose newest snapshot could not be read
        self.request: Request | None = None  # what the client attached to this service's actions (web: per request)

    @classmethod
    def open(cls, db: str | None = None, packs: tuple[str, ...] = (), create: bool = True) -> "Service":
        """db: a SQLite file path, sqlite:///path or postgresql+psycopg://... (default $SAWBONES_DATABASE_URL,
        then ./sawbones.db)."""
        target = db or os.environ.get("SAWBONES_DATABASE_URL") or "sawbones.db"
        if "://" not in target or target.startswith("sqlite:///"):
            path = os.path.expanduser(target.removeprefix("sqlite:///"))
            folder = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(folder):
                raise StorePlaceError(msg("cannot open the database: the folder {folder} does not exist (create it, or choose "
                                     "another {option})", folder=folder, option=Option("db")))
            if not create and not os.path.exists(path):
                raise NoDatabase(msg("no database at {path} yet: create a campaign first (`sawbones campaign create NAME`), "
                                     "or choose another {option}", path=path, option=Option("db")))
        from ..adapters.backends import open_store  # a current database: the DB-API driver, no SQLAlchemy

        return cls(open_store(target), packs)

    def group_commit(self) -> Any:
        """A context in which this thread's writes share one transaction and one COMMIT (the store's batch)."""
        return self.store.batch()

    def close(self) -> None:
        self.store.close()

    def rules_for(self, state: Campaign | None = None) -> Rules:
        for pack in state.content_packs if state else ():
            if not os.path.isdir(pack):
                raise PackMissing(msg("{said}", said=PerAudience(
                    cli=msg("campaign {campaign} loads the content pack {pack}, which is not there: put it back, or point "
                            "the campaign to it with `campaign set --pack DIR`", campaign=repr(state.name), pack=pack),
                    api=msg("campaign {campaign} loads the content pack {pack}, which is not there: put it back on the "
                            "server", campaign=repr(state.name), pack=pack))))
        packs = tuple(dict.fromkeys((state.content_packs if state else ()) + self.packs))
        return load_rules(packs)

    # ------------------------------------------------------------ campaigns
    def current(self, explicit: str | None = None) -> str:
        name = explicit or self.store.get_meta(CURRENT_KEY)
        if not name:
            raise UsageError(msg("no campaign chosen: create one with `sawbones campaign create NAME` or pass {option}",
                                 option=Option("campaign")))
        return self.resolve(name)

    def resolve(self, name: str) -> str:
        """The stored campaign name a typed one means: exact, else case- and accent-blind (domain/engine/names.py)."""
        from ..domain.engine.names import pick

        found = pick(name, self.store.campaign_names(), lambda n: (n,), "campaign")
        if found is None:
            self.store.campaign_id(name)  # NotFound, naming the known campaigns
        return found or name

    def use(self, name: str) -> None:
        name = self.resolve(name)
        self.store.set_meta(CURRENT_KEY, name)
        return name

    def set_packs(self, name: str, packs: tuple[str, ...]) -> Campaign:
        """The content packs the campaign loads, from now on (resolved; each must load)."""
        packs = resolve_packs(packs)
        rules = load_rules(tuple(packs) + self.packs)  # the new packs must load; the old ones may be gone
        cid = self.store.campaign_id(self.resolve(name))
        loaded = self._load(cid)
        event = {"type": PACKS_SET, "data": {"content_packs": list(packs)}}
        state = evolve(loaded.state, event)
        self.store.append(cid, loaded.head, loaded.next_action, [event], rules.version)
        return state

    def rename_campaign(self, name: str, new_name: str) -> str:
        """Give a campaign a new name (the one name rule applies); its log records the rename."""
        from ..domain.engine.names import check_name, pick

        name = self.resolve(name)
        new_name = check_name(new_name, "campaign")
        other = pick(new_name, self.store.campaign_names(), lambda n: (n,), "campaign")
        if other is not None and other != name:
            raise UsageError(msg("a campaign named {name} already exists", name=repr(other)))
        cid = self.store.campaign_id(name)
        loaded = self._load(cid)
        event = {"type": RENAMED, "data": {"name": new_name, "was": name}}
        self.store.rename_campaign(cid, loaded.head, loaded.next_action, event, self.rules_for(loaded.state).version)
        self._forget(cid)
        if self.store.get_meta(CURRENT_KEY) == name:
            self.store.set_meta(CURRENT_KEY, new_name)
        return new_name

    def create_campaign(self, name: str, system: str, seed: int | None = None,
                        packs: tuple[str, ...] = ()) -> Campaign:
        from ..domain.engine.names import check_name, pick

        name = check_name(name, "campaign")
        other = pick(name, self.store.campaign_names(), lambda n: (n,), "campaign")
        if other is not None:
            raise UsageError(msg("a campaign named {name} already exists", name=repr(other)))
        if system not in ("dnd5e", "pf1e"):
            raise UsageError(msg("unknown game system {system} (dnd5e or pf1e)", system=repr(system)))
        packs = resolve_packs(packs)  # stored resolved: the campaign works from any directory
        load_rules(tuple(packs) + self.packs)  # a bad pack must fail before anything is written
        seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        event = {"type": CREATED,
                 "data": {"name": name, "system": system, "seed": seed, "content_packs": list(packs)}}
        self.store.create_campaign(name, [event], self.rules_for().version)  # the row and its first event, atomically
        self.store.set_meta(CURRENT_KEY, name)
        return self.load(name).state

    # ------------------------------------------------------------ loading
    def load(self, name: str) -> Loaded:
        cid = self.store.campaign_id(name)
        return self._load(cid)

    def load_id(self, cid: int) -> Loaded:
        """`load` by the campaign's store id."""
        return self._load(cid)

    def _load(self, cid: int) -> Loaded:
        for _ in range(3):
            loaded = self._try_load(cid)
            if loaded is not None:
                return loaded
        return self._full_load(cid)  # pragma: no cover - concurrent undos kept reaching into every base

    def _actions_of(self, cid: int, head: int) -> Callable[[], tuple[tuple[int, str, bool], ...]]:
        """The action list as of `head` (later actions by other GMs are not this Loaded's business)."""

        def compute() -> tuple[tuple[int, str, bool], ...]:
            undone = {action for _, action in self.store.undo_markers(cid, upto=head)}
            return tuple((a, first, a in undone) for a, first in self.store.actions(cid, upto=head))

        return compute

    def _full_load(self, cid: int) -> Loaded:
        stored = self.store.events(cid)
        state, actions = replay(stored)
        loaded = self._finish(cid, _Base(0, 0, Campaign(name="")), state, stored)
        return Loaded(loaded.campaign_id, loaded.state, loaded.head, loaded.next_action, lambda: actions)

    def _tail(self, cid: int, base: _Base) -> list[Any] | None:
        """The events after the base, or None if the log does not hold the base's last event as remembered."""
        rows = self.store.events(cid, after=base.version - 1)
        if not rows or rows[0].version != base.version:
            return None
        if base.stamp is not None and rows[0].created_at != base.stamp:
            return None
        return rows

    @staticmethod
    def _reaches_into(base: _Base, tail: list[Any]) -> bool:
        """An undo after the base reverts an action folded into it: the base is no good."""
        return any(e.type == UNDO and e.data["action"] <= base.action for e in tail)

    def _try_load(self, cid: int) -> Loaded | None:
        memory = MEMORY.get((self._db, cid)) if self.memory_cache else None
        if memory is not None and memory.state is not None:
            rows = self._tail(cid, memory)
            if rows is not None and not self._reaches_into(memory, rows[1:]):
                return self._finish(cid, memory, fold_tail(memory.state, rows[1:]), rows[1:], rows[0])
            self._forget(cid)
        if self.snapshot_every <= 0:
            return self._full_load(cid)
        snaps = self.store.snapshots(cid, code_version())
        if not snaps:
            return self._full_load(cid)
        markers = self.store.undo_markers(cid, after=min(s.version for s in snaps))
        for snap in snaps:
            if any(v > snap.version and action <= snap.action for v, action in markers):
                continue
            state = self._read_snapshot(cid, snap.version)
            if state is None:
                continue
            base = _Base(snap.version, snap.action, state, snap.version, snap.content_version)
            rows = self._tail(cid, base)
            if rows is None:
                continue
            if self._reaches_into(base, rows[1:]):
                return None  # an undo reaching into it arrived meanwhile: choose again
            return self._finish(cid, base, fold_tail(state, rows[1:]), rows[1:], rows[0])
        return self._full_load(cid)

    def _finish(self, cid: int, base: _Base, state: Campaign, tail: list[Any], base_event: Any = None) -> Loaded:
        """Remember the folded state; store a snapshot when the last one is SNAPSHOT_EVERY events behind."""
        last = tail[-1] if tail else base_event
        head = last.version if last is not None else base.version
        action = last.action if last is not None else base.action
        content = last.content_version if last is not None else base.content_version
        stamp = last.created_at if last is not None else base.stamp
        snapshot_at = base.snapshot_at
        rebuild = cid in self._rebuild  # a damaged snapshot was met: a good one replaces it now
        if self.snapshot_every > 0 and (head - snapshot_at >= self.snapshot_every or rebuild):
            if self._save_snapshot(cid, head, action, state, content):
                snapshot_at = head
                self._rebuild.discard(cid)
        self._remember(cid, _Base(head, action, state, snapshot_at, content, stamp))
        return Loaded(cid, state, head, action + 1, self._actions_of(cid, head))

    def _read_snapshot(self, cid: int, version: int) -> Campaign | None:
        """The snapshot's state, or None (a damaged one is ignored with a warning, and rebuilt)."""
        state = read_snapshot(self.store, cid, version)
        if state is False:
            self._rebuild.add(cid)
            return None
        return state

    def _remember(self, cid: int, base: _Base) -> None:
        if self.memory_cache:
            MEMORY.put((self._db, cid), base)

    def _forget(self, cid: int) -> None:
        if self.memory_cache:
            MEMORY.drop((self._db, cid))

    def _save_snapshot(self, cid: int, head: int, action: int, state: Campaign, content: str) -> bool:
        """Best effort: a snapshot that cannot be written only makes a later load slower."""
        from ..adapters.store import SnapshotInfo

        try:
            saved = self.store.save_snapshot(cid, SnapshotInfo(head, action, code_version(), content), seal(state),
                                             keep=self.keep_snapshots)
        except (StoreError, TypeError):
            return False
        return saved is not False

    # ------------------------------------------------------------ acting
    def context(self, loaded: Loaded, dice: tuple[int, ...] = ()) -> Context:
        rules = self.rules_for(loaded.state)
        return Context(loaded.state, rules, effective_options(rules, loaded.state.option_overrides()),
                       Roller.for_campaign(loaded.state.seed, loaded.head, dice))

    def act(self, name: str, decide: Decision, *, retries: int | None = None,
            dice: tuple[int, ...] = (), request: Request | None = None) -> tuple[Campaign, list[Event]]:
        """Run one action: decide on the current state, append its events atomically, return the new state.

        If another GM wrote first, decide again on the new state (at most `retries` times): the command
        still applies, or fails with the reason the new state refuses it. Nothing is written twice.
        `request`: an expected version (refused when the campaign moved on) and an idempotency key."""
        state, events, _ = self.answer(name, decide, lambda state, events: None, retries=retries, dice=dice,
                                       request=request or self.request)
        return state, events

    def answer(self, name: str, decide: Decision, render: Callable[[Campaign, list[Event]], Any], *,
               retries: int | None = None, dice: tuple[int, ...] = (),
               request: Request | None = None) -> tuple[Campaign, list[Event], Any]:
        """`act`, returning also `render(state, events)`, the action's answer. With an idempotency key the
        answer is recorded with the action; a retry gets that first answer back (and no events)."""
        from ..adapters.locks import lock_wait

        cid = self.store.campaign_id(name)
        attempts = (self.retries if retries is None else retries) + 1
        deadline = time.monotonic() + lock_wait()
        if not (self.memory_cache and MEMORY.get((self._db, cid))):  # cold: load and read the rules outside
            self.context(self._load(cid))  # the turn, so that inside it only what is new is read
        with _writer_turn(self.store, cid, deadline):
            return self._act(cid, decide, attempts, dice, request or self.request, render)

    def _act(self, cid: int, decide: Decision, attempts: int, dice: tuple[int, ...], request: Request | None,
             render: Callable[[Campaign, list[Event]], Any]) -> tuple[Campaign, list[Event], Any]:
        for attempt in range(attempts):
            loaded = self._load(cid)
            seen = requests.check(request, loaded.state, loaded.head, time.time())
            if seen is not None:
                return loaded.state, [], self._recorded_answer(cid, seen)
            ctx = self.context(loaded, dice)
            events = decide(ctx)
            ctx.roller.check_all_typed_used()
            if not events:
                return loaded.state, [], render(loaded.state, [])
            state = loaded.state
            keyed = requests.keyed_event(request)
            for event in events + keyed:  # fold before writing: an event that cannot apply is never stored
                state = evolve(state, event)
            answer = render(state, events)
            for event in keyed:  # the first answer, for a retry
                event["data"]["answer"] = answer
            try:
                self.store.append(cid, loaded.head, loaded.next_action, events + keyed, ctx.rules.version)
            except ConflictError:
                self._forget(cid)  # reload from the store, not from this process's memory
                if attempt + 1 >= attempts:
                    raise
                time.sleep(random.uniform(0, 0.002) * (attempt + 1))  # let the other writer's turn pass
                continue
            # not remembered: the next load folds these events as stored (what a replay will see)
            return state, events, answer
        raise AssertionError("unreachable")  # pragma: no cover

    def _recorded_answer(self, cid: int, version: int) -> Any:
        rows = self.store.events(cid, after=version - 1)
        return rows[0].data.get("answer") if rows and rows[0].type == requests.KEYED else None

    def undo(self, name: str, request: Request | None = None, action: int | None = None) -> tuple[Campaign, int]:
        """Revert the last action still in force. If someone else acted meanwhile, the undo is refused
        (retrying could revert their action instead of the one you meant). A retried undo with the same
        idempotency key reverts nothing more. `action`: the one the caller means (`undo a14`); when the last
        action in force is another (a bot's hit came after it), nothing is undone and ConflictError says so."""
        from ..adapters.locks import lock_wait

        cid = self.store.campaign_id(name)
        with _writer_turn(self.store, cid, time.monotonic() + lock_wait()):
            return self._undo(cid, request or self.request, action)

    def _undo(self, cid: int, request: Request | None, meant: int | None = None) -> tuple[Campaign, int]:
        target: int | None = None
        for attempt in range(self.retries + 1):
            loaded = self._load(cid)
            seen = requests.check(request, loaded.state, loaded.head, time.time())
            if seen is not None:
                recorded = self._recorded_answer(cid, seen) or {}
                return loaded.state, int(recorded.get("undone_action", 0))
            candidates = [a for a, first, undone in loaded.actions if not undone and first not in (UNDO, CREATED, RENAMED)]
            if not candidates:
                raise RuleViolation(msg("nothing to undo"))
            action = candidates[-1]
            if meant is not None and action != meant:
                raise ConflictError(msg("the last action is a{action}, not a{meant}: nothing was undone; look at the log "
                                        "and undo the action that came last if you mean it", action=action, meant=meant))
            if target is not None and action != target:
                raise ConflictError(msg("the campaign changed while you undid (another action came last); nothing was "
                                        "undone: look at the log and undo again if you still mean it"))
            target = action
            events = [{"type": UNDO, "data": {"action": action}}] + requests.keyed_event(request)
            for event in events[1:]:
                event["data"]["answer"] = {"undone_action": action, "version": loaded.head + len(events)}
            try:
                self.store.append(cid, loaded.head, loaded.next_action, events, self.rules_for(loaded.state).version)
            except ConflictError:
                self._forget(cid)
                if attempt >= self.retries:
                    raise
                continue
            return self._load(cid).state, action
        raise AssertionError("unreachable")  # pragma: no cover

    def log(self, name: str) -> list[Any]:
        return self.store.events(self.store.campaign_id(name))

    # ------------------------------------------------------------ export / import
    def export_campaign(self, name: str, upto: int | None = None) -> dict[str, Any]:
        from ..adapters.transfer import export_doc

        return export_doc(self.store, name, upto)

    def import_campaign(self, doc: dict[str, Any], as_name: str | None = None) -> str:
        from ..adapters.transfer import import_doc

        return import_doc(self.store, doc, as_name, check=lambda events: replay(events))
