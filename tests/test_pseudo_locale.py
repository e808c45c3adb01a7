"""Every word a user reads comes from the catalog (issue 38): the CLI's documents and the pages, rendered in the
pseudo-locale (presentation/pseudo.py: each msgstr is its msgid accented, lengthened and wrapped in ⟦ ⟧), hold no
text outside the markers but data: the names the GM gave (campaign, characters), numbers and dice, the content's
own names and texts (its YAML, in any language), ids, options (`--d20`), URLs.

A failure lists, per document, the words that escaped the catalog and the line they stand in: each is a string
still written in the code (or a template) rather than marked with _() / ngettext / pgettext / msg.
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib.util
import io
import os
import re
import shlex
import warnings
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sawbones.presentation import pseudo

ROOT = Path(__file__).resolve().parents[1]
LANG = pseudo.LANG


def _recorder():
    """scripts/record_outputs.py: the README tour, the guided tour, the errors and the command walk it records."""
    spec = importlib.util.spec_from_file_location("record_outputs", ROOT / "scripts" / "record_outputs.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RECORD = _recorder()
NAMES = {"Sword Coast", "Tour of the Sword Coast", "Aria", "Borin", "Cora", "Extra", "Errors", "Empty", "Alpha",
         "Nia", "Oda", "Nobody", "Nowhere", "sawbones", "Sawbones"}
LANGUAGE_SWITCH = {"EN", "FR", "QPS"}  # the languages' own names on the switch


def _content_data() -> tuple[list[str], set[str]]:
    """The content's texts (every language, longest first) and its ids and option ids."""
    from sawbones.content.loader import load_rules

    rules = load_rules()
    texts: set[str] = set()
    ids: set[str] = set(getattr(rules, "options", {}) or {})
    seen: set[int] = set()

    def walk(value, depth=0):
        if depth > 12 or id(value) in seen or value is None or isinstance(value, (int, float, bool)):
            return
        seen.add(id(value))
        if isinstance(value, str):
            return
        en = getattr(value, "en", None)
        if isinstance(en, str):  # a text of the content: its words in every language it has
            names = getattr(value, "__dataclass_fields__", None) or getattr(value, "__dict__", None) or ("en", "fr")
            texts.update(v for k in names if isinstance(v := getattr(value, k, None), str) and v)
            return
        if isinstance(value, dict):
            ids.update(k for k in value if isinstance(k, str))
            for item in value.values():
                walk(item, depth + 1)
            return
        if isinstance(value, (list, tuple, set, frozenset)):
            for item in value:
                walk(item, depth + 1)
            return
        ident = getattr(value, "id", None)
        if isinstance(ident, str):
            ids.add(ident)
        fields = getattr(value, "__dataclass_fields__", None) or getattr(value, "__dict__", {})
        for field in fields:
            walk(getattr(value, field, None), depth + 1)

    walk(rules)
    # an option's help is shown as a GM reads it, without the rule ids it cites (presentation.views.plain_help):
    # still the content's own words
    from sawbones.presentation.views import plain_help

    texts |= {plain_help(t) for t in texts}
    # an injury's treatment is said by the time its severity's text gives, after the ";" ("DC 15; 30 minutes": "30
    # minutes", presentation.views.heals_doc): still the content's own words
    for severity in (getattr(rules, "severities", {}) or {}).values():
        text = severity.treatment.text
        texts.update(piece for lang in ("en", "fr") if (piece := (getattr(text, lang, "") or "").split(";")[-1].strip()))
    # an option's value is a list of ids (metal_armor = ring_mail,chain_shirt,…; bubonic_plague_vectors =
    # ingested,inhaled): the content's ids, not words
    for option in (getattr(rules, "options", {}) or {}).values():
        for value in (getattr(option, "default", None), getattr(option, "original", None)):
            if isinstance(value, (list, tuple, set, frozenset)):
                ids.update(v for v in value if isinstance(v, str))
    return sorted(texts, key=len, reverse=True), ids


TEXTS, IDS = _content_data()


