"""Disease and poison progression tracks (seed 004, RULES-NOTES §3.3): state, the per-save step, evolve, effects.

An affliction instance sits on one or more tracks (mummy rot: two) at a stage index per track. The
pure function `step` is the whole per-save transition (advance, cure streak, elimination, end
state, permanent effects); decisions (decide.py) roll dice around it, and an odds
calculator can run the very same function over a Markov chain.

Statuses: ``active`` (periodic saves run), ``eliminated`` (a poison out of the system, or a disease
halted by a spell: no more saves, the victim stays on its stage), ``end_state`` (absorbing: only
miracle or wish), ``cured`` (every track healthy; kept only while permanent effects or ability
damage remain, then dropped).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Iterable

from ...frozen import frozen
from ...content import schema as s
from ...message import Message, N_, msg
from ..engine.effects import ActiveEffect, option_matches, provider
from ..engine.evolve import _character, handles
from ..engine.state import UNIT_SECONDS, Campaign, id_number

if TYPE_CHECKING:
    from ...content.rules import Rules

ACTIVE, ELIMINATED, END_STATE, CURED = "active", "eliminated", "end_state", "cured"
# a status in a message's words
STATUS = {ACTIVE: N_("running"), ELIMINATED: N_("out of the system"), CURED: N_("cured"),
          END_STATE: N_("at its end state")}


def status(a: "AfflictionState") -> Message:
    """The affliction's status in a message's words (a disease out of the system is halted)."""
    return msg("halted") if a.status == ELIMINATED and a.kind == "disease" else msg(STATUS[a.status])


@frozen
class Permanent:
    """A condition that outlasts the stage that gave it (blinding sickness, slimy doom, demon fever)."""

    condition: str
    removed_by: tuple[str, ...]
    stage: str  # the stage whose reaching made it permanent


@frozen
class AfflictionState:
    id: str  # d1 (a disease), t2 (a poison), a3 (an affliction stored before ids said the kind): new_id
    affliction: str  # content id
    kind: str  # disease | poison
    dc: int
    tracks: tuple[str, ...]
    stages: tuple[int, ...]  # index on each track
    status: str = ACTIVE
    contracted_at: int = 0
    next_save_at: int | None = None
    saves_left: int | None = None  # poison: periodic saves still to make (None: until cured)
    streak: int = 0  # consecutive successful saves toward the cure
    failures: int = 0  # failed saves banked toward the next stage (failures_per_stage)
    onset_stages: tuple[int, ...] = ()  # first_step_timing=after_onset: stages taken when the onset ends
    spells: tuple[tuple[str, int], ...] = ()  # cure spells landed (id, clock) toward a several-spell cure
    permanent: tuple[Permanent, ...] = ()
    ability_damage: tuple[tuple[str, int], ...] = ()
    rest: int = 0  # poison recovery progress, in half-steps
    rest_at: int = 0  # when the last rest was counted (or the poison left the system)
    rested: bool = False  # a rest was counted since it left the system: the next night is another night (care.py)

    def leftovers(self) -> bool:
        return bool(self.permanent or self.ability_damage)


PREFIX = {"disease": "d", "poison": "t"}  # t for toxin; before, every affliction got `a<n>` (those keep it)


def new_id(state: Campaign, kind: str) -> str:
    """The id of a new affliction: its kind's letter and the campaign's next number (ids never lie:
    an `a<n>` stored before keeps its id and its number stays spent)."""
    return f"{PREFIX[kind]}{state.counter + 1}"


# ---------------------------------------------------------------- serialization (events carry whole states)


def to_dict(a: AfflictionState) -> dict[str, Any]:
    return {
        "id": a.id, "affliction": a.affliction, "kind": a.kind, "dc": a.dc, "tracks": list(a.tracks),
        "stages": list(a.stages), "status": a.status, "contracted_at": a.contracted_at,
        "next_save_at": a.next_save_at, "saves_left": a.saves_left, "streak": a.streak, "failures": a.failures,
        "onset_stages": list(a.onset_stages), "spells": [list(p) for p in a.spells],
        "permanent": [{"condition": p.condition, "removed_by": list(p.removed_by), "stage": p.stage}
                      for p in a.permanent],
        "ability_damage": [list(p) for p in a.ability_damage], "rest": a.rest, "rest_at": a.rest_at,
        "rested": a.rested,
    }


def from_dict(d: dict[str, Any]) -> AfflictionState:
    return AfflictionState(
        id=d["id"], affliction=d["affliction"], kind=d["kind"], dc=d["dc"], tracks=tuple(d["tracks"]),
        stages=tuple(d["stages"]), status=d["status"], contracted_at=d["contracted_at"],
        next_save_at=d["next_save_at"], saves_left=d["saves_left"], streak=d["streak"], failures=d["failures"],
        onset_stages=tuple(d["onset_stages"]), spells=tuple((p[0], p[1]) for p in d["spells"]),
        permanent=tuple(Permanent(p["condition"], tuple(p["removed_by"]), p["stage"]) for p in d["permanent"]),
        ability_damage=tuple((p[0], p[1]) for p in d["ability_damage"]), rest=d["rest"], rest_at=d["rest_at"],
        rested=bool(d.get("rested")),  # (states stored before it: False)
    )


# ---------------------------------------------------------------- reading the content


def interval(defn: s.Affliction) -> int:
    return defn.frequency.every * UNIT_SECONDS[defn.frequency.unit]


def stage_index(track: s.Track, stage_id: str) -> int | None:
    return next((i for i, st in enumerate(track.stages) if st.id == stage_id), None)


def end_index(track: s.Track) -> int | None:
    """Index of the track's end state (None: no end state, like blue whinnis)."""
    if track.end_state is not None:
        return stage_index(track, track.end_state)
    return next((i for i, st in enumerate(track.stages) if st.end_state), None)


