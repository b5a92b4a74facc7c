"""The web table in a real browser (Debian's chromium through Playwright) against a real uvicorn.

Skipped only when /usr/bin/chromium is absent; CI installs it.
"""

from __future__ import annotations

import json
import os
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
from playwright.sync_api import Browser, Page  # noqa: E402

from torite.server.app import create_app  # noqa: E402
from torite.server.limits import ServerLimits  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync"]
TIMEOUT_MS = 20_000
#: the tests open many tables from one address, far more than a person's ten a minute
MANY_TABLES = ServerLimits(tables_per_minute=1000, tables_burst=1000)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def serving(app: Any) -> Iterator[str]:
    """Serve ``app`` on a free local port in a thread; yields its address, stops it after."""
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
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
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("web") / "torite.db"
    yield from serving(create_app(f"sqlite:///{db}", limits=MANY_TABLES))


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
    elif page.locator("#controls .bidgrid button[data-action]").count():
        page.locator("#controls .bidgrid button[data-action]").first.click()  # the lowest bid, not a pass
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
    friend.wait_for_selector("#table[data-lang='en']")
    assert "Your turn" in friend.inner_text("#prompt")
    host.click("#go")
    assert wait_turn_or_over(host)["seat"] == "0"
    # the host sees the friend online
    host.wait_for_selector("#seats .seat[data-seat='1'] .dot.on")


# ------------------------------------------------------------------ the game's words, bids, named cards
SHOTS = os.environ.get("TORITE_SHOTS")  # a folder: the tests below leave screenshots there


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def new_table(page: Page, server: str, game: str, seats: list[dict[str, Any]],
              options: dict[str, Any] | None = None) -> dict[str, Any]:
    r = page.request.post(f"{server}/api/tables", data={"game": game, "options": options or {}, "seats": seats,
                                                         "settings": {"bot_delay": 0}})
    assert r.status == 201, r.text()
    out: dict[str, Any] = r.json()
    return out


def legal_texts(page: Page, kind: str | None = None) -> set[str]:
    texts: list[str] = page.evaluate("() => window.__torite.state().legal.map(a => a.kind + '|' + a.text)")
    return {t.split("|", 1)[1] for t in texts if kind is None or t.split("|", 1)[0] == kind}


def enabled(page: Page, selector: str) -> set[str]:
    """The actions of the choices one may click: a refused one is aria-disabled (it stays
    focusable, to say why)."""
    out: list[str] = page.eval_on_selector_all(selector + ":not(:disabled):not([aria-disabled='true'])",
                                               "els => els.map(e => e.dataset.action)")
    return set(out)


def test_a_bidding_box_and_a_card_picker_appear_with_only_legal_choices_enabled(
        server: str, browser: Browser, bidding_game: str) -> None:
    """Bid and Call (registered by the tests): seat 0 bids in the bidding box, redoubles, names
    its partner's card from the whole deck, then plays; only legal choices are enabled and every
    click sends the action it shows."""
    page = new_page(browser)
    t = new_table(page, server, bidding_game, [{"kind": "human"}, {"kind": "bot", "level": "scripted-test"},
                                               {"kind": "bot", "level": "scripted-test"}])
    page.goto(t["seats"][0]["url"])
    wait_turn_or_over(page)
    page.wait_for_selector("#bidbox, .bidbox")
    grid = "#controls .bidbox button.bid"
    assert page.locator(grid).count() == 15  # levels 1-3 × C D H S NT
    assert enabled(page, grid) == legal_texts(page, "bid")
    if "bid 1 C" not in legal_texts(page):  # a bot opened 1 H before us: the lower cells are off
        assert page.get_attribute(grid + "[data-bid='1 H']", "aria-disabled") == "true"
    assert page.inner_text("#prompt").startswith("Your turn to bid")
    assert page.locator("#controls .bidbox .bidcalls button[data-action='pass']").inner_text() == "Pass"
    n = table_data(page)["n"]
    page.click(grid + "[data-action='bid 2 S']")
    page.wait_for_function(f"document.getElementById('table').dataset.n !== '{n}'")
    # the bot doubles our 2 S: now redouble is a button beside the box, 2 S and below are off
    page.wait_for_selector("#controls .bidbox .bidcalls button[data-action='redouble']")
    assert enabled(page, grid) == legal_texts(page, "bid") == {"bid 2 NT", "bid 3 C", "bid 3 D", "bid 3 H",
                                                             "bid 3 S", "bid 3 NT"}
    assert page.get_attribute(grid + "[data-bid='2 S']", "aria-disabled") == "true"
    assert enabled(page, "#controls .bidbox .bidcalls button") == {"pass", "redouble"}
    shot(page, "bidding-box-en")
    page.click("#controls .bidbox button[data-action='redouble']")
    # we won the auction: name any card (a picker over the whole deck, our own cards off)
    page.wait_for_selector("#controls .picker")
    picker = "#controls .picker button.card"
    assert page.locator(picker).count() == 52
    mine = set(hand(page))
    legal = legal_texts(page, "call")
    assert enabled(page, picker) == legal and len(legal) == 49
    assert {f"call {c}" for c in mine}.isdisjoint(legal)
    page.select_option("#lang", "ja")
    page.wait_for_selector("#table[data-lang='ja']")
    assert "パートナー" in page.inner_text("#prompt")
    assert page.inner_text("#controls .picker .picker-title") == "パートナー指名"
    shot(page, "card-picker-ja")
    target = "AS" if "AS" not in mine else "KS"
    n = table_data(page)["n"]
    page.click(f"{picker}[data-card='{target}']")
    page.wait_for_function(f"document.getElementById('table').dataset.n !== '{n}'")
    page.wait_for_selector("#controls .picker", state="detached")
    play_to_the_end(page)
    record = page.request.get(server + str(page.get_attribute("#download", "href"))).json()
    assert [a["action"] for a in record["actions"] if a["seat"] == 0][:3] == ["bid 2 S", "redouble", f"call {target}"]
    assert "コントラクト" in page.inner_text("#log")
    assert not page.errors  # type: ignore[attr-defined]


