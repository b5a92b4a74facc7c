"""The README's screenshots of the web table, made from a real browser.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots] [--chromium /usr/bin/chromium]

Starts the web table on a free port with a throw-away database, drives Debian's Chromium
through Playwright like a player would, and writes ``lobby.png``, ``table.png`` (a trick
half played), ``summary.png`` (the end-of-round dialog), ``phone.png`` (a phone-sized
table, in Japanese) and ``replay.png`` (a finished game watched back, every hand open).
Japanese needs a font: ``apt-get install fonts-ipafont-gothic``.
The deals are seeded by the server at random, so each run shows other cards.
"""

from __future__ import annotations

import argparse
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright

from torite.server.app import create_app
from torite.server.limits import ServerLimits

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync", "--hide-scrollbars"]
DESKTOP: ViewportSize = {"width": 1280, "height": 860}
PHONE: ViewportSize = {"width": 390, "height": 844}
TURN = ("(() => { const d = document.getElementById('table').dataset;"
        " return d.over === '1' || d.myTurn === '1'; })()")


@contextmanager
def serving() -> Iterator[str]:
    """The web table on a free local port, on a database that is gone afterwards."""
    with tempfile.TemporaryDirectory() as tmp, socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        srv = uvicorn.Server(uvicorn.Config(create_app(f"sqlite:///{tmp}/shots.db", reports_dir=None,
                                                       limits=ServerLimits(tables_per_minute=1000, tables_burst=1000)),
                                            host="127.0.0.1", port=port, log_level="warning"))
        thread = threading.Thread(target=srv.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 20
        while not srv.started:
            if time.monotonic() > deadline:
                raise SystemExit("the web table did not start")
            time.sleep(0.05)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            srv.should_exit = True
            thread.join(timeout=10)


def page_for(browser: Browser, lang: str, *, phone: bool = False, pause: str = "0") -> Page:
    ctx = browser.new_context(viewport=PHONE if phone else DESKTOP, device_scale_factor=1,
                              locale="ja-JP" if lang == "ja" else "en-US", bypass_csp=True,
                              reduced_motion="reduce")
    ctx.add_init_script(f"localStorage.setItem('torite.lang', '{lang}');"
                        f" localStorage.setItem('torite.pause', '{pause}');")
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    return page


def table(page: Page, server: str, game: str, seats: list[dict[str, Any]], options: dict[str, Any],
          bot_delay: float = 0.0) -> dict[str, Any]:
    r = page.request.post(f"{server}/api/tables", data={"game": game, "options": options, "seats": seats,
                                                         "settings": {"bot_delay": bot_delay}})
    if r.status != 201:
        raise SystemExit(f"cannot make a table: {r.text()}")
    out: dict[str, Any] = r.json()
    page.goto(server + out["seats"][0]["path"])
    page.wait_for_selector("#table[data-ready='1']")
    return out


def move(page: Page) -> bool:
    """One decision, as a player clicks it; False when the game is over."""
    page.wait_for_function(TURN)
    data = page.eval_on_selector("#table", "e => Object.assign({}, e.dataset)")
    if data["over"] == "1":
        return False
    if page.locator("#round-dialog[open]").count():
        page.click("#round-continue")
    if page.locator("#confirm").count():
        cards = page.locator("#hand button.card.legal")
        cards.nth(0).click()
        cards.nth(1).click()
        page.click("#confirm")
    elif page.locator("#hand button.card.legal").count():
        page.locator("#hand button.card.legal").last.click()
    else:
        page.locator("#controls button[data-action]").first.click()
    page.wait_for_function(f"document.getElementById('table').dataset.n !== '{data['n']}'")
    return True


def mid_trick(page: Page, limit: int = 200) -> None:
    """Play on until it is our turn with two cards already in the trick."""
    for _ in range(limit):
        page.wait_for_function(TURN)
        if page.eval_on_selector("#table", "e => e.dataset.over") == "1":
            raise SystemExit("the game ended before a half-played trick came")
        if page.locator("#trick .trick-card").count() >= 2:
            return
        if not move(page):
            return
    raise SystemExit("no half-played trick came")


PEOPLE = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "normal", "name": "Bob"},
          {"kind": "bot", "level": "normal", "name": "Cleo"}]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="docs/screenshots", help="folder for the PNG files")
    ap.add_argument("--chromium", default="/usr/bin/chromium", help="the Chromium to drive")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if not Path(args.chromium).exists():
        print(f"no Chromium at {args.chromium} (apt-get install chromium)", file=sys.stderr)
        return 2
    with serving() as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
        try:
            page = page_for(browser, "en")
            page.goto(server + "/")
            page.wait_for_selector("#seat-2")
            page.select_option("#seat-1", "human:friend")
            page.fill("#seat-1 ~ input", "Bob")
            page.screenshot(path=str(out / "lobby.png"), full_page=True)

            page = page_for(browser, "en")
            table(page, server, "trick-of-the-dead", PEOPLE, {"target": 300, "open_graveyard": True})
            for _ in range(4):
                move(page)
            mid_trick(page)
            page.screenshot(path=str(out / "table.png"))

            page = page_for(browser, "en")
            table(page, server, "kaedama", PEOPLE, {"rounds": 2})
            while not page.locator("#round-dialog[open]").count():
                page.wait_for_function(TURN + " || !!document.querySelector('#round-dialog[open]')")
                if page.locator("#round-dialog[open]").count():
                    break
                move(page)
            page.screenshot(path=str(out / "summary.png"))

            page = page_for(browser, "ja", phone=True)
            table(page, server, "kaedama", PEOPLE, {"rounds": 6})
            mid_trick(page)
            page.evaluate("() => window.scrollTo(0, 0)")
            page.screenshot(path=str(out / "phone.png"), full_page=True)

            page = page_for(browser, "en")
            made = table(page, server, "kaedama", PEOPLE, {"rounds": 1})
            while move(page):
                pass
            page.goto(f"{server}/replay/{made['id']}")
            page.wait_for_selector("#table[data-ready='1']")
            page.wait_for_function("() => window.__torite && window.__torite.replay"
                                   " && window.__torite.replay().steps > 0")
            page.evaluate("() => window.__torite.goto(Math.floor(window.__torite.replay().steps / 2))")
            page.wait_for_function("() => window.__torite.replay().step > 0")
            page.screenshot(path=str(out / "replay.png"))
        finally:
            browser.close()
    for name in ("lobby", "table", "summary", "phone", "replay"):
        print(out / f"{name}.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
