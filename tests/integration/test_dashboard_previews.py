"""The dashboard's previews (docs/operations/server.md, "The dashboard"): GET
/dashboard/previews/{placement_id}/{variation_id} draws a variation's paywall as the web paywall
would, in preview mode, for operators only, recording no exposure; the dashboard frames one per
variation beside its numbers. The server here has no --stripe-api-key and its catalog no Stripe
price: previews need neither. The last test signs in with Chromium and sees the framed paywall,
keeping a screenshot in build/artifacts/web/."""
import html.parser
import json
import re
import sys

import pytest

from conftest import ROOT, DevServer
from web_helpers import BUILT, variation, web_placement, write_bundle

sys.path.insert(0, str(ROOT / "tests/web"))
from browser import one_for_the_test  # noqa: E402


@pytest.fixture
def browser(tmp_path):
    """Chromium for one test (tests/web/browser.py)."""
    yield from one_for_the_test(tmp_path)

#: The web tests' layout with a toggle, whose switch only the page's script draws.
BUILT = dict(BUILT, sections=BUILT["sections"][:3]
             + [{"type": "toggle", "label": "Pay yearly", "product_ids": ["premium_annual", "premium_monthly"]}] + BUILT["sections"][3:])
VARIATIONS = ["built", "plain", "none"]


def preview_bundle(directory):
    """A `web` placement of three variations: one with a builder layout (in English and
    German), one without, and a holdout."""
    return write_bundle(directory / "preview-bundle.json", {"web": web_placement([
        variation("built", "Built", weight=40, builder=BUILT, remote_configs=[{"lang": "en", "data": "{}"}, {"lang": "de", "data": "{}"}]),
        variation("plain", "Plain", weight=40),
        {"variation_id": "none", "paywall_id": "", "paywall_name": "", "weight": 20, "products": [], "holdout": True}])})


def catalog(directory):
    """The example catalog as it is: no product has a stripe_price_id."""
    products = json.loads((ROOT / "examples/config.json").read_text())["store"]["products"]
    assert not any("stripe_price_id" in p for p in products)
    path = directory / "products.json"
    path.write_text(json.dumps(products))
    return path


@pytest.fixture
def server(tmp_path):
    running = DevServer("--bundle", str(preview_bundle(tmp_path)), "--products", str(catalog(tmp_path)),
                        "--data", str(tmp_path / "data"), files=False)
    yield running
    running.stop()


def page(server, path, **kwargs):
    """(status, lowercased headers, text) of a GET with the server's operator key unless told."""
    status, headers, body = server.call("GET", path, **kwargs)
    return status, headers, body.decode() if isinstance(body, bytes) else body


def exposed(server):
    _, _, results = server.call("GET", "/v1/experiments/web/results")
    [experiment] = results["experiments"]
    return {v["variation_id"]: v["exposed"] for v in experiment["variations"]}


def test_each_variation_previews_as_its_paywall_without_the_web_paywall_and_every_plan_shows(server):
    status, _, _ = page(server, "/web/web")
    assert status == 404, "no --stripe-api-key: no web paywall, but previews all the same"
    for variation, says in [("built", "Go Premium"), ("plain", "Plain")]:
        status, headers, body = page(server, f"/dashboard/previews/web/{variation}")
        assert status == 200, body
        assert headers["content-type"].startswith("text/html") and headers["cache-control"] == "no-store"
        assert says in body and "<form" not in body, variation
        # Plans show though none has a Stripe price: this previews the paywall, not the web checkout.
        for product in ("premium_annual", "premium_monthly", "lifetime"):
            assert product in body, (variation, product)
        assert "set-cookie" not in headers
    # Each id is one percent-encoded path segment, as the dashboard's links write it.
    assert page(server, "/dashboard/previews/web/bu%69lt")[0] == 200


def test_a_preview_is_framed_only_by_the_servers_own_pages_under_the_pages_nonce(server):
    _, headers, body = page(server, "/dashboard/previews/web/built")
    policy = headers["content-security-policy"]
    nonce = re.search(r"'nonce-([^']+)'", policy).group(1)
    assert "frame-ancestors 'self'" in policy and "default-src 'none'" in policy and "script-src 'nonce-" in policy
    assert f'<style nonce="{nonce}">' in body and f'<script nonce="{nonce}">' in body
    _, again, _ = page(server, "/dashboard/previews/web/built")
    assert again["content-security-policy"] != policy, "a fresh nonce per response"


def test_previews_record_no_exposure(server):
    for _ in range(3):
        for variation in VARIATIONS:
            assert page(server, f"/dashboard/previews/web/{variation}")[0] == 200
    assert page(server, "/dashboard")[0] == 200
    assert exposed(server) == {"built": 0, "plain": 0, "none": 0}


