"""The command line imports a command's module only when that command runs (interfaces/cli/__init__.py)."""

from __future__ import annotations

import importlib
import subprocess
import sys

import click

from sawbones.interfaces.cli import COMMANDS, cli, main


def test_the_map_names_every_command_of_every_module():
    """Each module registers exactly the commands the map gives it: a command missing from the map could
    not be found by name, one in the wrong module would load the wrong one."""
    for module, names in COMMANDS.items():
        group = click.Group()
        importlib.import_module(f"sawbones.interfaces.cli.{module}").register(group)
        assert sorted(group.commands) == sorted(names), module
    listed = cli.list_commands(click.Context(cli))
    assert sorted(listed) == sorted(n for names in COMMANDS.values() for n in names)


def test_a_command_imports_only_its_own_module(tmp_path):
    """`status` of a campaign with no character loads the campaign commands, not the odds, the web server or
    the wounds (a character's document loads its sections: tests/test_documents_whole.py)."""
    db = str(tmp_path / "c.db")
    assert main(["--db", db, "campaign", "create", "Tale"]) == 0
    code = ("import sys\nfrom sawbones.interfaces.cli import main\n"
            f"assert main(['--db', {db!r}, '--json', 'status']) == 0\n"
            "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules if m.startswith('sawbones.interfaces.cli.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "['campaign', 'env', 'parsing']"


def test_help_and_unknown_commands_still_see_every_command(capsys):
    assert main(["--help"]) == 0
    shown = capsys.readouterr().out
    for names in COMMANDS.values():
        for name in names:
            assert f"  {name} " in shown, name
    assert main(["no-such-command"]) == 2
    assert "no-such-command" in capsys.readouterr().err
