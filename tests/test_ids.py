"""Ids never lie: an instance id (injury, wound, affliction, pending roll, action) names one thing for the
campaign's whole life, across undo, replay, export/import and both backends. Campaigns made before this
rule keep the ids they showed (tests/fixtures/legacy_ids.*, made with the code at 49ee35b: Brena got
i1 Major Burns, undone, then i1 Blisters; Tam got i2 Frostbite, undone)."""

from __future__ import annotations

import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from sawbones.adapters.backends import open_store
from sawbones.application.service import Service
from sawbones.domain.engine import campaign as decide_campaign
from sawbones.domain.engine import damage as decide_damage
from sawbones.errors import SawbonesError

FIXTURES = Path(__file__).parent / "fixtures"


def _ids(state) -> dict[str, tuple[str, ...]]:
    return {c.id: tuple(i.id for i in c.injuries) + tuple(w.id for w in c.wounds)
            + tuple(a.id for a in c.afflictions) for c in state.characters}


def _damage(name: str, d20: int):
    """Exactly enough fire to drop the character to 0 (at least 1): an injury, never massive damage."""
    def decide(ctx):
        hp = next(c.hp for c in ctx.state.characters if c.name == name)
        return decide_damage.damage(ctx, name, [(max(hp, 1), "fire")], d20=d20, site="hand")
    return decide


def test_an_id_after_an_undo_is_new(store_url):
    service = Service(open_store(store_url))
    service.create_campaign("Ids", "dnd5e", 3)
    service.act("Ids", lambda ctx: decide_campaign.add_character(ctx, "Brena", {"max_hp": 20}))
    _, first = service.act("Ids", _damage("Brena", 3))
    service.undo("Ids")
    state, second = service.act("Ids", _damage("Brena", 12))
    gained = [e["data"]["id"] for e in first + second if e["type"] == "injury_gained"]
    assert len(gained) == 2 and gained[0] != gained[1], "the undone injury's id is not handed out again"
    assert state.character("Brena").injuries[0].id == gained[1]
    reloaded = Service(service.store, memory_cache=False).load("Ids").state
    assert _ids(reloaded) == _ids(state), "a replay gives the same ids"
    service.close()


def test_a_campaign_made_before_keeps_its_ids_and_never_reuses_one(tmp_path, cli):
    db = tmp_path / "legacy.db"
    shutil.copy(FIXTURES / "legacy_ids.db", db)
    service = Service.open(str(db))
    state = service.load("Old Road").state
    assert [(i.id, i.injury) for i in state.character("Brena").injuries] == [("i1", "blisters")]
    assert state.character("Tam").injuries == ()
    _, events = service.act("Old Road", _damage("Tam", 5))
    new = [e["data"]["id"] for e in events if e["type"] == "injury_gained"]
    assert new == ["i3"], "i2 (undone Frostbite) stays spent"
    service.close()


def test_the_legacy_export_imports_with_the_same_ids(tmp_path):
    from sawbones.adapters.transfer import read_doc

    service = Service.open(str(tmp_path / "new.db"))
    name = service.import_campaign(read_doc(FIXTURES / "legacy_ids.json"))
    state = service.load(name).state
    assert _ids(state) == {"brena": ("i1",), "tam": ()}
    assert state.version == 11, "the version is the log's (11 events)"
    service.close()


steps = st.lists(st.one_of(
    st.tuples(st.just("damage"), st.sampled_from(["Aria", "Bob"]), st.integers(1, 20)),
    st.tuples(st.just("heal"), st.sampled_from(["Aria", "Bob"])),
    st.just(("undo",))), min_size=1, max_size=14)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=steps, seed=st.integers(0, 999))
def test_export_then_import_keeps_every_id(tmp_path_factory, plan, seed):
    home = tmp_path_factory.mktemp("ids")
    source = Service.open(str(home / "a.db"))
    source.create_campaign("P", "dnd5e", seed)
    for name in ("Aria", "Bob"):
        source.act("P", lambda ctx, name=name: decide_campaign.add_character(ctx, name, {"max_hp": 10}))
    handed_out: list[str] = []
    in_force = 0  # actions after the two characters were added (undo stops there)
    for step in plan:
        try:
            if step[0] == "undo":
                if in_force:
                    source.undo("P")
                    in_force -= 1
                continue
            if step[0] == "heal":
                _, events = source.act("P", lambda ctx, n=step[1]: decide_campaign.edit_character(ctx, n, {"hp": 10}))
            else:
                _, events = source.act("P", _damage(step[1], step[2]))
        except SawbonesError:
            continue
        in_force += bool(events)
        handed_out += [e["data"]["id"] for e in events if e["type"] == "injury_gained"]
    assert len(handed_out) == len(set(handed_out)), "no id is handed out twice, undo or not"
    target = Service.open(str(home / "b.db"))
    target.import_campaign(source.export_campaign("P"))
    before, after = source.load("P").state, target.load("P").state
    assert _ids(after) == _ids(before)
    assert (after.counter, after.version) == (before.counter, before.version)
    for service in (source, target):  # back on her feet, so the next hit rolls an injury on both
        service.act("P", lambda ctx: decide_campaign.edit_character(ctx, "Aria", {"hp": 10}))
    _, a = source.act("P", _damage("Aria", 20))
    _, b = target.act("P", _damage("Aria", 20))
    assert [e["data"].get("id") for e in a] == [e["data"].get("id") for e in b], "the next id is the same on both"
    assert not {e["data"].get("id") for e in b if e["type"] == "injury_gained"} & set(handed_out)
    source.close()
    target.close()
