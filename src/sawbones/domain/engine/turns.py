"""Triggers that fire on moments of play the GM announces: a turn, a Dash, an action in combat.

Which triggers exist is content (trigger effects with on: turn_start, turn_end, dash,
action_in_combat, standard_action); this runs them, step by step. A dying character's turn is the hit point
model's check (damage.py; unconscious, it does nothing else). Otherwise each trigger in order: the save (typed,
or rolled with what the roll query says applies: the sheet, modifiers and conditions, advantage/disadvantage,
automatic failure; saves.py), then the outcome on a failure, or at once when there is no save.

An action or a Dash the character's state forbids is refused whole (acting.py). Of a phase's triggers, the checks
whose failure loses the action come first; once the action is lost, the triggers of acting (ACTING: what
performing the action costs, as Handicapé's hit point) are not run: a lost action is not performed. A character
who cannot act makes no check whose failure would lose the action it does not have.

A roll routed to the character's player (player_rolls: option who_rolls, the action's `rolls`) stops the
moment there: the steps made so far stand (their `noted` results and events), and a pending roll (kind
`moment`, or `dying` for the check) records where the moment resumes: the trigger it waits for and the
triggers planned after it. The answer makes that step with the player's die and runs the rest, up to the
next roll of the player. Each step is told once, in the `noted` event of the action that made it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ...content.models import dump
from ...errors import RuleViolation, UsageError
from . import hit_points, player_rolls
from . import saves as save_rolls
from .acting import can_act, refuse_if_forbidden
from .campaign import find_character
from .conditions import gained
from .damage import dying_check, dying_check_due, dying_reading, is_standing, lose_hp
from .effects import triggers_on
from .evolve import fold
from .posture import lost_event, next_turn_begins, prone_event
from .state import MINUTE
from .context import Context
from ...message import PerAudience, msg, msgs

if TYPE_CHECKING:
    from ...content.rules import Rules


Event = dict[str, Any]
MOMENTS = {"turn": ("turn_start", "turn_end"), "dash": ("dash",), "action": ("action_in_combat", "standard_action")}
# the phases that are acting: what their triggers do is a cost of performing the action, none once it is lost
ACTING = frozenset(("action_in_combat", "standard_action", "dash"))
Answer = tuple[int | None, int | None]  # a player's die for the step a moment waits on: (total, d20)


def _dc(ctx: Context, active: Any) -> int:
    dc: int | str = active.effect.save.dc
    if isinstance(dc, str):  # "affliction" (schema: an int or that word): the affliction's own DC
        affliction_dc: int = ctx.rules.afflictions[active.content_id].dc
        return affliction_dc
    return dc


def keyed_triggers(character: Any, rules: Rules, options: dict[str, Any], on: str) -> list[tuple[str, Any]]:
    """The triggers of one phase of a moment, each with a key that finds it again when the moment resumes:
    its source and its rank among that source's triggers of the phase."""
    seen: dict[tuple[str, str, str], int] = {}
    out = []
    for active in triggers_on(character, rules, options, on):
        source = (active.kind, active.source_id, active.content_id)
        seen[source] = seen.get(source, -1) + 1
        out.append((f"{on}|{active.kind}|{active.source_id}|{active.content_id}|{seen[source]}", active))
    # the checks that may lose the action come first: what the action costs follows only if it is performed
    return sorted(out, key=lambda keyed: not keyed[1].effect.outcome.lose_action)