def _treatment_rests() -> set[str]:
    """A severity's treatment text ("DC 25; extended bed rest") is shown on a page by its rest alone, after the
    catalog's "treatment DC {dc}" (presentation.views.heals_doc: its words after the last ";"): the content's words."""
    from sawbones.content.loader import load_rules

    said = (getattr(s.treatment.text, lang, None) for s in load_rules().severities.values() for lang in ("en", "fr"))
    return {text.split(";")[-1].strip() for text in said if isinstance(text, str) and ";" in text}


TEXTS = sorted({*TEXTS, *_treatment_rests()}, key=len, reverse=True)
def _as_pattern(text: str) -> str:
    """A content text as a pattern: its {fields} (an option's explanation may have some) match what fills them."""
    return re.sub(r"\\\{\w+\\\}", ".+?", re.escape(text)).replace("\\ ", r"\s+")  # (wrapped: any space)


DATA_TEXT = re.compile(r"(?<!\w)(?:%s)(?!\w)" % "|".join(_as_pattern(t) for t in TEXTS if len(t) > 1)) if TEXTS else None
NOT_WORDS = re.compile(r"[a-z][\w+]*://\S*|\$\w+|(?<![\w/])/\S*|(?<![\w-])--?[A-Za-z][\w-]*|`[^`]*`|\b\w*\d\w*\b")  # URLs, paths, options, ids
WORD = re.compile(r"[^\W\d_]{2,}(?:[_'’-][^\W\d_]+)*")


def _commands() -> set[str]:
    """The names of the CLI's commands and groups: what a GM types (`campaign create`), the syntax, not words."""
    import click

    from sawbones.interfaces.cli import cli as group

    found: set[str] = set()
    todo = [group]
    while todo:
        command = todo.pop()
        if isinstance(command, click.Group):  # (the CLI loads its commands when they are listed)
            context = click.Context(command)
            for name in command.list_commands(context):
                found.add(name)
                todo.append(command.get_command(context, name))
    return found


COMMANDS = _commands()
# in a --help, what follows an option (its metavar: PATH|URL, dN, metal|none|ID) and a list of choices
# ([hand|foot], [fr|qps|en]) are what a GM types: ids and syntax, not words
HELP_SYNTAX = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)[ =](?!\s)\S+|\[[\w|-]+\|[\w|-]+\]")
FILE_NAME = re.compile(r"\b[\w-]+\.(?:json|db|yaml|yml|csv|txt|po|mo|pot)\b")  # a file's name (a default: data)
# a table's id qualified by its kind where two kinds share it (`sawbones tables track:leprosy`): an id
QUALIFIED_ID = re.compile(r"\b([a-z_]+):([a-z_]+)\b")
# a character's or campaign's id is its name, folded: "Aria (aria)"
NAME_IDS = {name.lower().replace(" ", "-") for name in NAMES} | {name.lower().replace(" ", "_") for name in NAMES}


def unmarked(text: str) -> str:
    """`text` without what the markers enclose (pseudo.strip_marked), each marked span left as a space: a text of
    the catalog is a word boundary (content names listed with the catalog's ", " stay apart)."""
    out, depth = [], 0
    for ch in text:
        if ch == pseudo.OPEN:
            depth += 1
        elif ch == pseudo.CLOSE and depth:
            depth -= 1
            if not depth:
                out.append(" ")
        elif not depth:
            out.append(ch)
    return "".join(out)


def escaped(text: str, *, help_text: bool = False) -> list[str]:
    """The lines of `text` that hold words outside the markers that are no data, each with those words."""
    out = []
    lines = unmarked(text).splitlines()
    rest_of_all = "\n".join(lines)
    if help_text:  # (before the content's texts: `left` is one, and [left|right|both] is a list of choices whole)
        rest_of_all = HELP_SYNTAX.sub(" ", rest_of_all)
    if DATA_TEXT:  # a content text may be wrapped over lines: blanked out whole, its line breaks kept
        rest_of_all = DATA_TEXT.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), rest_of_all)
    for line, rest in zip(lines, rest_of_all.split("\n")):
        for name in sorted(NAMES, key=len, reverse=True):
            rest = rest.replace(name, " ")
        rest = NOT_WORDS.sub(" ", FILE_NAME.sub(" ", rest))
        rest = QUALIFIED_ID.sub(lambda m: " " if m.group(2) in IDS else m.group(), rest)
        words = [w for w in WORD.findall(rest) if w not in IDS and w not in LANGUAGE_SWITCH and w not in NAME_IDS
                 and not (help_text and (w.isupper() or w in COMMANDS))]  # a metavar (NAME, AMOUNT) or a command
        #                                                                   name is the syntax, not words
        if words:
            out.append(f"{' '.join(words)}   ← {line.strip()[:110]}")
    return out