def stage_effects(rules: Rules, stage: s.Stage) -> list[s.Effect]:
    """A stage's own effects plus those of the stage it inherits (custom tracks)."""
    out = list(stage.effects)
    seen = set()
    while stage.inherit and stage.inherit not in seen:
        seen.add(stage.inherit)
        track_id, _, stage_id = stage.inherit.partition(".")
        track = rules.tracks[track_id]
        stage = track.stages[stage_index(track, stage_id)]
        out.extend(stage.effects)
    return out


def reached_stages(rules: Rules, a: AfflictionState) -> Iterable[tuple[str, s.Stage]]:
    """(track id, stage) for every stage whose effects apply now (cumulative tracks: all up to the current)."""
    for track_id, index in zip(a.tracks, a.stages):
        track = rules.tracks[track_id]
        stages = track.stages[1:index + 1] if track.cumulative else track.stages[index:index + 1] if index else ()
        for stage in stages:
            yield track_id, stage


def kills(rules: Rules, track: s.Track, index: int) -> bool:
    """Whether this stage means death: it (or a stage it inherits) imposes the `dead` condition."""
    return any(isinstance(e, s.ConditionEffect) and e.condition == "dead"
               for e in stage_effects(rules, track.stages[index]))


def floor_index(a: AfflictionState, defn: s.Affliction, rules: Rules, options: dict[str, Any], i: int,
                ignore: str | None = None) -> int:
    """The best stage track i can recover to (0 = healthy) given the affliction's recovery floors.

    `ignore`: a spell being cast; floors it lifts do not count.
    """
    track = rules.tracks[a.tracks[i]]
    best = 0
    for floor in defn.recovery_floors:
        if not option_matches(floor, options) or (ignore is not None and ignore in floor.lifted_by):
            continue
        if floor.once_reached is not None:
            reached = stage_index(track, floor.once_reached)
            if reached is None or a.stages[i] < reached:
                continue
        if floor.floor is None:
            best = max(best, a.stages[i])
        else:
            target = stage_index(track, floor.floor)
            if target is not None:
                best = max(best, min(target, a.stages[i]))
    return best


