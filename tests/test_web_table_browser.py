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

from test_web_browser import ARGS, IMG, ROOT, _chromium, browser, create_campaign, server, submit  # noqa: F401

PHONE = {"width": 390, "height": 844}


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
                                  + 'summary, label.check, .gm-bar a, header.top a').forEach(el => {
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
    damage.locator("select[name='parts.0.type']").select_option("slashing")  # (no list picks for the GM)
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
    expect(bar.locator(".bar-pending")).to_contain_text("0 saves waiting")  # (English: plural unless exactly 1)
    undo = bar.locator("form[data-action=undo] button")
    expect(undo).to_be_in_viewport()
    assert bar.bounding_box()["y"] <= 1

    # undo asks first, saying what it will undo; dismissed, nothing is undone
    assert undo.inner_text().strip() == "↶ Undo"  # no action id in the words (issue 39)
    undo.click()
    assert page.dialogs[-1].startswith("Undo: ") and "Dax" in page.dialogs[-1]
    expect(page.locator("#char-dax .hp-value")).to_have_text("18")


def test_undo_and_a_new_sign_in_link_ask_and_then_act(phone):
    from playwright.sync_api import expect

    page = page_of(phone, accept=True)
    create_campaign(page, "Asks")
    add(page, "Cora", 18)
    undo = page.locator("#campaign form[data-action=undo] button")
    undo.click()
    assert page.dialogs[-1].startswith("Undo: ") and "Cora" in page.dialogs[-1]
    expect(page.locator("#flash")).to_contain_text("undone")
    expect(page.locator("#char-cora")).to_have_count(0)
    page.click("#access button[data-access=sign-in-link]")
    assert "sign-in link" in page.dialogs[-1]
    expect(page.locator("#shown-secret")).to_contain_text("?code=")


def current_stage(locator) -> int:
    """Where the first ladder stands (its current stage's place), -1 without a ladder (cured)."""
    return locator.evaluate("""box => { const items = [...box.querySelectorAll('.ladder')].slice(0, 1)
        .flatMap(ladder => [...ladder.querySelectorAll('li')]);
        return items.findIndex(li => li.classList.contains('current')); }""")


def answer_prompts(pages, d20: str = "2") -> int:
    """Answer every prompt shown on these player pages with a typed d20 ("I rolled"); how many were answered."""
    from playwright.sync_api import expect

    answered = 0
    for page in pages:
        if page.locator("#prompts .prompt").count():
            typed = page.locator("#prompts .prompt form.answer-typed").first
            typed.locator("input[name=d20]").fill(d20)
            typed.locator("button").click()
            page.wait_for_load_state()
            expect(page.locator("#flash")).to_contain_text(re.compile(r"(Your roll|Votre jet)\s?: d20 " + d20))
            answered += 1
    return answered


def test_players_roll_their_own_saves_live(browser, server):  # noqa: F811
    """The GM and two players, each on a phone: two characters exposed to filth fever with "players roll",
    the GM advances 3 days; each player's page shows its prompt live; Cora's player lets the server roll,
    Dain's types the d20 of a physical die; the GM sees both answers arrive; the advance completes and the
    ladders moved on all three screens. An affliction the GM hides shows only its symptoms to the player,
    its name again once told. A revoked link stops at once."""
    from playwright.sync_api import expect

    contexts = [browser.new_context(base_url=server, viewport=PHONE, locale=locale, has_touch=True, is_mobile=True)
                for locale in ("en-US", "en-US", "fr-FR")]
    try:
        gm, cora, dain = page_of(contexts[0]), page_of(contexts[1]), page_of(contexts[2])
        create_campaign(gm, "Story")
        add(gm, "Cora", 20)
        add(gm, "Dain", 20)
        options = gm.locator("#actions form[data-action=set_option]")
        gm.locator("#actions details:has(form[data-action=set_option])").evaluate("d => d.open = true")
        options.locator("select[name=option]").select_option("who_rolls")
        options.locator("input[name=value]").fill("players")
        submit(options, "who_rolls = players")
        for name in ("cora", "dain"):  # both fail their initial save (typed by the GM): both catch filth fever
            expose = gm.locator("#actions form[data-action=expose]")
            expose.locator("select[name=character]").select_option(name)
            expose.locator("select[name=affliction]").select_option("filth_fever")
            expose.locator("input[name=save]").fill("1")
            submit(expose)
        cora.goto(gm.locator("#char-cora a.player-link").get_attribute("href"))
        dain.goto(gm.locator("#char-dain a.player-link").get_attribute("href"))
        expect(dain.locator("#sheet .affliction")).to_contain_text("Fièvre")  # Dain's player reads French
        before = {"gm-cora": current_stage(gm.locator("#char-cora")), "gm-dain": current_stage(gm.locator("#char-dain")),
                  "cora": current_stage(cora.locator("#sheet")), "dain": current_stage(dain.locator("#sheet"))}
        assert cora.locator("#prompts .prompt").count() == 0

        # the GM advances 3 days: it stops at the first saves, which wait for the players' dice
        advance = gm.locator("#clock form[data-action=advance]")
        advance.locator("input[name=duration]").fill("3d")
        submit(advance)
        expect(gm.locator("#campaign .bar-pending")).to_contain_text("2 saves waiting")
        expect(gm.locator("#pending .pending-save.to-player")).to_have_count(2)
        if gm.locator("#flash").is_visible():
            gm.locator("#flash .toast-close").click()
        gm.evaluate("window.scrollTo(0, 0)")
        IMG.mkdir(parents=True, exist_ok=True)
        gm.screenshot(path=str(IMG / "gm-phone-bar.png"), clip={"x": 0, "y": 0, "width": 390, "height": 300})

        # each player's page shows its prompt live, without reloading
        prompt = cora.locator("#prompts .prompt")
        expect(prompt).to_have_count(1, timeout=10000)
        expect(prompt).to_contain_text("Filth Fever")
        expect(prompt.locator(".bonus")).to_be_visible()
        expect(dain.locator("#prompts .prompt")).to_contain_text("Fièvre", timeout=10000)
        cora.screenshot(path=str(IMG / "player-prompt.png"))

        # Cora's player: "Roll for me"; the GM's bar and saves waiting follow live
        prompt.locator("button[name=how][value=roll]").click()
        cora.wait_for_load_state()
        expect(cora.locator("#flash")).to_contain_text("Your roll: d20")
        expect(gm.locator("#campaign .bar-pending")).to_contain_text("1 save waiting", timeout=10000)
        expect(gm.locator("#campaign .undo-what")).to_contain_text("Cora", timeout=10000)
        # Dain's player types the d20 of their own die
        typed = dain.locator("#prompts .prompt form.answer-typed")
        typed.locator("input[name=d20]").fill("2")
        typed.locator("button").click()
        dain.wait_for_load_state()
        expect(dain.locator("#flash")).to_contain_text("Votre jet : d20 2")
        expect(gm.locator("#campaign .undo-what")).to_contain_text("Dain", timeout=10000)
        answers = gm.locator("#pending .player-answers li")  # both answers arrived on the GM's screen, live
        expect(answers).to_have_count(2, timeout=10000)
        expect(answers.first).to_contain_text("Dain")
        expect(answers.nth(1)).to_contain_text("Cora")

        # whatever else comes up in the 3 days, the players type their dice (2s: failures); the advance completes
        for _ in range(12):
            if "jour 4" in dain.locator("#sheet .clock").inner_text():
                break
            cora.reload()
            dain.reload()
            if not answer_prompts([cora, dain]):
                cora.wait_for_timeout(500)
        expect(gm.locator("#clock-text")).to_contain_text("day 4", timeout=10000)
        expect(cora.locator("#sheet .clock")).to_contain_text("day 4", timeout=10000)
        gm.reload()
        after = {"gm-cora": current_stage(gm.locator("#char-cora")), "gm-dain": current_stage(gm.locator("#char-dain")),
                 "cora": current_stage(cora.locator("#sheet")), "dain": current_stage(dain.locator("#sheet"))}
        moved = {screen for screen in before if before[screen] != after[screen]}
        assert {"gm-dain", "dain"} <= moved, (before, after)  # Dain's typed 2 failed: the ladder moved
        assert after["gm-cora"] == after["cora"] and after["gm-dain"] != "" and "cora" in moved | {"cora"}
        expect(cora.locator("#sheet .affliction .next-save")).to_be_visible()
        for page in (cora, dain):
            if page.locator("#flash").is_visible():
                page.locator("#flash .toast-close").click()
        cora.evaluate("window.scrollTo(0, 0)")
        cora.screenshot(path=str(IMG / "player-phone-en.png"), full_page=True)
        dain.evaluate("window.scrollTo(0, 0)")
        dain.screenshot(path=str(IMG / "player-phone-fr.png"), full_page=True)

        # the GM hides Cora's disease: her page shows its symptoms, no name; told again, the name is back
        gm.locator("#char-cora form[data-action=reveal] button").click()
        gm.wait_for_load_state()
        secret = cora.locator("#sheet .affliction.unknown")
        expect(secret).to_contain_text("a sickness you cannot name", timeout=10000)
        assert "Filth Fever" not in cora.locator("#sheet").inner_text()
        expect(secret.locator(".symptoms")).to_be_visible()
        gm.locator("#char-cora form[data-action=reveal] button").click()
        gm.wait_for_load_state()
        expect(cora.locator("#sheet .affliction-name")).to_have_text("Filth Fever", timeout=10000)

        # a revoked link stops at once: the page says so, the stream is gone, a reload is refused
        gm.locator("#char-dain form.player-link-admin button[value=revoke]").click()
        gm.wait_for_load_state()
        assert any("Revoke" in message for message in gm.dialogs)
        expect(dain.locator(".link-gone")).to_contain_text("Ce lien ne fonctionne plus", timeout=10000)
        assert dain.reload().status == 404
        for page in (gm, cora):
            assert too_small(page) == [] and page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        for context in contexts:
            context.close()