def test_the_check_sees_text_outside_the_markers():
    said = f"{pseudo.pseudo('{who} joins the party')} Aria hits hard for 3 · Fire · --d20 i1 http://x/y"
    assert escaped(said) == [f"hits hard for   ← {pseudo.strip_marked(said).strip()}"]


def test_a_help_s_syntax_is_data_but_its_sentences_are_not():
    """Usage lines, command names, metavars and choice lists are what a GM types; an option's help is words."""
    usage = f"{pseudo.pseudo('Usage:')} sawbones campaign create [OPTIONS] NAME"
    options = f"  --hand [left|right|both]  {pseudo.pseudo('Hand the attack is made with.')}\n  --hit-die dN  Hit die."
    assert escaped(usage, help_text=True) == []
    assert [line.split("   ←")[0] for line in escaped(options, help_text=True)] == ["Hit die"]
    assert escaped("Aria (aria) · Sleight of Hand⟦, ⟧Athletics", help_text=False) == []


def test_pseudo_keeps_fields_markup_and_options():
    said = pseudo.pseudo("Save {who:>3}: <b>{n}</b> &amp; --d20 `sawbones status`")
    assert said.startswith(pseudo.OPEN) and said.endswith(pseudo.CLOSE)
    for kept in ("{who:>3}", "<b>", "{n}", "</b>", "&amp;", "--d20", "`sawbones status`"):
        assert kept in said
    assert "Save" not in said and len(said) > len("Save {who:>3}: <b>{n}</b> &amp; --d20 `sawbones status`")


def test_the_pseudo_catalog_is_read_by_the_locale(tmp_path, monkeypatch):
    """write_catalog's .po, found through $SAWBONES_LOCALE_PATH, is what _() / ngettext / pgettext say in qps."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    from sawbones.presentation import locale

    template = Catalog(project="sawbones")
    template.add("{who} joins the party", flags=("python-brace-format",))
    template.add(("{n} day", "{n} days"), flags=("python-brace-format",))
    template.add("stable", context="verdict")
    pot = tmp_path / "sawbones.pot"
    with pot.open("wb") as handle:
        write_po(handle, template)
    pseudo.write_catalog(tmp_path / "locales", pot=pot)
    monkeypatch.setenv("SAWBONES_LOCALE_PATH", str(tmp_path / "locales"))
    locale.forget_catalogs()
    try:
        assert LANG in locale.languages()
        with locale.speaking(LANG):
            joined = locale._("{who} joins the party", who="Aria")
            days = [locale.ngettext("{n} day", "{n} days", n) for n in (1, 2)]
            verdict = locale.pgettext("verdict", "stable")
    finally:
        monkeypatch.delenv("SAWBONES_LOCALE_PATH")
        locale.forget_catalogs()
    assert joined.startswith(pseudo.OPEN + "Aria ") and "joins" not in joined
    assert pseudo.strip_marked(joined) == "" and escaped(joined) == []
    assert days[0].startswith(pseudo.OPEN + "1 ") and days[1].startswith(pseudo.OPEN + "2 ") and days[0] != days[1]
    assert verdict != "stable" and verdict.startswith(pseudo.OPEN)


def code_template(folder: Path) -> Path:
    """The catalog's template extracted from the code as it is now (as scripts/catalogs.sh extracts it, its
    keywords read from the script), not the committed sawbones.pot: a pot not yet regenerated is
    test_catalogs.py's failure, not every word of the pseudo-locale missing."""
    import subprocess
    import sys

    from test_catalogs import keywords

    out = folder / "sawbones.pot"
    args = [arg for k in keywords() for arg in k.split(" ", 1)]
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg",
                    "--no-default-keywords", *args, "--no-location", "--sort-output", "--project", "sawbones",
                    "--width", "120", "-o", str(out), "src/sawbones"], cwd=ROOT, check=True, capture_output=True)
    return out


