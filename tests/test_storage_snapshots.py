"""Snapshots are a cache: snapshot + tail == full replay, whatever the actions and undos; the codec is exact."""

from __future__ import annotations

import dataclasses
import enum

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sawbones.adapters import codec
from sawbones.adapters.backends import open_store
from sawbones.application import service as service_module
from sawbones.application.service import Service, replay
from sawbones.content.loader import load_rules
from sawbones.domain.engine import campaign as decide_campaign
from sawbones.domain.engine import damage as decide_damage
from sawbones.domain.injuries import rules as decide_injuries
from sawbones.domain.engine.state import Body, Campaign, Character, Injury
from sawbones.domain.engine.timeline import advance
from sawbones.errors import SawbonesError

NAMES = ["Aria", "Bob", "Cy"]
TYPES = ["fire", "cold", "necrotic", "slashing", "acid", "piercing"]
AFFLICTIONS = sorted(load_rules().afflictions)


def _decision(step):
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
    if kind == "expose":
        from sawbones.domain.afflictions.decide import expose

        return lambda ctx: expose(ctx, step[1], step[2], step[3])
    return lambda ctx: decide_campaign.remove_character(ctx, step[1])


ACTION = st.one_of(
    st.tuples(st.just("add"), st.sampled_from(NAMES), st.integers(1, 40)),
    st.tuples(st.just("hp"), st.sampled_from(NAMES), st.integers(0, 40)),
    st.tuples(st.just("damage"), st.sampled_from(NAMES), st.integers(0, 30), st.sampled_from(TYPES)),
    st.tuples(st.just("injure"), st.sampled_from(NAMES), st.sampled_from(TYPES), st.integers(1, 20)),
    st.tuples(st.just("advance"), st.integers(1, 3 * 86400)),
    st.tuples(st.just("option"), st.sampled_from(["standard", "lenient"])),
    st.tuples(st.just("expose"), st.sampled_from(NAMES), st.sampled_from(AFFLICTIONS), st.integers(1, 30)),
    st.tuples(st.just("remove"), st.sampled_from(NAMES)),
)
STEPS = st.lists(st.one_of(ACTION, ACTION, st.just(("undo",))), min_size=1, max_size=30)


def _full(service: Service, name: str):
    stored = service.store.events(service.store.campaign_id(name))
    state, actions = replay(stored)
    return state, stored[-1].version, stored[-1].action + 1, actions


def _run(service: Service, steps, check) -> None:
    for step in steps:
        try:
            if step[0] == "undo":
                service.undo("Snap")
            else:
                service.act("Snap", _decision(step))
        except SawbonesError:
            pass
        check()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=STEPS, seed=st.integers(0, 999), every=st.integers(1, 6), keep=st.integers(1, 3),
       memory=st.booleans())
def test_snapshot_plus_tail_equals_full_replay(tmp_path_factory, steps, seed, every, keep, memory):
    store = open_store(str(tmp_path_factory.mktemp("snap") / "c.db"))
    service = Service(store, snapshot_every=every, keep_snapshots=keep, memory_cache=memory)
    service.create_campaign("Snap", "dnd5e", seed)

    def check() -> None:
        loaded = service.load("Snap")
        state, head, next_action, actions = _full(service, "Snap")
        assert loaded.state == state, "snapshot + tail == full replay"
        assert (loaded.head, loaded.next_action) == (head, next_action)
        assert loaded.actions == actions
        fresh = Service(store, snapshot_every=every, memory_cache=False).load("Snap")  # from stored snapshots only
        assert fresh.state == state

    _run(service, steps, check)
    cid = store.campaign_id("Snap")
    assert store.head(cid) < every or store.snapshots(cid, service_module.code_version()), "snapshots were made"


class _Counting:
    """A store wrapper that counts the events each load reads."""

    def __init__(self, store) -> None:
        self._store = store
        self.read: list[int] = []

    def __getattr__(self, name):
        return getattr(self._store, name)

    def events(self, campaign_id, after=0, **kwargs):
        out = self._store.events(campaign_id, after, **kwargs)
        self.read.append(len(out))
        return out


