"""Idempotency keys and expected versions at the service (application/requests.py), on both backends:
the key is part of the action, so it survives undo and a fresh process, and is forgotten after 24 hours."""

from __future__ import annotations

import time

import pytest

from sawbones.adapters.backends import open_store
from sawbones.application.requests import KeyReused, Request, VersionMismatch
from sawbones.application.service import Service
from sawbones.domain.engine import campaign as decide_campaign
from sawbones.domain.engine import damage as decide_damage


def _hit(ctx):
    return decide_damage.damage(ctx, "Brena", [(5, "fire")])


def _render(state, events):
    return {"hp": state.character("Brena").hp, "version": state.version}


@pytest.fixture
def service(store_url):
    service = Service(open_store(store_url))
    service.create_campaign("Keys", "dnd5e", 1)
    service.act("Keys", lambda ctx: decide_campaign.add_character(ctx, "Brena", {"max_hp": 20}))
    yield service
    service.close()


def test_a_key_applies_once_even_after_an_undo_and_in_a_new_process(service):
    key = Request("hit-1", "digest-a")
    _, events, first = service.answer("Keys", _hit, _render, request=key)
    assert events and first == {"hp": 15, "version": service.load("Keys").head}
    service.undo("Keys")
    fresh = Service(service.store, memory_cache=False)  # another worker, nothing in memory
    state, events, again = fresh.answer("Keys", _hit, _render, request=key)
    assert events == [] and again == first, "the first answer, nothing applied"
    assert state.character("Brena").hp == 20, "the undo stands"
    with pytest.raises(KeyReused):
        fresh.answer("Keys", _hit, _render, request=Request("hit-1", "digest-b"))


def test_a_key_is_forgotten_after_24_hours(service, monkeypatch):
    service.answer("Keys", _hit, _render, request=Request("hit-2", "d"))
    later = time.time() + 86400 + 60
    monkeypatch.setattr(time, "time", lambda: later)
    state, events, answer = service.answer("Keys", _hit, _render, request=Request("hit-2", "d"))
    assert events and answer["hp"] == 10


def test_an_expected_version_that_moved_on_applies_nothing(service):
    head = service.load("Keys").head
    service.act("Keys", _hit, request=Request(expected_version=head))
    with pytest.raises(VersionMismatch) as refused:
        service.act("Keys", _hit, request=Request(expected_version=head))
    assert refused.value.current_version == head + 1 == service.load("Keys").head
    with pytest.raises(VersionMismatch):
        service.undo("Keys", Request(expected_version=head))
    assert service.load("Keys").state.character("Brena").hp == 15


def test_the_cli_checks_the_expected_version_too(cli):
    assert cli("campaign", "create", "Desk").code == 0
    version = cli("--json", "campaign", "show").json["version"]
    assert cli("--expect-version", str(version), "character", "add", "Bo").code == 0
    stale = cli("--expect-version", str(version), "character", "add", "Cy")
    assert stale.code == 1 and f"at version {version + 1}, not {version}" in stale.err
    assert [c["name"] for c in cli("--json", "character", "list").json["characters"]] == ["Bo"]