@pytest.fixture(scope="module")
def pseudo_locale(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pseudo")
    pseudo.write_catalog(folder, pot=code_template(tmp_path_factory.mktemp("pot")))
    with catalogs_in(folder):
        yield folder


@contextlib.contextmanager
def catalogs_in(folder):
    """$SAWBONES_LOCALE_PATH names `folder` while the block runs (the catalogs read again on the way in and out)."""
    from sawbones.presentation import locale

    kept = os.environ.get("SAWBONES_LOCALE_PATH")
    os.environ["SAWBONES_LOCALE_PATH"] = str(folder)
    locale.forget_catalogs()
    try:
        yield folder
    finally:
        if kept is None:
            os.environ.pop("SAWBONES_LOCALE_PATH", None)
        else:
            os.environ["SAWBONES_LOCALE_PATH"] = kept
        locale.forget_catalogs()


def cli(argv: list[str]) -> tuple[int, str]:
    from sawbones.interfaces.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = contextvars.copy_context().run(main, argv)  # the language it sets stays in its own context
    return code, out.getvalue() + err.getvalue()


@pytest.fixture(scope="module")
def documents(pseudo_locale, tmp_path_factory) -> dict[str, tuple[str, bool]]:
    """Every CLI document in the pseudo-locale: {"sawbones --lang qps status": (output, is_help)}."""
    folder = tmp_path_factory.mktemp("cli")
    said: dict[str, tuple[str, bool]] = {}
    columns = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "1000"  # no table cell wrapped or cut: a content text stays whole, as data
    stories = {"readme": RECORD.readme_commands(), "tour": [shlex.split(c) for c in RECORD.TOUR],
               "extra": [shlex.split(c) for c in ["campaign create Extra --seed 11",
                                                   "character add Aria --max-hp 24 --skills medicine=5",
                                                   *RECORD.EXTRA]]}
    for story, commands in stories.items():
        db = str(folder / f"{story}.db")
        for args in commands:
            if "--json" in args or args[:1] == ["gm-link"]:
                continue
            args = [a for i, a in enumerate(args) if a != "--lang" and (i == 0 or args[i - 1] != "--lang")]
            said[shlex.join(["sawbones", "--lang", LANG, *args])] = (cli(["--db", db, "--lang", LANG, *args])[1],
                                                                     False)
    packs = {}
    for key, text in (("bad_pack", RECORD.BAD_PACK), ("malformed_pack", RECORD.MALFORMED_PACK),
                      ("unknown_pack", RECORD.UNKNOWN_KEY_PACK)):
        (folder / key).mkdir()
        (folder / key / "pack.yaml").write_text(text, encoding="utf-8")
        packs[key] = str(folder / key)
    db = str(folder / "errors.db")
    for setup in (["campaign", "create", "Empty", "--seed", "1"], ["campaign", "create", "Errors", "--seed", "3"],
                  ["character", "add", "Borin", "--max-hp", "20"]):
        cli(["--db", db, *setup])
    for _, command in RECORD.ERRORS:
        args = [a for a in shlex.split(command.format(tmp=folder, **packs)) if a != "--json"]
        said[shlex.join(["sawbones", "--lang", LANG, *args])] = (cli(["--db", db, "--lang", LANG, *args])[1], False)
    todo: list[list[str]] = [[]]
    while todo:
        path = todo.pop(0)
        todo += [[*path, name] for name in RECORD.command_names(cli([*path, "--help"])[1])]
        said[shlex.join(["sawbones", "--lang", LANG, *path, "--help"])] = (cli(["--lang", LANG, *path, "--help"])[1],
                                                                           True)
    if columns is None:
        os.environ.pop("COLUMNS", None)
    else:
        os.environ["COLUMNS"] = columns
    return said


def _report(found: dict[str, list[str]]) -> str:
    lines = [f"{len(found)} documents hold text that did not come from the catalog:"]
    for where, escapes in sorted(found.items()):
        lines.append(f"  {where}:")
        lines += [f"      {e}" for e in escapes[:8]] + ([f"      … {len(escapes) - 8} more"] if len(escapes) > 8 else [])
    return "\n".join(lines)


def test_every_cli_document_comes_from_the_catalog(documents):
    assert len(documents) > 100
    found = {where: e for where, (text, is_help) in documents.items() if (e := escaped(text, help_text=is_help))}
    assert not found, _report(found)


# ------------------------------------------------------------------ the pages


class Visible(HTMLParser):
    """The texts a reader sees or hears: text nodes, and title / placeholder / aria-label / alt attributes; no
    script or style; the value of a <select name="option"> is an option's id."""

    SAID = ("title", "placeholder", "aria-label", "alt")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.skipping: list[str] = []

    def handle_starttag(self, tag, attrs):
        if self.skipping or tag in ("script", "style"):
            self.skipping.append(tag)
            return
        self.texts += [value for key, value in attrs if key in self.SAID and value]

    def handle_endtag(self, tag):
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_data(self, data):
        if not self.skipping and data.strip():
            self.texts.append(data.strip())


def visible(html: str) -> str:
    parser = Visible()
    parser.feed(html)
    return "\n".join(parser.texts)


@pytest.fixture(scope="module")
def pages(pseudo_locale, tmp_path_factory) -> dict[str, str]:
    """Every page in the pseudo-locale (?lang=qps): {url: visible text}."""
    from sawbones.application.service import Service
    from sawbones.interfaces.web import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    db = f"sqlite:///{tmp_path_factory.mktemp('pages') / 'pages.db'}"
    app = create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=3)
    shown: dict[str, str] = {}
    with TestClient(app, base_url="http://testserver") as api:
        made = api.post("/api/campaigns", json={"name": "Alpha", "seed": 7}).json()
        gm = {"Authorization": f"Bearer {made['gm_secret']}"}
        for name in ("Nia", "Oda"):
            api.post("/api/campaigns/Alpha/characters", json={"name": name, "max_hp": 20}, headers=gm)
        for path, body in (("damage", {"character": "Nia", "parts": [{"amount": 25, "type": "fire"}], "d20": 1}),
                           ("wound", {"character": "Oda", "part": "hand", "side": "left", "damage": 3}),
                           ("expose", {"character": "Oda", "affliction": "filth_fever", "save": 1})):
            api.post(f"/api/campaigns/Alpha/{path}", json=body, headers=gm)
        player = api.get("/api/campaigns/Alpha/characters/Oda/player-link", headers=gm).json()["url"]
        browser = TestClient(app, base_url="http://testserver")
        browser.get(made["gm_link"].split("testserver", 1)[-1])
        stranger = TestClient(app, base_url="http://testserver")
        urls = [(browser, "/"), (browser, "/c/Alpha"), (browser, "/c/Alpha?mods=Oda&roll=str"),
                (browser, "/c/Alpha?odds=nothing"), (stranger, "/tables"), (stranger, "/tables/fire"),
                (stranger, "/tables/fire?d20=4"), (stranger, "/tables/severity"), (stranger, "/tables/body_parts"),
                (stranger, "/tables/filth_fever"), (stranger, "/tables/nothing-here"), (browser, "/c/Nowhere"),
                (stranger, "/c/Alpha"), (stranger, "/no-such-page"), (stranger, player.split("testserver", 1)[-1])]
        for client, url in urls:
            sep = "&" if "?" in url else "?"
            who = "the GM" if client is browser else "anyone"
            shown[f"{url}{sep}lang={LANG} ({who})"] = visible(client.get(f"{url}{sep}lang={LANG}").text)
        browser.close()
        stranger.close()
    return shown


def test_every_page_comes_from_the_catalog(pages):
    found = {url: e for url, text in pages.items() if (e := escaped(text))}
    assert not found, _report(found)
