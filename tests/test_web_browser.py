"""The web app in a real browser: Playwright drives Debian's chromium against `sawbones serve`, started
on a free port of 127.0.0.1 for these tests and stopped after them.

A GM creates a campaign, adds two characters, drops one to 0 HP with fire, treats it, exposes the
other to a poison, advances the clock, answers the pending save, and sees the player views update
live; a character named <script>alert(1)</script> is just a name; a player link changes nothing.
The dashboard's screenshot is saved as docs/img/dashboard.png (the README shows it) with SAWBONES_SCREENSHOTS=1.

scripts/setup_chromium.sh (sourced by test.sh) installs chromium when absent and sets
SAWBONES_REQUIRE_BROWSER=1: then, as under CI, a browser that cannot start fails these tests.
"""

from __future__ import annotations

import atexit
import re

import os
import shutil
import socket
import subprocess
import tempfile
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Screenshots go to docs/img only when asked (SAWBONES_SCREENSHOTS=1, to refresh the docs' pictures); otherwise to a
# temporary folder, removed when the run ends (one per run used to stay in /tmp), so that a test run never changes the
# working tree.
IMG = ROOT / "docs" / "img" if os.environ.get("SAWBONES_SCREENSHOTS") else Path(tempfile.mkdtemp(prefix="sawbones-img-"))
if not os.environ.get("SAWBONES_SCREENSHOTS"):
    atexit.register(shutil.rmtree, IMG, True)
SCREENSHOT = IMG / "dashboard.png"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
XSS = "<script>alert(1)</script>"


def _required() -> bool:
    ci = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")
    return ci or os.environ.get("SAWBONES_REQUIRE_BROWSER") == "1"


def _unavailable(why: str):
    if _required():
        pytest.fail(f"the browser tests must run here (CI or SAWBONES_REQUIRE_BROWSER=1): {why}", pytrace=False)
    pytest.skip(why)


def _chromium() -> str:
    return os.environ.get("SAWBONES_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def serving(home: Path, **env_more: str):
    """`sawbones serve` on a free port of 127.0.0.1, with its own database in `home`; stopped on exit."""
    port = _free_port()
    log = open(home / "server.log", "w+")
    env = dict(os.environ, PYTHONUNBUFFERED="1", **env_more)
    env.pop("SAWBONES_DATABASE_URL", None)
    proc = subprocess.Popen([sys.executable, "-m", "sawbones", "--db", str(home / "web.db"), "serve", "--port",
                             str(port)], cwd=home, stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    pytest.fail(f"sawbones serve did not start:\n{log.read()}", pytrace=False)
                time.sleep(0.1)
        log.seek(0)
        assert f"{base}/" in log.read()  # it prints its address
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`sawbones serve` on a free port, with its own database; stopped after the module."""
    with serving(tmp_path_factory.mktemp("web")) as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:  # pragma: no cover
        _unavailable(f"playwright is not installed ({exc})")
    executable = _chromium()
    if not Path(executable).exists():
        _unavailable(f"no chromium at {executable} (bash test.sh installs Debian's package when it can)")
    with sync_playwright() as playwright:
        try:
            browser = playwright.chromium.launch(executable_path=executable, args=ARGS)
        except Exception as exc:  # noqa: BLE001
            _unavailable(f"chromium at {executable} does not start: {str(exc).splitlines()[0]}")
        yield browser
        browser.close()


@pytest.fixture
def gm(browser, server):
    """A browser context (tablet-sized) whose page creates a campaign and is its GM."""
    context = browser.new_context(base_url=server, viewport={"width": 1180, "height": 820}, locale="en-US")
    page = context.new_page()
    page.dialogs = []
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
    yield page
    context.close()


@pytest.fixture
def player_context(browser, server):
    context = browser.new_context(base_url=server, viewport={"width": 820, "height": 1180}, locale="en-US")
    yield context
    context.close()


def create_campaign(page, name: str) -> str:
    """Create the campaign from the home page (this browser is its GM); its API secret, from the Access panel."""
    from playwright.sync_api import expect

    page.goto("/")
    page.fill("#create-campaign input[name=name]", name)
    page.fill("#create-campaign input[name=seed]", "7")
    page.click("#create-campaign button")
    expect(page.locator("#flash")).to_contain_text(re.compile("Campaign created|Campagne créée"))
    assert page.url.endswith("/c/" + name)
    page.click("#access button[data-access=reveal]")
    secret = page.locator("#shown-secret").inner_text()
    page.goto("/c/" + name)
    return secret


def add_character(page, name: str, max_hp: int, **more: str) -> None:
    from playwright.sync_api import expect

    page.locator("#add").evaluate("details => details.open = true")
    page.fill("#add input[name=name]", name)
    page.fill("#add input[name=max_hp]", str(max_hp))
    for field, value in more.items():
        page.fill(f"#add input[name={field}]", value)
    page.click("#add button")
    expect(page.locator("#flash")).to_contain_text(f"{max_hp}/{max_hp}")


def submit(form, flash_text: str | None = None) -> None:
    from playwright.sync_api import expect

    form.locator("button").click()
    page = form.page
    page.wait_for_load_state()
    expect(page.locator("#flash")).to_be_visible()
    assert "flash-error" not in (page.locator("#flash").get_attribute("class") or ""), page.locator("#flash").inner_text()
    if flash_text:
        expect(page.locator("#flash")).to_contain_text(flash_text)


def test_a_gm_runs_the_table_and_players_see_it_live(gm, player_context):
    from playwright.sync_api import expect

    page = gm
    secret = create_campaign(page, "Brindol")
    add_character(page, "Aria", 24, proficiencies="medicine,herbalism_kit", skills_text="medicine=5")
    add_character(page, "Borin", 31)

    borin_view = player_context.new_page()
    borin_view.goto(page.locator("#char-borin a.player-link").get_attribute("href"))
    expect(borin_view.locator("#sheet .hp-value")).to_have_text("31")
    aria_view = player_context.new_page()
    aria_view.goto(page.locator("#char-aria a.player-link").get_attribute("href"))
    expect(aria_view.locator("#sheet h3.name")).to_have_text("Aria")

    # Borin drops to 0 with fire: a critical burn, and its secret deadline on the GM's side only
    damage = page.locator("#char-borin form[data-action=damage]")
    damage.locator("input[name='parts.0.amount']").fill("35")
    damage.locator("select[name='parts.0.type']").select_option("fire")
    damage.locator("input[name=d20]").fill("2")
    submit(damage, "new injury")
    expect(page.locator("#char-borin .injury")).to_contain_text("Severe Burn")
    expect(page.locator("#char-borin .secret")).to_contain_text("secret deadline")
    expect(borin_view.locator("#sheet .hp-value")).to_have_text("0", timeout=10000)  # live, without reloading
    expect(borin_view.locator("#sheet .injury")).to_contain_text("Severe Burn")
    assert "deadline in" not in borin_view.locator("#sheet").inner_text().lower()

    # Aria treats the burn: the treatment time passes, then her check
    treat = page.locator("#char-borin form[data-action=treat]")
    treat.locator("input[name=check]").fill("30")
    treat.locator("select[name=healer]").select_option("aria")
    submit(treat, "heals")
    expect(page.locator("#char-borin .injury")).to_have_count(0)
    expect(borin_view.locator("#sheet .injury")).to_have_count(0, timeout=10000)

    # Aria is exposed to a poison, the clock advances, a save waits for her die, the GM answers it
    expose = page.locator("#actions form[data-action=expose]")
    expose.locator("select[name=character]").select_option("aria")
    expose.locator("select[name=affliction]").select_option("small_centipede_poison")
    expose.locator("input[name=save]").fill("1")
    submit(expose, "failed")
    expect(page.locator("#char-aria .affliction .ladder li")).not_to_have_count(0)
    expect(aria_view.locator("#sheet .affliction")).to_contain_text("Small Centipede Poison", timeout=10000)
    advance = page.locator("#clock form[data-action=advance]")
    advance.locator("input[name=duration]").fill("1min")
    submit(advance, "save waiting")
    expect(page.locator("#pending .pending-save")).to_have_count(1)
    answer = page.locator("#pending form[data-action=answer]")
    answer.locator("input[name=total]").fill("30")
    answer.locator("input[name=auto]").check()
    submit(answer, "Clock:")
    expect(page.locator("#pending .pending-save")).to_have_count(0)
    clock = page.locator("#clock-text").inner_text()
    expect(aria_view.locator("#sheet .clock")).to_have_text(clock, timeout=10000)
    assert page.locator("#log li").count() > 5

    # the GM's call: a lingering injury without damage (its secret deadline becomes the next due moment)
    injure = page.locator("#actions form[data-action=injure]")
    page.locator("#actions details:has(form[data-action=injure])").evaluate("details => details.open = true")
    injure.locator("select[name=character]").select_option("borin")
    injure.locator("select[name=type]").select_option("fire")
    injure.locator("input[name=d20]").fill("2")
    submit(injure, "new injury")
    expect(page.locator(".due b")).to_be_visible()
    expect(borin_view.locator("#sheet .injury")).to_have_count(1, timeout=10000)

    # a change made elsewhere (here the API, with the GM secret): the dashboard shows it, live, with nothing
    # left stale (issue 39: the cards and the log update too)
    expect(page.locator(".stale")).to_be_hidden()
    clock = page.locator("#clock-text").inner_text()
    moved = page.request.post("/api/campaigns/Brindol/advance", data={"duration": "1r"},
                              headers={"Authorization": f"Bearer {secret}"})
    assert moved.ok, moved.text()
    expect(page.locator("#clock-text")).not_to_have_text(clock, timeout=10000)
    expect(page.locator("#log li").first).to_contain_text("the clock moves 1 round", timeout=10000)
    expect(page.locator(".stale")).to_be_hidden()
    page.reload()

    # the same dashboard in French, then back
    page.click("a.lang[hreflang=fr]")
    expect(page.locator("#party h2")).to_have_text("Groupe")
    page.click("a.lang[hreflang=en]")
    expect(page.locator("#party h2")).to_have_text("Party")

    # fits a tablet: nothing wider than the screen
    for width, height in ((1180, 820), (820, 1180)):
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.set_viewport_size({"width": 1280, "height": 900})
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOT))
    assert SCREENSHOT.stat().st_size > 10_000
    assert page.dialogs == []


def test_a_script_for_a_name_is_just_a_name(gm, player_context):
    from playwright.sync_api import expect

    page = gm
    create_campaign(page, "Escapes")
    add_character(page, XSS, 12)
    card = page.locator("article.card").first
    expect(card.locator("h3.name")).to_have_text(XSS)
    page.reload()
    assert page.dialogs == [] and page.locator("script:not([src])").count() == 0
    edit = card.locator("form[data-action=edit_character]")
    card.locator("details.quick summary", has_text="Edit").click()
    edit.locator("textarea[name=notes]").fill('<img src=x onerror="alert(2)">')
    submit(edit)
    expect(page.locator("article.card .notes")).to_have_text('<img src=x onerror="alert(2)">')
    assert page.locator("article.card img").count() == 0
    view = player_context.new_page()
    view.dialogs = []
    view.on("dialog", lambda dialog: (view.dialogs.append(dialog.message), dialog.dismiss()))
    view.goto(card.locator("a.player-link").get_attribute("href"))
    expect(view.locator("#sheet h3.name")).to_have_text(XSS)
    time.sleep(0.3)
    assert page.dialogs == [] and view.dialogs == []


def test_a_player_link_changes_nothing(gm, player_context):
    from playwright.sync_api import expect

    page = gm
    create_campaign(page, "Readonly")
    add_character(page, "Cora", 18)
    link = page.locator("#char-cora a.player-link").get_attribute("href")
    token = link.rsplit("/", 1)[1]
    view = player_context.new_page()
    view.goto(link)
    expect(view.locator("#sheet .hp-value")).to_have_text("18")
    assert view.locator("form").count() == 0  # nothing to submit
    home = player_context.new_page()
    home.goto("/")
    csrf = home.locator("input[name=csrf]").first.get_attribute("value")
    statuses = view.evaluate("""async ([csrf, token]) => {
        const form = new URLSearchParams({csrf, character: "cora", "parts.0.amount": "9", "parts.0.type": "fire"});
        const page = await fetch("/c/Readonly/act/damage", {method: "POST", body: form, redirect: "manual"});
        const api = await fetch("/api/campaigns/Readonly/damage", {method: "POST",
            headers: {"Authorization": "Bearer " + token, "Content-Type": "application/json"},
            body: JSON.stringify({character: "cora", parts: [{amount: 9, type: "fire"}]})});
        const undo = await fetch("/api/campaigns/Readonly/undo", {method: "POST"});
        const dashboard = await fetch("/c/Readonly");
        return [page.status, api.status, undo.status, dashboard.status];
    }""", [csrf, token])
    assert statuses == [403, 403, 401, 403]
    page.reload()
    expect(page.locator("#char-cora .hp-value")).to_have_text("18")
    expect(view.locator("#sheet .hp-value")).to_have_text("18")


def test_injury_odds_read_on_a_phone(browser, server):
    """The injury odds charts and the what-if at 390x844 (issue 17): no sideways scrolling, every row's numbers
    visible."""
    from playwright.sync_api import expect

    context = browser.new_context(base_url=server, viewport={"width": 390, "height": 844}, locale="fr-FR")
    page = context.new_page()
    try:
        page.goto("/tables/fire")
        chart = page.locator("#injury-odds .injury-odds")
        expect(chart).to_contain_text("Une chute à 0")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        box = chart.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        numbers = chart.locator(".bar-line .num")
        assert numbers.count() == 2 * (6 + 4)  # each row and severity, standard and lenient
        for i in range(numbers.count()):
            cell = numbers.nth(i).bounding_box()
            assert cell["x"] + cell["width"] <= 390
        secret = create_campaign(page, "Phone")
        assert secret
        page.goto("/c/Phone?itype=cold&id20=4&ibonus=5#injury-odds")
        expect(page.locator(".treatment-odds")).to_contain_text("Gelure")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert overlapping_cells(page) == []
        page.goto("/c/Phone?odds=filth_fever&bonus=4#odds")  # the affliction chart: bars in cells too
        expect(page.locator("table.odds-table").first).to_be_visible()
        assert overlapping_cells(page) == []
        page.goto("/c/Phone#what-if")  # the what-if: asked from its form, every option's card within the phone
        page.fill("#what-if input[name=wdrops]", "1,5")
        page.click("#what-if button")
        expect(page.locator(".what-if-odds .variant").first).to_contain_text("Les options de la campagne")
        assert page.locator(".what-if-odds .variant").count() >= 4
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        for i in range(page.locator(".what-if-odds .variant").count()):
            card = page.locator(".what-if-odds .variant").nth(i).bounding_box()
            assert card["x"] >= 0 and card["x"] + card["width"] <= 390
    finally:
        context.close()


def overlapping_cells(page) -> list[str]:
    """The chart rows whose cells overlap (a cell starting before the one on its left ends): a page style meant
    for something else that reaches a chart's cell (the GM bar's `.bar` once did, on phones, with a shadow)."""
    return page.evaluate("""() => [...document.querySelectorAll('table.odds-table tr')].flatMap(row => {
        const cells = [...row.children].map(c => c.getBoundingClientRect());
        return cells.slice(1).some((c, i) => c.left < cells[i].right - 1) ? [row.textContent.trim().slice(0, 40)] : [];
    })""")
def test_no_secret_in_the_browser_history(browser, server, tmp_path):
    """A GM signs in with a sign-in link and reveals the API secret in a browser with a real, persistent
    profile: the profile on disk (history, cache, session) never holds the API secret, and the sign-in
    link its history keeps no longer signs anyone in."""
    import json
    import sqlite3
    import urllib.request

    from playwright.sync_api import expect

    request = urllib.request.Request(f"{server}/api/campaigns", data=json.dumps({"name": "History"}).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request) as answer:
        created = json.load(answer)
    secret, link = created["gm_secret"], created["gm_link"]
    profile = tmp_path / "profile"
    context = browser.browser_type.launch_persistent_context(
        str(profile), executable_path=_chromium(), args=ARGS,
        base_url=server, locale="en-US")
    page = context.new_page()
    page.goto(link)
    assert page.url.endswith("/c/History")  # signed in, the code gone from the address bar
    page.click("#access button[data-access=reveal]")
    expect(page.locator("#shown-secret")).to_have_text(secret)
    page.goto("/c/History")
    page.goto("/")
    context.close()  # the profile is written to disk
    history = sqlite3.connect(profile / "Default" / "History")
    urls = [row[0] for row in history.execute("SELECT url FROM urls")]
    history.close()
    assert any("/c/History?code=" in url for url in urls), urls  # the browser did record the link ...
    for path in profile.rglob("*"):
        if path.is_file():
            assert secret.encode() not in path.read_bytes(), path  # ... never the API secret
    # the recorded sign-in link is dead: another browser following it is not signed in
    other = browser.new_context(base_url=server, locale="en-US")
    again = other.new_page()
    response = again.goto(next(url for url in urls if "?code=" in url))
    assert response.status == 403 and "already used" in again.locator(".error-message").inner_text()
    assert again.goto("/c/History").status == 403
    other.close()
