"""Issue 35.6 in a real browser: a player's chosen name, kept on their device, is said when they
sit down and shown on their seat's plate to the others, as text (a name that looks like markup
stays text); renamed from the table's tools, it changes for everyone and stays kept."""

from __future__ import annotations

from playwright.sync_api import Browser

from .test_browser import new_page
from .test_layout import server  # noqa: F401  (the fixture)
from .test_table_comforts import two_humans

MARKUP = '<img src=x onerror=y()>'


def test_a_name_kept_on_the_device_is_shown_to_the_others_as_text(server: str, browser: Browser) -> None:  # noqa: F811
    ann, ben = new_page(browser), new_page(browser)
    try:
        trap = "window.y = () => { window.pwned = 1; };"  # what the markup would call, were it markup
        ann.add_init_script(f"localStorage.setItem('torite.name', {MARKUP!r}); {trap}")
        ben.add_init_script(trap)
        t = two_humans(ann, server, 0.0)
        ben.goto(t["seats"][1]["url"])
        ben.wait_for_selector("#table[data-ready='1']")
        ann.goto(t["seats"][0]["url"])
        ann.wait_for_selector("#table[data-ready='1']")
        plate = ben.locator("#seats .seat[data-seat='0'] .name")
        ben.wait_for_function(f"document.querySelector(\"#seats .seat[data-seat='0'] .name\").textContent"
                              f".includes({MARKUP!r})")
        assert plate.locator("img").count() == 0
        assert ben.evaluate("() => window.pwned") is None and ann.evaluate("() => window.pwned") is None
        # renamed at the table: everyone sees the new name, the device keeps it
        if ann.locator("#btn-menu").is_visible():
            ann.click("#btn-menu")
        ann.click("#btn-name")
        ann.fill("#name-input", "  Ann   Lee ")
        ann.click("#name-save")
        ben.wait_for_function("document.querySelector(\"#seats .seat[data-seat='0'] .name\").textContent"
                              ".includes('Ann Lee')")
        assert ann.evaluate("() => localStorage.getItem('torite.name')") == "Ann Lee"
        # Ben has no name kept: his seat keeps the lobby's ("Ben"), and he has the button too
        assert "Ben" in ann.locator("#seats .seat[data-seat='1'] .name").inner_text()
        assert ben.locator("#btn-name").count() == 1
        assert not ann.errors and not ben.errors  # type: ignore[attr-defined]
    finally:
        ann.context.close()
        ben.context.close()
