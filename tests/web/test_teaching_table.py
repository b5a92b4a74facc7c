"""Issue 24 in a real browser: the table explains every game to a newcomer.  Each test plays a
short game against bots without delay on one shared server: Umbridge's dummy card in its own
place and no points where tricks score none; a round summary that explains its points and
reopens after a reload; why a card cannot be played (hover, keyboard focus, tap); the hint and
its count in the record; how the game is won (lobby, header, game over); roles on the seats and
the contract pinned in view; a second window asking before it takes a seat over; the host
handing a gone player's seat to a bot."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from torite.engine.summary import problems
from torite.server.app import create_app

from .test_browser import (
    MANY_TABLES,
    new_page,
    serving,
    shot,
    table_data,
    take_turn,
    wait_turn_or_over,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("web-teach") / "torite.db"
    yield from serving(create_app(f"sqlite:///{db}", reports_dir=None, limits=MANY_TABLES))


@pytest.fixture(autouse=True)
def closed_after(browser: Browser) -> Iterator[None]:
    """Each test's pages close with it: an open socket would hold the server's shutdown."""
    yield
    for ctx in browser.contexts:
        ctx.close()


def state(page: Page) -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate("() => window.__torite.state()")
    return out


def step(page: Page) -> None:
    """One decision as a player makes it: a card of the hand, a pile's card (the dummy), the
    cards of a set then its button, the lowest bid, or the first button."""
    n = table_data(page)["n"]
    if page.locator("#confirm").count():
        sets = page.evaluate("() => window.__torite.state().legal.filter(a => a.cards.length).map(a => a.cards)")
        for c in sets[0]:
            page.click(f"#hand button.card[data-card='{c}']")
        page.click("#confirm")
    elif page.locator("#piles button.card.legal").count() and not page.locator("#hand button.card.legal").count():
        page.locator("#piles button.card.legal").first.click()
    else:
        take_turn(page)
        return
    page.wait_for_function(f"document.getElementById('table').dataset.n !== '{n}'")


def until(page: Page, pred: Any, limit: int = 300) -> dict[str, str]:
    for _ in range(limit):
        d = wait_turn_or_over(page)
        if pred(page, d) or d["over"] == "1":
            return d
        if page.locator("#round-dialog[open]").count():
            page.click("#round-continue")
        step(page)
    raise AssertionError("never got there")


def player(browser: Browser, server: str, game: str, options: dict[str, Any], *, phone: bool = False,
           lang: str = "en", pause: str = "0", size: dict[str, int] | None = None,
           seats: list[dict[str, Any]] | None = None, settings: dict[str, Any] | None = None,
           ) -> tuple[Page, dict[str, Any]]:
    page = new_page(browser, phone=phone, lang=lang)
    if size:
        page.set_viewport_size(size)
    page.add_init_script(f"localStorage.setItem('torite.pause', '{pause}'); "
                         f"localStorage.setItem('torite.lang', '{lang}')")
    if seats is None:
        n = {"mighty": 5, "umbridge": 2, "glapgos": 2, "hearts": 4, "seconds": 4, "good-cop": 4}.get(game, 3)
        seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "level": "normal"}] * (n - 1)
    r = page.request.post(f"{server}/api/tables", data={"game": game, "options": options, "seats": seats,
                                                         "settings": {"bot_delay": 0, **(settings or {})}})
    assert r.status == 201, r.text()
    t: dict[str, Any] = r.json()
    page.goto(t["seats"][0]["url"])
    return page, t


# ------------------------------------------------------------------ 1, 11: the dummy's card, no zero points
def test_umbridge_shows_the_dummys_card_in_its_own_place_labelled_dummy_and_no_zero_points(
        server: str, browser: Browser) -> None:
    """Every trick of Umbridge holds a card of the dummy, played by one of the two: a finished
    trick stays on the table (a long pause) with each card where its owner sits."""
    page, _ = player(browser, server, "umbridge", {"deals": 1}, size={"width": 1366, "height": 900}, pause="30")
    until(page, lambda p, d: p.locator("#ring.paused").count() > 0)
    done = [x for x in page.evaluate("() => window.__torite.lines()") if x["kind"] == "trick"][-1]["data"]
    cards = page.locator("#trick .trick-card")
    assert cards.count() == len(done["cards"]) == 3  # every card of the trick shows
    dummy = page.locator("#trick .trick-card[data-owner='dummy']")
    assert dummy.count() == 1 and dummy.locator(".who").inner_text().startswith("dummy")
    assert dummy.locator("[data-card]").get_attribute("data-card") == done["cards"][done["dummy"].index(True)]
    boxes = page.eval_on_selector_all(
        "#trick .trick-card .card", "els => els.map(e => { const r = e.getBoundingClientRect(); "
        "return [r.left, r.top, r.right, r.bottom]; })")
    for i, a in enumerate(boxes):  # none covers another
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    assert page.locator("#seats .seat.pile-seat[data-pile='dummy']").count() == 1
    # tricks carry no points in Umbridge: none on the seats, none by the finished trick
    assert not state(page)["tricks_score"] and page.locator("#seats .fact.points").count() == 0
    assert page.inner_text("#trick-note .won").endswith("takes the trick")  # no "(0)"
    assert "declarer" in page.inner_text("#seats") and "contract" in page.inner_text("#pinned")
    shot(page, "umbridge-dummy-en")
    assert not page.errors  # type: ignore[attr-defined]


# ------------------------------------------------------------------ 2, 6, 10, 11: summary, roles, reload
def test_a_mighty_deal_ends_with_a_summary_that_explains_the_points_and_reopens_after_a_reload(
        server: str, browser: Browser) -> None:
    page, _ = player(browser, server, "mighty", {"deals": 2}, lang="en")
    # roles once the election is over: the president on its seat, the contract pinned above the table
    def president_seat(p: Page) -> int | None:
        return next((i for i, r in enumerate(state(p)["roles"]["en"]) if "president" in r), None)

    d = until(page, lambda p, d: president_seat(p) is not None)
    president = president_seat(page)
    assert "president" in page.inner_text(f"#seats .seat[data-seat='{president}'] .roles")
    assert "contract" in page.inner_text("#pinned")
    assert page.locator("#auction-side table.auction th").count() == 5
    for _ in range(200):
        d = wait_turn_or_over(page)
        if page.locator("#round-dialog[open]").count() or d["over"] == "1":
            break
        step(page)
    page.wait_for_selector("#round-dialog[open]")
    end = next(x for x in page.evaluate("() => window.__torite.lines()") if x["kind"] == "round_end")
    data = end["data"]
    assert not problems(data["summary"], data["points"])  # what the dialog draws adds up
    assert page.inner_text("#round-title") == "Deal 1 is over"
    explain = page.inner_text("#round-explain")
    assert "base score" in explain and "contract" in explain and " = " in explain
    points = page.eval_on_selector_all("#round-table tr[data-key='points'] td", "els => els.map(e => e.textContent)")
    assert points == [f"+{v}" if v > 0 else str(v) for v in data["points"]]
    assert page.locator("#round-table tr.step").count() >= 2  # base score, then the share at least
    assert "share" in page.inner_text("#round-table")
    shot(page, "mighty-summary-en")
    page.click("#round-continue")
    # a reload: the last round's summary can be reopened
    page.reload()
    wait_turn_or_over(page)
    page.click("#btn-last-summary")
    page.wait_for_selector("#round-dialog[open]")
    assert page.inner_text("#round-title") == "Deal 1 is over" and "base score" in page.inner_text("#round-explain")
    assert not page.errors  # type: ignore[attr-defined]


# ------------------------------------------------------------------ 4: why a card cannot be played
def test_a_disabled_card_says_why_on_hover_keyboard_focus_and_tap(server: str, browser: Browser) -> None:
    page, _ = player(browser, server, "hearts", {}, lang="en")
    until(page, lambda p, d: d["phase"] == "play" and p.locator("#hand button.card.refused").count() > 0)
    m = state(page)
    refused = page.locator("#hand button.card.refused")
    card = refused.first.get_attribute("data-card")
    assert card is not None and card not in m["decision"]["singles"]["play"]
    said = page.get_attribute(f"#hand button.card[data-card='{card}']", "title")
    assert said and said != "Not now."
    assert said == page.get_attribute(f"#hand button.card[data-card='{card}']", "data-reason")
    # hover
    page.hover(f"#hand button.card[data-card='{card}']")
    assert page.inner_text("#why") == said
    page.mouse.move(0, 0)
    # keyboard: from a playable card, the arrows reach the refused one and its reason shows
    page.locator("#hand button.card.legal").first.focus()
    for _ in range(14):
        if page.evaluate("() => document.activeElement.dataset.card") == card:
            break
        page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.dataset.card") == card
    assert page.inner_text("#why") == said
    # a tap plays nothing and says it
    n = table_data(page)["n"]
    page.click(f"#hand button.card[data-card='{card}']", force=True)  # aria-disabled: a click still says why
    page.wait_for_selector("#notice:not(.hidden)")
    assert page.inner_text("#notice") == said and table_data(page)["n"] == n
    # the same words in Korean, from the rules
    page.select_option("#lang", "ko")
    page.wait_for_selector("#table[data-lang='ko']")  # the table's words come again, in Korean
    korean = page.evaluate(
        "c => window.Torite.richString(window.__torite.state().reasons.cards[c].ko, 'hearts', false)", card)
    assert korean != said and page.get_attribute(f"#hand button.card[data-card='{card}']", "title") == korean
    shot(page, "hearts-why-not-ko")
    assert not page.errors  # type: ignore[attr-defined]


# ------------------------------------------------------------------ the hint
def test_the_hint_suggests_the_normal_bots_choice_with_its_reason_and_the_record_counts_it(
        server: str, browser: Browser) -> None:
    page, t = player(browser, server, "trick-of-the-dead", {"target": 1})
    taken = 0
    for _ in range(60):
        d = wait_turn_or_over(page)
        if d["over"] == "1":
            break
        if page.locator("#round-dialog[open]").count():
            page.click("#round-continue")
        if taken < 3 and d["phase"] == "play":
            page.click("#btn-hint")
            page.wait_for_selector("#hint:not(.hidden)")
            text = page.inner_text("#hint")
            assert text.startswith("Hint: Play ") and len(text.splitlines()) == 2  # the move, then why
            hinted = page.locator("#hand button.card.hinted")
            assert hinted.count() == 1
            n = table_data(page)["n"]
            hinted.click()
            page.wait_for_function(f"document.getElementById('table').dataset.n !== '{n}'")
            taken += 1
            continue
        step(page)
    assert taken == 3
    wait_turn_or_over(page)
    record = page.request.get(f"{server}/api/tables/{t['id']}/record").json()
    assert record["hints"][0] == 3 and record["hints"][1:] == [0, 0]
    # a table with hints off shows no hint button
    off, _ = player(browser, server, "kaedama", {"rounds": 1}, settings={"hints": 0})
    wait_turn_or_over(off)
    assert off.locator("#btn-hint").is_hidden()
    assert not page.errors and not off.errors  # type: ignore[attr-defined]


# ------------------------------------------------------------------ 3: the way to win
def test_the_way_to_win_is_said_in_the_lobby_the_header_and_at_the_end_with_the_standings_in_its_order(
        server: str, browser: Browser) -> None:
    page = new_page(browser)
    page.goto(server + "/")
    page.wait_for_selector("#seat-2")
    page.select_option("#game", "seconds")
    page.wait_for_function("document.getElementById('goal').textContent.includes('second-highest')")
    page.select_option("#opt-winner", '"highest"')
    page.dispatch_event("#opt-winner", "change")
    page.wait_for_function("document.getElementById('goal').textContent.includes('the highest total wins')")
    hearts, _ = player(browser, server, "hearts", {})
    wait_turn_or_over(hearts)
    assert hearts.inner_text("#goal") == "One deal: the fewest penalty points win."
    for _ in range(60):
        if wait_turn_or_over(hearts)["over"] == "1":
            break
        step(hearts)
    hearts.wait_for_selector("#round-dialog[open]")
    assert hearts.inner_text("#final-goal") == "One deal: the fewest penalty points win."
    result = state(hearts)["result"]
    first = hearts.inner_text("#standings li:first-child")
    low = min(result["scores"])
    assert first.endswith(f"— {low}")  # the lowest total first: the winner
    assert "the lowest total wins" in hearts.locator("#log li").last.inner_text()  # the last line speaks words
    assert not page.errors and not hearts.errors  # type: ignore[attr-defined]


# ------------------------------------------------------------------ 10: friend play
def test_a_second_window_asks_before_taking_a_seat_over_and_the_first_is_told(server: str, browser: Browser) -> None:
    seats = [{"kind": "human", "name": "Ann", "host": True}, {"kind": "human", "name": "Ben"}, {"kind": "bot"}]
    first, t = player(browser, server, "trick-of-the-dead", {"target": 1}, seats=seats,
                      settings={"idle_seconds": 600})
    wait_turn_or_over(first)
    # Ben never came: the host hands his seat to a bot at once
    ben = first.locator("#seats .seat[data-seat='1'] button.stand-in")
    ben.wait_for()
    ben.click()
    first.wait_for_function(
        "document.querySelector(\"#seats .seat[data-seat='1'] .tags\").textContent.includes('a bot plays')")
    # Ann opens her seat in a second browser: it asks; she plays there, the first is told and watches
    second = new_page(browser)
    second.goto(t["seats"][0]["url"])
    second.wait_for_selector("#takeover-dialog[open]")
    assert "open in another window" in second.inner_text("#takeover-dialog")
    second.click("#takeover-play")
    first.wait_for_selector("#toast:not(.hidden)")
    assert "taken over" in first.inner_text("#toast")
    first.wait_for_function("document.getElementById('table').dataset.seat === ''")
    assert wait_turn_or_over(second)["seat"] == "0"
    take_turn(second)
    assert not first.errors and not second.errors  # type: ignore[attr-defined]
