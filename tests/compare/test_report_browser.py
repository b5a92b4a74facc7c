"""The compare report on a 390 px phone, in a real browser (Debian's chromium through Playwright).

Skipped only when /usr/bin/chromium is absent; CI installs it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("browser tests need /usr/bin/chromium (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import sync_playwright  # noqa: E402

from torite.compare import compare  # noqa: E402
from torite.compare.report import write  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync"]
PHONE = 390


def test_the_report_fits_a_390_px_phone(tmp_path: Path) -> None:
    """Nothing but a table or a plot in its own scroll box is wider than the phone, so the page
    itself never scrolls sideways; the tables keep their measure column in view."""
    result = compare("trick-of-the-dead", ["base", "survival:survival=true", "open graveyard:open_graveyard=true"],
                     "random", deals=2, skill=None, seed=2)
    page_file = tmp_path / "report.html"
    write(result, str(page_file))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": PHONE, "height": 844})
            page.goto(page_file.as_uri())
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE
            too_wide = page.evaluate(
                "() => [...document.querySelectorAll('body *')]"
                ".filter(e => !e.closest('.scroll') && e.getBoundingClientRect().right > window.innerWidth + 0.5)"
                ".map(e => e.tagName + '.' + e.className)")
            assert too_wide == []
            boxes = page.evaluate("() => [...document.querySelectorAll('.scroll')]"
                                  ".map(e => [e.getBoundingClientRect().right, e.scrollWidth > e.clientWidth])")
            assert boxes and all(right <= PHONE for right, _ in boxes)
            assert any(scrolls for _, scrolls in boxes)  # the summary table scrolls in its box
            # the measure column stays in view when the summary table is scrolled sideways
            left = page.evaluate("""() => {
                const box = [...document.querySelectorAll('.scroll')].find(e => e.querySelector('tr.group'));
                box.scrollLeft = 300;
                return box.querySelector('tbody tr:not(.group) td').getBoundingClientRect().left
                       - box.getBoundingClientRect().left; }""")
            assert abs(left) < 1
        finally:
            browser.close()
