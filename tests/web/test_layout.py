"""Issue 35.2 in a real browser: at every decision of every game, on a 390×844 phone and a
1366×900 screen, the decision's controls and the whole hand lie in the viewport without
scrolling.  One short game of each (seat 0 chooses at random among its legal actions by
clicking them, bots at the other seats), measured at each decision with the page at its top."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from torite.server.app import create_app
from torite.server.tables import TableManager

from .test_browser import MANY_TABLES, TIMEOUT_MS, serving, table_data

SEED = int(os.environ.get("TORITE_LAYOUT_SEED", "35"))
PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1366, "height": 900}
SIZES = {"phone": PHONE, "wide": WIDE}
#: a short game of each: its options, its number of seats, and the most decisions walked (a game
#: of fixed many deals, Seconds' seven, is walked through its first deals)
GAMES: dict[str, tuple[dict[str, Any], int, int]] = {
    "mighty": ({"deals": 1}, 5, 200),
    "umbridge": ({"deals": 1}, 2, 200),
    "glapgos": ({"target": 1}, 2, 200),
    "trick-of-the-dead": ({"target": 1}, 3, 200),
    "kaedama": ({"rounds": 1}, 3, 200),
    "good-cop": ({"deals": 1}, 4, 200),
    "seconds": ({}, 4, 30),
    "hearts": ({"target": 0}, 4, 200),
}

#: what must be in view at a decision: each of the controls (a bidding box, a card picker, every
#: button), every card of the hand, a pile's card that may be played now, the prompt
MEASURE = """() => {
  window.scrollTo(0, 0);
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const out = [];
  const check = (sel) => {
    for (const e of document.querySelectorAll(sel)) {
      const r = e.getBoundingClientRect();
      if (!r.width && !r.height) continue;
      if (r.top < -0.5 || r.left < -0.5 || r.bottom > vh + 0.5 || r.right > vw + 0.5) {
        out.push(sel + " " + (e.dataset.card || e.dataset.action || e.className) + " at "
          + [r.left, r.top, r.right, r.bottom].map(Math.round).join(","));
      }
    }
  };
  check("#prompt");
  check("#controls > *");
  check("#controls button");
  check("#hand button.card");
  check("#piles button.card.legal");
  if (document.documentElement.scrollWidth > vw + 0.5) {
    const wide = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > vw + 0.5);
    out.push("the page scrolls sideways: " + wide.slice(0, 3).map((e) => e.id || e.className).join(", "));
  }
  return out;
}"""


#: the deal of the next table made (the same deals every run: a failure can be looked at again)
NEXT_SEED: list[int] = []


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("web-layout") / "torite.db"
    made = TableManager._new_table

    def seeded(game: Any, seats: Any, settings: Any, seed: int | None) -> Any:
        return made(game, seats, settings, NEXT_SEED.pop() if NEXT_SEED and seed is None else seed)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(TableManager, "_new_table", staticmethod(seeded))
        yield from serving(create_app(f"sqlite:///{db}", reports_dir=None, limits=MANY_TABLES))


def open_table(browser: Browser, server: str, game: str, size: dict[str, int], seed: int) -> Page:
    options, n, _ = GAMES[game]
    ctx = browser.new_context(viewport=size, locale="en-US", bypass_csp=True)
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    page.add_init_script("localStorage.setItem('torite.pause', '0'); localStorage.setItem('torite.lang', 'en')")
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "level": "normal"}] * (n - 1)
    NEXT_SEED[:] = [seed]
    r = page.request.post(f"{server}/api/tables", data={"game": game, "options": options, "seats": seats,
                                                         "settings": {"bot_delay": 0, "hints": 0}})
    assert r.status == 201, r.text()
    page.goto(r.json()["seats"][0]["url"])
    page.wait_for_selector("#table[data-ready='1']")
    return page


def wait_decision(page: Page) -> dict[str, str]:
    page.wait_for_function("(() => { const d = document.getElementById('table').dataset;"
                           " return d.over === '1' || d.myTurn === '1'"
                           " || document.getElementById('round-dialog').open; })()")
    return table_data(page)


def choose(page: Page, rng: random.Random) -> None:
    """One random legal action, made by clicking what shows it: its button or bidding cell, a
    pile's card, a card of the hand (a card of several actions: then the action's button), or
    the cards of a set and the confirm button."""
    m: dict[str, Any] = page.evaluate("() => window.__torite.state()")
    a = rng.choice(m["legal"])
    text = a["text"]
    if os.environ.get("TORITE_LAYOUT_DEBUG"):
        print("choose", m["phase"], text)
    sel = f'#controls [data-action="{text}"], #piles [data-action="{text}"]'
    if page.locator(sel).count():
        target = page.locator(sel).first
        own = target.evaluate("e => e.classList.contains('own')")
        target.click()
        if own:  # a card of one's own hand named from the deck: asked once more
            page.click(f'#controls > button[data-action="{text}"]')
        return
    d = m["decision"]
    if a["kind"] in d["multis"]:
        if not page.locator("#confirm").count() or page.locator(".hand button.card.selected").count():
            page.locator("#controls button:not([data-action])", has_text=a["kind"]).first.click()
        for c in a["cards"]:
            page.click(f"#hand button.card[data-card='{c}']")
        page.click("#confirm")
        return
    assert len(a["cards"]) == 1, a
    page.click(f"#hand button.card[data-card='{a['cards'][0]}']")
    if page.locator(f'#controls button[data-action="{text}"]').count():
        page.click(f'#controls button[data-action="{text}"]')


def play_one(page: Page, rng: random.Random, n: str) -> None:
    """One random legal action (``choose``) at decision ``n``, and the table moved past it."""
    choose(page, rng)
    page.wait_for_function(f"document.getElementById('table').dataset.n !== '{n}'")


def decisions(page: Page, limit: int = 200) -> Iterator[dict[str, str]]:
    """Each decision of ours until the game is over (a round's summary closed on the way); the
    caller makes its move (``play_one``) before asking for the next."""
    for _ in range(limit):
        d = wait_decision(page)
        if page.locator("#round-dialog[open]").count():
            page.click("#round-continue")
            continue
        if d["over"] == "1":
            return
        yield d


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_decision_shows_its_controls_and_the_hand_without_scrolling(
        server: str, browser: Browser, game: str, size: str) -> None:
    page = open_table(browser, server, game, SIZES[size], SEED)
    rng = random.Random(f"{game} {size}")
    faults: list[str] = []
    walked = 0
    try:
        for d in decisions(page, GAMES[game][2]):
            walked += 1
            where = f"{d['phase']} #{d['n']}"
            faults += [f"{where}: {f}" for f in page.evaluate(MEASURE)]
            play_one(page, rng, d["n"])
        assert walked > 5
        assert not faults, "\n".join(faults[:20])
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()


def walk_until(page: Page, rng: random.Random, pred: str, limit: int = 200) -> dict[str, str]:
    """Random decisions until the page's ``pred`` (a JS expression) holds at a decision of ours."""
    for _ in range(limit):
        d = wait_decision(page)
        if page.locator("#round-dialog[open]").count():
            page.click("#round-continue")
            continue
        if d["over"] == "1" or page.evaluate(pred):
            return d
        play_one(page, rng, d["n"])
    raise AssertionError("never got there: " + pred)


OVERLAPS = """(pairs) => {
  const box = (e) => e.getBoundingClientRect();
  const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const out = [];
  for (const [x, y] of pairs) {
    for (const a of document.querySelectorAll(x)) for (const b of document.querySelectorAll(y)) {
      const name = (e) => e.dataset.seat || e.id || e.className;
      if (a !== b && hit(box(a), box(b))) out.push(name(a) + " covers " + name(b));
    }
  }
  return out;
}"""
CUT = ("(sel) => [...document.querySelectorAll(sel)].filter((e) => e.scrollWidth > e.clientWidth + 1)"
       ".map((e) => e.textContent)")
ON_TRICK = "document.querySelectorAll('#trick .trick-card').length >= 2"


def test_the_sheet_the_goal_and_the_trick_captions_are_whole_at_1366(server: str, browser: Browser) -> None:
    """Mighty at 1366×900: the score sheet shows all five seats' columns, the header's line on
    how the game is won is whole, and the captions under the trick's cards are whole."""
    page = open_table(browser, server, "mighty", WIDE, SEED)
    try:
        walk_until(page, random.Random(1), ON_TRICK)
        assert page.locator("#sheet thead th").count() == 6
        assert page.evaluate("(() => { const s = document.querySelector('.sheet-scroll');"
                             " return s.scrollWidth <= s.clientWidth; })()")
        assert page.evaluate(CUT, "#goal") == [] and page.inner_text("#goal").startswith("The highest total")
        assert page.locator("#goal").is_visible()
        captions = page.eval_on_selector_all("#trick .trick-card .who", "els => els.map(e => e.textContent)")
        assert captions and all(c.startswith(("Ann", "Seat ")) and "…" not in c for c in captions), captions
        assert page.evaluate(CUT, "#trick .trick-card .who") == []
        page.wait_for_timeout(400)  # the last card has slid in
        assert page.evaluate(OVERLAPS, [["#seats .seat", "#trick .trick-card"]]) == []
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()


def test_on_a_phone_no_plate_covers_the_trick_and_the_bidding_leaves_the_felt_for_the_play(
        server: str, browser: Browser) -> None:
    page = open_table(browser, server, "mighty", PHONE, SEED)
    try:
        rng = random.Random(2)
        walk_until(page, rng, "window.__torite.state().phase === 'bid'")
        assert page.locator("#auction-felt").is_visible()
        for _ in range(3):  # the first tricks: cards of several seats on the table
            walk_until(page, rng, ON_TRICK)
            assert not page.locator("#auction-felt").is_visible()
            page.wait_for_timeout(400)
            assert page.evaluate(OVERLAPS, [["#seats .seat", "#trick .trick-card"],
                                            ["#seats .seat", "#trick-note"]]) == []
            play_one(page, rng, table_data(page)["n"])
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()


def test_the_lobby_names_every_bot_in_japanese_and_korean(server: str, browser: Browser) -> None:
    for lang, locale in (("ja", "ja-JP"), ("ko", "ko-KR")):
        ctx = browser.new_context(locale=locale, bypass_csp=True)
        page = ctx.new_page()
        page.add_init_script(f"localStorage.setItem('torite.lang', '{lang}')")
        page.goto(server + "/")
        page.wait_for_selector("#seat-1 option[value='bot:pimc']", state="attached")
        shown = page.eval_on_selector_all("#seat-1 option", "els => els.map(e => e.textContent)")
        assert not [s for s in shown if "ismcts" in s or "pimc" in s], shown
        assert any("ISMCTS" in s for s in shown) and any("PIMC" in s for s in shown), shown
        ctx.close()


def test_seconds_names_each_seats_compass_place_on_its_plate(server: str, browser: Browser) -> None:
    """The status names the seats North, East, South, West: each plate says which it is, so the
    words agree with where the seats are drawn."""
    page = open_table(browser, server, "seconds", WIDE, SEED)
    try:
        wait_decision(page)
        m = page.evaluate("() => window.__torite.state()")
        for word in ("North", "East", "South", "West"):
            plates = page.locator(f"#seats .seat .chip.role[data-role='{word}']")
            assert plates.count() == 1, word
        seats_row = next(v for k, v, _ in m["status"]["en"] if k == "seats")
        text = "".join(p if isinstance(p, str) else "" for p in seats_row) if isinstance(seats_row, list) else seats_row
        for word in ("North", "East", "South", "West"):
            holder = page.locator(f"#seats .seat:has(.chip.role[data-role='{word}'])").get_attribute("data-seat")
            name = "Ann" if holder == "0" else f"seat {holder}"
            assert f"{word} {name}" in text, (word, name, text)
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()
