"""Docs and docstrings name what exists (issue 38): a module path said in README.md, docs/*.md, or a docstring or
comment of src/ (`views.py`, `sawbones/interfaces/web/app.py`, `interfaces/cli/`, `api_*.py`) names a file or a
folder of the project. A path is found when some file of the tree ends with it (`cli/odds.py` is
src/sawbones/interfaces/cli/odds.py), or, for a pattern, when a file matches it."""

from __future__ import annotations

import ast
import fnmatch
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIP = {".git", ".venv", "node_modules", "__pycache__", ".pytest_cache", ".mypy_cache"}
TOPS = ("sawbones", "src", "interfaces", "domain", "application", "adapters", "content", "presentation", "discord",
        "scripts", "benchmarks", "tests", "engine", "injuries", "wounds", "afflictions", "cli", "web", "api", "locale",
        "migrations", "integrations")
# a file name ending in .py, or a folder path that starts with a package of the tree and ends with / or /…
PATH = re.compile(r"(?<![\w./\-*{])((?:[\w*{},\-]+/)*[\w*{},\-]+\.py)\b"
                  r"|(?<![\w./\-])((?:%s)/(?:[\w\-]+/)*)(?:…|\.\.\.)?(?![\w.])" % "|".join(TOPS))


def tree_files() -> list[str]:
    """Every file and folder of the project, as paths relative to the root (with a trailing / for folders)."""
    out = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if SKIP & set(parts) or any(p.endswith(".egg-info") for p in parts):
            continue
        out.append(path.relative_to(ROOT).as_posix() + ("/" if path.is_dir() else ""))
    return out


FILES = tree_files()
# not ours: a library named like a module (discord.py), a library's own file (fastapi/routing.py)
EXTERNAL = {"discord.py"}
EXTERNAL_PACKAGES = ("fastapi/", "starlette/", "click/", "pydantic/", "sqlalchemy/", "alembic/", "uvicorn/", "rich/",
                     "babel/", "jinja2/", "yaml/", "discord/ext/")


def _braces(said: str) -> list[str]:
    """`{moment,odds}_words.py` → moment_words.py, odds_words.py."""
    match = re.search(r"\{([^{}]*)\}", said)
    if not match:
        return [said]
    return [x for choice in match.group(1).split(",")
            for x in _braces(said[:match.start()] + choice.strip() + said[match.end():])]


def exists(said: str) -> bool:
    if said in EXTERNAL or said.startswith(EXTERNAL_PACKAGES):
        return True
    for one in _braces(said.strip("/…")):
        folder = said.endswith("/") or said.endswith("…")
        want = one.rstrip("/") + ("/" if folder else "")
        pattern = "*" in want
        if not any((fnmatch.fnmatch(f, "*" + want) if pattern else (f == want or f.endswith("/" + want)))
                   for f in FILES):
            return False
    return True


def paths_in(text: str) -> list[str]:
    return [m.group(1) or m.group(2) for m in PATH.finditer(text)]


def doc_texts() -> list[tuple[str, str]]:
    """(where, text): the Markdown docs, and every docstring and comment of src/."""
    out = [(p.relative_to(ROOT).as_posix(), p.read_text(encoding="utf-8"))
           for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]]
    for path in sorted((ROOT / "src").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        where = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node, clean=False)
                if doc:
                    out.append((f"{where}:{getattr(node, 'lineno', 1)}", doc))
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                out.append((f"{where}:{token.start[0]}", token.string))
    return out


def test_the_check_finds_paths_and_can_fail():
    said = "see interfaces/cli/odds.py, `views.py`, domain/odds.py, cli_tracks.py, api_*.py and interfaces/cli/…"
    assert paths_in(said) == ["interfaces/cli/odds.py", "views.py", "domain/odds.py", "cli_tracks.py", "api_*.py",
                              "interfaces/cli/"]
    assert exists("interfaces/cli/odds.py") and exists("interfaces/cli/") and exists("test_*.py")
    assert not exists("domain/odds.py") and not exists("cli_tracks.py")
    assert paths_in("{moment,odds}_words.py") == ["{moment,odds}_words.py"]


def test_every_module_path_in_the_docs_exists():
    missing = sorted({f"{where}: {said}" for where, text in doc_texts() for said in paths_in(text)
                      if not exists(said)})
    assert missing == [], f"{len(missing)} paths name nothing in the tree:\n" + "\n".join(missing)
