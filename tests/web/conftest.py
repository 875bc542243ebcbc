"""Fixtures of the web tests: a headless Chromium with a fresh profile for each test."""
import pytest

from browser import Browser, missing_tools


@pytest.fixture
def browser(tmp_path):
    """Chromium at the desktop size (browser.size("phone") for a phone), quit after the test. A
    machine without the browser fails here, naming what to install: a skipped browser test
    would pass a run that tested nothing."""
    missing = missing_tools()
    assert not missing, "not installed: " + ", ".join(missing) + " (`make deps` installs them)"
    running = Browser(tmp_path / "chromium-profile", log_path=tmp_path / "chromedriver.log")
    yield running
    running.quit()
