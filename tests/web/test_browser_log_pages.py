"""The web table takes a long log in pages (issue 40.3): a spectator who joins a finished game,
and who switches language there, ends up with the whole log in its language, nothing of it
replayed as if it had just happened (one summary: the game's end)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser

from torite.server.app import create_app
from torite.server.live import LOG_PAGE

from .test_browser import MANY_TABLES, new_page, serving  # skips this module too where chromium is absent

APP: dict[str, Any] = {}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    app = create_app(f"sqlite:///{tmp_path_factory.mktemp('logpages') / 'torite.db'}", limits=MANY_TABLES)
    APP["app"] = app
    yield from serving(app)


def test_a_spectator_gets_a_long_finished_log_whole_in_pages_and_again_in_another_language(
        server: str, browser: Browser) -> None:
    page = new_page(browser)
    r = page.request.post(f"{server}/api/tables", data={
        "game": "kaedama", "options": {"rounds": 10}, "seats": [{"kind": "bot", "level": "random"}] * 3,
        "settings": {"bot_delay": 0}})
    assert r.status == 201, r.text()
    tid = r.json()["id"]
    deadline = time.monotonic() + 120
    while not page.request.get(f"{server}/api/tables/{tid}").json()["over"]:
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.2)
    table = APP["app"].state.manager.tables[tid]
    want = {lang: sum(1 for _, line in table.log_for(None, lang) if line is not None) for lang in ("en", "ja")}
    assert want["en"] > 2 * LOG_PAGE
    page.goto(f"{server}/t/{tid}#watch")
    page.wait_for_function(f"window.__torite && window.__torite.lines().length === {want['en']}")
    lines = page.evaluate("window.__torite.lines().map(l => l.i)")
    assert lines == sorted(set(lines))  # each line once, in order
    # the game's end opens once, as if watched; no trick of the pages stays on the table
    page.wait_for_selector("#round-dialog[open]")
    assert page.evaluate("document.querySelectorAll('#trick-note .won').length") == 0
    page.keyboard.press("Escape")
    page.select_option("#lang", "ja")
    page.wait_for_selector("#table[data-lang='ja']")
    page.wait_for_function(f"window.__torite.lines().length === {want['ja']}"
                           " && window.__torite.lines().every(l => Object.keys(l.text).join() === 'ja')")
    assert not page.errors  # type: ignore[attr-defined]
