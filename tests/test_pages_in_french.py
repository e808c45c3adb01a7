"""Every page a GM or a player opens reads whole in French: a text the French page shares with the English one
is a true cognate (test_i18n.COGNATES: "Force", "Poison", "Tables") or a name the GM gave, never an English
label or an id left untranslated ("damage tables", "minor", "body_parts", "left, right").

The pages are rendered in both languages from the same campaign; their visible texts (and the titles,
placeholders and labels a screen reader says) are compared word by word. Only the options' list is left out:
an option is named by the id the CLI and the API take (`campaign set severity_bands lenient`), in both
languages; its explanation, in its title, is translated."""

from __future__ import annotations

import re
import warnings
from html.parser import HTMLParser

import pytest

from sawbones.application.service import Service
from sawbones.interfaces.web import create_app
from test_i18n import COGNATES

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

NAMES = {"Alpha", "Nia", "Oda", "sawbones", "EN", "FR"}  # the campaign's and characters' names; the program's;
# the languages' switch; and the abilities' ids, the syntax the forms take (placeholder "str=14,con=12")
NAMES |= {"str", "dex", "con", "int", "wis", "cha"}
WORD = re.compile(r"[^\W\d_]{2,}")  # a word: letters only (numbers, dice and signs are the same everywhere)
ALLOWED = {w for text in COGNATES | NAMES for w in WORD.findall(text)}


class Visible(HTMLParser):
    """The texts a reader sees or hears: text nodes, and title / placeholder / aria-label / alt attributes.
    Scripts, styles and the options' list (ids, see the module doc) are skipped."""

    SAID = ("title", "placeholder", "aria-label", "alt")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.skipping: list[str] = []
        self.suggesting = False  # inside a <datalist>: its options' values are suggestions a reader sees
        self.between_tags: list[str] = []  # the text nodes, as they are

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if self.skipping or tag in ("script", "style") or (tag == "select" and named.get("name") == "option"):
            self.skipping.append(tag)
            return
        self.texts += [value for key, value in attrs if key in self.SAID and value]
        if tag == "datalist":
            self.suggesting = True
        elif tag == "option" and self.suggesting and named.get("value"):
            self.texts.append(named["value"] or "")  # a field's suggestions are read as the GM types

    def handle_endtag(self, tag: str) -> None:
        if tag == "datalist":
            self.suggesting = False
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_data(self, data: str) -> None:
        if not self.skipping and data.strip():
            self.texts.append(data.strip())
            if self.lasttag not in ("textarea", "pre"):
                self.between_tags.append(data)


def visible(html: str) -> set[str]:
    parser = Visible()
    parser.feed(html)
    return set(parser.texts)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A campaign with what its pages show: an injury, a wound, a disease; a GM browser and a player link."""
    db = f"sqlite:///{tmp_path_factory.mktemp('french') / 'pages.db'}"
    app = create_app(lambda: Service.open(db), poll_interval=0.05, stream_seconds=3)
    with TestClient(app, base_url="http://testserver") as api:
        made = api.post("/api/campaigns", json={"name": "Alpha", "seed": 7}).json()
        gm = {"Authorization": f"Bearer {made['gm_secret']}"}
        for name in ("Nia", "Oda"):
            assert api.post("/api/campaigns/Alpha/characters", json={"name": name, "max_hp": 20},
                            headers=gm).status_code == 201
        for path, body in (("damage", {"character": "Nia", "parts": [{"amount": 25, "type": "fire"}], "d20": 1}),
                           ("wound", {"character": "Oda", "part": "hand", "side": "left", "damage": 3}),
                           ("expose", {"character": "Oda", "affliction": "filth_fever", "save": 1})):
            done = api.post(f"/api/campaigns/Alpha/{path}", json=body, headers=gm)
            assert done.status_code == 200, (path, done.text)
        link = api.get("/api/campaigns/Alpha/characters/Oda/player-link", headers=gm).json()
        tables = api.get("/api/tables").json()
        browser = TestClient(app, base_url="http://testserver")
        assert browser.get(made["gm_link"].split("testserver", 1)[-1]).status_code == 200
        yield browser, link["url"].split("testserver", 1)[-1], tables
        browser.close()


def _pages(tables: dict) -> list[str]:
    ids = ["severity", "body_parts"] + [e["id"] for key in ("damage_tables", "body_parts", "tracks", "diseases",
                                                             "poisons") for e in tables[key]]
    # the dashboard's panels asked something, and asked wrong: the answer, and the error, in the page's language
    asked = ["/c/Alpha?mods=Oda&roll=attack&hand=left", "/c/Alpha?mods=Oda&roll=str", "/c/Alpha?mods=Oda&roll=juggling",
             "/c/Alpha?odds=nothing", "/c/Alpha?itype=nothing", "/c/Alpha?itype=fire&id20=25"]
    return ["/", "/tables", *(f"/tables/{i}" for i in ids), "/tables/fire?d20=4", "/c/Alpha", "/tables/nothing-here",
            *asked]


def test_every_page_reads_in_french(site):
    browser, player, tables = site
    untranslated = {}
    for url in [*_pages(tables), player]:
        sep = "&" if "?" in url else "?"
        en, fr = (browser.get(f"{url}{sep}lang={lang}") for lang in ("en", "fr"))
        assert en.status_code == fr.status_code, url
        shared = visible(fr.text) & visible(en.text)
        wrong = sorted(t for t in shared if set(WORD.findall(t)) - ALLOWED
                       and not re.fullmatch(r"https?://\S+", t))  # a link shown whole is no word
        if wrong:
            untranslated[url] = wrong
    assert not untranslated, "\n".join(f"{url}: {texts}" for url, texts in untranslated.items())


def test_french_marks_hold_to_their_word(site):
    """On a phone, a French "?" or ":" never starts a line alone: every page's text (the labels, the content's
    descriptions, the answers) holds "?", "!", ";", ":" and "»" to the word before it and "«" to the word after."""
    browser, player, tables = site
    loose = {}
    for url in [*_pages(tables), player]:
        parser = Visible()
        parser.feed(browser.get(f"{url}{'&' if '?' in url else '?'}lang=fr").text)
        found = [t.strip()[:60] for t in parser.between_tags if re.search(r" [?!;:»]|« ", t)]
        # what sawbones lists itself (how an injury heals, a disease's symptoms) is set as French sets ";"
        found += [t.strip()[:60] for t in parser.between_tags if t.startswith(("guérit par", "symptômes"))
                  and re.search(r"\S;", t)]
        if found:
            loose[url] = found[:5]
    assert not loose, loose


def test_the_check_sees_an_english_label_and_an_id():
    """(the check itself) an English label or an id shared by both pages is caught; a cognate and a name pass."""
    en = visible('<h3>damage tables</h3><td>minor</td><td>Force</td><b>Nia</b><input placeholder="—">')
    fr = visible('<h3>damage tables</h3><td>minor</td><td>Force</td><b>Nia</b><input placeholder="—">')
    assert sorted(t for t in en & fr if set(WORD.findall(t)) - ALLOWED) == ["damage tables", "minor"]