def test_loading_reads_a_bounded_tail_however_long_the_log(tmp_path):
    store = open_store(str(tmp_path / "c.db"))
    writer = Service(store, snapshot_every=50)
    writer.create_campaign("Long", "dnd5e", 1)
    writer.act("Long", lambda ctx: decide_campaign.add_character(ctx, "Aria", {"max_hp": 30}))
    for i in range(400):
        writer.act("Long", lambda ctx, i=i: decide_campaign.edit_character(ctx, "Aria", {"hp": i % 30}))
    counting = _Counting(store)
    reader = Service(counting, snapshot_every=50, memory_cache=False)
    loaded = reader.load("Long")
    newest = max(s.version for s in store.snapshots(loaded.campaign_id, service_module.code_version()))
    assert counting.read == [loaded.head - newest + 1], "the snapshot's own last event (a check), then the tail"
    assert max(counting.read) <= 50, "only the tail after the newest snapshot is read"
    assert loaded.state == replay(store.events(loaded.campaign_id))[0]


def test_an_undo_reaching_behind_the_snapshot_falls_back(tmp_path):
    store = open_store(str(tmp_path / "c.db"))
    service = Service(store, snapshot_every=3, keep_snapshots=1, memory_cache=False)
    service.create_campaign("U", "dnd5e", 1)
    service.act("U", lambda ctx: decide_campaign.add_character(ctx, "Aria", {"max_hp": 30}))
    for hp in (1, 2, 3, 4):
        service.act("U", lambda ctx, hp=hp: decide_campaign.edit_character(ctx, "Aria", {"hp": hp}))
    cid = store.campaign_id("U")
    service.load("U")
    newest = store.snapshots(cid, service_module.code_version())[0]
    undone = []
    for _ in range(3):  # each undo reverts an action folded into the newest snapshot
        state, action = service.undo("U")
        undone.append(action)
        assert state == replay(store.events(cid))[0]
    assert undone == [6, 5, 4] and all(a <= newest.action for a in undone)
    assert state.character("aria").hp == 1


def test_a_snapshot_of_other_code_or_unreadable_is_ignored(tmp_path, monkeypatch):
    store = open_store(str(tmp_path / "c.db"))
    service = Service(store, snapshot_every=2, memory_cache=False)
    service.create_campaign("S", "dnd5e", 1)
    for name in NAMES:
        service.act("S", lambda ctx, name=name: decide_campaign.add_character(ctx, name, {"max_hp": 9}))
    cid = store.campaign_id("S")
    truth = replay(store.events(cid))[0]
    snap = store.snapshots(cid, service_module.code_version())[0]
    # damage the newest snapshot's text: the load falls back, and still equals the replay
    with store.db.transaction(write=True) as conn:
        conn.execute("UPDATE snapshots SET state='{\"$dc\": \"os:system\"}' WHERE version=?", (snap.version,))
    assert service.load("S").state == truth
    service_module.code_version.cache_clear()
    monkeypatch.setattr(service_module, "code_version", lambda: "another-build")
    assert service.load("S").state == truth


# ---------------------------------------------------------------- the codec


class Colour(enum.Enum):
    RED = "red"


@dataclasses.dataclass(frozen=True)
class Holder:
    items: tuple
    extra: object = None


def test_codec_keeps_every_container_kind(monkeypatch):
    monkeypatch.setattr(codec, "ALLOWED_PREFIXES", codec.ALLOWED_PREFIXES + (__name__ + ".",))
    value = Holder(items=(1, "a", None, True, 2.5, [1, (2, 3)], {"k": [1]}, {1: "int key"}, {"$x": 1},
                          frozenset({1, 2}), {3}, Colour.RED, Body(eyes=1)),
                   extra=(Injury(id="i1", injury="burn", table="fire", d20=3, severity="minor", dc=10,
                                 ability_lost=(("con", 1),)),))
    text = codec.dumps(value)
    back = codec.loads(text)
    assert back == value
    assert type(back.items[5]) is list and type(back.items[5][1]) is tuple
    assert codec.dumps(back) == text


