"""The web table as players expect it, in a real browser (Debian's chromium through Playwright):
the finished trick's pause with its winner marked, the round summary's numbers, the rematch,
the prompts and the named log, the tab title, a gone player's countdown, the seat token kept
out of the address bar, every visible string translated, a phone-sized table, the lobby's
words, the unknown-table page.  One table a test, bots without delay."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from torite.server.app import create_app

from .test_browser import (
    MANY_TABLES,
    new_page,
    new_table,
    serving,
    shot,
    table_data,
    take_turn,
    wait_turn_or_over,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("web-table") / "torite.db"
    yield from serving(create_app(f"sqlite:///{db}", reports_dir=None, limits=MANY_TABLES))


RAW_CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9JQKA])[CDHS](?![A-Za-z0-9])")


def paused_page(browser: Browser, seconds: str, **kw: Any) -> Page:
    page = new_page(browser, **kw)
    page.add_init_script(f"localStorage.setItem('torite.pause', '{seconds}')")
    return page


def lines(page: Page) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = page.evaluate("() => window.__torite.lines()")
    return out


def test_a_finished_trick_stays_with_its_winner_marked_until_a_click_and_the_log_names_players(
        server: str, browser: Browser) -> None:
    page = paused_page(browser, "30")  # long enough that only the click ends it
    t = new_table(page, server, "trick-of-the-dead", [{"kind": "human", "name": "Ann"},
                                                      {"kind": "bot", "level": "random", "name": "Bob"},
                                                      {"kind": "bot", "level": "random", "name": "Cy"}],
                  {"target": 1, "open_graveyard": True})
    page.goto(t["seats"][0]["url"])
    d = wait_turn_or_over(page)
    assert page.title().startswith("▶ Your turn · Trick of the Dead")
    page.click("#btn-sound")  # a soft chime from now on, made in the page (nothing is fetched)
    assert page.get_attribute("#btn-sound", "aria-pressed") == "true"
    take_turn(page)  # the burial
    for _ in range(30):
        d = wait_turn_or_over(page)
        if page.locator("#ring.paused").count() or d["over"] == "1":
            break
        if page.locator("#trick .trick-card").count():
            # someone has played: the prompt says who is winning the trick now
            assert "winning the trick" in page.inner_text("#prompt")
        take_turn(page)
    page.wait_for_selector("#ring.paused")
    assert int(page.evaluate("() => document.documentElement.dataset.chimes || '0'")) >= 1
    done = [x for x in lines(page) if x["kind"] == "trick"][-1]["data"]
    cards = page.locator("#trick .trick-card")
    assert cards.count() == 3
    assert sorted(page.eval_on_selector_all("#trick .trick-card [data-card]", "els => els.map(e => e.dataset.card)")) \
        == sorted(done["cards"])
    winner = page.locator("#trick .trick-card.winner")
    assert winner.count() == 1 and winner.get_attribute("data-seat") == str(done["winner"])
    name = ["Ann", "Bob", "Cy"][done["winner"]]
    points = done["points"]
    note = page.inner_text("#trick-note")
    assert f"{name} takes the trick" in note and f"({'+' if points > 0 else ''}{points})" in note
    shot(page, "trick-pause-en")
    # it stays: other decisions do not take it away; a click does
    assert page.locator("#ring.paused").count() == 1
    page.click("#ring")
    page.wait_for_selector("#ring.paused", state="detached")
    assert "takes the trick" not in page.inner_text("#trick-note")
    # the public graveyard lies on the table as cards
    grave = page.locator("#piles .pile[data-pile='graveyard'] .card")
    shown = page.evaluate("() => window.__torite.state().piles.find((p) => p.name === 'graveyard').cards")
    assert grave.count() == len(shown)
    # the log: players' names, suit symbols (never card letters), a line a trick ends on marked
    log = page.inner_text("#log")
    assert "Ann buries" in log and ("Bob plays" in log or "Cy plays" in log)
    assert not RAW_CARD.search(log) and re.search("[♠♥♦♣]", log)
    assert page.locator("#log li.kind-trick").count() >= 1
    assert not page.errors  # type: ignore[attr-defined]


def test_the_round_summary_shows_the_rounds_numbers_then_a_rematch_seats_the_same_players(
        server: str, browser: Browser) -> None:
    page = paused_page(browser, "0")
    t = new_table(page, server, "kaedama", [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"},
                                            {"kind": "bot", "level": "normal", "name": "Robo"}], {"rounds": 1})
    page.goto(t["seats"][0]["url"])
    prompts = set()
    for _ in range(80):
        if wait_turn_or_over(page)["over"] == "1":
            break
        if table_data(page)["phase"] == "kaedama":
            prompts.add(page.inner_text("#prompt"))
        take_turn(page)
    page.wait_for_selector("#round-dialog[open]")
    end = next(x for x in lines(page) if x["kind"] == "round_end")["data"]

    def row(key: str) -> list[str]:
        cells: list[str] = page.eval_on_selector_all(f"#round-table tr[data-key='{key}'] td",
                                                     "els => els.map(e => e.textContent)")
        return cells

    assert row("row-tricks") == [str(v) for v in end["tricks"]]
    # a row that adds nothing (no reversal, no bonus in this round) is left out
    for key in ("reversals", "bonus"):
        assert row(f"row-{key}") == ([str(v) for v in end[key]] if any(end[key]) else [])
    assert row("points") == [f"+{v}" if v > 0 else str(v) for v in end["points"]]
    assert row("total") == [str(v) for v in end["scores"]]
    assert "tricks won" in page.inner_text("#round-table")
    if any(end["reversals"]):
        assert "reversals" in page.inner_text("#round-table [data-key='row-reversals']")
    result = page.evaluate("() => window.__torite.state().result")
    names = [["Ann (you)", "Seat 1 · bot (random)", "Robo"][w] for w in result["winners"]]
    winners = names[0] if len(names) == 1 else " and ".join(names) if len(names) == 2 else \
        ", ".join(names[:-1]) + ", and " + names[-1]  # as English lists them
    assert page.inner_text("#final-winners") == ("Winner: " if len(names) == 1 else "Winners: ") + winners
    assert page.locator("#standings li").count() == 3
    assert page.get_attribute("#final-download", "href") == f"/api/tables/{t['id']}/record"
    shot(page, "round-summary-en")
    if prompts:  # asked to replace: the prompt says why, and who is winning
        assert any("is winning the trick with" in p for p in prompts)
    page.click("#final-rematch")
    page.wait_for_url(re.compile(r"/t/(?!" + re.escape(t["id"]) + ")"))
    assert "token" not in page.url and "#" not in page.url
    d = wait_turn_or_over(page)
    assert d["seat"] == "0"
    new_id = page.url.rstrip("/").split("/")[-1]
    info = page.request.get(f"{server}/api/tables/{new_id}").json()
    assert [s["name"] for s in info["seats"]] == ["Ann", "", "Robo"] and info["options"]["rounds"] == 1
    assert not page.errors  # type: ignore[attr-defined]


def test_a_gone_player_shows_a_countdown_and_the_token_leaves_the_address_bar(server: str, browser: Browser) -> None:
    page = new_page(browser)
    r = page.request.post(f"{server}/api/tables", data={
        "game": "trick-of-the-dead", "options": {"target": 1},
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}, {"kind": "bot"}],
        "settings": {"bot_delay": 0, "idle_seconds": 600}})
    t = r.json()
    page.goto(t["seats"][0]["url"])
    wait_turn_or_over(page)
    assert "token" not in page.url and page.url.endswith(f"/t/{t['id']}")
    # Ben never came: gone, and a bot takes his seat when his clock runs out
    ben = page.locator("#seats .seat[data-seat='1']")
    assert "gone" in (ben.get_attribute("class") or "")
    tags = ben.locator(".tags").inner_text()
    m = re.search(r"a bot plays in (\d+) s", tags)
    assert m and 0 < int(m.group(1)) <= 600, tags
    # the seat is kept in this browser: a reload finds it without the link
    page.reload()
    assert wait_turn_or_over(page)["seat"] == "0"
    assert not page.errors  # type: ignore[attr-defined]


ENGLISH_OK = {"torite"}


def english_leaks(page: Page, lang: str) -> list[str]:
    """The page's own English strings (those with another text in ``lang``) that show."""
    strings: dict[str, dict[str, str]] = page.evaluate("() => window.Torite.STRINGS")
    text = page.inner_text("body")
    out = []
    for key, en in strings["en"].items():
        other = strings[lang].get(key)
        if "{" in en or len(en) < 4 or en in ENGLISH_OK or other == en:
            continue
        if en in text:
            out.append(f"{key}: {en!r}")
    return out


