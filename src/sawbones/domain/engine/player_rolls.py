"""Who rolls the saves the engine asks for: the GM (typed, or rolled by the server) or the character's player.

The option `who_rolls` (gm | players | ask) gives the campaign's default; an action's own choice (`rolls`,
CLI `--rolls`) wins. `--auto` without a choice means the server rolls everything (as before). A save that
waits for a die is a pending roll (PendingSave, below) that records whom it waits for (`to`: gm or
player; an NPC's always waits for the GM) and what it is (`kind`: a periodic save, or an exposure's initial
save). `answer` settles it: typed (a total or a d20) or rolled by the server ("roll for me"), recorded
with who answered (`by`) and how; with `confirm_player_answers`, a player's answer waits as a proposal the
GM confirms or rejects.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable

from ...frozen import frozen
from ...errors import RuleViolation, UsageError
from .evolve import handles
from .state import Campaign, id_number
from ...message import PerAudience, msg

if TYPE_CHECKING:
    from .context import Context


PENDING_EVENT = "save_pending"  # a due decision that needs a die (the GM's or a player's) returns this event type
GM, PLAYERS, ASK = "gm", "players", "ask"
PLAYER = "player"  # a pending roll's `to` / an answer's `by`
PERIODIC, EXPOSURE = "periodic", "exposure"
ROUTES = (GM, PLAYERS)
Event = dict[str, Any]


def route(options: dict[str, Any], choice: str | None, auto: bool = False) -> str:
    """How an action routes the rolls it asks for: its own choice, else the server rolls (`auto`), else the
    campaign's option (`ask`: every roll a player could make must be routed by the action itself)."""
    if choice is not None:
        if choice not in ROUTES:
            raise UsageError(msg("who rolls: {choices}, not {choice}", choices=", ".join(ROUTES), choice=repr(choice)),
                             "rolls")
        return choice
    if auto:
        return GM
    route: str = options.get("who_rolls", GM)
    return route


def routed_to(how: str, character: Any) -> str:
    """Whom one roll of this character waits for under the action's routing: the player, or the GM."""
    if character.npc or how == GM:
        return GM
    if how == ASK:
        raise UsageError(msg("who rolls {name}'s save? The campaign's option who_rolls is ask: {fix}", name=character.name,
                             fix=PerAudience(cli=msg("say --rolls gm or --rolls players"),
                                             api=msg("give rolls, gm or players"),
                                             page=msg("choose who rolls in the form"))), "rolls")
    return PLAYER


# The rules register what a pending roll stands for (the engine knows no rule package):
# kind -> settle(ctx, pending, total, d20) -> events: the action a pending roll interrupted, made with the die;
# kind -> reading(ctx, character, pending): the check it rolls, when it is not the character's save `pending.save`;
# RESUME: how a settled roll resumes the interrupted advance (the progression tracks' pending saves).
Settle = Callable[[Any, Any, int | None, int | None], list[Event]]
Reading = Callable[[Any, Any, Any], Any]
Resume = Callable[[Any, Any, int | None, int | None, bool, dict[str, Any]], list[Event]]
DEFERRED: dict[str, Settle] = {}
READINGS: dict[str, Reading] = {}
RESUME: list[Resume] = []
WOUND_FORT, TREATMENT = "wound_fort", "treatment"
MOMENT, DYING = "moment", "dying"  # a trigger's save in a turn, Dash or action; a dying character's check (turns.py)


def deferred(kind: str, reading: Reading | None = None) -> Callable[[Settle], Settle]:
    """Register the action a pending roll of this kind stands for (and the check it reads, if not a save)."""
    def register(fn: Settle) -> Settle:
        DEFERRED[kind] = fn
        if reading is not None:
            READINGS[kind] = reading
        return fn

    return register


def resumes(fn: Resume) -> Resume:
    """Register how an answered roll is settled and the interrupted advance resumed (one, the tracks')."""
    RESUME[:] = [fn]
    return fn


def defer(ctx: Context, character: Any, kind: str, save: str, dc: int, args: dict[str, Any], rolls: str | None,
          ) -> list[Event] | None:
    """The pending roll that stands for an action when it routes this roll to the character's player (the action
    is made again with the die once answered, see DEFERRED), else None: the GM's roll, made now."""
    if routed_to(route(ctx.options, rolls), character) != PLAYER:
        return None
    return [pending_roll(ctx.state, character.id, kind, save, dc, args)]


def pending_roll(state: Any, character_id: str, kind: str, save: str, dc: int, args: dict[str, Any],
                 content: str | None = None) -> Event:
    """The `save_pending` event of an action's roll waiting for a player's die. An advance that some other pending
    roll interrupted resumes once the last one is answered: this one carries its target and routing on."""
    waiting = max(state.pending, key=lambda p: p.target, default=None)
    target, how = (waiting.target, waiting.route) if waiting is not None and waiting.target > state.clock \
        else (state.clock, GM)
    return {"type": PENDING_EVENT, "data": {
        "id": f"p{state.counter + 1}", "character": character_id, "affliction": "", "at": state.clock, "dc": dc,
        "target": target, "save": save, "to": PLAYER, "kind": kind, "route": how, "args": args,
        **({"content": content} if content else {})}}


def how_answered(roll: bool, total: int | None) -> str:
    return "rolled" if roll else ("total" if total is not None else "d20")


