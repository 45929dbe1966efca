"""Suite-wide settings: hypothesis without wall-clock deadlines (CI machines vary in speed); the
operator's secret of the test servers."""

import os

import pytest
from hypothesis import HealthCheck, settings

from rollbook import settings as rollbook_settings

# The operator's secret the test servers seal their seeds under (F-1); child processes inherit it.
os.environ.setdefault("ROLLBOOK_SECRET_KEY", "rollbook test secret, not for production")

settings.register_profile("rollbook", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("rollbook")


@pytest.fixture(autouse=True)
def _settings_of_the_environment():
    """Each test starts from the environment's settings: none a previous test installed."""
    rollbook_settings.install(None)
    yield
    rollbook_settings.install(None)


@pytest.fixture(scope="session")
def browser():
    """Chromium through Playwright, one per test process (tests/browser.py says why)."""
    from tests.browser import launch_browser

    yield from launch_browser()
