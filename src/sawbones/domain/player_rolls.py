"""Who rolls the saves the engine asks for: the GM (typed, or rolled by the server) or the character's player.

The option `who_rolls` (gm | players | ask) gives the campaign's default; an action's own choice (`rolls`,
CLI `--rolls`) wins. `--auto` without a choice means the server rolls everything (as before). A save that
waits for a die is a pending roll (afflictions.PendingSave) that records whom it waits for (`to`: gm or
player; an NPC's always waits for the GM) and what it is (`kind`: a periodic save, or an exposure's initial
save). `answer` settles it: typed (a total or a d20) or rolled by the server ("roll for me"), recorded
with who answered (`by`) and how; with `confirm_player_answers`, a player's answer waits as a proposal the
GM confirms or rejects.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from ..errors import RuleViolation, UsageError
from .evolve import handles
from .state import Campaign

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
            raise UsageError(f"who rolls: {', '.join(ROUTES)}, not {choice!r}", "rolls")
        return choice
    if auto:
        return GM
    return options.get("who_rolls", GM)


def routed_to(how: str, character: Any) -> str:
    """Whom one roll of this character waits for under the action's routing: the player, or the GM."""
    if character.npc or how == GM:
        return GM
    if how == ASK:
        raise UsageError(f"who rolls {character.name}'s save? The campaign's option who_rolls is ask: "
                         "say --rolls gm or --rolls players", "rolls")
    return PLAYER


# kind -> settle(ctx, pending, total, d20) -> events: the action a pending roll interrupted, made with the die
DEFERRED: dict[str, Callable[[Any, Any, int | None, int | None], list[Event]]] = {}
WOUND_FORT, TREATMENT = "wound_fort", "treatment"


def deferred(kind: str) -> Callable:
    def register(fn: Callable[[Any, Any, int | None, int | None], list[Event]]) -> Callable:
        DEFERRED[kind] = fn
        return fn

    return register


def defer(ctx: Any, character: Any, kind: str, save: str, dc: int, args: dict[str, Any], rolls: str | None,
          ) -> list[Event] | None:
    """The pending roll that stands for an action when it routes this roll to the character's player (the action
    is made again with the die once answered, see DEFERRED), else None: the GM's roll, made now."""
    from .timeline import PENDING_EVENT

    if routed_to(route(ctx.options, rolls), character) != PLAYER:
        return None
    state = ctx.state
    return [{"type": PENDING_EVENT, "data": {
        "id": f"p{state.counter + 1}", "character": character.id, "affliction": "", "at": state.clock, "dc": dc,
        "target": state.clock, "save": save, "to": PLAYER, "kind": kind, "route": GM, "args": args}}]


@deferred(WOUND_FORT)
def _wound_fort(ctx: Any, pending: Any, total: int | None, d20: int | None) -> list[Event]:
    """A wound whose Fortitude save (to ignore it, LOC-7) the player rolled."""
    from .wounds import wound

    a = dict(pending.args)
    return wound(ctx, pending.character, a["part"], a["damage"], a.get("side"), a.get("superficial"), total,
                 a.get("cause", ""), rolls=GM, fort_d20=d20)


@deferred(TREATMENT)
def _treatment(ctx: Any, pending: Any, total: int | None, d20: int | None) -> list[Event]:
    """A treatment whose check the healer's player rolled (the healer is the pending roll's character)."""
    from .injury_care import treat

    a = dict(pending.args)
    return treat(ctx, a["patient"], a["injury"], total, pending.character, rolls=GM, check_d20=d20)


def how_answered(roll: bool, total: int | None) -> str:
    return "rolled" if roll else ("total" if total is not None else "d20")


# ---------------------------------------------------------------- answering


def find_pending(state: Campaign, pending_id: str) -> Any:
    pending = next((p for p in state.pending if p.id == pending_id), None)
    if pending is None:
        known = ", ".join(p.id for p in state.pending) or "none"
        raise UsageError(f"no pending save {pending_id!r} (pending: {known})")
    return pending


def _proposal_die(ctx: Any, pending: Any) -> dict[str, Any]:
    """'Roll for me' under confirm_player_answers: the die is rolled now (the player sees it), applied later."""
    from . import saves
    from .afflictions_decide import read_save

    character = ctx.state.character(pending.character)
    if pending.kind == TREATMENT:  # the healer's check, self-treatment's disadvantage included
        from .injury_care import _treatment_check

        reading = _treatment_check(ctx, character, ctx.state.character(dict(pending.args)["patient"]) or character)
    else:
        reading = read_save(ctx, character, pending.save)
    if reading.terms.auto_fail:
        return {"total": reading.bonus}
    return {"d20": ctx.roller.roll(saves.D20[reading.terms.mode], f"{pending.save} save for {pending.id}")}


def answer(ctx: Any, pending_id: str, total: int | None = None, d20: int | None = None, auto: bool = False, *,
           roll: bool = False, by: str = GM, player: str | None = None, confirm: bool = False,
           reject: bool = False) -> list[Event]:
    """Someone's die for a pending roll (see the module's doc). `player`: the character whose player answers
    (their own roll only). `confirm` / `reject`: the GM's word on a player's proposal."""
    from .afflictions_decide import settle_and_resume

    pending = find_pending(ctx.state, pending_id)
    proposed = dict(pending.proposed)
    if by == PLAYER:
        if pending.character != player:
            raise RuleViolation(f"{pending.id} is not your character's roll")
        if pending.to != PLAYER:
            raise RuleViolation(f"{pending.id} waits for the GM's die, not the player's")
        if proposed:
            raise RuleViolation(f"{pending.id} is already answered: it waits for the GM's confirmation")
    if confirm or reject:
        if not proposed:
            raise UsageError(f"{pending.id} has no player's answer to {'confirm' if confirm else 'reject'}")
        if reject:
            return [{"type": "answer_rejected", "data": {"id": pending.id, "character": pending.character}}]
        total, d20, roll, by = proposed.get("total"), proposed.get("d20"), False, PLAYER
        how = proposed["how"]
    else:
        if not roll and total is None and d20 is None:
            raise UsageError("give the save's TOTAL (or --d20 N to add the character's bonus, or --roll)")
        how = how_answered(roll, total)
    if by == PLAYER and not confirm and ctx.options.get("confirm_player_answers"):
        die = _proposal_die(ctx, pending) if roll else {k: v for k, v in (("total", total), ("d20", d20))
                                                        if v is not None}
        return [{"type": "answer_proposed", "data": {"id": pending.id, "character": pending.character,
                                                     "by": PLAYER, "how": how, **die}}]
    return settle_and_resume(ctx, pending, total, d20, auto, {"by": by, "how": how})


@handles("answer_proposed")
def _answer_proposed(state: Campaign, d: dict[str, Any]) -> Campaign:
    proposal = tuple((k, d[k]) for k in ("how", "d20", "total") if d.get(k) is not None)
    return replace(state, pending=tuple(replace(p, proposed=proposal) if p.id == d["id"] else p
                                        for p in state.pending))


@handles("answer_rejected")
def _answer_rejected(state: Campaign, d: dict[str, Any]) -> Campaign:
    return replace(state, pending=tuple(replace(p, proposed=()) if p.id == d["id"] else p for p in state.pending))