@dataclass
class _Moment:
    """One moment being played: the state after each step, the steps' results and events."""

    ctx: Context
    character: str  # id
    moment: str
    typed: list[int]  # the GM's --save values, for the rolls that are the GM's (in order)
    how: str  # the moment's routing (player_rolls.route)
    state: Any = None
    results: list[dict[str, Any]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    paused: Event | None = None
    lost: bool = False  # the action was lost (Diminué: « perdre l'action »): it is not performed


    def apply(self, new: list[Event]) -> None:
        self.events += new
        self.state = fold(new, self.state)

    def current(self) -> Any:
        return find_character(self.state, self.character)

    def die(self, given: Answer | None) -> Answer | None:
        """The die of the next roll: the player's answer, a value the GM typed, the server's (None, None); or
        None: the roll is the player's, the moment waits for it."""
        if given is not None:
            return given
        if self.typed:
            return self.typed.pop(0), None
        if player_rolls.routed_to(self.how, self.current()) == player_rolls.PLAYER:
            return None
        return None, None

    def pause(self, kind: str, save: str, dc: int, args: dict[str, Any], content: str | None = None) -> None:
        self.paused = player_rolls.pending_roll(self.state, self.character, kind, save, dc,
                                                {"moment": self.moment, "how": self.how, **args}, content)

    def dying(self, given: Answer | None) -> bool:
        """The hit point model's check of a dying character (pf1e), which is its whole turn: unconscious, whether
        it dies, becomes stable or keeps dying, it takes no action and no trigger follows. False: not dying."""
        if not dying_check_due(self.ctx, self.current()):
            return False
        die = self.die(given)
        if die is None:
            check = hit_points.model(self.ctx.rules, self.state.system).dying_check
            self.pause(player_rolls.DYING, check.ability, check.dc, {})
            return True
        check, new = dying_check(replace(self.ctx, state=self.state), self.current(), *die)
        if check is not None:
            self.results.append(check)
            self.apply(new)
        return True

    def trigger(self, on: str, key: str, active: Any, given: Answer | None, rest: list[str]) -> None:
        ctx, effect = self.ctx, active.effect
        current = self.current()
        if "standing" in effect.while_ and not is_standing(current, ctx.rules, ctx.options):
            return
        if self.lost and on in ACTING:  # a lost action costs nothing that performing it costs
            return
        if effect.outcome.lose_action and not can_act(current, ctx.rules, ctx.options, self.state.system):
            return  # no action to lose (unconscious, stunned...): the check is not made
        result: dict[str, Any] = {"on": on, "source": active.source(), "outcome": dump(effect.outcome)}
        failed = True
        if effect.save is not None:
            dc = _dc(ctx, active)
            die = self.die(given)
            if die is None:
                where = {"phase": on, "key": key, "rest": "\n".join(rest)}
                self.pause(player_rolls.MOMENT, effect.save.save, dc, where, active.content_id)
                return
            reading = save_rolls.read(current, ctx.rules, ctx.options, self.state.system, effect.save.save)
            save = save_rolls.roll(ctx.roller, self.state.system, reading, dc,
                                   f"{active.content_id}: {effect.save.save} save", *die)
            failed = not save.pop("succeeded")
            save.pop("typed")
            result.update({**save, "failed": failed})
        if effect.chance is not None:
            d100 = ctx.roller.roll("1d100", f"{active.content_id}: {effect.chance}% chance")
            failed = failed and d100 <= effect.chance
            result["d100"] = d100
        result["applies"] = failed
        self.results.append(result)
        self.lost = self.lost or (failed and effect.outcome.lose_action)
        if failed and (effect.outcome.lose_action or effect.outcome.lose_reactions):  # until its next turn begins
            self.apply([lost_event(current, effect.outcome.lose_action, effect.outcome.lose_reactions, active,
                                   self.state.clock, next_turn=on == "turn_end")])  # (at its end: the next turn's)
        if failed and effect.outcome.fall_prone and not current.prone:  # « ou tomber »: à terre (posture.py)
            self.apply([prone_event(current, True, active.name)])
        if failed and effect.outcome.condition and not effect.outcome.permanent:
            minutes = effect.outcome.condition_minutes  # on the clock (conditions.py); else while the source lasts
            until = self.state.clock + minutes * MINUTE if minutes else None
            self.apply([gained(current, effect.outcome.condition, until, active)])
        if failed and effect.outcome.hp_loss:
            loss = ctx.roller.roll(effect.outcome.hp_loss, f"{active.content_id}: hit point loss")
            self.apply(lose_hp(ctx, current, loss, active.content_id, self.state, at_most=effect.outcome.hp_at_most,
                               injury=active.kind == "injury", stable=effect.outcome.stable))


def _play(ctx: Context, character_id: str, moment: str, typed: list[int], how: str,
          at: dict[str, Any] | None = None, given: Answer | None = None, prone: bool | None = None) -> list[Event]:
    """The steps of a moment from its start, or (`at`: a pending roll's args) from the step it waits on, made with
    the die `given`; up to its end or the next roll of the player. A turn begins by giving back an action or
    reaction lost until then (posture.py), and by the GM's `prone` (the character is prone or standing)."""
    run = _Moment(ctx, character_id, moment, typed, how, ctx.state)
    if at is None and moment == "turn":
        run.apply(next_turn_begins(run.current(), ctx.state.clock))
    if prone is not None and run.current().prone != prone:
        run.apply([prone_event(run.current(), prone)])
    mark = len(ctx.roller.made)
    phases = MOMENTS[moment]
    first, planned, waited = 0, None, None  # the phase to start at, its triggers still to run, the one answered
    dying = False
    if at is None or "phase" not in at:  # from the start, or from the dying check (answered: the turn was its)
        dying = moment == "turn" and (run.dying(given if at is not None else None) or at is not None)
    else:
        waited = at["key"]
        first, planned = phases.index(at["phase"]), [waited, *filter(None, at["rest"].split("\n"))]
    if run.paused is None and not dying and not run.current().dead:
        for on in phases[first:]:
            keyed = keyed_triggers(run.current(), ctx.rules, ctx.options, on)
            if planned is not None:  # the rest of the phase as planned when it began (a source gone: skipped)
                keyed, planned = [(k, a) for k, a in keyed if k in planned], None
            for n, (key, active) in enumerate(keyed):
                run.trigger(on, key, active, given if key == waited else None, [k for k, _ in keyed[n + 1:]])
                if run.paused is not None:
                    break
            if run.paused is not None:
                break
    if run.typed:
        name = run.current().name
        left = len(run.typed)
        raise UsageError(msg("{said}", said=PerAudience(
            cli=msgs("{n} --save value left over: {character} has fewer saves to make",
                     "{n} --save values left over: {character} has fewer saves to make", left, character=name),
            api=msgs("{n} value of saves left over: {character} has fewer saves to make",
                     "{n} values of saves left over: {character} has fewer saves to make", left, character=name),
            page=msgs("{n} save total left over: {character} has fewer saves to make",
                      "{n} save totals left over: {character} has fewer saves to make", left, character=name))))
    told: dict[str, Any] = {"character": character_id, "moment": moment, "results": run.results,
                            "rolls": list(ctx.roller.made[mark:])}
    if run.paused is None:
        return [{"type": "noted", "data": told}] + run.events
    told["waits"] = run.paused["data"]["id"]
    return ([{"type": "noted", "data": told}] if run.results else []) + run.events + [run.paused]


def run_moment(ctx: Context, name: str, moment: str, saves: list[int], rolls: str | None = None,
               prone: bool | None = None) -> list[Event]:
    """A turn, a Dash or an action of one character; `saves`: the totals the GM typed (the dying check's first),
    for the rolls that are the GM's; `rolls`: who rolls the others (player_rolls.route); `prone`: the GM says the
    character is prone (True) or standing (False) as the moment begins (posture.py)."""
    if moment not in MOMENTS:
        raise UsageError(msg("unknown moment {moment} (turn, dash, action)", moment=repr(moment)))
    character = find_character(ctx.state, name)
    if character.dead:
        raise RuleViolation(msg("{character} is dead", character=character.name))
    refuse_if_forbidden(character, ctx.rules, ctx.options, ctx.state.system, moment)
    how = player_rolls.route(ctx.options, rolls)
    waiting = next((p for p in ctx.state.pending if p.character == character.id
                    and p.kind in (player_rolls.MOMENT, player_rolls.DYING)), None)
    if waiting is not None:
        raise RuleViolation(msg("{name}'s {moment} waits for a roll ({id}): answer it first", name=character.name,
                                moment=dict(waiting.args)["moment"], id=waiting.id))
    return _play(ctx, character.id, moment, list(saves), how, prone=prone)


@player_rolls.deferred(player_rolls.MOMENT)
def _resume(ctx: Context, pending: Any, total: int | None, d20: int | None) -> list[Event]:
    """A moment whose roll the player answered: that step with their die, then the rest of the moment."""
    at = dict(pending.args)
    return _play(ctx, pending.character, at["moment"], [], at["how"], at, (total, d20))


player_rolls.deferred(player_rolls.DYING, reading=lambda ctx, character, pending: dying_reading(ctx, character))(
    _resume)
