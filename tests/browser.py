"""Debian's Chromium for every browser test, and the one Playwright session that drives it.

One ``sync_playwright()`` per test process: a second one started while the first is alive fails
("Playwright Sync API inside the asyncio loop"), so every browser test — the web table's and
fair.js's — shares the session-scoped ``browser`` fixture of ``tests/conftest.py``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

CHROMIUM = "/usr/bin/chromium"
# The longest a browser test waits for a condition (a page's answer, a live entry, a navigation), in
# ms. A wait that passes costs no more than its condition takes; a bound is no speed assertion (speed
# is measured in bench/, not asserted in tests): on a machine loaded to 20 on 2 cores, a POST that
# navigates (a chronicle created) was seen to take more than 10 s.
WAIT_MS = 30_000
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch_browser() -> Iterator:
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()
