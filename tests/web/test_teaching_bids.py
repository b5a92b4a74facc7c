"""Issue 24 in a real browser, the decisions: a bidding box that fits a 1366×900 window with the
hand in view and a phone with Pass, Double and Redouble in view, the bidding as a history;
Mighty's Keep button and the warning for a friend card of one's own hand; Galapagos' play-off
chosen by selecting cards; every game's decisions on a 390 px screen with a one-row header; the
lobby's bot levels in order of strength; the score sheet's names on one line."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from torite.engine.registry import make_game
from torite.server.app import create_app

from .test_browser import MANY_TABLES, new_page, serving, shot, table_data, wait_turn_or_over
from .test_teaching_table import player, state, step

BUILT_IN = ("trick-of-the-dead", "kaedama", "good-cop", "seconds", "umbridge", "glapgos", "hearts", "mighty")
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("web-bids") / "torite.db"
    yield from serving(create_app(f"sqlite:///{db}", reports_dir=None, limits=MANY_TABLES))


@pytest.fixture(autouse=True)
def closed_after(browser: Browser) -> Iterator[None]:
    yield
    for ctx in browser.contexts:
        ctx.close()


def fits(page: Page) -> None:
    """Nothing wider than the screen (a card sliding in may lie past the edge: clipped, measured
    once the slides end), and the header one row."""
    page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
    width = page.evaluate("() => document.documentElement.clientWidth")
    wide = page.evaluate("""w => [...document.querySelectorAll('body *')].filter(e => {
        const r = e.getBoundingClientRect(); return r.width && r.right > w + 0.5 && !e.closest('.trick-center'); })
        .slice(0, 5).map(e => e.tagName + '#' + e.id + '.' + e.className)""", width)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width, (table_data(page)["phase"], wide)
    header = page.eval_on_selector("header.bar", "e => e.getBoundingClientRect().height")
    assert header < 60, header


def in_view(page: Page, selector: str) -> bool:
    box = page.eval_on_selector(
        selector, "e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }")
    w, h = page.evaluate("() => [window.innerWidth, window.innerHeight]")
    return bool(box[0] >= 0 and box[1] >= 0 and box[2] <= w and box[3] <= h)


# ------------------------------------------------------------------ 5: the bidding box
def test_mightys_bidding_box_fits_1366x900_with_the_hand_in_view_then_keep_and_the_friend_warning(
        server: str, browser: Browser) -> None:
    page, _ = player(browser, server, "mighty", {"deals": 1}, size={"width": 1366, "height": 900})
    wait_turn_or_over(page)
    page.wait_for_selector("#controls .bidbox")
    assert page.evaluate("() => window.scrollY") == 0
    assert in_view(page, "#controls .bidbox") and in_view(page, "#hand button.card:last-child")
    assert in_view(page, "#controls .bidcalls button")  # the pass
    assert page.locator("#controls .bidgrid button.bid").count() == 8 * 5
    shot(page, "mighty-bidding-1366x900")
    # outbid everyone: the highest cell makes us the president
    for _ in range(10):
        if table_data(page)["phase"] != "bid":
            break
        n = table_data(page)["n"]
        page.locator("#controls .bidgrid button.bid[data-action]").last.click()
        page.wait_for_function(f"document.getElementById('table').dataset.n !== '{n}'")
        wait_turn_or_over(page)
    assert page.locator("#auction-side table.auction td.call-bid").count() >= 1
    while table_data(page)["phase"] == "discard":
        n = table_data(page)["n"]
        page.locator("#hand button.card.legal").first.click()
        page.wait_for_function(f"document.getElementById('table').dataset.n !== '{n}'")
        wait_turn_or_over(page)
    assert table_data(page)["phase"] == "contract"
    contract = state(page)["contract"]
    keep = page.locator("#controls .bidcalls button.keep")
    assert keep.inner_text().startswith("Keep ") and keep.get_attribute("data-action") == f"contract {contract}"
    n = table_data(page)["n"]
    keep.click()
    page.wait_for_function(f"document.getElementById('table').dataset.n !== '{n}'")
    wait_turn_or_over(page)
    assert table_data(page)["phase"] == "friend"
    own = page.locator("#controls .picker button.card.own")
    assert own.count() >= 1
    card = own.first.get_attribute("data-card")
    own.first.click()
    assert "your own hand" in page.inner_text("#why") and "alone" in page.inner_text("#why")
    anyway = page.locator(f"#controls > button[data-action='friend {card}']")
    assert anyway.count() == 1 and card is not None
    assert table_data(page)["n"] == str(int(n) + 1)  # nothing was named yet
    assert not page.errors  # type: ignore[attr-defined]


def test_umbridges_bidding_box_on_a_phone_keeps_pass_double_and_redouble_in_view_and_the_history(
        server: str, browser: Browser) -> None:
    page, _ = player(browser, server, "umbridge", {"deals": 1}, phone=True)
    for _ in range(10):
        if page.locator("#controls .bidbox").count():
            break
        wait_turn_or_over(page)
        step(page)
    page.wait_for_selector("#controls .bidbox")
    calls = page.locator("#controls .bidcalls button")
    assert calls.count() == 3
    fits(page)
    page.locator("#controls .bidbox").scroll_into_view_if_needed()
    for k in range(3):
        assert in_view(page, f"#controls .bidcalls button:nth-child({k + 1})")
    redouble = page.locator("#controls .bidcalls button.refused")
    assert redouble.count() >= 1
    reason = redouble.last.get_attribute("title")
    redouble.last.click(force=True)  # a tap on a refused call says why
    assert page.inner_text("#why") == reason and reason
    if not state(page)["auction"]:  # the person opens: one call of theirs, and the bot's answer
        step(page)
        wait_turn_or_over(page)
    assert state(page)["auction"], "no call in the history"
    # on a phone the history lies on the felt while the bidding lasts (two seats: two columns)
    # and leaves it once the auction is over (the bot's answer may have ended it)
    on_felt = page.locator("#auction-felt table.auction th").count()
    assert on_felt == (2 if state(page)["bidding"] else 0), (on_felt, state(page)["phase"])
    shot(page, "umbridge-bidding-phone")
    assert not page.errors  # type: ignore[attr-defined]


# ------------------------------------------------------------------ 9: every game's decisions on a phone
@pytest.mark.parametrize("game", BUILT_IN)
def test_every_decision_of_every_game_fits_a_390px_screen(server: str, browser: Browser, game: str) -> None:
    options = {"trick-of-the-dead": {"target": 1}, "kaedama": {"rounds": 1}, "good-cop": {"deals": 1},
               "umbridge": {"deals": 1}, "mighty": {"deals": 1}, "glapgos": {"target": 100}}.get(game, {})
    page, _ = player(browser, server, game, options, phone=True)
    phases: set[str] = set()
    declared = {p.name for p in make_game(game, options).phases()}
    for _ in range(24):  # the decisions of a deal's start, each kind measured when it shows
        d = wait_turn_or_over(page)
        if d["over"] == "1" or page.locator("#round-dialog[open]").count():
            break
        if d["phase"] not in phases:
            phases.add(d["phase"])
            fits(page)
        if phases >= declared - {"over", "suit", "call", "trump", "dummy", "playoff", "take"}:
            break
        step(page)
    if page.locator("#round-dialog[open]").count():
        fits(page)
        page.click("#round-continue")
    page.click("#btn-menu")  # the header's tools, folded into a menu
    page.wait_for_selector("#tools.open")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert declared & phases
    assert not page.errors  # type: ignore[attr-defined]


# ------------------------------------------------------------------ 7: Galapagos' play-off
def test_galapagos_play_off_is_played_by_selecting_cards_and_the_log_speaks_words(
        server: str, browser: Browser) -> None:
    page, t = player(browser, server, "glapgos", {"target": 100})
    for _ in range(120):
        d = wait_turn_or_over(page)
        if d["over"] == "1" or (d["phase"] == "playoff" and page.locator("#confirm").count()):
            break
        if page.locator("#round-dialog[open]").count():
            page.click("#round-continue")
        step(page)
    assert table_data(page)["phase"] == "playoff", "no play-off decision of our own"
    sets = page.evaluate("() => window.__torite.state().legal.filter(a => a.cards.length)")
    pick = max(sets, key=lambda a: len(a["cards"]))  # a pair or a set when there is one
    for c in pick["cards"]:  # select the cards, then play them
        page.click(f"#hand button.card[data-card='{c}']")
    assert page.locator("#confirm:not(:disabled)").count() == 1
    assert page.inner_text("#confirm").startswith("Play")
    n = table_data(page)["n"]
    page.click("#confirm")
    page.wait_for_function(f"document.getElementById('table').dataset.n !== '{n}'")
    assert page.request.get(f"{server}/api/tables/{t['id']}").json()["n"] > int(n)
    # the log says the play-off in words: who played which cards, how many are left
    last = page.locator("#log li").last.inner_text()
    assert "[" not in last and ("plays" in last or "passes" in last or "leads" in last), last
    assert not page.errors  # type: ignore[attr-defined]


# ------------------------------------------------------------------ 11: the lobby, the score sheet
def test_the_lobby_explains_the_bot_levels_in_order_of_strength_and_the_sheet_keeps_names_on_a_line(
        server: str, browser: Browser) -> None:
    page = new_page(browser)
    page.goto(server + "/")
    page.wait_for_selector("#seat-2")
    page.click(".bots-help summary")
    levels = page.eval_on_selector_all("#bots-help dt", "els => els.map(e => e.textContent)")
    assert levels[:5] == ["random", "easy", "normal", "hard", "expert"]
    helps = page.eval_on_selector_all("#bots-help dd", "els => els.map(e => e.textContent)")
    assert "0.1 s" in helps[3] and "about 1 s" in helps[4] and "Monte Carlo" in " ".join(helps[5:])
    options = page.eval_on_selector_all("#seat-1 option", "els => els.map(e => e.value)")
    assert [o for o in options if o.startswith("bot:")][:5] == ["bot:random", "bot:easy", "bot:normal", "bot:hard",
                                                                 "bot:expert"]
    phone, _ = player(browser, server, "mighty", {"deals": 1}, phone=True)
    wait_turn_or_over(phone)
    heights = phone.eval_on_selector_all("#sheet th", "els => els.map(e => e.getBoundingClientRect().height)")
    assert heights and max(heights) < 30  # one line each: a name is never squeezed a letter a line
    assert not page.errors and not phone.errors  # type: ignore[attr-defined]


def test_a_phone_lobby_fits(server: str, browser: Browser) -> None:
    page = new_page(browser, phone=True)
    page.goto(server + "/")
    page.wait_for_selector("#seat-2")
    page.select_option("#game", "mighty")
    page.wait_for_selector("#seat-4")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert not page.errors  # type: ignore[attr-defined]