def test_the_table_shows_the_games_words_in_japanese_and_english(server: str, browser: Browser) -> None:
    """Trick of the Dead: the prompt, buttons, status, phase and log in the chosen language, from
    the game's labels; switching language redraws them at once."""
    page = new_page(browser, lang="ja")
    t = new_table(page, server, "trick-of-the-dead", [{"kind": "human", "name": "Ann"},
                                                      {"kind": "bot", "level": "normal"},
                                                      {"kind": "bot", "level": "random", "name": "Robo"}],
                  {"target": 1, "open_graveyard": True})
    page.goto(t["seats"][0]["url"])
    wait_turn_or_over(page)
    assert page.inner_text("#title") == "トリック・オブ・ザ・デッド"
    assert "埋葬する（墓地に送る）カードを2枚選んでください" in page.inner_text("#prompt")
    status = page.inner_text("#status")
    assert "フェーズ" in status and "埋葬" in status and "切り札" in status and "墓地" in status
    cards = page.locator("#hand button.card.legal")
    cards.nth(0).click()
    cards.nth(1).click()
    assert page.inner_text("#confirm").endswith("を埋葬")
    n = table_data(page)["n"]
    page.click("#confirm")
    page.wait_for_function(f"document.getElementById('table').dataset.n !== '{n}'")
    for _ in range(4):  # a few tricks, so the log and the last trick have something to say
        if wait_turn_or_over(page)["over"] == "1":
            break
        take_turn(page)
    wait_turn_or_over(page)
    log = page.inner_text("#log")
    assert "Annが" in log and "墓地をシャッフルしました" in log and "を出しました" in log
    assert "墓地（上から）" in page.inner_text("#status")
    page.click("#btn-last")
    assert "勝者" in page.inner_text("#last-trick")
    shot(page, "trick-of-the-dead-ja")
    page.select_option("#lang", "en")
    page.wait_for_selector("#table[data-lang='en']")
    assert page.inner_text("#title") == "Trick of the Dead"
    assert "graveyard (top first)" in page.inner_text("#status") and "trick play" in page.inner_text("#status")
    log = page.inner_text("#log")
    assert "Ann buries" in log and "Robo plays" in log and "the graveyard is shuffled" in log
    assert "winner" in page.inner_text("#last-trick")
    shot(page, "trick-of-the-dead-en")
    assert not page.errors  # type: ignore[attr-defined]


def test_kaedama_speaks_japanese_at_the_table_and_in_the_lobby(server: str, browser: Browser) -> None:
    page = new_page(browser, lang="ja")
    page.goto(server + "/")
    page.wait_for_selector("#seat-2")
    page.select_option("#game", "kaedama")
    page.wait_for_selector("label[for='opt-trump_card']")
    assert page.inner_text("label[for='opt-blind']") == "ブラインド替え玉"
    assert "山札に混ぜる" in page.inner_text("#opt-trump_card")
    assert "山札の一番上と入れ替えて" in page.inner_text("#summary")
    shot(page, "lobby-ja")
    t = new_table(page, server, "kaedama", [{"kind": "human"}, {"kind": "bot", "level": "normal"},
                                            {"kind": "bot", "level": "random"}], {"rounds": 1})
    page.goto(t["seats"][0]["url"])
    for _ in range(60):  # play until we are asked to replace or pass
        if wait_turn_or_over(page)["over"] == "1" or table_data(page)["phase"] == "kaedama":
            break
        take_turn(page)
    if table_data(page)["phase"] == "kaedama":
        assert enabled(page, "#controls button") == {"replace", "pass"}
        assert {page.inner_text("#controls button[data-action='replace']"),
                page.inner_text("#controls button[data-action='pass']")} == {"替え玉する", "見送る"}
        assert "替え玉" in page.inner_text("#prompt")
        shot(page, "kaedama-ja")
    assert "切り札" in page.inner_text("#status") and "山札" in page.inner_text("#status")
    play_to_the_end(page)
    assert not page.errors  # type: ignore[attr-defined]


