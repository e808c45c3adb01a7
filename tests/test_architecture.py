"""The house's shape (docs/architecture.md): three rules on one engine, layers that point one way, no circles.

Layers, bottom to top (issue 38): message/errors/numbers/dice/frozen → content → domain → adapters → application
→ presentation → interfaces (cli, web) and discord; each imports only below it and only public names across
packages; the web and the bots never import the CLI; the domain, the application, the adapters and the content
take no `lang` and hold no French text.

The import graph is read from the source with `ast`: every `import` and `from` statement of a module,
at any depth (an import inside a function, or under TYPE_CHECKING, counts like one at the top).
"""

from __future__ import annotations

import ast
import re
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


# ------------------------------------------------------------------ layers (issue 38)
# Each layer imports only below it. Bottom to top; a module belongs to the first layer whose prefix it has.
# The adapters sit below the application (the service opens the store: docs/architecture.md).
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("bottom", ("sawbones.message", "sawbones.errors", "sawbones.numbers", "sawbones.durations", "sawbones.dice", "sawbones.frozen",
                "sawbones.cache_files")),
    ("content", ("sawbones.content",)),
    ("domain", ("sawbones.domain",)),
    ("adapters", ("sawbones.adapters",)),
    ("application", ("sawbones.application",)),
    ("presentation", ("sawbones.presentation",)),
    ("interfaces", ("sawbones.interfaces", "sawbones.discord", "sawbones.docs", "sawbones.demo",
                    "sawbones.__main__")),
]
# one code base, one root: sawbones/__init__.py holds nothing and sits below everything
ROOT_PACKAGE = "sawbones"


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".") or name.startswith(prefix + "_")


def layer_of(name: str) -> int:
    if name == ROOT_PACKAGE:
        return -1
    for rank, (_, prefixes) in enumerate(LAYERS):
        if any(_under(name, p) for p in prefixes):
            return rank
    raise AssertionError(f"{name} is in no layer: add it to LAYERS in tests/test_architecture.py")


def test_every_module_has_a_layer():
    assert [name for name in MODULES if name != ROOT_PACKAGE and not _has_layer(name)] == []


def _has_layer(name: str) -> bool:
    try:
        layer_of(name)
    except AssertionError:
        return False
    return True


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a module from a higher layer: "a (layer) -> b (layer)"."""
    found = []
    for a, targets in graph.items():
        if not _has_layer(a):
            continue
        for b in targets:
            if _has_layer(b) and layer_of(b) > layer_of(a):
                found.append(f"{a} ({LAYERS[layer_of(a)][0]}) -> {b} ({LAYERS[layer_of(b)][0]})")
    return sorted(found)


def test_the_layer_check_can_fail():
    graph = {"sawbones.domain.engine.state": {"sawbones.presentation.locale"}}
    assert upward_imports(graph) == ["sawbones.domain.engine.state (domain) -> sawbones.presentation.locale "
                                     "(presentation)"]


def test_each_layer_imports_only_below_it():
    """bottom (message, errors, numbers, dice, frozen, cache_files) → content → domain → adapters → application →
    presentation → interfaces (cli, web, discord, docs, demo). Today: content takes the domain's parse_duration,
    the domain imports i18n, the interfaces' words live in interfaces/ where the web and the bot read them."""
    wrong = upward_imports(GRAPH)
    assert wrong == [], "imports from a higher layer:\n" + "\n".join(wrong)


@pytest.mark.parametrize("outer", ["sawbones.interfaces.web", "sawbones.discord"])
def test_the_web_and_the_bots_never_import_the_cli(outer):
    """The read models the web and the bots show live in presentation/, not in interfaces/cli."""
    wrong = _edges(outer, ("sawbones.interfaces.cli",))
    assert wrong == [], "\n".join(wrong)


def test_presentation_imports_no_interface():
    wrong = _edges("sawbones.presentation", ("sawbones.interfaces", "sawbones.discord"))
    assert wrong == [], "\n".join(wrong)


def _package_of(name: str) -> str:
    return name if MODULES[name][1] else name.rpartition(".")[0]


def _top_package(name: str) -> str:
    """sawbones.domain, sawbones.adapters, …; the interfaces by their own: sawbones.interfaces.cli, ….web."""
    parts = name.split(".")
    inner = ".".join(parts[:3])
    return inner if parts[1:2] == ["interfaces"] and MODULES.get(inner, (None, False))[1] else ".".join(parts[:2])


