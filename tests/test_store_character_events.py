"""Reading one character's events (a player's view: its character's lines among the campaign's last 200 events),
on every backend: exactly the events whose data names the character, in order, as a whole read filtered would
give them; and a damaged event among them is still found and named (the database's filter cannot read data
that is not JSON: the log is read whole then)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from sawbones.adapters import upcast as upcast_module
from sawbones.adapters.backends import open_store
from sawbones.adapters.engines import dispose_all
from sawbones.adapters.records import Damaged


def ev(character: str | None, n: int) -> dict:
    data = {"n": n} if character is None else {"character": character, "n": n}
    return {"type": "noted", "data": data}


@pytest.fixture
def party(store_url):
    store = open_store(store_url)
    cid = store.create_campaign("Party")
    people = ["aria", "brom", None, "aria", "cy", "aria", None, "brom", "aria"]
    for version, who in enumerate(people):
        store.append(cid, version, version + 1, [ev(who, version)], "c")
    store.append(cid, len(people), len(people) + 1, [{"type": "noted", "data": {"character": ["aria"], "n": 99}}], "c")
    return store_url, store, cid


def whole_read_filtered(store, cid: int, character: str, **span) -> list:
    return [e for e in store.events(cid, **span) if e.data.get("character") == character]


def test_a_characters_events_are_those_a_whole_read_filtered_gives(party):
    _, store, cid = party
    for character in ("aria", "brom", "cy", "nobody"):
        for span in ({}, {"after": 3}, {"after": 2, "upto": 8}, {"upto": 1}):
            read = store.events(cid, character=character, **span)
            assert read == whole_read_filtered(store, cid, character, **span), (character, span)
    assert [e.data["n"] for e in store.events(cid, character="aria")] == [0, 3, 5, 8]


def test_a_damaged_event_among_them_is_still_named(party):
    store_url, store, cid = party
    url = store_url if "://" in store_url else f"sqlite:///{store_url}"
    engine = sa.create_engine(url)
    with engine.begin() as conn:  # event 4's data cut short: no longer JSON, nor what its checksum says
        conn.execute(sa.text("UPDATE events SET data = SUBSTR(data, 2) WHERE campaign_id = :c AND version = 4"),
                     {"c": cid})
    engine.dispose()
    dispose_all()
    with pytest.raises(Damaged, match="event 4"):
        open_store(store_url).events(cid, character="aria")


def test_where_an_event_shape_is_upcast_the_filter_reads_the_upcast_data(party, monkeypatch):
    _, store, cid = party
    monkeypatch.setattr(upcast_module, "EVENT_SCHEMA_VERSION", 2)
    monkeypatch.setattr(upcast_module, "_UPCASTERS", {})

    @upcast_module.upcaster("noted", 1)
    def _renamed(data):  # a later shape that names the character under another key, upcast to `character`
        return {**data, "character": "brom" if data.get("character") == "aria" else data.get("character")}

    assert [e.data["n"] for e in store.events(cid, character="brom")] == [0, 1, 3, 5, 7, 8]