@frozen
class PendingSave:
    """A roll that waits for a die (a periodic save, an exposure's initial save, a deferred action's roll); the
    advance resumes up to `target` once answered."""

    id: str
    character: str
    affliction: str  # instance id
    at: int
    dc: int
    target: int
    save: str = "fortitude"
    to: str = "gm"  # whose die it waits for: gm | player 
    kind: str = "periodic"  # periodic | exposure (the initial save of an exposure: `content`, `deadly`)
    route: str = "gm"  # the interrupted advance's routing, for the rest of it
    content: str | None = None
    deadly: str | None = None
    proposed: tuple[tuple[str, Any], ...] = ()  # a player's answer waiting for the GM (confirm_player_answers)
    args: tuple[tuple[str, Any], ...] = ()  # what the deferred action needs to be made again (player_rolls.defer)


@handles("save_pending", mints="id")
def _save_pending(state: Campaign, d: dict[str, Any]) -> Campaign:
    pending = PendingSave(d["id"], d["character"], d["affliction"], d["at"], d["dc"], d["target"], d["save"],
                          d.get("to", "gm"), d.get("kind", "periodic"), d.get("route", "gm"), d.get("content"),
                          d.get("deadly"), (), tuple(sorted((d.get("args") or {}).items())))
    return replace(state, pending=state.pending + (pending,), counter=max(state.counter, id_number(d["id"])))


@handles("pending_cleared")
def _pending_cleared(state: Campaign, d: dict[str, Any]) -> Campaign:
    return replace(state, pending=tuple(p for p in state.pending if p.id != d["id"]))


# ---------------------------------------------------------------- answering


def find_pending(state: Campaign, pending_id: str) -> Any:
    pending = next((p for p in state.pending if p.id == pending_id), None)
    if pending is None:
        if not state.pending:
            raise UsageError(msg("no pending save {pending_id} (none is pending)", pending_id=repr(pending_id)))
        known = ", ".join(p.id for p in state.pending)
        raise UsageError(msg("no pending save {pending_id} (pending: {known})", pending_id=repr(pending_id), known=known))
    return pending


def reading(ctx: Context, character: Any, pending: Any) -> Any:
    """What applies to the roll a pending save waits for (saves.SaveReading): the check its kind registered (a
    healer's, a dying character's), else the character's save `pending.save` as the roll query reads it."""
    from . import saves

    special = READINGS.get(pending.kind)
    return special(ctx, character, pending) if special is not None else \
        saves.read(character, ctx.rules, ctx.options, ctx.state.system, pending.save)


def _proposal_die(ctx: Context, pending: Any) -> dict[str, Any]:
    """'Roll for me' under confirm_player_answers: the die is rolled now (the player sees it), applied later."""
    from . import saves

    read = reading(ctx, ctx.state.character(pending.character), pending)
    if read.terms.auto_fail:
        return {"total": read.bonus}
    return {"d20": ctx.roller.roll(saves.D20[read.terms.mode], f"{pending.save} save for {pending.id}")}


def answer(ctx: Context, pending_id: str, total: int | None = None, d20: int | None = None, auto: bool = False, *,
           roll: bool = False, by: str = GM, player: str | None = None, confirm: bool = False,
           reject: bool = False) -> list[Event]:
    """Someone's die for a pending roll (see the module's doc). `player`: the character whose player answers
    (their own roll only). `confirm` / `reject`: the GM's word on a player's proposal."""
    pending = find_pending(ctx.state, pending_id)
    proposed = dict(pending.proposed)
    if by == PLAYER:
        if pending.character != player:
            raise RuleViolation(msg("{id} is not your character's roll", id=pending.id))
        if pending.to != PLAYER:
            raise RuleViolation(msg("{id} waits for the GM's die, not the player's", id=pending.id))
        if proposed:
            raise RuleViolation(msg("{id} is already answered: it waits for the GM's confirmation", id=pending.id))
    if confirm or reject:
        if not proposed:
            raise UsageError(msg("{id} has no player's answer to confirm", id=pending.id) if confirm else
                             msg("{id} has no player's answer to reject", id=pending.id))
        if reject:
            return [{"type": "answer_rejected", "data": {"id": pending.id, "character": pending.character}}]
        total, d20, roll, by = proposed.get("total"), proposed.get("d20"), False, PLAYER
        how = proposed["how"]
    else:
        if not roll and total is None and d20 is None:
            raise UsageError(msg("{said}", said=PerAudience(
                cli=msg("give the save's TOTAL (or --d20 N to add the character's bonus, or --roll)"),
                api=msg("give the save's total (or d20 to add the character's bonus, or roll: true)"),
                page=msg("give the save's total (or the d20 to add the character's bonus, or Roll)"))))
        how = how_answered(roll, total)
    if by == PLAYER and not confirm and ctx.options.get("confirm_player_answers"):
        die = _proposal_die(ctx, pending) if roll else {k: v for k, v in (("total", total), ("d20", d20))
                                                        if v is not None}
        return [{"type": "answer_proposed", "data": {"id": pending.id, "character": pending.character,
                                                     "by": PLAYER, "how": how, **die}}]
    return RESUME[0](ctx, pending, total, d20, auto, {"by": by, "how": how})


@handles("answer_proposed")
def _answer_proposed(state: Campaign, d: dict[str, Any]) -> Campaign:
    proposal = tuple((k, d[k]) for k in ("how", "d20", "total") if d.get(k) is not None)
    return replace(state, pending=tuple(replace(p, proposed=proposal) if p.id == d["id"] else p
                                        for p in state.pending))


@handles("answer_rejected")
def _answer_rejected(state: Campaign, d: dict[str, Any]) -> Campaign:
    return replace(state, pending=tuple(replace(p, proposed=()) if p.id == d["id"] else p for p in state.pending))