def test_the_pages_choose_korean_particles_as_the_server_does(server: str, browser: Browser) -> None:
    """The pages' own words (strings.js) finish Korean particles in the browser: the same cases
    as the server's (tests/present/particles.json), and a page string with a card in it."""
    cases = json.loads((Path(__file__).parents[1] / "present" / "particles.json").read_text(encoding="utf-8"))["cases"]
    page = new_page(browser)
    page.goto(server + "/")
    page.evaluate("() => localStorage.setItem('torite.lang', 'ko')")
    shown = page.evaluate("(cases) => cases.map(([written]) => window.Torite.particles(written))", cases)
    assert shown == [c[1] for c in cases]
    assert page.evaluate("() => window.Torite.t('table.own_card', {card: '♦2'})") == "♦2는 내 손패에 있습니다."
    assert page.evaluate("() => window.Torite.t('table.own_card', {card: '♦10'})") == "♦10은 내 손패에 있습니다."
    rich = page.evaluate("() => window.Torite.tRich('table.is_winning', {who: '1번 자리', "
                         "card: {t: 'card', card: 'AS'}})")
    assert rich == ["지금 ", "1번 자리", "의 ", {"t": "card", "card": "AS"}, "가 트릭을 따고 있습니다."]
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_glossary_lists_and_contracts_read_as_the_servers_labels(server: str, browser: Browser) -> None:
    """The web table says a glossary term as the table's options make it (Trick of the Dead's
    zombie under ``zombie_doubles``), lists names as the language lists them, and says a contract
    in words in its plural form and word order (1 diamond, 노기루다 20), as the labels do."""
    from torite.engine import game_class, make_game
    from torite.present.labels import load as labels_of
    page = new_page(browser)
    page.goto(server + "/")
    page.wait_for_function("() => window.Torite.word('trick-of-the-dead', 'title') !== undefined")
    for lang in ("en", "ja", "ko"):
        page.evaluate("(lang) => localStorage.setItem('torite.lang', lang)", lang)
        for value in ("diamonds", "trick"):
            options = make_game("trick-of-the-dead", {"zombie_doubles": value}).options
            page.evaluate("(o) => window.Torite.setGame('trick-of-the-dead', o)", options)
            shown = dict(page.evaluate("() => window.Torite.glossary('trick-of-the-dead')"))
            said = labels_of(game_class("trick-of-the-dead"), lang).glossary(options)["zombie"]
            term, meaning = said.split("：" if lang == "ja" else ": ", 1)
            assert shown[term] == meaning, (lang, value)
        lab = labels_of(game_class("mighty"), lang)
        names = ["A", "B", "C"]
        assert page.evaluate("(xs) => [window.Torite.list(xs.slice(0, 2)), window.Torite.list(xs)]", names) == [
            lab.join(names[:2]), lab.join(names)]
        for level, denom, spoken in ((20, "NT", False), (14, "S", True), (13, "S", False)):
            js = page.evaluate("([l, d, s]) => window.Torite.contractText(l, d, 'mighty', s)", [level, denom, spoken])
            assert js == lab.contract_text(level, denom, spoken=spoken), (lang, level, denom, spoken)
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_lobby_offers_the_house_rules_folded_under_their_heading_in_the_players_language(
        server: str, browser: Browser) -> None:
    """Hearts' house rules (issue 38.2) sit in the lobby's "House rules" box, apart from its
    options, with their words and bounds in the player's language; a table made with one
    carries it (its record's options)."""
    page = new_page(browser, lang="ja")
    page.goto(server + "/")
    page.wait_for_selector("#seat-2")
    page.select_option("#game", "hearts")
    page.wait_for_selector("#house-rules")
    assert page.inner_text("#house-rules summary") == "ハウスルール"
    assert page.locator("#house-rules #opt-queen_points").count() == 1
    assert page.locator("#house-rules #opt-target").count() == 0  # an option, not a house rule
    assert not page.is_visible("#opt-queen_points")  # folded until opened
    page.click("#house-rules summary")
    assert page.is_visible("#opt-queen_points")
    assert page.inner_text("label[for='opt-queen_points']") == "スペードのクイーンの点"
    assert page.get_attribute("#opt-queen_points", "max") == "26"
    page.select_option("#lang", "ko")
    page.wait_for_function("() => document.querySelector('#house-rules summary').textContent === '하우스 규칙'")
    assert page.text_content("label[for='opt-heart_points']") == "하트 점수"
    seats = [{"kind": "human"}, *[{"kind": "bot", "level": "normal"}] * 3]
    new_table(page, server, "hearts", seats, {"queen_points": 20})
    r = page.request.post(f"{server}/api/tables", data={"game": "hearts", "options": {"queen_points": 27},
                                                         "seats": seats})
    assert r.status == 400 and "above the maximum 26" in r.text()
    assert not page.errors  # type: ignore[attr-defined]