# ---------------------------------------------------------------- the per-save transition


def advance_stages(a: AfflictionState, steps: tuple[int, ...] | int, rules: Rules, options: dict[str, Any],
                   ) -> tuple[AfflictionState, list[dict[str, Any]]]:
    """Move down the tracks (a number of steps on every track, or a target index per track)."""
    defn = rules.afflictions[a.affliction]
    facts: list[dict[str, Any]] = []
    new_stages = []
    ended = died = False
    for i, (track_id, index) in enumerate(zip(a.tracks, a.stages)):
        track = rules.tracks[track_id]
        last = len(track.stages) - 1
        end = end_index(track)
        cap = end if end is not None else last
        target = index + steps if isinstance(steps, int) else max(index, steps[i])
        target = min(target, cap)
        if target != index:
            facts.append({"what": "stage", "track": track_id, "from": track.stages[index].id,
                          "to": track.stages[target].id})
        if end is not None and target == end:
            ended = True
            died = died or kills(rules, track, target)
        new_stages.append(target)
    new = replace(a, stages=tuple(new_stages))
    new, perm_facts = _permanent_triggers(a, new, defn, rules, options)
    facts += perm_facts
    if ended:
        new = replace(new, status=END_STATE, next_save_at=None, streak=0, failures=0)
        facts.append({"what": "end_state"})
        if died:
            facts.append({"what": "death"})
    return new, facts


def _permanent_triggers(old: AfflictionState, new: AfflictionState, defn: s.Affliction, rules: Rules,
                        options: dict[str, Any]) -> tuple[AfflictionState, list[dict[str, Any]]]:
    """Affliction triggers `on: stage_entered`: a track reached or passed their stage."""
    facts = []
    permanent = list(new.permanent)
    for effect in defn.effects:
        if not (isinstance(effect, s.Trigger) and effect.on == "stage_entered" and effect.stage
                and option_matches(effect, options)):
            continue
        for i, track_id in enumerate(new.tracks):
            target = stage_index(rules.tracks[track_id], effect.stage)
            if target is None or not old.stages[i] < target <= new.stages[i]:
                continue
            outcome = effect.outcome
            if outcome.condition and outcome.permanent:
                removers = tuple(outcome.removed_by) + tuple(options.get(outcome.removed_by_option, ()) or ()
                                                            if outcome.removed_by_option else ())
                if not any(p.condition == outcome.condition for p in permanent):
                    permanent.append(Permanent(outcome.condition, tuple(dict.fromkeys(removers)), effect.stage))
                    facts.append({"what": "permanent", "condition": outcome.condition})
            break
    return replace(new, permanent=tuple(permanent)), facts


def recede_stages(a: AfflictionState, steps: int, rules: Rules, options: dict[str, Any],
                  ignore_floor_of: str | None = None) -> tuple[AfflictionState, list[dict[str, Any]]]:
    """Move back toward healthy (never past a recovery floor); every track healthy means cured."""
    defn = rules.afflictions[a.affliction]
    facts = []
    new_stages = []
    for i, (track_id, index) in enumerate(zip(a.tracks, a.stages)):
        track = rules.tracks[track_id]
        target = max(index - steps, floor_index(a, defn, rules, options, i, ignore_floor_of), 0)
        target = min(target, index)
        if target != index:
            facts.append({"what": "stage", "track": track_id, "from": track.stages[index].id,
                          "to": track.stages[target].id})
        new_stages.append(target)
    new = replace(a, stages=tuple(new_stages))
    if not any(new_stages):
        new = replace(new, status=CURED, next_save_at=None, saves_left=None, streak=0, failures=0, rest=0,
                      onset_stages=(), spells=())
        facts.append({"what": "cured"})
    return new, facts


