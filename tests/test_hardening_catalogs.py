"""A translation cannot take pages down. The attacker's (or a hurried translator's) steps: a catalog under
$SAWBONES_LOCALE_PATH whose translations name a {field} their English does not have, another whose Plural-Forms
header does not parse; then pages, the API and the CLI asked in that language. Each answers, in English where
the catalog cannot be trusted, with one warning naming the file and the line; `scripts/catalogs.sh check DIR`
lists the faults of the translator's folder, one line each."""

from __future__ import annotations

import logging
import re
import subprocess
import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from babel.messages.pofile import read_po, write_po

from sawbones.application.service import Service
from sawbones.interfaces.web import create_app
from tests.test_pseudo_locale import catalogs_in, cli

ROOT = Path(__file__).resolve().parent.parent
FRENCH = ROOT / "src/sawbones/locale/fr/LC_MESSAGES/sawbones.po"


def _language(folder: Path, lang: str, *, bad_fields: bool = False, plural_forms: str | None = None) -> Path:
    """A copy of the French catalog as `lang`, with every translation that has a field naming one more."""
    with FRENCH.open("rb") as handle:
        catalog = read_po(handle)
    catalog.locale = None
    if bad_fields:
        for message in catalog:
            if message.id and isinstance(message.string, str) and "{" in message.string:
                message.string += " {oops}"
    target = folder / lang / "LC_MESSAGES" / "sawbones.po"
    target.parent.mkdir(parents=True)
    with target.open("wb") as handle:
        write_po(handle, catalog, width=120)
    text = target.read_text(encoding="utf-8")
    text = re.sub(r'"Language: [^"]*"\n', f'"Language: {lang}\\\\n"\n', text)
    if plural_forms is not None:
        text = re.sub(r'"Plural-Forms: [^"]*"\n', f'"Plural-Forms: {plural_forms}\\\\n"\n', text)
    target.write_text(text, encoding="utf-8")
    return target


@pytest.fixture
def app(db):
    with TestClient(create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=3)) as client:
        assert client.post("/api/campaigns", json={"name": "Alpha", "seed": 7}).status_code == 201
        yield client


def test_a_translation_naming_an_unknown_field_is_read_in_english(app, tmp_path, caplog):
    po = _language(tmp_path, "xx", bad_fields=True)
    with catalogs_in(tmp_path), caplog.at_level(logging.WARNING, logger="sawbones.locale"):
        for path in ("/?lang=xx", "/c/Alpha?lang=xx", "/api/campaigns/Nowhere?lang=xx", "/api/tables?lang=xx"):
            answer = app.get(path)
            assert answer.status_code < 500, (path, answer.text[:300])
            assert answer.headers.get("x-frame-options") == "DENY"
        missing = app.get("/api/odds/nowhere?lang=xx").json()["error"]["message"]
        assert "oops" not in missing and "nowhere" in missing, missing
        code, out = cli(["--lang", "xx", "--campaign", "Nowhere", "status"])
        assert "Traceback" not in out and code != 0, out
    warned = [r.getMessage() for r in caplog.records if r.name == "sawbones.locale"]
    assert warned and all(re.match(re.escape(str(po)) + r":\d+: ", w) for w in warned), warned[:3]
    assert len(warned) == len(set(warned)), "one warning per message"


def test_a_plural_forms_header_that_does_not_parse_is_english_for_that_language(app, tmp_path, caplog):
    po = _language(tmp_path, "xy", plural_forms="nplurals=2; plural=(n > ;")
    with catalogs_in(tmp_path), caplog.at_level(logging.WARNING, logger="sawbones.locale"):
        for path in ("/?lang=xy", "/api/campaigns/Nowhere?lang=xy", "/api/tables?lang=xy"):
            answer = app.get(path)
            assert answer.status_code < 500, (path, answer.text[:300])
            assert answer.headers.get("content-security-policy"), "the security headers"
        assert "No campaign" in app.get("/?lang=xy").text or "campaign" in app.get("/?lang=xy").text
        code, out = cli(["--lang", "xy", "--campaign", "Nowhere", "status"])
        assert "Traceback" not in out, out
    warned = [r.getMessage() for r in caplog.records if r.name == "sawbones.locale"]
    assert len(warned) == 1 and warned[0].startswith(f"{po}:") and "Plural-Forms" in warned[0], warned


def test_catalogs_check_dir_lists_a_translators_faults_one_line_each(tmp_path):
    _language(tmp_path, "xx", bad_fields=True)
    _language(tmp_path, "xy", plural_forms="nplurals=2; plural=(n > ;")
    done = subprocess.run(["bash", str(ROOT / "scripts/catalogs.sh"), "check", str(tmp_path)], capture_output=True,
                          text=True, cwd=ROOT)
    lines = done.stdout.splitlines()
    assert done.returncode == 1
    assert lines and all(re.match(r".*/(xx|xy)/LC_MESSAGES/sawbones\.po:\d+: ", line) for line in lines), lines[:3]
    assert any("/xy/" in line and "Plural-Forms" in line for line in lines)
    assert sum("/xx/" in line for line in lines) > 10
    clean = tmp_path / "clean"
    _language(clean, "xz")
    done = subprocess.run(["bash", str(ROOT / "scripts/catalogs.sh"), "check", str(clean)], capture_output=True,
                          text=True, cwd=ROOT)
    assert done.returncode == 0 and done.stdout == "", done.stdout


def test_the_packages_own_catalogs_read_clean_compiled_or_not(tmp_path, caplog):
    """No warning, nothing read in English, for sawbones' own French, from its .po and from its compiled .mo
    (a .mo keeps a plural's singular English only: its forms name fields of the plural English)."""
    import gettext

    from babel.messages.mofile import write_mo

    from sawbones.presentation.catalog_faults import checked_mo, read_checked

    catalog, faults = read_checked(FRENCH)
    assert faults == []
    mo = tmp_path / "sawbones.mo"
    with mo.open("wb") as handle:
        write_mo(handle, catalog)
    with mo.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    before = dict(compiled._catalog)
    assert checked_mo(compiled, str(mo)) == [] and compiled._catalog == before
