"""A language is a file (issue 38): a catalog made here for a language that does not exist ("xx": each msgstr is
its msgid in capitals, {fields} and markup kept), put in a folder named by $SAWBONES_LOCALE_PATH, is spoken by
`sawbones --lang xx …` and by a page with ?lang=xx — and no Python file changed for it.

The check: the words come out in "xx" (capitals where English has small letters), and the output says the same
letters as the English one once both are lowercased (the names, numbers and content are the same data).
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import io
import re
import subprocess
import warnings
from pathlib import Path

import pytest

from sawbones.presentation import pseudo

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
LANG = "xx"


def capitals(text: str) -> str:
    """The made-up language: the English in capitals, with what a catalog keeps intact kept."""
    out, start = [], 0
    for kept in pseudo.KEPT.finditer(text):
        out += [text[start:kept.start()].upper(), kept.group()]
        start = kept.end()
    return "".join(out) + text[start:].upper()


def write_language(folder: Path, pot: Path) -> Path:
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    with pot.open("rb") as handle:
        template = read_po(handle)
    catalog = Catalog(locale=None, domain="sawbones", project="sawbones", fuzzy=False)
    catalog.mime_headers = [*(kv for kv in catalog.mime_headers if kv[0] != "Plural-Forms"), ("Language", LANG),
                            ("Plural-Forms", "nplurals=2; plural=(n != 1);")]
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, (list, tuple)):
            catalog.add(tuple(message.id), tuple(capitals(t) for t in message.id), context=message.context,
                        flags=message.flags - {"fuzzy"})
        else:
            catalog.add(message.id, capitals(message.id), context=message.context, flags=message.flags - {"fuzzy"})
    target = folder / LANG / "LC_MESSAGES" / "sawbones.po"
    target.parent.mkdir(parents=True)
    with target.open("wb") as handle:
        write_po(handle, catalog)
    return target


def python_files() -> dict[str, str]:
    return {str(p.relative_to(ROOT)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(SRC.rglob("*.py"))}


def git_status() -> str:
    try:
        return subprocess.run(["git", "status", "--porcelain", "--", "src"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: the hashes still tell
        return ""


@pytest.fixture(scope="module")
def xx(tmp_path_factory):
    before = (python_files(), git_status())
    folder = tmp_path_factory.mktemp("locales")
    from test_pseudo_locale import catalogs_in, code_template  # (the code's words as they are, not a stale .pot)

    write_language(folder, code_template(tmp_path_factory.mktemp("pot")))
    with catalogs_in(folder):
        yield folder
    assert (python_files(), git_status()) == before, "a Python file changed while a language was added"


def letters(text: str) -> str:
    return re.sub(r"[^a-z]", "", text.lower())


def cli(*argv: str) -> tuple[int, str]:
    from sawbones.interfaces.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = contextvars.copy_context().run(main, list(argv))  # the language it sets stays in its own context
    return code, out.getvalue() + err.getvalue()


def test_capitals_keeps_fields_and_markup():
    assert capitals("Campaign [bold]{name}[/] ({system}) created, see --d20") == \
        "CAMPAIGN [bold]{name}[/] ({system}) CREATED, SEE --d20"


def test_the_language_is_known_once_its_catalog_is_there(xx):
    from sawbones.presentation.locale import languages, normalize

    assert LANG in languages() and normalize("xx-XX") == LANG


STORY = [("campaign", "create", "Sword Coast", "--seed", "7"),
         ("character", "add", "Borin", "--max-hp", "31", "--abilities", "str=16,con=16"),
         ("damage", "Borin", "35", "fire", "--d20", "2"),
         ("status",), ("rest", "--long"), ("log",), ("tables", "fire"), ("status", "Nobody"), ("--help",)]


@pytest.mark.parametrize("step", range(len(STORY)), ids=[" ".join(s) for s in STORY])
def test_the_cli_speaks_it(xx, tmp_path, step):
    """The same story in English and in xx: the same letters, and capitals where the words are."""
    said = {}
    for lang in ("en", LANG):
        db = str(tmp_path / f"{lang}.db")
        for args in STORY[:step]:
            cli("--db", db, *args)
        said[lang] = cli("--db", db, "--lang", lang, *STORY[step])
    (en_code, en), (xx_code, out) = said["en"], said[LANG]
    assert xx_code == en_code, out
    assert letters(out) == letters(en), f"English:\n{en}\nxx:\n{out}"
    assert out != en and sum(c.isupper() for c in out) > sum(c.isupper() for c in en), f"not in xx:\n{out}"


@pytest.mark.parametrize("url", ["/", "/tables", "/tables/fire"])
def test_a_page_speaks_it(xx, tmp_path, url):
    from sawbones.application.service import Service
    from sawbones.interfaces.web import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from test_pseudo_locale import visible

    app = create_app(lambda: Service.open(f"sqlite:///{tmp_path / 'pages.db'}"), poll_interval=0.05, stream_seconds=3)
    with TestClient(app, base_url="http://testserver") as browser:
        en = visible(browser.get(f"{url}?lang=en").text)
        out = visible(browser.get(f"{url}?lang={LANG}").text)
    assert letters(out) == letters(en), f"English:\n{en}\nxx:\n{out}"
    assert sum(c.isupper() for c in out) > sum(c.isupper() for c in en) + 10, f"not in xx:\n{out}"
