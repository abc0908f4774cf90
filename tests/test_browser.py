"""The web pages in a real headless Chromium (Debian's /usr/bin/chromium through Playwright's Python
package): a whole game against a bot by clicking, two browsers as two players, log and replay,
record upload, German, a phone-sized screen. Skipped when Chromium or Playwright is missing."""

from __future__ import annotations

import json
import os
import random
import shutil

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from kashgar.server.testing import ThreadServer  # noqa: E402

CHROMIUM = os.environ.get("KASHGAR_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
XSS = '<img src=x onerror="window.pwned=1">Ben'

if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
    pytest.skip(f"Chromium not found at {CHROMIUM} (apt-get install chromium, or bash scripts/services.sh)",
                allow_module_level=True)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("browser") / "kashgar.sqlite3"
    with ThreadServer(f"sqlite:///{db}", bot_workers=0, bot_delay=0) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors
    yield pg
    ctx.close()
    assert not errors, errors


def create_game(page, url: str, name: str, seats: list[tuple[str, str]]) -> None:
    """Fill in the lobby form: seat 1 is me; ``seats`` are the others as (kind, bot level)."""
    page.goto(url + "/")
    page.fill("input[name=name0]", name)
    for i, (kind, level) in enumerate(seats, start=1):
        if i >= 2:
            page.click("#add-seat")
        page.select_option(f"select[name=kind{i}]", kind)
        if kind == "bot":
            page.select_option(f"select[name=bot{i}]", level)
    page.click("#create")


READY = """() => document.querySelector('.prompt.over') ||
  document.querySelector('#actions button.act:not([disabled])')"""


def click_some_action(page, rng: random.Random) -> bool:
    """Click one legal action, on a card when it offers one, else in the prompt or the list.
    Returns False once the game is over."""
    page.wait_for_function(READY, timeout=30000)
    if page.query_selector(".prompt.over"):
        return False
    for where in (".player.me .cbuttons button.act:not([disabled])", "#prompt button.act:not([disabled])",
                  "#actions button.act:not([disabled])"):
        buttons = page.query_selector_all(where)
        if buttons:
            try:
                rng.choice(buttons).click(timeout=2000)
            except sync_api.Error:
                pass  # re-rendered under the mouse: try again
            return True
    return True


def test_play_a_whole_game_against_a_bot_by_clicking(page, server, tmp_path):
    create_game(page, server.url, "Anna", [("bot", "random")])
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#prompt")
    page.screenshot(path=str(tmp_path / "start.png"), full_page=True)
    assert page.locator(".player.me .pname").inner_text() == "Anna"
    assert page.locator("#display .contract").count() == 4
    assert page.locator(".deck[data-deck=standard] .dsize").inner_text().isdigit()
    rng = random.Random(4)
    clicks = 0
    saw_title = False
    while click_some_action(page, rng):
        clicks += 1
        saw_title = saw_title or page.title().startswith("●")
        assert clicks < 3000
    page.screenshot(path=str(tmp_path / "end.png"), full_page=True)
    assert clicks > 30 and saw_title
    assert "Game over" in page.locator("#prompt").inner_text()
    assert not page.title().startswith("●")
    # The record downloads and is a complete record of this game.
    with page.expect_download() as dl:
        page.click("#download")
    path = tmp_path / "record.json"
    dl.value.save_as(str(path))
    record = json.loads(path.read_text())
    from kashgar.records import replay

    assert replay(record).over
    log_entries = page.locator("#log li.entry")
    assert log_entries.count() == len(record["actions"])
    # Replay step by step from the start, and look at the table as the bot saw it.
    page.click("#replay")
    page.wait_for_selector("#history-bar")
    assert "0 of" in page.inner_text("#history-pos") or "0 von" in page.inner_text("#history-pos")
    page.click("#h-next")
    page.wait_for_function("() => document.querySelector('#history-pos').textContent.includes('1 ')")
    page.select_option("#as-seat", "1")
    page.wait_for_function("() => document.querySelector('.player.me .pname').textContent !== 'Anna'")
    log_entries.nth(3).locator(".ltext").click()
    page.wait_for_function("() => document.querySelector('#history-pos').textContent.startsWith('Position after step 4')")
    page.click("#back-live")
    page.wait_for_selector(".prompt.over")
    # The finished game is in "My games".
    page.goto(server.url + "/")
    page.wait_for_selector("#my-games li.game")
    assert "won" in page.inner_text("#my-games li.game")
    # The record viewer replays the uploaded file.
    page.goto(server.url + "/viewer")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#history-bar")
    page.click("#h-last")
    page.wait_for_selector(".prompt.over")
    page.click("#h-prev")
    page.wait_for_function("() => !document.querySelector('.prompt.over')")


def test_two_browsers_two_players(browser, server, tmp_path):
    ctx1 = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx2 = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        p1, p2 = ctx1.new_page(), ctx2.new_page()
        create_game(p1, server.url, "Ann", [("human", "")])
        p1.wait_for_selector("#created .invite-url")
        invite = p1.input_value("#created .invite-url")
        assert "/join/" in invite
        p1.click("#open-table")
        p1.wait_for_selector("#prompt")
        p2.goto(invite)
        p2.fill("input[name=name]", XSS)
        p2.click("#take-seat")
        p2.wait_for_url("**/game/**")
        p2.wait_for_selector("#prompt")
        # The name is shown as text, never as HTML.
        p1.wait_for_function("() => document.querySelectorAll('.player .pname')[1].textContent.includes('Ben')")
        assert p1.locator(".others .pname").inner_text() == XSS
        assert p2.locator(".player.me .pname").inner_text() == XSS
        assert p1.evaluate("() => window.pwned") is None and p2.evaluate("() => window.pwned") is None
        assert p1.locator(".others img").count() == 0
        # The invitation is used up.
        p3 = ctx1.new_page()
        p3.goto(invite)
        p3.wait_for_selector("#join-error")
        assert "already been used" in p3.inner_text("#join-error")
        p3.close()
        pages = {0: p1, 1: p2}
        for _ in range(3):  # a few turns, each player in their own browser
            turn = None
            for _ in range(100):
                turn = next((s for s, pg in pages.items() if pg.title().startswith("●")), None)
                if turn is not None:
                    break
                p1.wait_for_timeout(50)
            assert turn is not None
            me, other = pages[turn], pages[1 - turn]
            patriarch_a = ".player.me .card.front[data-card=patriarch] button.act[data-action$='A']"
            me.wait_for_selector(patriarch_a)
            me.locator(patriarch_a).first.click()
            # The Patriarch drew two cards: only the drawing player sees them.  Two copies of the
            # same card leave a single choice, which the server applies by itself (about one deal
            # in sixteen), so the turn may already have passed.
            me.wait_for_function(
                "() => document.querySelector('#prompt .choices .card') || !document.title.startsWith('●')"
            )
            if me.locator("#prompt .choices .card").count():
                other.wait_for_function("() => document.querySelector('#prompt').textContent.includes('Waiting')")
                assert other.locator("#prompt .card").count() == 0
                assert me.locator("#prompt .choices .card").count() == 2
                me.locator("#prompt .choices button.act").first.click()
            other.wait_for_function("() => document.title.startsWith('●')", timeout=10000)
            me.wait_for_function("() => !document.title.startsWith('●')")
        p1.screenshot(path=str(tmp_path / "ann.png"), full_page=True)
        p2.screenshot(path=str(tmp_path / "ben.png"), full_page=True)
        # Undo of one's own last decision: free while no hidden card was drawn (1B turns the Patriarch).
        turn = 0 if p1.title().startswith("●") else 1
        me = pages[turn]
        n = me.locator("#log li.entry").count()
        me.locator(".player.me .card.front[data-card=patriarch] button.act[data-action$='B']").first.click()
        me.wait_for_function(f"() => document.querySelectorAll('#log li.entry').length === {n + 1}")
        me.wait_for_selector("#undo")
        me.click("#undo")
        me.wait_for_function(f"() => document.querySelectorAll('#log li.entry').length === {n}")
        assert me.title().startswith("●")
        # My games: the game waiting for me is marked.
        me.goto(server.url + "/")
        me.wait_for_selector("#my-games li.game.your-turn")
        assert me.title().startswith("(1)")
    finally:
        ctx1.close()
        ctx2.close()


def test_german_cards_on_hover_and_a_phone_sized_screen(browser, server, tmp_path):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = ctx.new_page()
        create_game(page, server.url, "Mia", [("bot", "heuristic")])
        page.wait_for_url("**/game/**")
        page.wait_for_selector("#prompt")
        page.wait_for_function(READY)
        page.click("button.lang")
        page.wait_for_function("() => document.documentElement.lang === 'de'")
        page.wait_for_selector("text=Aufträge")
        page.wait_for_function("() => document.querySelector('#prompt').textContent.includes('Du bist dran')"
                               " || document.querySelector('#prompt').textContent.includes('Warte')")
        # Card texts: the title (hover) and a tap on the card.
        card = page.locator(".player.me .card.front").first
        assert "Ziehe" in card.get_attribute("title") or "Erhöhe" in card.get_attribute("title")
        card.locator(".cname").tap()
        page.wait_for_selector("#info.show")
        assert page.locator("#info .cname").inner_text() == card.locator(".cname").inner_text()
        page.click("#info .close")
        # Nothing is wider than the screen.
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1, overflow
        page.click("#discard-toggle")
        page.wait_for_selector("#pile-discard .pile-cards")
        page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)
        page.click("button.lang")
        page.wait_for_function("() => document.documentElement.lang === 'en'")
    finally:
        ctx.close()
