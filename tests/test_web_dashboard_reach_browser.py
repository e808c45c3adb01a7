"""The dashboard as a new GM meets it, on a phone (390×844) and a laptop (1366×800), in English and in French
(Playwright in Debian's chromium, the fixtures of test_web_browser.py): no list a GM must choose from starts on an
item (the browser refuses the form until it is chosen); on a phone the table's actions are a tab away, the undo says
whole what it undoes, the bar says what falls due next, a closed part shows its ▶; the sticky bar never covers the
part a form came back to; the player links sit alike on every card; the player's header has no GM's links; a
favicon."""

from __future__ import annotations

import re

import pytest

from test_web_browser import ARGS, _chromium, _free_port, browser, serving  # noqa: F401
from test_web_pages_phone_browser import LAPTOP, PHONE, _cli


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    home = tmp_path_factory.mktemp("reach")
    db = str(home / "web.db")
    for command in (("campaign", "create", "Sword Coast", "--seed", "7"),
                    ("character", "add", "Borin", "--max-hp", "31"), ("character", "add", "Cora", "--max-hp", "18"),
                    ("character", "add", "Dain", "--max-hp", "27"),
                    ("damage", "Borin", "35", "fire", "--d20", "2"),
                    ("expose", "Dain", "filth_fever", "--save", "3"),
                    ("campaign", "set", "who_rolls", "players"), ("advance", "1d")):
        _cli(db, *command)
    with serving(home) as base:
        links = _cli(db, "player-link", "Dain", "--base", base)
        yield {"base": base, "db": db, "dain": re.search(r"(/p/\S+)", links).group(1)}


def _page(browser, table, size, lang):  # noqa: F811
    mobile = size is PHONE
    context = browser.new_context(base_url=table["base"], viewport=size, is_mobile=mobile, has_touch=mobile,
                                  locale="fr-FR" if lang == "fr" else "en-US")
    page = context.new_page()
    page.goto(_cli(table["db"], "gm-link", "--base", table["base"]).strip())
    page.goto(f"/c/Sword%20Coast?lang={lang}")
    return context, page


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_on_a_phone_the_actions_are_a_tab_away(browser, table, lang):  # noqa: F811
    from playwright.sync_api import expect

    context, page = _page(browser, table, PHONE, lang)
    try:
        tabs = page.locator("nav.tabbar")
        expect(tabs).to_be_visible()
        box = tabs.bounding_box()
        assert box["y"] + box["height"] <= PHONE["height"] + 1 and box["y"] > PHONE["height"] - 80  # at the bottom
        assert [a.get_attribute("href") for a in tabs.locator("a").all()] == ["#party", "#clock", "#pending",
                                                                               "#actions", "#log"]
        tabs.locator("a[href='#clock']").click()
        go = page.locator("#clock form[data-action=advance] button")
        expect(go).to_be_in_viewport()
        bar = page.locator(".gm-bar").bounding_box()
        assert page.locator("#clock h2").bounding_box()["y"] >= bar["y"] + bar["height"] - 1  # not under the bar
        # the undo's text whole, what falls due next in the bar, a ▶ on each closed part
        undo = page.locator(".undo-what")
        assert undo.evaluate("e => e.scrollWidth <= e.clientWidth + 1") and "…" not in undo.inner_text()
        expect(page.locator(".gm-bar .due")).to_be_visible()
        marker = page.locator("#actions details:not([open]) > summary").first.evaluate(
            "s => getComputedStyle(s, '::before').content")
        assert "▶" in marker
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_list_to_choose_from_must_be_chosen_in_the_browser(browser, table, size, lang):  # noqa: F811
    """Damage with an amount and no type: the browser keeps the form (nothing is dealt); chosen, it is sent."""
    context, page = _page(browser, table, size, lang)
    try:
        form = page.locator("#char-cora form[data-action=damage]")
        assert form.locator("select[name='parts.0.type']").input_value() == ""
        form.locator("input[name='parts.0.amount']").fill("2")
        form.locator("button").click()
        assert form.locator("select[name='parts.0.type']").evaluate("s => !s.validity.valid")
        assert "/act/" not in page.url and page.locator("#flash").count() == 0  # nothing sent
        spells = page.locator("#actions form[data-action=heal] select[name=spell] option").all_text_contents()
        assert spells[0] == ("— choisir —" if lang == "fr" else "— choose —")
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_on_a_laptop_a_form_comes_back_below_the_sticky_bar(browser, table, lang):  # noqa: F811
    context, page = _page(browser, table, LAPTOP, lang)
    try:
        page.locator("#actions details:has(form[data-action=set_option])").evaluate("d => d.open = true")
        form = page.locator("#actions form[data-action=set_option]")
        form.locator("select[name=option]").select_option("who_rolls")
        form.locator("input[name=value]").fill("players")
        form.locator("button").click()
        page.wait_for_load_state()
        page.wait_for_timeout(300)
        bar = page.locator(".gm-bar").bounding_box()
        assert page.locator("#actions h2").bounding_box()["y"] >= bar["y"] + bar["height"] - 1
        # the player links' buttons sit alike on every card; the healers' lists start alike
        rows = [f.evaluate("f => [f.offsetWidth, f.getBoundingClientRect().top - f.closest('.card').getBoundingClientRect().top]")
                for f in page.locator(".player-link-admin").all()]
        assert len({r[0] for r in rows}) == 1, rows
        firsts = {s.locator("option").first.text_content() for s in page.locator("select[name=healer]").all()}
        assert len(firsts) <= 1, firsts
        icon = page.locator("link[rel=icon]").get_attribute("href")
        assert page.request.get(icon).status == 200
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_players_header_has_no_gm_links(browser, table, lang):  # noqa: F811
    context = browser.new_context(base_url=table["base"], viewport=PHONE, is_mobile=True, has_touch=True,
                                  locale="fr-FR" if lang == "fr" else "en-US")
    page = context.new_page()
    try:
        page.goto(table["dain"] + f"?lang={lang}")
        header = page.locator("header.top")
        assert header.locator("a[href='/tables']").count() == 0 and header.locator("a[href='/api-docs']").count() == 0
        assert header.locator(".langs a").count() == 2
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()
