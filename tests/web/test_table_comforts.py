"""What players of the anchors expect of the table (issue 35, point 6), in a real browser: a
turn clock by the seat on turn when the table has an idle timeout (none without one), the hand
sorted in the order the player chose (kept on the device), a count of chosen cards that says
what it counts (Galapagos' play-off), no dummy's place left on a finished Umbridge table."""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

from playwright.sync_api import Browser, Page

from .test_browser import new_page, table_data, take_turn
from .test_layout import (  # noqa: F401  (server: the fixture)
    PHONE,
    WIDE,
    decisions,
    open_table,
    play_one,
    server,
    wait_decision,
    walk_until,
)

CLOCK = re.compile(r"a bot plays in (\d+) s")


def two_humans(page: Page, srv: str, idle: float) -> dict[str, Any]:
    r = page.request.post(f"{srv}/api/tables", data={
        "game": "trick-of-the-dead", "options": {"target": 1},
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}, {"kind": "bot"}],
        "settings": {"bot_delay": 0, "idle_seconds": idle}})
    assert r.status == 201, r.text()
    out: dict[str, Any] = r.json()
    return out


def ben_on_turn(ann: Page) -> str:
    """Ann plays until Ben (connected in his own browser) is on turn; his plate's tags then."""
    for _ in range(40):
        m = ann.evaluate("() => window.__torite.state()")
        if 1 in m["to_act"]:
            tags: str = ann.locator("#seats .seat[data-seat='1'] .tags").inner_text()
            return tags
        if 0 in m["to_act"]:
            take_turn(ann)
        else:
            ann.wait_for_function("window.__torite.state().to_act.includes(0)"
                                  " || window.__torite.state().to_act.includes(1)")
    raise AssertionError("Ben was never on turn")


def test_the_seat_on_turn_shows_its_turn_clock_only_when_the_table_has_an_idle_timeout(
        server: str, browser: Browser) -> None:  # noqa: F811
    for idle in (600.0, 0.0):
        ann, ben = new_page(browser), new_page(browser)
        try:
            t = two_humans(ann, server, idle)
            ben.goto(t["seats"][1]["url"])
            ben.wait_for_selector("#table[data-ready='1']")
            ann.goto(t["seats"][0]["url"])
            ann.wait_for_selector("#table[data-ready='1']")
            ann.wait_for_function("window.__torite.state().seats[1].connected")
            tags = ben_on_turn(ann)
            clock = CLOCK.search(tags)
            if idle:
                # Ben is here (not gone): his clock shows all the same, counting down from the timeout
                assert clock and 0 < int(clock.group(1)) <= 600, tags
                assert "gone" not in (ann.locator("#seats .seat[data-seat='1']").get_attribute("class") or "")
            else:
                assert clock is None, tags
            assert not ann.errors  # type: ignore[attr-defined]
        finally:
            ann.context.close()
            ben.context.close()


SIZED_SETS = """(() => {
  const m = window.__torite.state();
  if (!m || !m.decision || !m.decision.multis) return false;
  return Object.values(m.decision.multis).some((g) => new Set(g.sets
    .map((t) => m.legal.find((a) => a.text === t)).filter(Boolean).map((a) => a.cards.length)).size > 1);
})()"""


def test_galapagos_play_off_says_how_many_cards_are_chosen_in_words(server: str, browser: Browser) -> None:  # noqa: F811
    """A set of several possible sizes showed a lone "0" beside Confirm: it says "0 selected"."""
    page = open_table(browser, server, "glapgos", WIDE, 35)
    try:
        for seed in range(6):
            d = walk_until(page, random.Random(seed), SIZED_SETS)
            if d["over"] != "1":
                break
            page.context.close()
            page = open_table(browser, server, "glapgos", WIDE, 36 + seed)
        else:
            raise AssertionError("no decision with sets of several sizes")
        if not page.locator("#confirm").count():
            page.locator("#controls button:not([data-action])").first.click()
        count = page.locator("#controls > span.muted").first.inner_text()
        assert count == "0 selected", count
        page.locator("#hand button.card.legal").first.click()
        assert page.locator("#controls > span.muted").first.inner_text() == "1 selected"
    finally:
        page.context.close()


def test_a_finished_umbridge_table_drops_the_dummys_place(server: str, browser: Browser) -> None:  # noqa: F811
    page = open_table(browser, server, "umbridge", PHONE, 35)
    try:
        seen = False
        rng = random.Random(1)
        for d in decisions(page, 300):
            seen = seen or page.locator("#seats .pile-seat").count() > 0
            play_one(page, rng, d["n"])
        assert seen, "the dummy's place never showed during play"
        assert table_data(page)["over"] == "1"
        assert page.locator("#seats .pile-seat").count() == 0
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()


