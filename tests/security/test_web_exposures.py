"""A web paywall's showing counts as an A/B exposure only from a browser that drew the page.
Every anonymous `GET /web/{placement_id}` was an exposure of a new visitor, with no bot filter:
3,000 requests of a plain HTTP client took a variation from 3 exposed to 3,003, and so its
conversion rate wherever the attacker pleased. The page now carries a beacon its own script
sends once the browser has drawn it, with a token only the visitor's cookie had the server make;
the showing is kept from the beacon. A client that only fetches pages counts nothing, and a
beacon the page did not carry is refused."""
import pathlib
import re
import sys
import urllib.parse

import pytest

from attacker import Visitor

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "web"))
from browser import one_for_the_test  # noqa: E402

RESULTS = "/v1/experiments/onboarding/results"
BEACON = re.compile(r'data-pw-seen-url="([^"]+)" data-pw-seen-body="([^"]+)"')


@pytest.fixture
def browser(tmp_path):
    """Headless Chromium for one test (tests/web/browser.py)."""
    yield from one_for_the_test(tmp_path)


def exposed_on_the_web(shop):
    """Visitors of the web paywall counted as exposed to the onboarding experiment, all variations."""
    status, _, results = shop.server.call("GET", RESULTS)
    assert status == 200, results
    return sum(v["platforms"]["web"]["exposed"] for e in results["experiments"] for v in e["variations"])


def beacon_of(page):
    url, body = BEACON.search(page).groups()
    return url, body.replace("&amp;", "&")


def test_pages_fetched_by_a_plain_http_client_count_no_exposure(shop):
    before = exposed_on_the_web(shop)
    for _ in range(30):
        status, _, page = Visitor(shop).request("GET", "/web/onboarding")
        assert status == 200 and "data-pw-seen" in page
    assert exposed_on_the_web(shop) == before, "a page no browser drew was counted"


def test_a_beacon_the_page_did_not_carry_counts_nothing(shop):
    before = exposed_on_the_web(shop)
    bot, other = Visitor(shop), Visitor(shop)
    _, _, page = bot.request("GET", "/web/onboarding")
    _, _, others = other.request("GET", "/web/onboarding")
    url, body = beacon_of(page)
    fields = dict(urllib.parse.parse_qsl(body))
    forged = dict(fields, token="A" * 43)
    assert bot.request("POST", url, forged)[0] == 403
    # Another visitor's beacon, sent with the bot's own cookie.
    assert bot.request("POST", url, beacon_of(others)[1])[0] == 403
    # A beacon without any cookie, or for another variation than its page's.
    assert Visitor(shop).request("POST", url, body)[0] == 403
    other_variation = "onboarding-annual-first" if fields["variation_id"] != "onboarding-annual-first" else "onboarding-monthly-first"
    assert bot.request("POST", url, dict(fields, variation_id=other_variation))[0] == 403
    assert exposed_on_the_web(shop) == before


def test_a_browser_that_draws_the_page_counts_once_however_often_it_comes_back(shop, browser):
    before = exposed_on_the_web(shop)
    browser.open(shop.server.url + "/web/onboarding")
    browser.wait_until(lambda d: exposed_on_the_web(shop) == before + 1, "the browser's showing counted")
    browser.open(shop.server.url + "/web/onboarding")
    browser.wait_until(lambda d: d.find_elements("css selector", "[data-pw-seen]"), "the page again")
    # The same visitor (its cookie) is one exposed visitor, whatever it reloads.
    assert exposed_on_the_web(shop) == before + 1


def test_the_same_pages_beacon_sent_again_is_one_showing(shop):
    """A client that runs the beacon by hand is a browser as far as the server can tell; it still
    counts once per visitor, and each new visitor costs it a new credential (limited per address)."""
    before = exposed_on_the_web(shop)
    scripted = Visitor(shop)
    _, _, page = scripted.request("GET", "/web/onboarding")
    url, body = beacon_of(page)
    for _ in range(3):
        assert scripted.request("POST", url, body)[0] == 204
    assert exposed_on_the_web(shop) == before + 1
