"""A worker serving many tables in turn keeps each one's folded state: the next action on a table reads only
what is new, not its whole log (with 64 states kept and 500 tables, every action read its table's log)."""

from __future__ import annotations

import pytest

from sawbones.adapters.backends import open_store
from sawbones.application import memory
from sawbones.application.service import Service


def note(n: int):
    return lambda ctx: [{"type": "noted", "data": {"by": "gm", "n": n}}]


@pytest.mark.parametrize(("raw", "kept"), [("", memory.KEPT), ("300", 300), ("0", memory.KEPT), ("-5", memory.KEPT),
                                           ("lots", memory.KEPT), ("²", memory.KEPT)])
def test_how_many_states_a_process_keeps(monkeypatch, raw, kept):
    monkeypatch.setenv(memory.KEPT_ENV, raw)
    assert memory.kept_states() == kept


def test_tables_acted_on_in_turn_are_not_read_again_from_their_whole_log(tmp_path, monkeypatch):
    monkeypatch.setattr(memory, "MEMORY", memory._Memory(memory.kept_states()))
    import sawbones.application.service as service_module

    monkeypatch.setattr(service_module, "MEMORY", memory.MEMORY)
    service = Service(open_store(str(tmp_path / "tables.db")), snapshot_every=0)
    tables = [f"table {n}" for n in range(300)]
    for name in tables:
        service.create_campaign(name, "dnd5e", 1)
    whole_logs = []
    full_load = Service._full_load

    def counted(self, cid):
        whole_logs.append(cid)
        return full_load(self, cid)

    monkeypatch.setattr(Service, "_full_load", counted)
    for round_ in range(2):
        for name in tables:
            service.act(name, note(round_))
    assert len(whole_logs) <= len(tables)  # the first round at most; the second reads only what is new
    assert all(service.load(name).head == 3 for name in tables[:3])


def test_past_the_bound_the_least_recently_used_is_let_go():
    kept = memory._Memory(3)
    base = memory._Base(1, 1)
    for cid in range(5):
        kept.put(("db", cid), base)
    kept.get(("db", 2))
    kept.put(("db", 9), base)
    assert list(kept.items) == [("db", 4), ("db", 2), ("db", 9)]
