"""Fixtures of the web tests: a headless Chromium with a fresh profile for each test."""
import pathlib
import sys

import pytest

# tests/timeshift.py: the run's date, which the Stripe stand-in and the checks share.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from browser import one_for_the_test


@pytest.fixture
def browser(tmp_path):
    """Chromium for one test (browser.one_for_the_test)."""
    yield from one_for_the_test(tmp_path)