def test_a_preview_speaks_the_asked_locale_and_refuses_a_width_out_of_range(server):
    assert '<html lang="en"' in page(server, "/dashboard/previews/web/built")[2]
    assert '<html lang="de"' in page(server, "/dashboard/previews/web/built?locale=de")[2]
    _, _, wide = page(server, "/dashboard/previews/web/built?width=1280")
    assert "max-width:1280px" in wide
    status, headers, body = page(server, "/dashboard/previews/web/built?width=2000")
    assert status == 400 and headers["content-type"].startswith("text/html") and "width" in body
    status, _, body = page(server, "/dashboard/previews/web/built?locale=%3Cb%3E")
    assert status == 400 and "<b>" not in body


def test_a_holdout_is_a_note_and_what_the_bundle_lacks_is_a_404_page(server):
    status, _, body = page(server, "/dashboard/previews/web/none")
    assert status == 200 and "holdout: shown nothing" in body
    # Each 404 names what is missing, the placement first, and what the bundle has instead.
    for path, title, says in [
        ("/dashboard/previews/web/absent", "No such variation", "Placement &#39;web&#39; has no variation &#39;absent&#39;. Its variations: &#39;built&#39;, &#39;plain&#39;, &#39;none&#39;."),
        ("/dashboard/previews/web/biult", "No such variation", "Did you mean &#39;built&#39;?"),
        ("/dashboard/previews/elsewhere/built", "No such placement", "The bundle has no paywall placement &#39;elsewhere&#39;. Its paywall placements: &#39;web&#39;."),
        ("/dashboard/previews/wbe/built", "No such placement", "Did you mean &#39;web&#39;?"),
        ("/dashboard/previews/elsewhere/nope", "No such placement", "no paywall placement &#39;elsewhere&#39;"),
    ]:
        status, headers, body = page(server, path)
        assert status == 404 and headers["content-type"].startswith("text/html"), path
        assert f"<h1 class=\"pw-title\">{title}</h1>" in body and says in body, (path, body)


def test_a_preview_is_closed_to_anyone_without_an_operator_session_or_key(server):
    status, headers, _ = page(server, "/dashboard/previews/web/built", operator=False)
    assert status == 303 and headers["location"].startswith("/dashboard/login")
    status, _, body = page(server, "/dashboard/previews/web/built", headers={"authorization": "Bearer not-a-key"})
    assert status == 401 and "Go Premium" not in body


class Frames(html.parser.HTMLParser):
    """Every iframe's attributes and the preview links' hrefs of a page."""

    def __init__(self, text):
        super().__init__()
        self.frames, self.links = [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "iframe":
            self.frames.append(attrs)
        if tag == "a" and (attrs.get("href") or "").startswith("/dashboard/previews/"):
            self.links.append(attrs["href"])


def test_the_dashboard_frames_each_variations_preview_sandboxed_at_a_phones_width(server):
    status, _, body = page(server, "/dashboard")
    assert status == 200
    found = Frames(body)
    assert [frame["src"] for frame in found.frames] == [f"/dashboard/previews/web/{v}" for v in VARIATIONS]
    for frame, variation in zip(found.frames, VARIATIONS):
        assert frame["sandbox"] == "allow-scripts" and frame["loading"] == "lazy" and frame["width"] == "390"
        assert variation in frame["title"]
    assert "/dashboard/previews/web/built?width=1280" in found.links
    assert {"/dashboard/previews/web/built?locale=en", "/dashboard/previews/web/built?locale=de"} <= set(found.links)



def test_an_operator_signed_in_in_chromium_sees_each_variations_paywall_framed_on_the_dashboard(server, browser):
    from selenium.webdriver.common.by import By

    browser.open(server.url + "/dashboard")
    assert browser.url.endswith("/dashboard/login"), "no session: the sign-in page"
    browser.driver.find_element(By.ID, "key").send_keys(server.operator.secret)
    browser.driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    browser.wait_until(lambda d: d.current_url == server.url + "/dashboard", "the dashboard")
    width = browser.driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= 1280, f"the dashboard scrolls sideways at 1280 px: {width}"
    frame = browser.driver.find_element(By.CSS_SELECTOR, 'iframe[src="/dashboard/previews/web/built"]')
    browser.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", frame)
    browser.driver.switch_to.frame(frame)
    try:
        title = browser.wait_until(lambda d: d.find_elements(By.CSS_SELECTOR, "h1"), "the framed paywall's header")
        assert title[0].text == "Go Premium"
        # The page's own nonce'd script runs in the sandbox: it turns the toggle's radios into a switch.
        browser.wait_until(lambda d: d.find_elements(By.CSS_SELECTOR, "button.pw-switch"), "the toggle's switch, made by the script")
    finally:
        browser.driver.switch_to.default_content()
    holdout = browser.driver.find_element(By.CSS_SELECTOR, 'iframe[src="/dashboard/previews/web/none"]')
    browser.driver.switch_to.frame(holdout)
    try:
        browser.wait_until(lambda d: "holdout: shown nothing" in d.page_source, "the holdout's note")
    finally:
        browser.driver.switch_to.default_content()
    shot = browser.screenshot("dashboard-preview")
    assert shot.name == "dashboard-preview-desktop.png" and shot.stat().st_size > 0
