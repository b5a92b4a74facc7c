"""Claiming the rest at Umbridge's web table (ruling U19), in a real browser: two friends at one
table, each in their own browser context.  On lead in the last four tricks a player sees "Claim
the rest"; the other then sees "Accept the claim" and "Refuse: play on"; a refused claim is not
offered again in the same trick; an accepted one ends the deal."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from torite.server.app import create_app

from .test_browser import MANY_TABLES, new_page, new_table, serving, table_data

CLAIM = "#controls button[data-action='claim']"
ACCEPT = "#controls button[data-action='accept']"
REFUSE = "#controls button[data-action='refuse']"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("web-claims") / "torite.db"
    yield from serving(create_app(f"sqlite:///{db}", reports_dir=None, limits=MANY_TABLES))


def my_turn(page: Page) -> bool:
    data = table_data(page)
    return data.get("ready") == "1" and data.get("myTurn") == "1" and data.get("over") != "1"


def click(page: Page, selector: str) -> None:
    n = table_data(page)["n"]
    page.locator(selector).first.click()
    page.wait_for_function(f"document.getElementById('table').dataset.n !== '{n}'")


def plain_turn(page: Page) -> None:
    """A card (the hand's or the dummy's) or the first choice that is not a claim."""
    for sel in ("#hand button.card.legal", "#piles [data-pile='dummy'] button.card.legal",
                "#controls .bidgrid button[data-action]",
                "#controls button[data-action]:not([data-action='claim'])"):
        if page.locator(sel).count():
            click(page, sel)
            return
    raise AssertionError("nothing to click at my turn")


def test_a_claim_is_offered_on_lead_answered_by_the_other_and_refused_once_a_trick(
        server: str, browser: Browser) -> None:
    pages = [new_page(browser), new_page(browser)]
    t = new_table(pages[0], server, "umbridge", [{"kind": "human"}, {"kind": "human"}],
                  {"deals": 1, "claims": True})
    for seat, page in enumerate(pages):
        page.goto(t["seats"][seat]["url"])
        page.wait_for_selector("#table[data-ready='1']")
    refused = accepted = False
    for _ in range(400):
        if all(table_data(p).get("over") == "1" for p in pages) or accepted:
            break
        turn = [p for p in pages if my_turn(p)]
        if not turn:
            pages[0].wait_for_timeout(50)
            continue
        page = turn[0]
        other = pages[1 - pages.index(page)]
        if page.locator(CLAIM).count():
            claim = page.locator(CLAIM).first
            assert claim.inner_text().strip() == "Claim the rest"
            click(page, CLAIM)
            other.wait_for_selector(ACCEPT)
            assert other.locator(ACCEPT).first.inner_text().strip() == "Accept the claim"
            assert other.locator(REFUSE).first.inner_text().strip() == "Refuse: play on"
            assert not other.locator("#hand button.card.legal").count()  # an answer, not a card
            if not refused:
                click(other, REFUSE)
                refused = True
                page.wait_for_function("document.getElementById('table').dataset.myTurn === '1'")
                assert not page.locator(CLAIM).count()  # not again in this trick
                assert page.locator("#hand button.card.legal").count()  # play goes on
            else:
                click(other, ACCEPT)
                accepted = True
            continue
        plain_turn(page)
    assert refused and accepted, "a claim was never offered twice on lead in the last tricks"
    for p in pages:
        p.wait_for_function("document.getElementById('table').dataset.over === '1'")


def test_the_lobby_starts_umbridges_claims_on_and_hearts_has_none(server: str, browser: Browser) -> None:
    page = new_page(browser)
    page.goto(server + "/")
    page.wait_for_selector("#seat-1")
    page.click("#game-list button[data-game='umbridge']")
    page.wait_for_selector("#opt-claims")
    assert page.is_checked("#opt-claims")  # the table's value, not the research default
    assert page.inner_text("label[for='opt-claims']") == "Claims"
    page.click("#game-list button[data-game='hearts']")
    page.wait_for_selector("label[for^='opt-']")
    assert not page.locator("#opt-claims").count()