# ------------------------------------------------------------------ the hand
BLACK = {"S", "C"}


def dom_hand(page: Page) -> list[str]:
    out: list[str] = page.evaluate("() => [...document.querySelectorAll('#hand button.card')].map(b => b.dataset.card)")
    return out


def hearts_at_pass(browser: Browser, srv: str, size: dict[str, int]) -> Page:
    """A Hearts table whose first decision is the pass (its direction is dealt by chance)."""
    for seed in range(35, 60):
        page = open_table(browser, srv, "hearts", size, seed)
        if wait_decision(page)["phase"] == "pass":
            return page
        page.context.close()
    raise AssertionError("no deal with a pass")


def test_the_hand_sorts_as_the_player_chose_colours_alternating_and_the_choice_is_kept(
        server: str, browser: Browser) -> None:  # noqa: F811
    page = hearts_at_pass(browser, server, WIDE)
    try:
        served = page.evaluate("() => window.__torite.state().hand")
        assert dom_hand(page) == served  # the default: the game's own order
        assert {c[-1] for c in served} == {"S", "H", "C", "D"}
        page.select_option("#sort", "colours")
        cards = dom_hand(page)
        assert sorted(cards) == sorted(served)
        suits = [c[-1] for i, c in enumerate(cards) if i == 0 or cards[i - 1][-1] != c[-1]]
        assert len(suits) == 4, cards  # each suit together
        assert all((a in BLACK) != (b in BLACK) for a, b in itertools.pairwise(suits)), suits
        ranks = "AKQJ1098765432"
        for s in suits:  # high to low within a suit
            idx = [ranks.index(c[0]) for c in cards if c[-1] == s]
            assert idx == sorted(idx), cards
        page.select_option("#sort", "rank")
        idx = ["AKQJ1098765432".index(c[0]) for c in dom_hand(page)]
        assert idx == sorted(idx)
        page.reload()
        page.wait_for_selector("#table[data-ready='1']")
        assert page.locator("#sort").input_value() == "rank"
        assert dom_hand(page) != served
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()


def test_cards_received_in_the_pass_are_marked_until_the_next_action(server: str, browser: Browser) -> None:  # noqa: F811
    page = hearts_at_pass(browser, server, PHONE)
    try:
        before = set(page.evaluate("() => window.__torite.state().hand"))
        assert page.locator("#hand button.card.arrived").count() == 0  # a new deal: nothing "arrived"
        rng = random.Random(2)
        while True:
            d = wait_decision(page)
            if d["phase"] != "pass":
                break
            play_one(page, rng, d["n"])
        hand = set(page.evaluate("() => window.__torite.state().hand"))
        came = hand - before
        assert len(came) == 3
        marked = page.locator("#hand button.card.arrived")
        assert {marked.nth(i).get_attribute("data-card") for i in range(marked.count())} == came
        outline = marked.first.evaluate("b => getComputedStyle(b).outlineStyle")
        assert outline == "solid"
        play_one(page, rng, d["n"])
        wait_decision(page)
        assert page.locator("#hand button.card.arrived").count() == 0
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()


def test_select_then_confirm_a_first_tap_selects_a_second_plays(server: str, browser: Browser) -> None:  # noqa: F811
    """Set in the phone's menu (a wide screen with a mouse does not show the setting)."""
    page = hearts_at_pass(browser, server, PHONE)
    try:
        rng = random.Random(3)
        d = walk_until(page, rng, "window.__torite.state().phase === 'play'"
                                  " && document.querySelectorAll('#hand button.card.legal').length >= 2")
        assert d["over"] != "1"
        page.click("#btn-menu")
        page.click("#btn-confirm-tap")
        assert page.locator("#btn-confirm-tap").get_attribute("aria-pressed") == "true"
        legal = page.locator("#hand button.card.legal")
        first, second = legal.nth(0).get_attribute("data-card"), legal.nth(1).get_attribute("data-card")
        page.click(f"#hand button.card[data-card='{first}']")
        assert table_data(page)["n"] == d["n"]  # nothing played yet
        assert page.locator("#hand button.card.selected").get_attribute("data-card") == first
        assert page.locator("#controls button[data-action]").count() == 1  # its button confirms
        page.click(f"#hand button.card[data-card='{second}']")  # the selection moves
        assert page.locator("#hand button.card.selected").get_attribute("data-card") == second
        page.click(f"#hand button.card[data-card='{second}']")
        page.wait_for_function(f"document.getElementById('table').dataset.n !== '{d['n']}'")
        assert second not in page.evaluate("() => window.__torite.state().hand")
        page.reload()
        page.wait_for_selector("#table[data-ready='1']")
        assert page.locator("#btn-confirm-tap").get_attribute("aria-pressed") == "true"  # kept
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        page.context.close()
