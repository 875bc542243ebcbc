"""Fixtures of the web tests: a headless Chromium with a fresh profile for each test."""
import pytest

from browser import one_for_the_test


@pytest.fixture
def browser(tmp_path):
    """Chromium for one test (browser.one_for_the_test)."""
    yield from one_for_the_test(tmp_path)