def eliminate(a: AfflictionState, why: str, at: int) -> tuple[AfflictionState, list[dict[str, Any]]]:
    """The poison leaves the system (or a disease is halted): no more saves; the victim stays on its stage."""
    if not any(a.stages):
        return replace(a, status=CURED, next_save_at=None, saves_left=None, streak=0, onset_stages=()), \
            [{"what": "eliminated", "why": why}, {"what": "cured"}]
    return (replace(a, status=ELIMINATED, next_save_at=None, streak=0, failures=0, onset_stages=(), rest=0,
                    rest_at=at, rested=False),
            [{"what": "eliminated", "why": why}])


def land_onset(a: AfflictionState, rules: Rules, options: dict[str, Any]) -> tuple[AfflictionState, list[dict[str, Any]]]:
    """The first step that waits for the onset's end (first_step_timing: after_onset) lands before the save
    that follows: the save is made on the new stage (and takes its penalties)."""
    if not a.onset_stages:
        return a, []
    return advance_stages(replace(a, onset_stages=()), a.onset_stages, rules, options)


def step(a: AfflictionState, succeeded: bool, rules: Rules, options: dict[str, Any], *, periodic: bool = True,
         ) -> tuple[AfflictionState, list[dict[str, Any]]]:
    """One save against an active affliction: the new state and what happened (facts).

    Pure and dice-free: the odds module can enumerate `step(state, True/False)` as a Markov chain.
    `periodic=False` is a save against an extra dose: it advances on a failure but does not use up a
    periodic save or move the schedule.
    """
    if a.status != ACTIVE:
        raise ValueError(f"affliction {a.id} is {a.status}: no saves")
    defn = rules.afflictions[a.affliction]
    facts: list[dict[str, Any]] = []
    new = a
    at = a.next_save_at if a.next_save_at is not None else a.contracted_at
    if periodic and a.onset_stages:  # first_step_timing = after_onset: the first step lands now
        new, more = land_onset(new, rules, options)
        facts += more
        if new.status != ACTIVE:
            return new, facts
    cure = defn.cure
    if succeeded:
        fails = 0 if options.get("centipede_failures_consecutive") else new.failures
        new = replace(new, failures=fails)
        if cure.consecutive_saves and not cure.magic_only:
            streak = new.streak + 1
            if streak >= cure.consecutive_saves:
                new = replace(new, streak=0)
                if defn.kind == "poison":
                    new, more = eliminate(new, "cure", at)
                    facts += more
                else:
                    new, more = recede_stages(new, 1, rules, options)
                    facts += [{"what": "cure_step"}] + more
            else:
                new = replace(new, streak=streak)
    else:
        new = replace(new, streak=0)
        steps = 1
        rule = defn.failures_per_stage
        if rule is not None and _past(new, rules, rule.after):
            banked = new.failures + 1
            steps, banked = (1, 0) if banked >= rule.count else (0, banked)
            new = replace(new, failures=banked)
            if not steps:
                facts.append({"what": "failure_banked", "failures": banked, "needed": rule.count})
        if steps:
            new, more = advance_stages(new, steps, rules, options)
            facts += more
    if periodic and new.status == ACTIVE:
        left = None if new.saves_left is None else new.saves_left - 1
        new = replace(new, saves_left=left, next_save_at=(new.next_save_at or at) + interval(defn))
        if left is not None and left <= 0:
            new, more = eliminate(replace(new, saves_left=0), "duration", at)
            facts += more
    return new, facts


def _past(a: AfflictionState, rules: Rules, stage_id: str) -> bool:
    """Whether every track that has this stage is on it or beyond."""
    found = False
    for track_id, index in zip(a.tracks, a.stages):
        target = stage_index(rules.tracks[track_id], stage_id)
        if target is not None:
            found = True
            if index < target:
                return False
    return found


def save_triggers(a: AfflictionState, succeeded: bool, rules: Rules, options: dict[str, Any]) -> list[s.Trigger]:
    """Triggers `on: affliction_save` that a save (before its result moves the track) sets off."""
    defn = rules.afflictions[a.affliction]
    wanted = "succeeded" if succeeded else "failed"
    effects = list(defn.effects) + [e for _, stage in reached_stages(rules, a) for e in stage_effects(rules, stage)]
    return [e for e in effects if isinstance(e, s.Trigger) and e.on == "affliction_save"
            and option_matches(e, options) and (e.result in (None, "any", wanted))]


