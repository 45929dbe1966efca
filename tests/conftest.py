"""Suite-wide settings: hypothesis without wall-clock deadlines (CI machines vary in speed); the
operator's secret of the test servers; temporary files in memory and bytecode kept (the suite's
time)."""

import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, settings

from rollbook import settings as rollbook_settings

# The operator's secret the test servers seal their seeds under (F-1); child processes inherit it.
os.environ.setdefault("ROLLBOOK_SECRET_KEY", "rollbook test secret, not for production")
# Every test's client is one address ("testclient", 127.0.0.1) that joins and signs in far more than a
# table would: the sign-in budgets raised (tests/server/test_signin_budget.py sets its own).
os.environ.setdefault("ROLLBOOK_SIGNINS_PER_ADDRESS", "1000000")
os.environ.setdefault("ROLLBOOK_SIGNINS_PER_CODE", "1000000")


def _memory_temp_root(where: str = "/dev/shm", least_free: int = 2 * 1024**3) -> None:
    """The tests' temporary files (``tmp_path``: their SQLite stores) on a memory filesystem where
    the machine has one with room: every commit of the store is fsynced (``synchronous=FULL``), a few
    ms each on a disk, none in memory; what a commit shows the next transaction is the same. A
    container's small /dev/shm (Docker gives 64 MiB) is left alone. ``PYTEST_DEBUG_TEMPROOT`` is the
    root pytest numbers its run directories under (each run its own, as under /tmp)."""
    if "PYTEST_DEBUG_TEMPROOT" in os.environ or not os.access(where, os.W_OK):
        return
    if shutil.disk_usage(where).free >= least_free:
        os.environ["PYTEST_DEBUG_TEMPROOT"] = where


_memory_temp_root()

# Bytecode compiled once and kept under the environment, as scripts/test does: where the environment
# says PYTHONDONTWRITEBYTECODE (as this project's machines do), each test worker and each `rollbook`
# process a test starts (servers, the CLI) would compile the whole package again, ~0.4 s of CPU each.
if os.environ.get("PYTHONDONTWRITEBYTECODE") and "PYTHONPYCACHEPREFIX" not in os.environ:
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    os.environ["PYTHONPYCACHEPREFIX"] = str(Path(sys.prefix) / "pycache")

settings.register_profile("rollbook", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("rollbook")


T = TypeVar("T")


def wait_until(
    predicate: Callable[[], T], timeout: float = 10.0, *, interval: float = 0.01, what: str | None = None
) -> T:
    """Wait for a condition, never a fixed time: ``predicate()``'s first truthy value, polled every
    ``interval`` seconds; ``AssertionError`` naming ``what`` (or the predicate) after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(
                f"still waiting after {timeout} s for {what or getattr(predicate, '__name__', predicate)}"
            )
        time.sleep(interval)


@pytest.fixture(autouse=True)
def _settings_of_the_environment():
    """Each test starts from the environment's settings: none a previous test installed."""
    rollbook_settings.install(None)
    yield
    rollbook_settings.install(None)


@pytest.fixture(scope="session")
def browser():
    """Chromium through Playwright, one per test process (tests/browser.py says why)."""
    from playwright.sync_api import expect

    from tests.browser import WAIT_MS, launch_browser

    # An assertion on the page waits for its condition up to WAIT_MS (Playwright's default is 5 s): a
    # live entry or an answer on a loaded machine can take longer, and a passing wait costs no more.
    expect.set_options(timeout=WAIT_MS)
    yield from launch_browser()