def test_every_page_string_has_a_translation_and_none_shows_in_english(server: str, browser: Browser) -> None:
    page = new_page(browser)
    page.goto(server + "/")
    page.wait_for_selector("#seat-2")
    strings: dict[str, dict[str, str]] = page.evaluate("() => window.Torite.STRINGS")
    assert set(strings) == {"en", "ja", "ko"}
    for lang in ("ja", "ko"):
        assert sorted(set(strings["en"]) - set(strings[lang])) == [], lang
        assert sorted(set(strings[lang]) - set(strings["en"])) == [], lang
    t = new_table(page, server, "trick-of-the-dead", [{"kind": "human"}, {"kind": "bot", "level": "random"},
                                                      {"kind": "bot", "level": "random"}], {"target": 1})
    for lang in ("ja", "ko"):
        page.select_option("#lang", lang)
        page.select_option("#seat-1", "human:friend")
        assert english_leaks(page, lang) == [], ("lobby", lang)
        page.goto(t["seats"][0]["url"])
        wait_turn_or_over(page)
        page.click("#btn-last")
        assert english_leaks(page, lang) == [], ("table", lang)
        page.click("#btn-last")
        page.goto(server + "/t/no-such-table")
        assert english_leaks(page, lang) == [], ("unknown table", lang)
        page.goto(server + "/")
        page.wait_for_selector("#seat-2")
    assert not page.errors  # type: ignore[attr-defined]


