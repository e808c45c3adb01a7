"""The injury odds' persisted cache (issue 17, adapters/odds_cache.py): a new process answers from disk what an
earlier one computed, exactly; a change of content, options or code computes again; a bad file is ignored."""

from __future__ import annotations

import dataclasses

import pytest

from sawbones.adapters import odds_cache
from sawbones.content.loader import load_rules
from sawbones.domain.engine.options import effective_options
from sawbones.domain.injuries import odds as odds_injury, odds_treatment

RULES = load_rules()
DEFAULTS = effective_options(RULES, {})
# a frostbite (its 1d4-day deadline, its second deadline, a part lost), a 2d4-day treatment, a minor injury;
# at once and after two days; by a healer and by the injured themself
CASES = [("cold", 1), ("cold", 4), ("necrotic", 3), ("slashing", 11)]


def _documents(options):
    return [odds_treatment.treatment_doc(RULES, options, table, d20, bonus, wait_days=wait, self_treatment=self_t,
                                         exact=True)
            for table, d20 in CASES for wait in (0, 2) for self_t in (False, True) for bonus in (-1, 6, 15)]


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("SAWBONES_NO_ODDS_CACHE", raising=False)
    monkeypatch.delenv("SAWBONES_NO_CONTENT_CACHE", raising=False)
    odds_cache._LOADED.clear()
    odds_injury.clear_cache()
    yield tmp_path
    odds_injury.clear_cache()
    odds_cache._LOADED.clear()


@pytest.fixture
def no_engine(monkeypatch):
    """Counts the engine's runs the odds make (every_outcome): zero when answered from the cache."""
    runs = []
    real = odds_injury.every_outcome

    def counting(run):
        runs.append(run)
        return real(run)

    monkeypatch.setattr(odds_injury, "every_outcome", counting)
    return runs


def test_a_new_process_answers_from_the_cache_exactly_what_it_computed(cache_dir, no_engine):
    computed = _documents(DEFAULTS)
    assert no_engine, "the first computation runs the engine"
    assert odds_cache.save(RULES, DEFAULTS)
    assert not odds_cache.save(RULES, DEFAULTS), "nothing new computed: nothing written"
    odds_injury.clear_cache()  # a new process: nothing computed
    no_engine.clear()
    assert odds_cache.load(RULES, DEFAULTS)
    assert _documents(DEFAULTS) == computed
    assert no_engine == [], "every chain came from the cache, no engine run"


def test_what_the_cache_misses_is_computed_and_saved_with_the_rest(cache_dir, no_engine):
    first = odds_treatment.treatment_doc(RULES, DEFAULTS, "cold", 1, 5, exact=True)
    odds_cache.save(RULES, DEFAULTS)
    odds_injury.clear_cache()
    assert odds_cache.load(RULES, DEFAULTS)
    later = odds_treatment.treatment_doc(RULES, DEFAULTS, "fire", 2, 5, exact=True)  # not in the file
    assert odds_cache.save(RULES, DEFAULTS)
    odds_injury.clear_cache()
    assert odds_cache.load(RULES, DEFAULTS)
    no_engine.clear()
    assert odds_treatment.treatment_doc(RULES, DEFAULTS, "cold", 1, 5, exact=True) == first
    assert odds_treatment.treatment_doc(RULES, DEFAULTS, "fire", 2, 5, exact=True) == later
    assert no_engine == []


def test_other_options_are_computed_again(cache_dir, no_engine):
    _documents(DEFAULTS)
    odds_cache.save(RULES, DEFAULTS)
    odds_injury.clear_cache()
    other = {**DEFAULTS, "carry_failures": True}
    assert not odds_cache.load(RULES, other)
    no_engine.clear()
    _documents(other)
    assert no_engine, "another option set runs the engine"
    odds_injury.clear_cache()
    fresh = _documents(other)
    odds_cache.save(RULES, other)
    odds_injury.clear_cache()
    assert odds_cache.load(RULES, other) and _documents(other) == fresh


def test_other_content_is_computed_again(cache_dir):
    _documents(DEFAULTS)
    odds_cache.save(RULES, DEFAULTS)
    odds_injury.clear_cache()
    edited = dataclasses.replace(RULES, version="0" * 16)  # the digest of content files with other bytes
    assert odds_cache.path(edited, DEFAULTS) != odds_cache.path(RULES, DEFAULTS)
    assert not odds_cache.load(edited, DEFAULTS)
    # a file renamed under another content's key is refused by what it says it was computed from
    odds_cache.path(RULES, DEFAULTS).rename(odds_cache.path(edited, DEFAULTS))
    assert not odds_cache.load(edited, DEFAULTS)


def test_other_code_is_computed_again(cache_dir, monkeypatch):
    _documents(DEFAULTS)
    odds_cache.save(RULES, DEFAULTS)
    odds_injury.clear_cache()
    before = odds_cache.path(RULES, DEFAULTS)
    monkeypatch.setattr(odds_cache, "code_version", lambda: "another-engine")
    assert odds_cache.path(RULES, DEFAULTS) != before
    assert not odds_cache.load(RULES, DEFAULTS)


