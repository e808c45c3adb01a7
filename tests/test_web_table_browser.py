"""The table in real browsers (issue 12): Playwright drives Debian's chromium against `sawbones serve` (the
fixtures of test_web_browser.py), phones of 390×844 for the GM and the players.

- The GM's phone: the bar at the top (clock, saves waiting, undo) stays in view while scrolling; inputs are
  16 px or more, tap targets 44 px or more; what an action did is a toast that takes the focus, in view;
  undo and a new sign-in link ask first, and undo says what it will undo.
- The story (players roll): see test_players_roll_their_own_saves_live.
Screenshots: docs/img/gm-phone-bar.png, player-phone-en.png, player-phone-fr.png, player-prompt.png.
"""

from __future__ import annotations

import re

import pytest

from test_web_browser import ARGS, ROOT, _chromium, browser, create_campaign, server, submit  # noqa: F401

PHONE = {"width": 390, "height": 844}
IMG = ROOT / "docs" / "img"


@pytest.fixture
def phone(browser, server):  # noqa: F811
    """A phone-sized browser context; its pages record the dialogs they were shown (and accept them)."""
    context = browser.new_context(base_url=server, viewport=PHONE, locale="en-US", has_touch=True, is_mobile=True)
    yield context
    context.close()


def page_of(context, accept: bool = True):
    page = context.new_page()
    page.dialogs = []

    def answer(dialog):
        page.dialogs.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.on("dialog", answer)
    return page


def add(page, name: str, max_hp: int) -> None:
    from playwright.sync_api import expect

    page.locator("#add").evaluate("details => details.open = true")
    page.fill("#add input[name=name]", name)
    page.fill("#add input[name=max_hp]", str(max_hp))
    page.click("#add button")
    expect(page.locator("#flash")).to_contain_text(f"{max_hp}/{max_hp}")


def too_small(page) -> list[str]:
    """Visible controls of the page under 44 px high, and text fields under 16 px (what a phone zooms into)."""
    return page.evaluate("""() => {
        const out = [];
        const shown = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0
            && getComputedStyle(el).visibility !== 'hidden'; };
        document.querySelectorAll('button, select, textarea, input:not([type=hidden]):not([type=checkbox]), '
                                  + 'summary, label.check, .bar a, header.top a').forEach(el => {
            if (!shown(el)) return;
            const h = el.getBoundingClientRect().height;
            if (h < 43.5) out.push(`${el.tagName}.${el.className} ${(el.name || el.textContent).trim().slice(0, 30)}: ${h}px high`);
            if (/INPUT|SELECT|TEXTAREA/.test(el.tagName) && parseFloat(getComputedStyle(el).fontSize) < 16)
                out.push(`${el.tagName} ${el.name}: font ${getComputedStyle(el).fontSize}`);
        });
        return out;
    }""")


def test_the_gm_runs_the_table_from_a_phone(phone):
    from playwright.sync_api import expect

    page = page_of(phone, accept=False)
    create_campaign(page, "Phonebar")
    add(page, "Cora", 18)
    add(page, "Dax", 22)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert too_small(page) == []

    # a result is a toast in view that takes the focus, even when the form was far down the page
    damage = page.locator("#char-dax form[data-action=damage]")
    damage.locator("input[name='parts.0.amount']").fill("4")
    submit(damage, "Dax")
    expect(page.locator("#flash")).to_be_focused()
    box = page.locator("#flash").bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"]
    page.locator("#flash .toast-close").click()
    expect(page.locator("#flash")).to_be_hidden()

    # the bar stays at the top while the GM scrolls, with the clock, the saves waiting and undo
    page.evaluate("window.scrollTo(0, 2500)")
    assert page.evaluate("window.scrollY") > 500
    bar = page.locator("#campaign")
    expect(bar.locator("#clock-text")).to_be_in_viewport()
    expect(bar.locator(".bar-pending")).to_contain_text("0 saves waiting")
    undo = bar.locator("form[data-action=undo] button")
    expect(undo).to_be_in_viewport()
    assert bar.bounding_box()["y"] <= 1
    page.evaluate("window.scrollTo(0, 0)")
    IMG.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(IMG / "gm-phone-bar.png"), clip={"x": 0, "y": 0, "width": 390, "height": 300})

    # undo asks first, saying what it will undo; dismissed, nothing is undone
    label = undo.inner_text()
    action = re.search(r"a(\d+)", label).group(1)
    undo.click()
    assert page.dialogs[-1].startswith(f"Undo a{action}: ") and "Dax" in page.dialogs[-1]
    expect(page.locator("#char-dax .hp-value")).to_have_text("18")


def test_undo_and_a_new_sign_in_link_ask_and_then_act(phone):
    from playwright.sync_api import expect

    page = page_of(phone, accept=True)
    create_campaign(page, "Asks")
    add(page, "Cora", 18)
    undo = page.locator("#campaign form[data-action=undo] button")
    undo.click()
    assert page.dialogs[-1].startswith("Undo a") and "Cora" in page.dialogs[-1]
    expect(page.locator("#flash")).to_contain_text("undone")
    expect(page.locator("#char-cora")).to_have_count(0)
    page.click("#access button[data-access=sign-in-link]")
    assert "sign-in link" in page.dialogs[-1]
    expect(page.locator("#shown-secret")).to_contain_text("?code=")