def test_a_phone_sized_table_fits_the_screen(server: str, browser: Browser) -> None:
    page = new_page(browser, phone=True)
    t = new_table(page, server, "kaedama", [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"},
                                            {"kind": "bot", "level": "random"}], {"rounds": 1})
    page.goto(t["seats"][0]["url"])
    wait_turn_or_over(page)
    take_turn(page)
    wait_turn_or_over(page)
    # a card still sliding in from its seat may lie past the edge (clipped, never scrolled): the
    # layout is measured once the slides are over
    page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
    width = page.evaluate("() => document.documentElement.clientWidth")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    boxes = page.eval_on_selector_all(
        "#seats .seat, #trick .trick-card",
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; })")
    assert boxes and all(left >= 0 and right <= width for left, right in boxes), boxes
    assert page.locator("#hand button.card").count() > 0
    shot(page, "phone-en")
    assert not page.errors  # type: ignore[attr-defined]


def test_the_lobby_describes_each_game_and_sets_an_idle_timeout_for_friends(server: str, browser: Browser) -> None:
    page = new_page(browser)
    page.goto(server + "/")
    page.wait_for_selector("#seat-2")
    games = page.request.get(f"{server}/api/games").json()["games"]
    items = page.locator("#game-list li")
    assert items.count() == len(games)
    tod = page.inner_text("#game-list li:has(button[data-game='trick-of-the-dead'])")
    assert "Zombies rise from a graveyard" in tod
    page.click("#game-list button[data-game='kaedama']")
    page.wait_for_selector("label[for='opt-trump_card']")
    assert page.input_value("#game") == "kaedama"
    assert page.input_value("#idle_seconds") == "0"
    page.select_option("#seat-1", "human:friend")
    assert int(page.input_value("#idle_seconds")) > 0
    page.fill("#idle_seconds", "45")  # a value typed by hand stays
    page.select_option("#seat-1", "bot:normal")
    assert page.input_value("#idle_seconds") == "45"
    # the rules open at the top, however far they were read before
    page.click("#show-rules")
    page.evaluate("() => { document.getElementById('rules-dialog').scrollTop = 5000; }")
    page.click("#rules-dialog form button")
    page.click("#show-rules")
    assert page.evaluate("() => document.getElementById('rules-dialog').scrollTop") == 0
    assert not page.errors  # type: ignore[attr-defined]


def test_an_unknown_table_says_so_in_the_readers_language_with_a_link_to_the_lobby(
        server: str, browser: Browser) -> None:
    page = new_page(browser, lang="ja")
    r = page.goto(server + "/t/not-a-table")
    assert r is not None and r.status == 404
    assert page.inner_text("#missing h2") == "この卓はありません"
    page.click("#to-lobby")
    page.wait_for_selector("#seat-2")
    assert not page.errors  # type: ignore[attr-defined]


def test_the_exposed_dummy_is_played_by_clicking_its_cards(server: str, browser: Browser) -> None:
    """Umbridge: once the auction ends the dummy lies face up as a pile; when the seat that
    controls it must play from it, only the dummy's legal cards are buttons, and a click plays."""
    page = new_page(browser)
    t = new_table(page, server, "umbridge", [{"kind": "human"}, {"kind": "bot", "level": "normal"}],
                  {"deals": 1})
    page.goto(t["seats"][0]["url"])
    clicked = 0
    for _ in range(200):
        if wait_turn_or_over(page)["over"] == "1":
            break
        legal = page.evaluate("() => window.__torite.state().legal.map(a => a.text)")
        dummy = page.locator("#piles [data-pile='dummy'] button.card.legal")
        if dummy.count():
            hand = set(page.evaluate("() => window.__torite.state().hand"))
            assert not page.locator("#hand button.card.legal").count()  # the dummy's turn, not the hand's
            texts = {dummy.nth(i).get_attribute("data-action") for i in range(dummy.count())}
            assert texts == set(legal) and all(a.split()[1] not in hand for a in texts)
            n = table_data(page)["n"]
            played = dummy.first.get_attribute("data-action")
            dummy.first.click()
            page.wait_for_function(f"document.getElementById('table').dataset.n !== '{n}'")
            assert played not in page.evaluate("() => window.__torite.state().legal.map(a => a.text)")
            clicked += 1
            if clicked >= 2:
                break
        elif page.locator("#piles button.card.legal").count() == 0 and (
                page.locator("#confirm").count() or page.locator("#hand button.card.legal").count()
                or page.locator("#controls button[data-action]").count()):
            take_turn(page)
        else:
            page.locator("#controls button").first.click()
    assert clicked >= 1, "the dummy's cards were never offered to click"