def test_the_code_version_covers_the_engine_and_the_rules():
    package = odds_cache.Path(odds_cache.__file__).resolve().parents[1]
    odds_cache.code_version.cache_clear()
    first = odds_cache.code_version()
    assert first == odds_cache.code_version()
    sources = {str(p.relative_to(package)) for p in (package / "domain").rglob("*.py")}
    assert {"domain/engine/evolve.py", "domain/injuries/rules.py", "domain/injuries/odds.py"} <= sources


def test_a_damaged_file_is_ignored_and_rewritten(cache_dir, no_engine):
    computed = _documents(DEFAULTS)
    odds_cache.save(RULES, DEFAULTS)
    odds_cache.path(RULES, DEFAULTS).write_bytes(b"not a pickle")
    odds_injury.clear_cache()
    odds_cache._LOADED.clear()
    assert not odds_cache.load(RULES, DEFAULTS)
    assert _documents(DEFAULTS) == computed
    assert odds_cache.save(RULES, DEFAULTS)
    odds_injury.clear_cache()
    assert odds_cache.load(RULES, DEFAULTS)


def test_the_cache_can_be_turned_off(cache_dir, monkeypatch):
    monkeypatch.setenv("SAWBONES_NO_ODDS_CACHE", "1")
    _documents(DEFAULTS)
    assert not odds_cache.save(RULES, DEFAULTS)
    assert not list(cache_dir.rglob("injury-odds-*"))


def test_the_odds_command_answers_a_second_time_from_the_cache(cache_dir, cli, no_engine):
    first = cli("--json", "odds", "--injury", "cold", "--d20", "1", "--bonus", "5")
    assert first.code == 0, first.err
    assert list(cache_dir.rglob("injury-odds-*.pickle"))
    odds_injury.clear_cache()  # the next command is a new process
    no_engine.clear()
    again = cli("--json", "odds", "--injury", "cold", "--d20", "1", "--bonus", "5")
    assert again.code == 0 and again.json == first.json
    assert no_engine == []


def test_the_web_api_answers_from_what_the_cli_computed(cache_dir, cli, no_engine, db):
    """A GM asks the odds on the command line, then from the web app (a new process): the same answer, from the
    cache, with no engine run."""
    from fastapi.testclient import TestClient

    from sawbones.application.service import Service
    from sawbones.interfaces.web.app import create_app

    first = cli("--json", "odds", "--injury", "cold", "--d20", "1", "--bonus", "5")
    assert first.code == 0, first.err
    odds_injury.clear_cache()  # the web app is another process
    odds_cache._LOADED.clear()
    no_engine.clear()
    app = create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=3)
    with TestClient(app, base_url="http://testserver") as client:
        api = client.get("/api/odds/injuries/cold/treatment", params={"d20": 1, "bonus": 5})
    assert api.status_code == 200
    assert api.json() == {**first.json, "campaign": None}
    assert no_engine == []


def test_a_what_if_answers_a_second_time_from_the_cache(cache_dir, cli, no_engine, monkeypatch):
    """`odds --party --compare`: each option set compared is kept; a new process computes nothing, and writes
    nothing back when it computed nothing new."""
    args = ("--json", "odds", "--party", "--types", "cold,slashing,fire",
            "--compare", "severity_bands,carry_failures,retry_requires_time,deadline_satisfied_by")
    first = cli(*args)
    assert first.code == 0, first.err
    assert len(first.json["variants"]) >= 3 and no_engine
    odds_injury.clear_cache()  # a new process
    odds_cache._LOADED.clear()
    no_engine.clear()
    written = []
    real = odds_cache.write_pickle
    monkeypatch.setattr(odds_cache, "write_pickle", lambda path, value: written.append(path) or real(path, value))
    again = cli(*args)
    assert again.code == 0 and again.json == first.json
    assert no_engine == [], "every option set's chains came from the cache"
    assert written == [], "nothing new computed: nothing written"


def test_option_sets_share_what_the_drop_did_not_read(cache_dir):
    """Two option sets that differ only in an option the drop does not read (carry_failures: treatment's) share
    where treatment starts; one that the drop reads (severity_bands) has its own."""
    for options in (DEFAULTS, {**DEFAULTS, "carry_failures": True}, {**DEFAULTS, "severity_bands": "lenient"}):
        odds_treatment.treatment_doc(RULES, options, "cold", 3, 5)
    kept = odds_injury._STARTS[(id(RULES), "cold", 3, 0)][1]
    assert len(kept) == 2 and {read["severity_bands"] for read, _ in kept} == {"standard", "lenient"}
    assert all("carry_failures" not in read for read, _ in kept)


def test_the_files_of_another_code_version_are_removed(cache_dir, monkeypatch):
    _documents(DEFAULTS)
    assert odds_cache.save(RULES, DEFAULTS)
    old = odds_cache.path(RULES, DEFAULTS)
    other = cache_dir / "sawbones" / "rules-keep-me.pickle"  # (the content's cache: not the odds')
    other.write_bytes(b"")
    monkeypatch.setattr(odds_cache, "code_version", lambda: "a-newer-engine")
    odds_cache._LOADED.clear()
    assert odds_cache.save(RULES, DEFAULTS)
    assert not old.exists() and odds_cache.path(RULES, DEFAULTS).exists() and other.exists()
