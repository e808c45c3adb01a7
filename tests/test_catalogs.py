"""The catalogs (issue 38): sawbones.pot says every word the code and the templates mark, fr.po translates all of
them (no entry untranslated or fuzzy, `msgfmt --check` clean), and each translation keeps its message's {fields}.

The .pot is compared by its messages (id, plural, context), not byte for byte: its header carries the date of
the extraction. scripts/catalogs.sh extract rewrites it; docs/translating.md tells the rest.
"""

from __future__ import annotations

import re
import shutil
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "src" / "sawbones" / "locale"
POT = LOCALE / "sawbones.pot"
SCRIPT = ROOT / "scripts" / "catalogs.sh"


def catalog_languages() -> list[str]:
    return sorted(p.parent.parent.name for p in LOCALE.glob("*/LC_MESSAGES/sawbones.po"))


def read(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle)


def keywords() -> list[str]:
    """The -k options of scripts/catalogs.sh, so the test extracts exactly as the script does."""
    line = next(line for line in SCRIPT.read_text(encoding="utf-8").splitlines() if line.startswith("keywords=("))
    return re.findall(r"-k \S+", line.split("(", 1)[1].rsplit(")", 1)[0])


def key(message) -> tuple[str, str | None]:
    ident = message.id if isinstance(message.id, str) else message.id[0]
    return ident, message.context


def messages(catalog: Catalog) -> dict[tuple[str, str | None], object]:
    return {key(m): m for m in catalog if m.id}


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> Catalog:
    out = tmp_path_factory.mktemp("pot") / "sawbones.pot"
    args = [arg for k in keywords() for arg in k.split(" ", 1)]
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg",
                    "--no-default-keywords", *args, "--no-location", "--sort-output", "--project", "sawbones",
                    "--width", "120", "-o", str(out), "src/sawbones"], cwd=ROOT, check=True, capture_output=True)
    return read(out)


def test_the_keywords_are_read_from_the_script():
    assert "-k _" in keywords() and "-k ngettext:1,2" in keywords() and "-k pgettext:1c,2" in keywords()


def test_the_pot_is_up_to_date_with_the_code(extracted):
    """Run `scripts/catalogs.sh extract` (then `update`, and translate what is new) when this fails."""
    have, want = messages(read(POT)), messages(extracted)
    missing = sorted(set(want) - set(have), key=str)
    stale = sorted(set(have) - set(want), key=str)
    plurals = sorted(str(k) for k in set(have) & set(want)
                     if (have[k].id if isinstance(have[k].id, str) else tuple(have[k].id))  # type: ignore[attr-defined]
                     != (want[k].id if isinstance(want[k].id, str) else tuple(want[k].id)))  # type: ignore[attr-defined]
    said = [f"{len(missing)} in the code but not in sawbones.pot:", *map(str, missing[:40]),
            f"{len(stale)} in sawbones.pot but no longer in the code:", *map(str, stale[:40]),
            f"{len(plurals)} whose plural changed:", *plurals[:20]]
    assert not (missing or stale or plurals), "\n".join(said)


def test_there_is_a_french_catalog():
    assert "fr" in catalog_languages()


@pytest.mark.parametrize("lang", catalog_languages())
def test_every_message_of_the_pot_is_translated(lang):
    po = messages(read(LOCALE / lang / "LC_MESSAGES" / "sawbones.po"))
    untranslated = sorted(str(k) for k, m in messages(read(POT)).items()
                          if k not in po or not _translated(po[k]))
    assert untranslated == [], f"{len(untranslated)} messages of sawbones.pot without a {lang} translation:\n" + \
        "\n".join(untranslated[:60])


def _translated(message) -> bool:
    strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
    return bool(strings) and all(strings)


@pytest.mark.parametrize("lang", catalog_languages())
def test_no_entry_is_untranslated_or_fuzzy(lang):
    catalog = read(LOCALE / lang / "LC_MESSAGES" / "sawbones.po")
    untranslated = [str(key(m)) for m in catalog if m.id and not _translated(m)]
    fuzzy = [str(key(m)) for m in catalog if m.id and m.fuzzy]
    assert (untranslated, fuzzy) == ([], []), f"untranslated: {untranslated[:30]}\nfuzzy: {fuzzy[:30]}"


@pytest.mark.skipif(not shutil.which("msgfmt"), reason="msgfmt (gettext) is not installed")
@pytest.mark.parametrize("lang", catalog_languages())
def test_msgfmt_check_is_clean(lang, tmp_path):
    done = subprocess.run(["msgfmt", "--check", "-o", str(tmp_path / "out.mo"),
                           str(LOCALE / lang / "LC_MESSAGES" / "sawbones.po")], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


def fields(text: str) -> set[str]:
    """The names of a brace-format text's {fields} ({n}, {name.en} → name, {x:+d} → x); {{ }} are no field."""
    return {re.split(r"[.\[]", name, maxsplit=1)[0] for _, name, _, _ in string.Formatter().parse(text)
            if name is not None}


def test_fields_reads_names_and_ignores_doubled_braces():
    assert fields("{who}: {part.en} {change:+d} {{literal}} {n!r}") == {"who", "part", "change", "n"}


@pytest.mark.parametrize("lang", catalog_languages())
def test_every_translation_keeps_the_fields_of_its_message(lang):
    """A translation says the same {fields} as its English: one left out loses a name, one added is never filled.
    (Plural forms: each form may take its fields from the singular and the plural, and says those of the English it
    stands for — the first form the singular's, the others the plural's; {n} may be said or not.)"""
    wrong = []
    for message in read(LOCALE / lang / "LC_MESSAGES" / "sawbones.po"):
        if not message.id or not _translated(message):
            continue
        try:
            if isinstance(message.id, str):
                if fields(message.id) != fields(message.string):
                    wrong.append(f"{message.id!r}: {sorted(fields(message.id))} → {message.string!r}")
                continue
            allowed = fields(message.id[0]) | fields(message.id[1]) | {"n"}
            for index, form in enumerate(message.string):
                # The first form stands for the singular (when the language has more than one), the others for
                # the plural: each says the fields of the English it stands for ({n} aside).
                meant = message.id[0] if index == 0 and len(message.string) > 1 else message.id[1]
                needed = fields(meant) - {"n"}
                if not fields(form) <= allowed or not needed <= fields(form):
                    wrong.append(f"{message.id[1]!r}: {sorted(allowed)} → {form!r}")
        except ValueError as exc:  # an unbalanced brace
            wrong.append(f"{message.id!r}: {exc}")
    assert wrong == [], f"{len(wrong)} translations whose fields differ:\n" + "\n".join(wrong[:60])
