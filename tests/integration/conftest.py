"""Fixtures for the integration tests: a real paywire-devserver on loopback, and clients of
the real library talking to it over HTTP with the built-in transport. They live in
tests/server_helpers.py, shared with tests/security; the tests import them from here."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from server_helpers import *  # noqa: E402,F401,F403  the names the tests import from conftest, fixtures included