def private_imports() -> list[str]:
    """`from x import _name` where x is a module of another top package (another layer, or the CLI from the web):
    a private name used across packages (gettext's `_` is public by the convention every translated program keeps)."""
    found = []
    for name, (path, _) in MODULES.items():
        package = _package_of(name)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if not module.startswith("sawbones"):
                continue
            for alias in node.names:
                private = alias.name.startswith("_") and not alias.name.startswith("__") \
                    and alias.name != "_"  # gettext's `_` (presentation.locale): public by convention
                source = module if module in MODULES else _nearest(module)
                if private and source and _top_package(source) != _top_package(name):
                    found.append(f"{name}: from {module} import {alias.name}")
    return sorted(found)


def test_only_public_names_cross_packages():
    """A name that starts with `_` belongs to its package: another package imports only public names."""
    wrong = private_imports()
    assert wrong == [], "\n".join(wrong)


# ------------------------------------------------------------------ no language below the presentation (issue 38)
LANGUAGE_FREE = ("domain", "application", "adapters", "content")
ACCENTED = re.compile(r"[àâäçéèêëîïôöùûüÿœæÀÂÄÇÉÈÊËÎÏÔÖÙÛÜŸŒÆ«»]|\u202f|\xa0[:;!?]")
FRENCH_WORDS = re.compile(r"(?i)\b(les|des|une|avec|sans|pour|dans|aucun|aucune|jour|jours|heures|blessure|blessures|"
                          r"soins|jet|jets|raté|réussi|dégâts|personnage|campagne|guérison|sauvegarde|pas de|"
                          r"n'est|c'est|d'un|d'une|l'|qu'|est|sont|ou bien)\b")


def _files(package: str) -> list[Path]:
    return sorted((PACKAGE / package).rglob("*.py"))


def _docstring_nodes(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                ids.add(id(first.value))
    return ids


def french_literals(path: Path) -> list[str]:
    """The string literals of a module (docstrings left out) that hold French: an accented letter, French
    punctuation, or one of a few French words."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    docstrings = _docstring_nodes(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            text = node.value
            if len(text.strip()) > 2 and (ACCENTED.search(text) or FRENCH_WORDS.search(text)):
                found.append((node.lineno, f"{path.relative_to(SRC)}:{node.lineno}: {text[:70]!r}"))
    return [line for _, line in sorted(found)]  # (a letter or two is no text: a folding table's "œ")


def test_the_french_check_can_fail(tmp_path):
    module = tmp_path / "sawbones" / "m.py"
    module.parent.mkdir()
    module.write_text('"""Docstrings may quote « le jour »."""\nX = "day"\nY = f"{X} jours"\nZ = "sévère"\n',
                      encoding="utf-8")
    global SRC
    kept, SRC = SRC, tmp_path
    try:
        assert [line.split(": ", 1)[0] for line in french_literals(module)] == ["sawbones/m.py:3", "sawbones/m.py:4"]
    finally:
        SRC = kept


@pytest.mark.parametrize("package", LANGUAGE_FREE)
def test_no_french_text_below_the_presentation(package):
    """French lives in the catalog (locale/fr/LC_MESSAGES/sawbones.po) and in the content's YAML `fr:` fields;
    the code of the domain, the application, the adapters and the content holds none (docstrings and comments
    may quote it)."""
    found = [line for path in _files(package) for line in french_literals(path)]
    assert found == [], "\n".join(found)


def lang_parameters(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
            if "lang" in names or "language" in names:
                found.append(f"{path.relative_to(SRC)}:{node.lineno}: {getattr(node, 'name', 'lambda')}")
        elif isinstance(node, ast.Compare):
            said = [c.value for c in (node.left, *node.comparators) if isinstance(c, ast.Constant)]
            if any(v in ("fr", "en") for v in said):
                found.append(f"{path.relative_to(SRC)}:{node.lineno}: compares with a language")
    return found


@pytest.mark.parametrize("package", LANGUAGE_FREE)
def test_no_lang_parameter_below_the_presentation(package):
    """The language is a context the edge sets (presentation/locale.py): no function of the domain, the
    application, the adapters or the content takes a `lang`, and none asks which language it is."""
    found = [line for path in _files(package) for line in lang_parameters(path)]
    assert found == [], "\n".join(found)
