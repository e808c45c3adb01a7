from __future__ import annotations

import json

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