def test_codec_round_trips_a_played_campaign(tmp_path):
    service = Service(open_store(str(tmp_path / "c.db")), snapshot_every=0)
    service.create_campaign("Played", "dnd5e", 7)
    steps = [("add", "Aria", 30), ("add", "Bob", 20), ("damage", "Aria", 25, "fire"), ("injure", "Bob", "cold", 3),
             ("expose", "Aria", AFFLICTIONS[0], 1), ("advance", 2 * 86400), ("option", "lenient")]
    for step in steps:
        try:
            service.act("Played", _decision(step))
        except SawbonesError:
            pass
    state = service.load("Played").state
    assert state.characters and any(c.injuries or c.afflictions for c in state.characters)
    assert codec.loads(codec.dumps(state)) == state


def test_codec_round_trips_wounds(tmp_path):
    from sawbones.domain.wounds import rules as wounds

    service = Service(open_store(str(tmp_path / "c.db")), snapshot_every=0)
    service.create_campaign("Wounded", "pf1e", 3)
    service.act("Wounded", lambda ctx: decide_campaign.add_character(ctx, "Vex", {"max_hp": 30}))
    service.act("Wounded", lambda ctx: wounds.wound(ctx, "Vex", "arm", 4, "left"))
    state = service.load("Wounded").state
    assert state.character("vex").wounds
    back = codec.loads(codec.dumps(state))
    assert back == state and type(back.character("vex").wounds[0]) is type(state.character("vex").wounds[0])


def test_codec_refuses_classes_outside_sawbones_and_stale_fields():
    with pytest.raises(codec.CodecError, match="outside the sawbones package"):
        codec.loads('{"$dc": "os:system"}')
    with pytest.raises(codec.CodecError, match="no field"):
        codec.loads('{"$dc": "sawbones.domain.state:Body", "wings": 2}')
    with pytest.raises(codec.CodecError, match="lacks field"):
        codec.loads('{"$dc": "sawbones.domain.state:Character", "id": "x"}')
    with pytest.raises(TypeError):
        codec.dumps(object())
    assert codec.loads(codec.dumps(Campaign(name="x", characters=(Character("a", "A", 3, 3),)))).characters[0].hp == 3


def test_a_worker_notices_a_database_restored_under_it(tmp_path):
    """A process remembers the states it folded; a restored (shorter or different) log is not mistaken for it."""
    import shutil

    from sawbones.adapters.engines import dispose_all

    path = tmp_path / "c.db"
    service = Service.open(str(path))
    service.create_campaign("R", "dnd5e", 1)
    service.act("R", lambda ctx: decide_campaign.add_character(ctx, "Aria", {"max_hp": 30}))
    service.store.backup_to(tmp_path / "backup.db")
    service.act("R", lambda ctx: decide_campaign.edit_character(ctx, "Aria", {"hp": 3}))
    assert service.load("R").state.character("aria").hp == 3
    dispose_all()
    shutil.copy(tmp_path / "backup.db", path)
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"c.db{suffix}").unlink(missing_ok=True)
    again = Service.open(str(path))
    assert again.load("R").state.character("aria").hp == 30
    again.act("R", lambda ctx: decide_campaign.edit_character(ctx, "Aria", {"hp": 7}))
    assert again.load("R").state.character("aria").hp == 7


@pytest.mark.parametrize("old,new", [("sawbones.domain.state:Body", "sawbones.domain.engine.state:Body"),
                                     ("sawbones.domain.wounds:Wound", "sawbones.domain.wounds.rules:Wound"),
                                     ("sawbones.domain.afflictions:AfflictionState",
                                      "sawbones.domain.afflictions.rules:AfflictionState")])
def test_a_snapshot_written_before_the_domain_split_still_decodes(old, new):
    """Snapshots name classes by module: those written when the state lived in domain/state.py (and wounds,
    afflictions in one module each) decode to the same classes at their new modules (issue 16)."""
    assert codec._resolve(old) is codec._resolve(new)
    assert codec.loads('{"$dc": "sawbones.domain.state:Body"}') == Body()