def poison_damage(dc: int, options: dict[str, Any]) -> int:
    """(DC - 10) / 2 hit points (TRK-15), rounded per initial_damage_rounding, at least 0."""
    raw = dc - 10
    mode = options.get("initial_damage_rounding", "floor")
    if mode == "ceil":
        value = -((-raw) // 2)
    elif mode == "nearest":
        value = (raw + 1) // 2 if raw >= 0 else -((-raw + 1) // 2)
    else:
        value = raw // 2
    return max(0, value)


# ---------------------------------------------------------------- evolve


def _store(state: Campaign, character_id: str, data: dict[str, Any]) -> Campaign:
    character = _character(state, character_id)
    new = from_dict(data)
    kept = [a for a in character.afflictions if a.id != new.id]
    if not (new.status == CURED and not new.leftovers()):
        index = next((i for i, a in enumerate(character.afflictions) if a.id == new.id), len(kept))
        kept.insert(index, new)
    counter = max(state.counter, id_number(new.id))
    return replace(state.with_character(replace(character, afflictions=tuple(kept))), counter=counter)


@handles("affliction_contracted", mints="state.id")
@handles("affliction_changed", mints="state.id")
@handles("affliction_saved", mints="state.id")
@handles("affliction_recovered", mints="state.id")
@handles("affliction_spell", mints="state.id")
def _affliction_state(state: Campaign, d: dict[str, Any]) -> Campaign:
    if "state" not in d:  # a spell that failed its caster level check: nothing changes
        return state
    return _store(state, d["character"], d["state"])


@handles("affliction_exposed")
def _affliction_exposed(state: Campaign, d: dict[str, Any]) -> Campaign:
    return state  # the record of an exposure and its save; changes come in the events that follow


@handles("affliction_removed")
def _affliction_removed(state: Campaign, d: dict[str, Any]) -> Campaign:
    character = _character(state, d["character"])
    return state.with_character(replace(character, afflictions=tuple(
        a for a in character.afflictions if a.id != d["affliction"])))


# ---------------------------------------------------------------- active effects


def effects_key(a: AfflictionState) -> tuple[Any, ...]:
    """What the provider below reads of an instance, names and the affliction's own notes aside: instances
    with the same key put the same effects on every roll, whatever the affliction (the odds ask the roll
    query once per key). Keep it in step with the provider."""
    return (a.tracks, a.stages, a.permanent, a.ability_damage)


@provider
def _affliction_effects(character: Any, rules: Rules, options: dict[str, Any]) -> Iterable[ActiveEffect]:
    for a in character.afflictions:
        defn = rules.afflictions.get(a.affliction)
        if defn is None:
            continue
        for track_id, stage in reached_stages(rules, a):
            for effect in stage_effects(rules, stage):
                # a symptom of the track: condition removers do not apply (TRK-11)
                yield ActiveEffect(effect, "affliction", a.id, a.affliction, defn.name,
                                   {"stage": stage.id, "track": track_id, "symptom": True})
        if a.status in (ACTIVE, ELIMINATED, END_STATE):
            for effect in defn.effects:
                if isinstance(effect, s.NoteEffect):
                    yield ActiveEffect(effect, "affliction", a.id, a.affliction, defn.name,
                                       {"stage": None, "track": None, "symptom": True})
        for p in a.permanent:
            effect = s.ConditionEffect(type="condition", condition=p.condition, permanent=True)
            yield ActiveEffect(effect, "affliction", a.id, a.affliction, defn.name,
                               {"stage": p.stage, "track": None, "symptom": True, "permanent": True,
                                "removed_by": list(p.removed_by)})
        for ability, amount in a.ability_damage:
            effect = s.AbilityChange(type="ability", ability=ability, change=-amount)
            yield ActiveEffect(effect, "affliction", a.id, a.affliction, defn.name,
                               {"stage": None, "track": None, "ability_damage": True})
