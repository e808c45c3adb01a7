"""The house's shape (docs/architecture.md): three rules on one engine, layers that point one way, no circles.

The import graph is read from the source with `ast`: every `import` and `from` statement of a module,
at any depth (an import inside a function, or under TYPE_CHECKING, counts like one at the top).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "sawbones"
RULES = ("injuries", "wounds", "afflictions")  # domain/<rule>/: one package per seed (000, 001, 004)
MAX_LINES = 450


def _modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return out


MODULES = _modules()


def _nearest(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(name: str) -> set[str]:
    """The sawbones modules `name` imports (a package's __init__ counts as the package)."""
    path, is_package = MODULES[name]
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(filter(None, (_nearest(alias.name) for alias in node.names)))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                full = f"{module}.{alias.name}"
                target = full if full in MODULES else _nearest(module)
                if target:
                    found.add(target)
    found.discard(name)
    return found


GRAPH = {name: imports_of(name) for name in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _edges(where: str, to: tuple[str, ...]) -> list[str]:
    return sorted(f"{a} -> {b}" for a, targets in GRAPH.items() if a == where or a.startswith(where + ".")
                  for b in targets if any(b == t or b.startswith(t + ".") for t in to))


def test_the_graph_sees_function_level_and_relative_imports():
    """The test can fail: a made-up module with a function-level import back makes a circle."""
    graph = {**GRAPH, "sawbones.domain.engine.state": GRAPH["sawbones.domain.engine.state"] | {"x"},
             "x": {"sawbones.domain.engine.state"}}
    assert ["sawbones.domain.engine.state", "x"] in cycles(graph)
    assert "sawbones.domain.engine.state" in GRAPH["sawbones.domain.engine.evolve"]  # `from .state import ...`
    assert "sawbones.domain.engine.effects" in GRAPH["sawbones.domain.engine.evolve"]  # inside a function


def test_no_import_circle_anywhere_in_src():
    assert cycles(GRAPH) == []


@pytest.mark.parametrize("rule", RULES)
def test_a_rule_package_never_imports_another_rule(rule):
    others = tuple(f"sawbones.domain.{other}" for other in RULES if other != rule)
    assert _edges(f"sawbones.domain.{rule}", others) == []


def test_the_engine_imports_no_rule_package():
    assert _edges("sawbones.domain.engine", tuple(f"sawbones.domain.{rule}" for rule in RULES)) == []


def test_the_domain_never_imports_application_adapters_or_interfaces():
    outer = ("sawbones.application", "sawbones.adapters", "sawbones.interfaces")
    assert _edges("sawbones.domain", outer) == []
    assert _edges("sawbones.content", outer) == []


def test_the_domain_is_one_engine_and_one_package_per_rule():
    domain = PACKAGE / "domain"
    assert sorted(p.name for p in domain.iterdir() if p.is_dir() and (p / "__init__.py").exists()) == \
        sorted(("engine",) + RULES)
    assert sorted(p.name for p in domain.glob("*.py")) == ["__init__.py"]


@pytest.mark.parametrize("rule,seed", [("injuries", "000"), ("wounds", "001"), ("afflictions", "004")])
def test_each_rule_package_says_its_seed_and_lists_its_modules(rule, seed):
    package = PACKAGE / "domain" / rule
    doc = ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8"))) or ""
    assert f"seed {seed}" in doc
    for module in package.glob("*.py"):
        if module.name != "__init__.py":
            assert f"{module.name}:" in doc, f"{rule}/__init__.py does not list {module.name}"


def test_init_files_do_not_re_export():
    """An __init__ holds a docstring (and, for the CLI, the group and `main`): no `from .x import *` chains."""
    for name, (path, is_package) in MODULES.items():
        if is_package and name.startswith("sawbones.domain."):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            assert not [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))], name


