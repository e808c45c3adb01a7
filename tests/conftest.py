from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest

from sawbones.content.loader import load_rules
from sawbones.interfaces.cli import main


@pytest.fixture(scope="session")
def rules():
    return load_rules()


class CliResult:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    @property
    def json(self):
        return json.loads(self.out)


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "campaign.db")


@pytest.fixture
def cli(db, capsys):
    """Run the CLI in-process on a fresh database: cli('status', '--json') -> CliResult."""

    def run(*args: str) -> CliResult:
        capsys.readouterr()
        code = main(["--db", db, *args])
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return run


# ---------------------------------------------------------------- storage backends (issue 8)
# test.sh sources scripts/setup_postgres.sh, which starts a throwaway PostgreSQL and exports
# SAWBONES_TEST_PG_URL. Run without it, the session starts one itself when PostgreSQL's programs
# are installed (set SAWBONES_TEST_PG=0 not to). In CI, or with SAWBONES_REQUIRE_PG=1, a missing
# PostgreSQL makes its tests fail; elsewhere they skip.

ROOT = Path(__file__).resolve().parents[1]


def pg_required() -> bool:
    ci = os.environ.get("CI", "").strip().lower()
    return ci not in ("", "0", "false", "no") or os.environ.get("SAWBONES_REQUIRE_PG") == "1"


def _start_own_cluster() -> str:
    """Start one with scripts/setup_postgres.sh (never installing); '' if it cannot."""
    if os.environ.get("SAWBONES_TEST_PG") == "0" or not shutil.which("bash"):
        return ""
    env = dict(os.environ, SAWBONES_PG_NO_INSTALL="1", SAWBONES_PG_WATCH_PID=str(os.getpid()))
    script = ('set -euo pipefail; source scripts/setup_postgres.sh; '
              'printf "%s\\0%s\\0%s\\0" "${SAWBONES_TEST_PG_URL:-}" "${SAWBONES_TEST_PG_DIR:-}" '
              '"${SAWBONES_TEST_PG_STOP:-}"')
    try:
        out = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"!{exc}"
    parts = out.stdout.split("\0")
    if out.returncode != 0 or not parts[0]:
        return "!" + out.stderr.strip().replace("\n", " ")[-300:]
    os.environ.update(SAWBONES_TEST_PG_URL=parts[0], SAWBONES_TEST_PG_DIR=parts[1], SAWBONES_TEST_PG_STOP=parts[2])
    return parts[0]


@pytest.fixture(scope="session")
def pg_server():
    """The URL of a PostgreSQL database for the tests; stopped at the end of the session if we own it."""
    url = os.environ.get("SAWBONES_TEST_PG_URL", "")
    why = "SAWBONES_TEST_PG_URL is not set"
    if not url:
        started = _start_own_cluster()
        if started.startswith("!") or not started:
            why = f"could not start PostgreSQL ({started[1:] or 'no initdb/pg_ctl, or SAWBONES_TEST_PG=0'})"
        else:
            url = started
    if not url:
        if pg_required():
            pytest.fail(f"PostgreSQL is required here (CI or SAWBONES_REQUIRE_PG=1) but absent: {why}", pytrace=False)
        pytest.skip(f"no PostgreSQL: {why}")
    try:
        import sqlalchemy as sa

        engine = sa.create_engine(url)
        with engine.connect() as conn:
            conn.execute(sa.text("SELECT 1"))
        engine.dispose()
    except Exception as exc:  # noqa: BLE001
        message = f"PostgreSQL at {url} does not answer: {str(exc).splitlines()[0]}"
        if pg_required():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    yield url
    stop = os.environ.get("SAWBONES_TEST_PG_STOP")
    if stop:
        from sawbones.adapters.engines import dispose_all

        dispose_all()
        subprocess.run(shlex.split(stop), capture_output=True, timeout=60)
        shutil.rmtree(os.environ.get("SAWBONES_TEST_PG_DIR", "") or "/nonexistent", ignore_errors=True)


@pytest.fixture
def pg_url(pg_server):
    """A fresh, empty schema of the test database for one test: a URL whose search_path points to it."""
    import sqlalchemy as sa

    schema = "t_" + uuid.uuid4().hex[:12]
    admin = sa.create_engine(pg_server, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
    sep = "&" if "?" in pg_server else "?"
    yield f"{pg_server}{sep}options=-csearch_path%3D{schema}"
    from sawbones.adapters.engines import dispose_all

    dispose_all()
    with admin.connect() as conn:
        conn.execute(sa.text(f"DROP SCHEMA {schema} CASCADE"))
    admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    """The same test on both backends: a SQLite file, then a PostgreSQL schema."""
    if request.param == "sqlite":
        return str(tmp_path / "store.db")
    return request.getfixturevalue("pg_url")


@pytest.fixture(autouse=True, scope="session")
def _content_cache_in_tmp(tmp_path_factory):
    """The checked-content cache goes to a throwaway directory, not the user's ~/.cache."""
    import os

    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
    yield
