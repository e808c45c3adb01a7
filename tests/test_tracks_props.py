"""Properties: a stage never leaves its track; an end state absorbs; replay == live state."""

from __future__ import annotations

import os
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sawbones.application.service import Service
from sawbones.content.loader import load_rules
from sawbones.domain.afflictions.rules import (ACTIVE, CURED, ELIMINATED, END_STATE, AfflictionState, end_index,
                                               reached_stages, step)
from sawbones.domain.afflictions.care import spell_effect
from sawbones.domain.afflictions.decide import answer, expose
from sawbones.domain.afflictions.care import cast, recover
from sawbones.domain.engine.campaign import add_character, set_option
from sawbones.domain.engine.options import effective_options
from sawbones.domain.engine.timeline import advance
from sawbones.errors import RuleViolation, SawbonesError

RULES = load_rules()
OPTIONS = effective_options(RULES, {})
ORIGINAL = effective_options(RULES, {"follow_original_text": True})
AFFLICTIONS = sorted(RULES.afflictions)
SPELLS = ["neutralize_poison", "remove_disease", "heal", "restoration", "greater_restoration", "lesser_restoration",
          "remove_curse", "remove_blindness_deafness", "miracle"]


@st.composite
def afflicted(draw):
    affliction_id = draw(st.sampled_from(AFFLICTIONS))
    defn = RULES.afflictions[affliction_id]
    stages = tuple(draw(st.integers(1, len(RULES.tracks[t].stages) - 2)) for t in defn.tracks)
    return AfflictionState(id="a1", affliction=affliction_id, kind=defn.kind, dc=defn.dc, tracks=tuple(defn.tracks),
                           stages=stages, next_save_at=6,
                           saves_left=defn.frequency.count if defn.kind == "poison" else None)


@settings(max_examples=300, deadline=None)
@given(afflicted(), st.lists(st.booleans(), max_size=40), st.sampled_from([OPTIONS, ORIGINAL]))
def test_a_stage_never_leaves_its_track_and_the_end_absorbs(a, results, options):
    for succeeded in results:
        if a.status != ACTIVE:
            try:
                step(a, succeeded, RULES, options)
            except ValueError:
                pass
            else:
                raise AssertionError("a save on an affliction that no longer runs")
            break
        a, facts = step(a, succeeded, RULES, options)
        for track_id, index in zip(a.tracks, a.stages):
            track = RULES.tracks[track_id]
            assert 0 <= index < len(track.stages)
            end = end_index(track)
            assert end is None or index <= end
        for _, stage in reached_stages(RULES, a):
            assert stage.id != "healthy"
        assert a.status in (ACTIVE, ELIMINATED, END_STATE, CURED)
        if a.status == END_STATE:
            assert any(end_index(RULES.tracks[t]) == i for t, i in zip(a.tracks, a.stages))
            assert a.next_save_at is None
            for spell in SPELLS[:-1]:  # only miracle or wish
                try:
                    spell_effect(a, spell, RULES, options, 0)
                except RuleViolation:
                    continue
                raise AssertionError(f"{spell} acted on an end state")
        if a.status == CURED:
            assert not any(a.stages)


ACTIONS = st.one_of(
    st.tuples(st.just("expose"), st.sampled_from(["Aria", "Bob"]), st.sampled_from(AFFLICTIONS),
              st.integers(1, 30) | st.none()),
    st.tuples(st.just("advance"), st.sampled_from([6, 60, 600, 3600, 86400, 3 * 86400, 7 * 86400]),
              st.sampled_from([True, True, False])),
    st.tuples(st.just("answer"), st.integers(1, 30)),
    st.tuples(st.just("answer"), st.integers(1, 30)),
    st.tuples(st.just("cure"), st.sampled_from(["Aria", "Bob"]), st.sampled_from(SPELLS), st.integers(1, 30)),
    st.tuples(st.just("recover"), st.sampled_from(["Aria", "Bob"]), st.booleans(), st.booleans()),
    st.tuples(st.just("option"), st.sampled_from(["follow_original_text", "first_step_timing", "extra_dose_damage"])),
)


def _decision(action, state):
    kind = action[0]
    if kind == "expose":
        return lambda ctx: expose(ctx, action[1], action[2], action[3])
    if kind == "advance":
        return lambda ctx: advance(ctx, action[1], action[2])
    if kind == "answer":
        pending = state.pending[0].id if state.pending else "p0"
        return lambda ctx: answer(ctx, pending, action[1])
    if kind == "cure":
        def run(ctx):
            character = ctx.state.character(action[1])
            if not character.afflictions:
                return []
            return cast(ctx, action[1], character.afflictions[0].id, action[2], action[3])
        return run
    if kind == "recover":
        return lambda ctx: recover(ctx, action[1], action[2], action[3])
    values = {"follow_original_text": "true", "first_step_timing": "after_onset", "extra_dose_damage": "true"}
    return lambda ctx: set_option(ctx, action[1], values[action[1]])


EXPOSURES = st.tuples(st.just("expose"), st.sampled_from(["Aria", "Bob"]), st.sampled_from(AFFLICTIONS),
                      st.integers(1, 12))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(EXPOSURES, min_size=1, max_size=3), st.lists(ACTIONS, min_size=1, max_size=12),
       st.sampled_from(["pf1e", "dnd5e"]))
def test_replay_equals_live_state(exposures, actions, system):
    actions = exposures + actions
    with tempfile.TemporaryDirectory() as directory:
        service = Service.open(os.path.join(directory, "c.db"))
        service.create_campaign("c", system, seed=11)
        save = "fortitude" if system == "pf1e" else "con"
        service.act("c", lambda ctx: add_character(ctx, "Aria", {"saves": {save: 3}, "max_hp": 30}))
        service.act("c", lambda ctx: add_character(ctx, "Bob", {"saves": {save: 8}, "max_hp": 20}))
        state = service.load("c").state
        for action in actions:
            try:
                live, _ = service.act("c", _decision(action, state))
            except SawbonesError:
                assert service.load("c").state == state  # a refused action writes nothing
                continue
            replayed = service.load("c").state
            assert replayed == live
            state = live
            for character in state.characters:
                for a in character.afflictions:
                    assert len(a.stages) == len(a.tracks)
                    for track_id, index in zip(a.tracks, a.stages):
                        assert 0 <= index < len(RULES.tracks[track_id].stages)
                    if character.dead:
                        assert a.status != ACTIVE or a.next_save_at is not None
