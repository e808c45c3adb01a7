"""A turn's save in the player's hands, in real browsers (issue 12): Playwright and Debian's chromium against
`sawbones serve`, the GM and a player each on a 390×844 phone.

Seed 000, Nausée: "Faire un jet de sauvegarde de Constitution DD 8 à chaque tour ou passer son action à vomir".
The GM runs Aria's turn with "the character's player" rolling; Aria's page shows the prompt live (which save,
against what, the DC, her bonus); her player types the d20 of her own die; the GM sees the answer and the turn's
result arrive, and nothing waits any more. Screenshot: docs/img/player-turn-prompt.png (SAWBONES_SCREENSHOTS=1).
"""

from __future__ import annotations

from test_web_browser import IMG, browser, create_campaign, server, submit  # noqa: F401
from test_web_table_browser import PHONE, add, page_of, too_small


def test_a_player_answers_her_turns_save_on_her_phone_and_the_gm_sees_it(browser, server):  # noqa: F811
    from playwright.sync_api import expect

    contexts = [browser.new_context(base_url=server, viewport=PHONE, locale="en-US", has_touch=True, is_mobile=True)
                for _ in range(2)]
    try:
        gm, aria = page_of(contexts[0]), page_of(contexts[1])
        create_campaign(gm, "Turns")
        add(gm, "Aria", 20)
        gm.locator("#actions details:has(form[data-action=injure])").evaluate("d => d.open = true")
        injure = gm.locator("#actions form[data-action=injure]")
        injure.locator("select[name=character]").select_option("aria")
        injure.locator("select[name=type]").select_option("acid")
        injure.locator("input[name=d20]").fill("19")
        submit(injure, "Nausea")
        aria.goto(gm.locator("#char-aria a.player-link").get_attribute("href"))
        assert aria.locator("#prompts .prompt").count() == 0

        # the GM's turn form: the character's player rolls
        gm.locator("#actions details:has(form[data-action=turn])").evaluate("d => d.open = true")
        turn = gm.locator("#actions form[data-action=turn]")
        turn.locator("select[name=character]").select_option("aria")
        turn.locator("select[name=rolls]").select_option("players")
        submit(turn)
        expect(gm.locator("#pending .pending-save.to-player")).to_contain_text("Nausea: start of the turn")

        # Aria's page shows the prompt live: the save, against what, the DC and her bonus
        prompt = aria.locator("#prompts .prompt")
        expect(prompt).to_have_count(1, timeout=10000)
        expect(prompt).to_contain_text("Nausea: start of the turn")
        expect(prompt).to_contain_text("Constitution save")
        expect(prompt).to_contain_text("8")
        expect(prompt.locator(".bonus")).to_be_visible()
        IMG.mkdir(parents=True, exist_ok=True)
        prompt.screenshot(path=str(IMG / "player-turn-prompt.png"))
        typed = prompt.locator("form.answer-typed")
        typed.locator("input[name=d20]").fill("4")
        typed.locator("button").click()
        aria.wait_for_load_state()
        expect(aria.locator("#flash")).to_contain_text("Your roll: d20 4")
        expect(aria.locator("#flash")).to_contain_text("failure")  # 4 + 0 < 8: she spends her action vomiting

        # the GM sees the answer and the turn's result arrive, live; nothing waits any more
        expect(gm.locator("#pending .player-answers li").first).to_contain_text("Aria", timeout=10000)
        expect(gm.locator("#pending .pending-save")).to_have_count(0, timeout=10000)
        gm.reload()
        expect(gm.locator("#log")).to_contain_text("Nausea — Constitution save 4 vs DC 8, failed")
        for page in (gm, aria):
            assert too_small(page) == [] and page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        for context in contexts:
            context.close()
