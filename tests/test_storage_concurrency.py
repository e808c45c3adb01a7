"""Two GMs acting on one campaign at once never lose an action: a clear conflict, or a safe retry."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading

import pytest

from sawbones.adapters.backends import open_store
from sawbones.application.service import Service
from sawbones.domain.engine.campaign import add_character, edit_character, remove_character
from sawbones.domain.engine.timeline import advance
from sawbones.errors import ConflictError, NotFound


def note(tag: str, n: int):
    return lambda ctx: [{"type": "noted", "data": {"by": tag, "n": n}}]


def noted(service: Service, name: str) -> list[tuple[str, int]]:
    return [(e.data["by"], e.data["n"]) for e in service.log(name) if e.type == "noted"]


def test_threads_with_retries_lose_nothing(store_url):
    Service.open(store_url).create_campaign("Busy", "dnd5e", 1)
    per_gm, errors = 25, []

    def gm(tag: str) -> None:
        service = Service(open_store(store_url), retries=50)
        try:
            for n in range(per_gm):
                service.act("Busy", note(tag, n))
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=gm, args=(tag,)) for tag in ("gm1", "gm2", "gm3")]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    service = Service.open(store_url)
    got = noted(service, "Busy")
    assert sorted(got) == sorted((tag, n) for tag in ("gm1", "gm2", "gm3") for n in range(per_gm))
    assert [e.version for e in service.log("Busy")] == list(range(1, 1 + 3 * per_gm + 1))
    assert service.store.check() == []


def test_without_retries_the_loser_gets_a_conflict_and_every_success_is_kept(store_url):
    Service.open(store_url).create_campaign("Strict", "dnd5e", 1)
    acknowledged: list[tuple[str, int]] = []
    conflicts: list[str] = []
    lock = threading.Lock()
    barrier = threading.Barrier(2)

    def gm(tag: str) -> None:
        service = Service(open_store(store_url), retries=0)
        for n in range(20):
            barrier.wait()
            try:
                service.act("Strict", note(tag, n))
            except ConflictError as exc:
                with lock:
                    conflicts.append(str(exc))
                continue
            with lock:
                acknowledged.append((tag, n))

    threads = [threading.Thread(target=gm, args=(tag,)) for tag in ("a", "b")]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    got = noted(Service.open(store_url), "Strict")
    assert sorted(got) == sorted(acknowledged), "exactly the acknowledged actions are in the log"
    assert len(acknowledged) + len(conflicts) == 40
    assert all("nothing was written" in message for message in conflicts)


def test_a_retry_decides_again_on_the_new_state(tmp_path):
    """GM B's command is re-decided after GM A's write: still valid -> applied on top of A's."""
    db = str(tmp_path / "c.db")
    gm_a, gm_b = Service.open(db), Service.open(db)
    gm_a.create_campaign("Retry", "dnd5e", 1)
    gm_a.act("Retry", lambda ctx: add_character(ctx, "Aria", {"max_hp": 20}))
    seen: list[int] = []

    def b_decides(ctx):
        seen.append(ctx.state.clock)
        if len(seen) == 1:  # GM A advances the clock while B is deciding
            gm_a.act("Retry", lambda c: advance(c, 60))
        return edit_character(ctx, "Aria", {"hp": 5})

    state, _ = gm_b.act("Retry", b_decides)
    assert seen == [0, 60], "decided twice: on the old state, then on the new one"
    assert state.clock == 60 and state.character("aria").hp == 5
    assert gm_b.load("Retry").state == state


def test_a_retry_refuses_what_the_new_state_forbids(tmp_path):
    db = str(tmp_path / "c.db")
    gm_a, gm_b = Service.open(db), Service.open(db)
    gm_a.create_campaign("Gone", "dnd5e", 1)
    gm_a.act("Gone", lambda ctx: add_character(ctx, "Brom", {"max_hp": 20}))
    calls = []

    def b_decides(ctx):
        calls.append(1)
        if len(calls) == 1:  # GM A removes Brom while B is deciding to hurt him
            gm_a.act("Gone", lambda c: remove_character(c, "Brom"))
        return edit_character(ctx, "Brom", {"hp": 3})

    with pytest.raises(NotFound, match="Brom"):
        gm_b.act("Gone", b_decides)
    assert [e.type for e in gm_b.log("Gone")] == ["campaign_created", "character_added", "character_removed"]


def test_conflict_after_the_last_retry_is_clear(tmp_path):
    db = str(tmp_path / "c.db")
    gm_a, gm_b = Service.open(db), Service(open_store(db), retries=2)
    gm_a.create_campaign("Stubborn", "dnd5e", 1)

    def b_decides(ctx):
        gm_a.act("Stubborn", note("a", ctx.state.version))  # someone always writes first
        return [{"type": "noted", "data": {"by": "b", "n": 0}}]

    with pytest.raises(ConflictError, match="changed while you acted"):
        gm_b.act("Stubborn", b_decides)
    assert noted(gm_a, "Stubborn") == [("a", 1), ("a", 2), ("a", 3)]


def test_undo_is_not_retried_onto_someone_elses_action(tmp_path):
    db = str(tmp_path / "c.db")
    gm_a, gm_b = Service.open(db), Service.open(db)
    gm_a.create_campaign("Undo", "dnd5e", 1)
    gm_a.act("Undo", lambda ctx: add_character(ctx, "Aria", {"max_hp": 10}))
    real_append = gm_b.store.append
    fired = []

    def append_after_a(*args, **kwargs):
        if not fired:
            fired.append(1)
            gm_a.act("Undo", lambda ctx: add_character(ctx, "Cy", {"max_hp": 10}))
        return real_append(*args, **kwargs)

    gm_b.store.append = append_after_a
    with pytest.raises(ConflictError, match="nothing was undone"):
        gm_b.undo("Undo")
    state = gm_a.load("Undo").state
    assert [c.name for c in state.characters] == ["Aria", "Cy"]


def test_a_loaded_campaign_lists_the_actions_as_of_its_version(tmp_path):
    db = str(tmp_path / "c.db")
    gm_a, gm_b = Service.open(db), Service.open(db)
    gm_a.create_campaign("Seen", "dnd5e", 1)
    loaded = gm_b.load("Seen")
    gm_a.act("Seen", lambda ctx: add_character(ctx, "Aria", {"max_hp": 10}))
    assert [a for a, _, _ in loaded.actions] == [1], "an action after the load is not in its list"
    assert [a for a, _, _ in gm_b.load("Seen").actions] == [1, 2]


WORKER = textwrap.dedent("""
    import json, sys
    from sawbones.adapters.backends import open_store
    from sawbones.application.service import Service

    url, tag, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    service = Service(open_store(url), retries=100)
    done = []
    for n in range(count):
        service.act("Procs", lambda ctx, n=n: [{"type": "noted", "data": {"by": tag, "n": n}}])
        done.append(n)
    print(json.dumps(done))
""")


def test_two_processes_acting_at_once_lose_nothing(store_url):
    Service.open(store_url).create_campaign("Procs", "dnd5e", 1)
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, store_url, tag, "40"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for tag in ("p1", "p2")]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err for _, err in outs]
    acknowledged = {(tag, n) for tag, (out, _) in zip(("p1", "p2"), outs) for n in json.loads(out)}
    service = Service.open(store_url)
    got = noted(service, "Procs")
    assert len(got) == len(set(got)) == 80 and set(got) == acknowledged
    assert service.store.check() == []
