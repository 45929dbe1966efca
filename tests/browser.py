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
