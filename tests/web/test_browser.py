"""The web table in a real browser (Debian's chromium through Playwright) against a real uvicorn.

Skipped only when /usr/bin/chromium is absent; CI installs it.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("browser tests need /usr/bin/chromium (apt-get install chromium)", allow_module_level=True)

import uvicorn  # noqa: E402
from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

from torite.server.app import create_app  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync"]
TIMEOUT_MS = 20_000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("web") / "torite.db"
    port = free_port()
    config = uvicorn.Config(create_app(f"sqlite:///{db}"), host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not srv.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


def new_page(browser: Browser, *, phone: bool = False, lang: str = "en") -> Page:
    size = {"width": 390, "height": 844} if phone else {"width": 1200, "height": 900}
    # bypass_csp: Playwright's wait_for_function evaluates strings, which our policy forbids
    ctx = browser.new_context(viewport=size, locale="ja-JP" if lang == "ja" else "en-US", bypass_csp=True)
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # nothing may be fetched from anywhere but our own server
    page.on("request", lambda r: None if r.url.startswith(("http://127.0.0.1:", "ws://127.0.0.1:", "data:"))
            else errors.append("external request " + r.url))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def create_table(page: Page, server: str, seats: list[dict[str, Any]], target: int = 1) -> dict[str, Any]:
    r = page.request.post(f"{server}/api/tables", data={"game": "trick-of-the-dead", "options": {"target": target},
                                                         "seats": seats, "settings": {"bot_delay": 0}})
    assert r.status == 201, r.text()
    out: dict[str, Any] = r.json()
    return out


def table_data(page: Page) -> dict[str, str]:
    data: dict[str, str] = page.eval_on_selector("#table", "el => Object.assign({}, el.dataset)")
    return data


def hand(page: Page) -> list[str]:
    cards: list[str] = page.eval_on_selector_all("#hand button.card", "els => els.map(e => e.dataset.card)")
    return cards


def wait_turn_or_over(page: Page) -> dict[str, str]:
    page.wait_for_selector("#table[data-ready='1']")
    page.wait_for_function("(() => { const d = document.getElementById('table').dataset;"
                           " return d.over === '1' || d.myTurn === '1'; })()")
    return table_data(page)


def take_turn(page: Page, use_keyboard: bool = False) -> None:
    """Make one decision the way a player would: cards, the confirm button, or a choice button."""
    n = table_data(page)["n"]
    if page.locator("#confirm").count():
        cards = page.locator("#hand button.card.legal")
        cards.nth(0).click()
        cards.nth(1).click()
        page.click("#confirm")
    elif page.locator("#hand button.card.legal").count():
        card = page.locator("#hand button.card.legal").first
        if use_keyboard:
            card.focus()
            page.keyboard.press("Enter")
        else:
            card.click()
    else:
        page.locator("#controls button[data-action]").first.click()
    page.wait_for_function(f"document.getElementById('table').dataset.n !== '{n}'")


def play_to_the_end(page: Page, limit: int = 400) -> None:
    for i in range(limit):
        if wait_turn_or_over(page)["over"] == "1":
            return
        take_turn(page, use_keyboard=i % 3 == 1)
    raise AssertionError("the game did not end")


def test_a_whole_game_against_bots_played_by_clicking_in_the_lobby_made_table(server: str, browser: Browser) -> None:
    page = new_page(browser)
    page.goto(server + "/")
    page.wait_for_selector("#seat-2")
    page.fill("#opt-target", "1")
    page.dispatch_event("#opt-target", "change")
    page.fill("#bot_delay", "0")
    page.select_option("#seat-2", "bot:random")
    page.click("#create")
    page.click("#go")
    page.wait_for_url("**/t/**")
    d = wait_turn_or_over(page)
    assert d["seat"] == "0" and len(hand(page)) == 16
    play_to_the_end(page)
    assert page.is_visible("#over")
    assert page.locator("#sheet tr.total td").count() == 4
    href = page.get_attribute("#download", "href")
    assert href is not None
    record = page.request.get(server + href).json()
    assert record["format"] == "torite-record" and record["result"] is not None
    assert not page.errors  # type: ignore[attr-defined]


def test_two_players_at_one_table_each_see_only_their_own_hand(server: str, browser: Browser) -> None:
    a, b = new_page(browser), new_page(browser, phone=True)
    t = create_table(a, server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}])
    a.goto(t["seats"][0]["url"])
    b.goto(t["seats"][1]["url"])
    wait_turn_or_over(a)
    wait_turn_or_over(b)
    ha, hb = hand(a), hand(b)
    assert len(ha) == len(hb) == 16 and not set(ha) & set(hb)
    html_a, html_b = a.content(), b.content()
    assert not any(f'data-card="{c}"' in html_a for c in hb)
    assert not any(f'data-card="{c}"' in html_b for c in ha)
    # both bury, then play on from two windows until the game ends
    for _ in range(200):
        da, db = table_data(a), table_data(b)
        if da.get("over") == "1" and db.get("over") == "1":
            break
        for p, dp in ((a, da), (b, db)):
            if dp.get("myTurn") == "1":
                take_turn(p)
        time.sleep(0.02)
    assert table_data(a)["over"] == "1"
    assert not a.errors and not b.errors  # type: ignore[attr-defined]


def test_a_reload_mid_game_returns_the_player_to_the_seat(server: str, browser: Browser) -> None:
    page = new_page(browser)
    t = create_table(page, server, [{"kind": "bot"}, {"kind": "human"}, {"kind": "bot"}])
    page.goto(t["seats"][1]["url"])
    wait_turn_or_over(page)
    take_turn(page)  # the burial
    wait_turn_or_over(page)
    before = hand(page)
    page.reload()
    d = wait_turn_or_over(page)
    assert d["seat"] == "1" and hand(page) == before
    # without the link, the token kept in this browser finds the seat again
    page.goto(f"{server}/t/{t['id']}")
    assert wait_turn_or_over(page)["seat"] == "1"
    # the spectator link watches, with no hand
    page.goto(f"{server}/t/{t['id']}#watch")
    page.wait_for_function("document.getElementById('table').dataset.seat === ''")
    assert hand(page) == []


def test_a_friend_joins_by_the_invite_link_and_the_ui_speaks_japanese(server: str, browser: Browser) -> None:
    host = new_page(browser)
    host.goto(server + "/")
    host.wait_for_selector("#seat-1")
    host.select_option("#seat-1", "human:friend")
    host.fill("#bot_delay", "0")
    host.click("#create")
    host.wait_for_selector("#links a[data-secret]")
    links = host.eval_on_selector_all("#links a[data-secret]", "els => els.map(e => e.href)")
    friend_link = next(x for x in links if "seat=1" in x)
    friend = new_page(browser, phone=True, lang="ja")
    friend.goto(friend_link)
    d = wait_turn_or_over(friend)
    assert d["seat"] == "1"
    assert "あなたの番です" in friend.inner_text("#prompt")
    friend.select_option("#lang", "en")
    assert "Your turn" in friend.inner_text("#prompt")
    host.click("#go")
    assert wait_turn_or_over(host)["seat"] == "0"
    # the host sees the friend online
    host.wait_for_selector("#seats .seat[data-seat='1'] .dot.on")