def test_no_module_over_450_lines():
    long = {str(path.relative_to(SRC)): n for path, _ in MODULES.values()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_every_folder_of_modules_is_a_package():
    """setuptools installs packages found by their __init__.py: a folder without one is left out of the wheel."""
    folders = {path.parent for path, _ in MODULES.values()} - {PACKAGE / "adapters" / "migrations" / "versions"}
    assert sorted(str(f.relative_to(SRC)) for f in folders if not (f / "__init__.py").exists()) == []


def test_help_loads_no_heavy_module():
    """cli/__init__.py: heavy modules (pydantic, YAML, Rich, SQLAlchemy, FastAPI) are imported inside commands, so
    `sawbones --help` stays fast; a module-level import moved between packages must not pull them in."""
    import subprocess
    import sys

    code = ("import sys\nfrom sawbones.interfaces.cli import main\nmain(['--help'])\n"
            "print(sorted(m for m in ('pydantic', 'yaml', 'rich', 'sqlalchemy', 'fastapi') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"


def test_status_on_sqlite_imports_no_sqlalchemy(tmp_path):
    """A read of a current SQLite database (`status`, `log`) runs on the standard library's sqlite3: neither
    SQLAlchemy nor Alembic is imported (only a database that needs migrating imports them)."""
    import subprocess
    import sys

    from sawbones.interfaces.cli import main

    db = str(tmp_path / "c.db")
    assert main(["--db", db, "campaign", "create", "Tale"]) == 0
    assert main(["--db", db, "character", "add", "Aria", "--max-hp", "12"]) == 0
    code = ("import sys\nfrom sawbones.interfaces.cli import main\n"
            f"for argv in (['--db', {db!r}, 'status'], ['--db', {db!r}, '--json', 'log']):\n"
            "    assert main(argv) == 0\n"
            "print(sorted(m for m in ('sqlalchemy', 'alembic') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"


def test_status_with_a_warm_content_cache_imports_no_pydantic(tmp_path):
    """Content models are plain dataclasses: the checked content cache unpickles without pydantic, which only
    validates content when it is checked (a cache miss, `rules check`). `status` on SQLite with the cache warm
    imports neither pydantic nor PyYAML."""
    import os
    import subprocess
    import sys

    from sawbones.interfaces.cli import main

    db = str(tmp_path / "c.db")
    assert main(["--db", db, "campaign", "create", "Tale"]) == 0
    assert main(["--db", db, "character", "add", "Aria", "--max-hp", "12"]) == 0
    assert main(["--db", db, "damage", "Aria", "13", "fire"]) == 0  # an injury: content is read to show it
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    env.pop("SAWBONES_NO_CONTENT_CACHE", None)
    code = ("import sys\nfrom sawbones.interfaces.cli import main\n"
            f"assert main(['--db', {db!r}, 'status']) == 0\n"
            "print(sorted(m for m in ('pydantic', 'pydantic_core', 'yaml') if m in sys.modules))")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
            for _ in range(2)]  # the first checks the content and writes the cache, the second reads it
    assert "pydantic" in runs[0]  # the cold run validated the content: the check below can fail
    assert runs[1].strip().splitlines()[-1] == "[]"


def test_damage_on_sqlite_imports_no_sqlalchemy(tmp_path):
    """A write to a current SQLite database (`damage`: the writer turn, load, decide, append, the integrity
    stamp) runs on the standard library's sqlite3 (adapters/store.py): neither SQLAlchemy nor Alembic."""
    import subprocess
    import sys

    from sawbones.interfaces.cli import main

    db = str(tmp_path / "c.db")
    assert main(["--db", db, "campaign", "create", "Tale"]) == 0
    assert main(["--db", db, "character", "add", "Aria", "--max-hp", "12"]) == 0
    code = ("import sys\nfrom sawbones.interfaces.cli import main\n"
            f"assert main(['--db', {db!r}, 'damage', 'Aria', '1', 'fire']) == 0\n"
            "print(sorted(m for m in ('sqlalchemy', 'alembic') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"
