"""The tables' index (`sawbones tables`, GET /api/tables: a bot asks for it every minute) names each entry by the
id `tables ID` takes. Finding those ids must not go through the "did you mean" of a name typed wrong, once per
entry and kind (that cost 25 ms of the interpreter per index: every other request of the worker waited), and an
entry typed by its name in either language still finds its table."""

from __future__ import annotations

import difflib

import pytest

from sawbones.content.loader import load_rules
from sawbones.presentation import tables


@pytest.fixture(scope="module")
def rules():
    return load_rules()


def test_the_index_looks_nothing_up_as_a_name_typed_wrong(rules, monkeypatch):
    guessed = []
    monkeypatch.setattr(difflib, "get_close_matches", lambda *a, **k: guessed.append(a) or [])
    index = tables.index_doc(rules)
    assert guessed == []
    ids = [entry["id"] for key in ("damage_tables", "body_parts", "tracks", "diseases", "poisons") for entry in index[key]]
    assert "fire" in ids and "filth_fever" in ids
    for table_id in ids:  # each id the index gives opens its table
        assert tables.table_doc(rules, table_id)["kind"]


@pytest.mark.parametrize("typed, kind, entry", [("Fièvre des marais", "disease", "filth_fever"),
                                                ("filth fever", "disease", "filth_fever"),
                                                ("tranchant", "damage_table", "slashing")])
def test_a_table_typed_by_its_name_in_either_language_is_found(rules, typed, kind, entry):
    doc = tables.table_doc(rules, typed)
    assert doc["kind"] == kind and doc["id"] == entry
