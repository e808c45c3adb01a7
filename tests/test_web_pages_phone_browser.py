"""Every page as the table reads it, on a phone of 390×844 and on a laptop, in English and in French
(Playwright in Debian's chromium, the fixtures of test_web_browser.py).

The party is the one a GM stumbles on at the table: a dying character with a critical injury, a wound, a
disease with a save waiting for the player's die. On each page (the GM's dashboard with a player's QR code
open and the injury odds shown, the tables, a table, the player's page with its prompt, the sign-in page, an
error page): nothing wider than the screen (no sideways scrolling), a date or a DC never split across two
lines, no English on the French page where a GM reads it (the wound's rolls, an unknown table's error), the
sign-in page names the command for this campaign, the player's page no id of the GM's.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from test_web_browser import ARGS, _chromium, _free_port, browser, serving  # noqa: F401

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 800}


def _cli(db: str, *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "sawbones", "--db", db, *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """The party, made with the CLI on the server's database; then `sawbones serve` on it."""
    home = tmp_path_factory.mktemp("phone")
    db = str(home / "web.db")
    for command in (("campaign", "create", "Sword Coast", "--seed", "7"),
                    ("character", "add", "Borin", "--max-hp", "31"), ("character", "add", "Cora", "--max-hp", "18"),
                    ("character", "add", "Dain", "--max-hp", "27"),
                    ("damage", "Borin", "35", "fire", "--d20", "2"),
                    ("wound", "Cora", "hand", "--side", "left", "--damage", "4"),
                    ("expose", "Dain", "filth_fever", "--save", "3"),
                    ("campaign", "set", "who_rolls", "players"), ("advance", "1d")):
        _cli(db, *command)
    with serving(home) as base:
        links = _cli(db, "player-link", "Dain", "--base", base)
        yield {"base": base, "db": db, "dain": re.search(r"(/p/\S+)", links).group(1)}


def _gm_link(table) -> str:
    return _cli(table["db"], "gm-link", "--base", table["base"]).strip()


SPLIT = """() => {  /* elements kept whole (a date, "DC 12") that the browser laid out on two lines, and a DC
    whose number may go to the next line (an ordinary space between them) */
    const out = [];
    document.querySelectorAll('.nowrap').forEach(el => { if (el.getClientRects().length > 1) out.push(el.textContent); });
    document.querySelectorAll('.line, .prompt-what, .pending-save p, .odds-chart p, .treatment-odds p').forEach(el => {
        const loose = el.innerText.match(/\\b(DC|DD) \\d+/);
        if (loose) out.push(loose[0]); });
    return out; }"""


def _pages(browser, table, size, lang):  # noqa: F811
    """(name, page) for every page, each loaded in `lang` at `size`."""
    mobile = size is PHONE
    context = browser.new_context(base_url=table["base"], viewport=size, is_mobile=mobile, has_touch=mobile,
                                  locale="fr-FR" if lang == "fr" else "en-US")
    page = context.new_page()
    try:
        page.goto(f"/c/Sword%20Coast?lang={lang}")
        yield "sign-in", page
        page.goto(f"/tables/nope?lang={lang}")
        yield "error", page
        page.goto(_gm_link(table) + f"&lang={lang}")
        page.goto(f"/c/Sword%20Coast?itype=fire&id20=1&ibonus=5&lang={lang}")
        page.evaluate("document.querySelector('#char-borin .player-qr').open = true")
        yield "dashboard", page
        page.goto(f"/tables?lang={lang}")
        yield "tables", page
        page.goto(f"/tables/fire?lang={lang}")
        yield "table", page
        page.goto(table["dain"] + f"?lang={lang}")
        yield "player", page
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_no_page_is_wider_than_the_screen(browser, table, size, lang):  # noqa: F811
    seen = []
    for name, page in _pages(browser, table, size, lang):
        seen.append(name)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], f"{name} ({lang}) scrolls sideways: {width} px for a {size['width']} px screen"
        assert page.evaluate(SPLIT) == [], f"{name} ({lang}): a date or a DC split across two lines"
        # where the page is, whole ("› Sword Coast", not "› Swor…" squeezed between the brand and the links)
        assert page.evaluate("(c => c.scrollWidth <= c.clientWidth)(document.querySelector('.crumbs'))"), name
        if name == "table":  # the column heads alike, each with its capital ("Gravité", "Blessure", not "blessure")
            heads = dict(page.evaluate("[...document.querySelectorAll('thead th')].map(th => "
                                       "[th.textContent, getComputedStyle(th, '::first-letter').textTransform])"))
            assert heads.pop("d20") == "none", heads  # the die stays "d20"
            assert heads and set(heads.values()) == {"uppercase"}, heads
        if name == "player":  # the save waiting, without the GM's handle for it ("…the player's die: p2")
            since = page.locator("#since").inner_text()
            assert "Filth Fever" in since or "Fièvre des marais" in since
            assert not re.search(r"\bp\d+\b", since), since
    assert seen == ["sign-in", "error", "dashboard", "tables", "table", "player"]


def test_the_french_pages_say_it_in_french(browser, table):  # noqa: F811
    from playwright.sync_api import expect

    pages = dict.fromkeys(["sign-in", "error", "dashboard"])
    for name, page in _pages(browser, table, PHONE, "fr"):
        if name == "sign-in":
            expect(page.locator("h1")).to_have_text("Connexion du MJ requise")  # not "Erreur"
            # the command for this campaign, its name as a shell takes it
            expect(page.locator(".error-message")).to_contain_text("sawbones --campaign 'Sword Coast' gm-link")
        elif name == "error":
            message = page.locator(".error-message").inner_text()
            assert message.startswith("pas de table 'nope'") and " with " not in message and "one of" not in message
            assert message.count("leprosy") == 1  # each id once (a track and a disease share it)
        elif name == "dashboard":
            # the wound's rolls as the content says them, French marks included
            rolls = page.locator("#char-cora .wound p.small").first.inner_text()
            assert re.search(r"\w\s;", rolls) and not re.search(r"\w;", rolls), rolls
        pages[name] = True
    assert all(pages.values())
