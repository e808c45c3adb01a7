"""Every console command works after `bash run.sh` alone: it installs sawbones without its extras, so every
module sawbones imports at run time (the Discord bot's httpx included) must come with its runtime
dependencies. Two checks: every sawbones module imported here, each outside package it pulls in must be a
runtime dependency of pyproject.toml (or one of theirs); and sawbones installed without extras into a fresh
virtual environment answers each command's --help and imports the bot."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOT_RUN_ALONE = ("sawbones.__main__", "sawbones.adapters.migrations.env")  # (a script; Alembic's own)
IMPORT_ALL = f"""
import importlib, json, pkgutil, sys
before = {{name.partition(".")[0] for name in sys.modules}}  # (the interpreter's own start: site, .pth files)
import sawbones
for found in pkgutil.walk_packages(sawbones.__path__, "sawbones."):
    if found.name not in {NOT_RUN_ALONE!r}:
        importlib.import_module(found.name)
print(json.dumps(sorted({{name.partition(".")[0] for name in sys.modules}} - before)))
"""
HELP_EACH = """
import sys
from sawbones.interfaces.cli import COMMANDS, main
failed = [name for names in COMMANDS.values() for name in names if main([name, "--help"]) != 0]
import sawbones.discord.bot, sawbones.discord.api, sawbones.discord.feed  # the bot's own imports
print("FAILED", failed, file=sys.stderr) if failed else None
sys.exit(1 if failed else 0)
"""
UNREACHABLE = ("No matching distribution", "Could not find a version", "Failed to establish a new connection",
               "Temporary failure in name resolution", "Network is unreachable", "ReadTimeoutError")


def _name(requirement: str) -> str:
    return re.split(r"[\s\[<>=!~;(]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _runtime_closure() -> set[str]:
    """pyproject's runtime dependencies (no extras), and theirs, as installed here."""
    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    todo = [r for r in project["dependencies"] if Requirement(r).marker is None or Requirement(r).marker.evaluate()]
    seen: set[str] = set()
    while todo:
        requirement = Requirement(todo.pop())
        name = requirement.name.lower().replace("_", "-")
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        extras = requirement.extras or {""}
        todo += [r for r in requires if Requirement(r).marker is None
                 or any(Requirement(r).marker.evaluate({"extra": extra}) for extra in extras)]
    return seen


def test_every_package_sawbones_imports_is_a_runtime_dependency():
    done = subprocess.run([sys.executable, "-c", IMPORT_ALL], capture_output=True, text=True, timeout=300,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    imported = set(json.loads(done.stdout.splitlines()[-1]))
    distributions = metadata.packages_distributions()
    runtime = _runtime_closure()
    outside = {module: {d.lower().replace("_", "-") for d in distributions[module]}
               for module in imported if module in distributions and module not in sys.stdlib_module_names
               and module != "sawbones"}
    missing = {module: sorted(names) for module, names in outside.items() if not names & runtime}
    assert not missing, f"imported at run time, not a runtime dependency in pyproject.toml: {missing}"


def test_installed_without_extras_every_command_answers_help_and_the_bot_imports(tmp_path):
    """`pip install .` (what bash run.sh does, no extras) into a fresh virtual environment; skipped when pip
    cannot reach the packages here (no index, no network)."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=180)
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    try:
        installed = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                                    str(ROOT)], capture_output=True, text=True, timeout=900, env=env, cwd=tmp_path)
    except subprocess.TimeoutExpired:
        pytest.skip("pip did not install sawbones within 15 minutes here (a slow network)")
    if installed.returncode != 0:
        said = installed.stderr + installed.stdout
        if any(sign in said for sign in UNREACHABLE):
            pytest.skip(f"pip cannot reach the packages here: {said.strip().splitlines()[-1][:200]}")
        pytest.fail(f"pip install . failed:\n{said[-3000:]}")
    main_help = subprocess.run([str(venv / "bin" / "sawbones"), "--help"], capture_output=True, text=True,
                               timeout=120, env=env, cwd=tmp_path)
    assert main_help.returncode == 0 and "discord" in main_help.stdout, main_help.stderr
    each = subprocess.run([str(python), "-c", HELP_EACH], capture_output=True, text=True, timeout=300, env=env,
                          cwd=tmp_path)
    assert each.returncode == 0, each.stderr[-3000:]
    assert "Traceback" not in each.stderr
