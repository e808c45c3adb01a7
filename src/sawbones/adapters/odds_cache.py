"""A persisted cache of the injury odds (issue 17): a new process answers from what an earlier one computed.

Building the treatment chains runs the engine thousands of times (docs/odds.md, docs/benchmarks.md); the
chains are kept as data (`domain/injuries/odds_saved.py`) in the user's cache directory, next to the checked
content's cache (content/loader.py), one file per key:

- the content's digest (`rules.version`: the bytes of every content file and pack),
- the options (the SHA-256 of every effective option's value),
- the code's version (the SHA-256 of the domain's sources and the dice roller: any change to the engine, a
  rule or the odds computes again).

A missing, stale or damaged file is only a cache: ignored, computed again, written again (atomically); the
files of another code version are removed when a file is written. A what-if (`odds_party.what_if`) keeps each
option set it compares in its own file; the graphs they share are merged back when read (`odds_saved.restore`).
`SAWBONES_NO_ODDS_CACHE=1` (or `SAWBONES_NO_CONTENT_CACHE=1`) turns it off.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import threading
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from ..cache_files import cache_dir, write_pickle
from ..domain.engine.odds_engine import freeze, outcomes_asked
from ..domain.injuries import odds, odds_saved

if TYPE_CHECKING:
    from ..content.rules import Rules

_LOADED: dict[tuple[str, str], int] = {}  # (content, options) -> size when last loaded or saved
_READ: dict[tuple[str, str], int] = {}  # (content, options) -> the odds' generation its file was last read in


@lru_cache(maxsize=1)
def code_version() -> str:
    """The SHA-256 of every source the odds' numbers depend on: the domain package and the dice roller."""
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted((package / "domain").rglob("*.py")) + [package / "dice.py"]:
        digest.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def options_key(options: dict[str, Any]) -> str:
    return hashlib.sha256(repr(freeze(dict(options))).encode()).hexdigest()[:16]


def path(rules: Rules, options: dict[str, Any]) -> Path | None:
    if os.environ.get("SAWBONES_NO_ODDS_CACHE") or os.environ.get("SAWBONES_NO_CONTENT_CACHE"):
        return None
    return Path(cache_dir()) / f"injury-odds-{rules.version}-{options_key(options)}-{code_version()}.pickle"


def load(rules: Rules, options: dict[str, Any]) -> bool:
    """Restore the chains computed under these options by an earlier process, if its file is there and
    readable (True); else nothing changes (False)."""
    where = path(rules, options)
    if where is None or not where.is_file():
        return False
    try:
        with where.open("rb") as handle:
            data = pickle.load(handle)
        restored = isinstance(data, dict) and odds_saved.restore(rules, options, data)
    except Exception:  # a damaged or foreign file is only a cache: compute again
        return False
    if restored:  # (what is computed now, the file's and this process's: saved again only when it grows)
        _LOADED[(rules.version, options_key(options))] = odds_saved.size(rules, options)
    return bool(restored)


def save(rules: Rules, options: dict[str, Any]) -> bool:
    """Write what this process computed under these options, when it computed more than it loaded (True)."""
    where = path(rules, options)
    if where is None:
        return False
    key = (rules.version, options_key(options))
    if odds_saved.size(rules, options) <= _LOADED.get(key, 0):
        return False
    data = odds_saved.export(rules, options)
    if not write_pickle(str(where), data):
        return False  # a read-only home (or a value that does not pickle): no cache, the same odds
    _LOADED[key] = data["size"]
    _forget_other_code(where.parent)
    return True


def _forget_other_code(folder: Path) -> None:
    """Remove the files an earlier version of the code wrote: they can never be read again (`code_version`)."""
    for old in folder.glob("injury-odds-*.pickle"):
        if not old.stem.endswith("-" + code_version()):
            try:
                old.unlink()
            except OSError:  # another process removed it, or a read-only folder: only a cache
                pass


_TURN = threading.Lock()  # the web app's threads load and save one at a time


@contextmanager
def kept(rules: Rules, options: dict[str, Any]) -> Iterator[None]:
    """Answer odds with what earlier processes computed under these options (read once per process, and again
    after `odds.clear_cache`), and keep what this answer adds for later ones (written only when the engine ran
    meanwhile): the CLI's commands, the web API's requests and pages."""
    key = (rules.version, options_key(options))
    with _TURN:
        if _READ.get(key) != odds.generation():
            load(rules, options)
            _READ[key] = odds.generation()
    asked = outcomes_asked()
    try:
        yield
    finally:
        if outcomes_asked() != asked:
            with _TURN:
                save(rules, options)
