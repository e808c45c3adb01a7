"""Hypothesis properties: the state is the fold of the log; undo restores the state exactly."""

from dataclasses import replace

from hypothesis import HealthCheck, given, settings, strategies as st

from sawbones.application.service import Service
from sawbones.domain.engine import campaign as decide_campaign
from sawbones.domain.engine import damage as decide_damage
from sawbones.domain.injuries import rules as decide_injuries
from sawbones.domain.engine.timeline import advance
from sawbones.errors import SawbonesError

NAMES = ["Aria", "Bob", "Cy"]
TYPES = ["fire", "cold", "necrotic", "slashing", "acid", "piercing"]

action = st.one_of(
    st.tuples(st.just("add"), st.sampled_from(NAMES), st.integers(1, 40)),
    st.tuples(st.just("hp"), st.sampled_from(NAMES), st.integers(0, 40)),
    st.tuples(st.just("damage"), st.sampled_from(NAMES), st.integers(0, 30), st.sampled_from(TYPES)),
    st.tuples(st.just("injure"), st.sampled_from(NAMES), st.sampled_from(TYPES), st.integers(1, 20)),
    st.tuples(st.just("advance"), st.integers(1, 5 * 86400)),
    st.tuples(st.just("option"), st.sampled_from(["standard", "lenient"])),
    st.tuples(st.just("remove"), st.sampled_from(NAMES)),
)


def decision(step):
    kind = step[0]
    if kind == "add":
        return lambda ctx: decide_campaign.add_character(ctx, step[1], {"max_hp": step[2]})
    if kind == "hp":
        return lambda ctx: decide_campaign.edit_character(ctx, step[1], {"hp": step[2]})
    if kind == "damage":
        return lambda ctx: decide_damage.damage(ctx, step[1], [(step[2], step[3])], site="hand")
    if kind == "injure":
        return lambda ctx: decide_injuries.injure(ctx, step[1], step[2], step[3], site="foot")
    if kind == "advance":
        return lambda ctx: advance(ctx, step[1])
    if kind == "option":
        return lambda ctx: decide_campaign.set_option(ctx, "severity_bands", step[1])
    return lambda ctx: decide_campaign.remove_character(ctx, step[1])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.one_of(action, st.just(("undo",))), min_size=1, max_size=25), seed=st.integers(0, 999))
def test_replay_equals_live_and_undo_is_exact(tmp_path_factory, steps, seed):
    service = Service.open(str(tmp_path_factory.mktemp("db") / "c.db"))
    service.create_campaign("Prop", "dnd5e", seed)
    history = [service.load("Prop").state]
    for step in steps:
        if step[0] == "undo":
            if len(history) == 1:
                continue
            before = service.load("Prop").state
            state, _ = service.undo("Prop")
            history.pop()
            assert replace(state, version=0, counter=0) == replace(history[-1], version=0, counter=0), \
                "undo restores the state exactly"
            assert state.counter == before.counter, "ids handed out stay handed out (never reused)"
            assert state.version == before.version + 1, "the version is the log's: the undo marker counts"
            history[-1] = state
            continue
        try:
            live, events = service.act("Prop", decision(step))
        except SawbonesError:
            assert service.load("Prop").state == history[-1], "a refused action leaves nothing behind"
            continue
        replayed = service.load("Prop").state
        assert live == replayed, "the state is the fold of the log"
        if events:
            history.append(live)
