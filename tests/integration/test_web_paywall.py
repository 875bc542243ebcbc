"""The web paywall end to end, on the real server (SQLite here, PostgreSQL in `make test-full`),
a local stand-in of Stripe's API (tests/web/stripe_standin.py) and Debian's Chromium: a browser
opens GET /web/{placement_id}, chooses a plan and continues; the server creates the Checkout
Session at the stand-in, which takes the payment and sends the signed webhook; the browser comes
back to the success page, whose link the library redeems as a device would, and the app's
profile has the access. Screenshots of the paywall at phone and desktop widths are kept in
build/artifacts/web/."""
import datetime
import http.client
import json
import pathlib
import re
import subprocess
import sys
import time
import urllib.parse

import pytest

import paywire
import timeshift
from conftest import DevServer, as_read, purchase, shown
from stripe_helpers import products_file
from web_helpers import BUILT, variation, web_placement, write_bundle

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests/web"))
from browser import one_for_the_test  # noqa: E402
from stripe_standin import StripeStandIn  # noqa: E402


@pytest.fixture
def browser(tmp_path):
    """Chromium for one test (tests/web/browser.py)."""
    yield from one_for_the_test(tmp_path)

API_KEY = "sk_test_web_paywall"
WEBHOOK_SECRET = "whsec_web_paywall"
PRODUCTS = json.loads((ROOT / "examples/config.json").read_text())["store"]["products"]


def web_bundle(directory):
    """`web`: two variations, one with a builder layout and one without. `targeted`: French
    visitors are an audience of their own (the language is a rule's)."""
    audience = {"revision": 1, "placement_audience_version_id": "", "ab_test_name": "", "variations": []}
    lifetime_only = {"weight": 100, "products": ["lifetime"]}
    return write_bundle(directory / "web-bundle.json", {
        "web": web_placement([variation("built", "Built", builder=BUILT), variation("plain", "Plain")]),
        "targeted": {"audiences": [
            dict(audience, audience_name="French", placement_audience_version_id="targeted-fr", ab_test_name="targeted_fr",
                 rule={"attribute": "locale", "op": "eq", "value": "fr"}, variations=[variation("french", "Français", **lifetime_only)]),
            dict(audience, audience_name="Everyone", placement_audience_version_id="targeted-all", ab_test_name="targeted_all",
                 variations=[variation("others", "Others", **lifetime_only)])]}})


@pytest.fixture
def stripe():
    with StripeStandIn(api_key=API_KEY, webhook_secret=WEBHOOK_SECRET) as standin:
        yield standin


@pytest.fixture
def server(tmp_path, stripe):
    server = DevServer("--bundle", str(web_bundle(tmp_path)), "--products", str(products_file(tmp_path)),
                       "--stripe-webhook-secret", WEBHOOK_SECRET, "--stripe-api-key", API_KEY, "--stripe-api-base", stripe.url,
                       "--data", str(tmp_path / "data"), files=False)
    stripe.webhook_url = server.url + "/v1/webhooks/stripe"
    yield server
    server.stop()


def get(server, path, cookie=None, headers=None):
    """(status, headers, body text) of a browser-like GET without following redirects."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", path, headers={**({"Cookie": cookie} if cookie else {}), **(headers or {})})
    response = connection.getresponse()
    body = response.read().decode()
    connection.close()
    return response.status, response.headers, body


def post_form(server, path, fields, cookie=None):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("POST", path, urllib.parse.urlencode(fields),
                       {"Content-Type": "application/x-www-form-urlencoded", **({"Cookie": cookie} if cookie else {})})
    response = connection.getresponse()
    body = response.read().decode()
    connection.close()
    return response.status, response.headers, body


def visitor_cookie(headers):
    set_cookie = headers.get("Set-Cookie") or ""
    match = re.match(r"(paywire_visitor=[^;]+)", set_cookie)
    return match.group(1) if match else None


def hidden(body, name):
    return re.search(rf'name="{name}" value="([^"]*)"', body).group(1)


def drawn(server, page, cookie):
    """What a browser does once it has drawn a page: the page's beacon, which counts its showing
    (a client that only fetches pages counts nothing; tests/security/test_web_exposures.py)."""
    url, body = re.search(r'data-pw-seen-url="([^"]+)" data-pw-seen-body="([^"]+)"', page).groups()
    status, _, _ = post_form(server, url, dict(urllib.parse.parse_qsl(body.replace("&amp;", "&"))), cookie)
    assert status == 204, status


def exposures(server):
    _, _, results = server.call("GET", "/v1/experiments/web/results")
    [experiment] = results["experiments"]
    return {v["variation_id"]: v for v in experiment["variations"]}


def test_a_visitor_is_a_profile_of_its_own_kept_by_its_cookie_and_each_showing_is_an_exposure(server):
    status, headers, body = get(server, "/web/web", headers={"Accept-Language": "en-US,en;q=0.8"})
    assert status == 200, body
    cookie = visitor_cookie(headers)
    drawn(server, body, cookie)
    assert cookie and "HttpOnly" in headers["Set-Cookie"] and "SameSite=Lax" in headers["Set-Cookie"]
    assert "Path=/web" in headers["Set-Cookie"]
    policy = headers["Content-Security-Policy"]
    nonce = re.search(r"'nonce-([^']+)'", policy).group(1)
    assert f'<style nonce="{nonce}">' in body and "frame-ancestors 'none'" in policy and headers["Cache-Control"] == "no-store"
    assert 'name="product_id"' in body and 'action="/web/web/checkout"' in body
    # A cookie whose credential is not the profile's is a new visitor, never that profile, even
    # while the profile's own credential is still pending (its browser has not come back yet).
    profile_id = cookie.split("=", 1)[1].rsplit(".", 1)[0]
    forged = f"paywire_visitor={profile_id}." + "A" * 42 + "Q"
    status, headers, page = get(server, "/web/web", cookie=forged)
    assert status == 200 and visitor_cookie(headers) and not visitor_cookie(headers).startswith(f"paywire_visitor={profile_id}.")
    drawn(server, page, visitor_cookie(headers))
    # Nor can a cookie choose a profile id (and so a bucket) no one was given.
    chosen = "paywire_visitor=web-" + "0" * 32 + "." + "A" * 42 + "Q"
    status, headers, page = get(server, "/web/web", cookie=chosen)
    assert not visitor_cookie(headers).startswith("paywire_visitor=web-" + "0" * 32)
    drawn(server, page, visitor_cookie(headers))
    # The same visitor again: no new cookie, the same variation.
    status, headers, again = get(server, "/web/web", cookie=cookie)
    assert status == 200 and headers.get("Set-Cookie") is None
    assert hidden(again, "variation_id") == hidden(body, "variation_id")
    drawn(server, again, cookie)
    # The first visitor counted once, and the two new profiles the forged cookies became.
    counted = exposures(server)
    assert sum(v["exposed"] for v in counted.values()) == 3, counted


def test_an_unknown_placement_is_a_404_page_and_a_server_without_a_stripe_key_has_no_web_paywall(server, tmp_path):
    status, headers, body = get(server, "/web/nowhere")
    assert status == 404 and headers["Content-Type"].startswith("text/html") and "No such offer" in body
    plain = DevServer("--data", str(tmp_path / "plain"))
    try:
        status, _, _ = get(plain, "/web/onboarding")
        assert status == 404
    finally:
        plain.stop()


def test_checkout_takes_only_the_visitors_own_form_and_a_plan_of_its_variation(server, stripe):
    status, headers, body = get(server, "/web/web")
    cookie = visitor_cookie(headers)
    form = {"csrf": hidden(body, "csrf"), "variation_id": hidden(body, "variation_id"), "locale": ""}
    status, _, page = post_form(server, "/web/web/checkout", dict(form, csrf="forged", product_id="premium_annual"), cookie)
    assert status == 403 and "expired" in page
    status, _, page = post_form(server, "/web/web/checkout", dict(form, product_id="premium_annual"))
    assert status == 403, "no cookie: no visitor"
    status, _, page = post_form(server, "/web/web/checkout", dict(form, product_id="coins_100"), cookie)
    assert status == 400 and "not sold here" in page
    status, headers, _ = post_form(server, "/web/web/checkout", dict(form, product_id="premium_annual", variation_id="forged"), cookie)
    assert status == 303 and headers["Location"] == "/web/web", "a form of another variation is drawn again, not charged"
    assert stripe.sessions == {}
    status, headers, _ = post_form(server, "/web/web/checkout", dict(form, product_id="premium_annual"), cookie)
    assert status == 303 and headers["Location"].startswith(stripe.url + "/pay/cs_test_")
    [session] = stripe.sessions.values()
    profile_id = cookie.split("=", 1)[1].rsplit(".", 1)[0]
    assert session["client_reference_id"] == profile_id and session["mode"] == "subscription"
    assert session["metadata"]["paywire_web_paywall"] == "1"
    assert session["metadata"]["paywire_variation_id"] == form["variation_id"]
    assert session["success_url"].endswith("/web/web/success?session_id={CHECKOUT_SESSION_ID}")


def test_a_stripe_api_that_fails_is_a_page_saying_nothing_was_charged(tmp_path):
    server = DevServer("--bundle", str(web_bundle(tmp_path)), "--products", str(products_file(tmp_path)),
                       "--stripe-api-key", "sk_test_wrong", "--stripe-api-base", "http://127.0.0.1:9", "--stripe-api-timeout-ms", "500",
                       "--data", str(tmp_path / "data"), files=False)
    try:
        _, headers, body = get(server, "/web/web")
        status, _, page = post_form(server, "/web/web/checkout", {"csrf": hidden(body, "csrf"), "product_id": "lifetime",
                                                                  "variation_id": hidden(body, "variation_id")}, visitor_cookie(headers))
        assert status == 502 and "Nothing was charged" in page
    finally:
        server.stop()



def test_a_browser_buys_on_the_web_paywall_and_the_app_redeems_the_link(server, stripe, browser, tmp_path):
    from selenium.webdriver.common.by import By

    browser.size("phone")
    browser.open(server.url + "/web/web?locale=en")
    browser.wait_until(lambda d: d.find_elements(By.CSS_SELECTOR, "input[name=product_id]"), "the plans")
    browser.screenshot("web-paywall")
    browser.size("desktop")
    browser.screenshot("web-paywall")
    annual = browser.driver.find_element(By.XPATH, "//input[@name='product_id'][@value='premium_annual']/ancestor::label")
    annual.click()
    assert browser.driver.find_element(By.CSS_SELECTOR, "input[value=premium_annual]").is_selected()
    browser.driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    browser.wait_until(lambda d: "/pay/cs_test_" in d.current_url, "Stripe's page")
    browser.driver.find_element(By.ID, "pay").click()
    browser.wait_until(lambda d: d.find_elements(By.ID, "pw-redeem"), "the redemption link", timeout_s=20)
    link = browser.driver.find_element(By.ID, "pw-redeem").get_attribute("href")
    assert link.startswith("paywire://redeem?token="), link
    # The QR code beside it, read back from the screenshot by another implementation (zbar).
    shot = browser.screenshot("web-paywall-success")
    scanned = subprocess.run(["zbarimg", "--quiet", "--raw", str(shot)], capture_output=True, text=True, timeout=30)
    assert scanned.stdout.strip() == link, (scanned.stdout, scanned.stderr)
    assert all(d["status"] == 200 for d in stripe.deliveries), stripe.deliveries

    with paywire.Client({"profile_id": "app-user", "storage_dir": str(tmp_path / "app"),
                         "store": {"type": "test", "products": PRODUCTS},
                         "transport": {"type": "http", "base_url": server.url, "request_timeout_ms": 2000},
                         "refresh_profile_on_start": False}) as client:
        call_id = client.call_async("redeem_web_purchase", {"url": link})
        deadline, answer = time.monotonic() + 10, None
        while answer is None and time.monotonic() < deadline:
            event = client.poll(0.2)
            if event and event["event"] == "call_result" and event["call_id"] == call_id:
                answer = event
        assert answer is not None, "no call_result within 10 s"
        assert answer["envelope"]["success"]["result"] == "redeemed", answer
        premium = as_read(answer["envelope"]["success"]["profile"]["access_levels"]["premium"])
        assert premium["store"] == "stripe" and premium["vendor_product_id"] == "premium_annual"

    # The success page now says the purchase is in the app; the results count it on the web.
    browser.open(browser.url)
    browser.wait_until(lambda d: "in the app" in d.page_source, "the redeemed page")
    counted = exposures(server)
    assert sum(v["web_purchases"] for v in counted.values()) == 1, counted


def pay(stripe, server, session_url):
    """What the buyer's Pay click does at the stand-in: the webhook lands before the redirect."""
    parsed = urllib.parse.urlparse(session_url)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=10)
    connection.request("POST", parsed.path, "", {"Content-Type": "application/x-www-form-urlencoded"})
    response = connection.getresponse()
    response.read()
    connection.close()
    assert response.status == 303, response.status
    return response.headers["Location"]


def test_results_count_the_web_paywall_and_the_apps_apart_and_together(server, stripe):
    # The web: five visitors, each in the variation their profile buckets into; the first buys.
    visitors = []
    for _ in range(5):
        _, headers, body = get(server, "/web/web")
        drawn(server, body, visitor_cookie(headers))
        visitors.append((visitor_cookie(headers), hidden(body, "variation_id"), hidden(body, "csrf")))
    cookie, bought_in, csrf = visitors[0]
    status, headers, _ = post_form(server, "/web/web/checkout", {"csrf": csrf, "product_id": "lifetime", "variation_id": bought_in}, cookie)
    assert status == 303
    success = pay(stripe, server, headers["Location"])
    assert "/web/web/success?session_id=cs_test_" in success
    # The apps: three profiles shown `built` (one of them buys there), one shown `plain`.
    app_records = [shown(f"app-{i}", "built", "web", "web_layout") for i in range(3)] + [shown("app-3", "plain", "web", "web_layout")]
    app_records[2]["app"]["platform"] = "web"  # a web build of an app is still an app
    for record in app_records:
        status, _, body = server.call("POST", "/v1/events", {"records": [record]})
        assert status == 200, body
    cell = {"placement_id": "web", "audience_name": "All", "ab_test_name": "web_layout", "variation_id": "built",
            "paywall_id": "pw-built", "paywall_name": "Built"}
    assert server.call("POST", "/v1/purchases", purchase("app-0", "tx-app-0", attribution=cell))[0] == 200

    counted = exposures(server)
    web_in = {v: sum(1 for _, seen, _ in visitors if seen == v) for v in ("built", "plain")}
    for variation, app_exposed, app_buyers in (("built", 3, 1), ("plain", 1, 0)):
        row = counted[variation]
        web_buyers = 1 if bought_in == variation else 0
        assert row["platforms"]["app"]["exposed"] == app_exposed and row["platforms"]["app"]["purchasers"] == app_buyers, row
        assert row["platforms"]["web"]["exposed"] == web_in[variation] and row["platforms"]["web"]["purchasers"] == web_buyers, row
        # Together: the cell's own numbers are the two sides added.
        assert row["exposed"] == app_exposed + web_in[variation]
        assert row["purchasers"] == app_buyers + web_buyers
        assert row["web_purchases"] == web_buyers and row["store_purchases"] == app_buyers
        if web_in[variation]:
            assert row["platforms"]["web"]["conversion"]["rate"] == web_buyers / web_in[variation]
    # The dashboard shows both sides of each row.
    status, _, page = server.call("GET", "/dashboard")
    assert status == 200
    built = re.search(r'<tr data-platform-variation="built">(.*?)</tr>', page.decode()).group(1)
    assert '<td data-field="app_exposed">3</td><td data-field="app_purchasers">1</td>' in built
    assert f'<td data-field="web_exposed">{web_in["built"]}</td>' in built


def bought(server, stripe, cookie, product_id, placement="web"):
    """A checkout of `product_id` paid at the stand-in; the redemption link's token its success page gives."""
    _, _, page = get(server, f"/web/{placement}", cookie=cookie)
    status, headers, _ = post_form(server, f"/web/{placement}/checkout", {
        "csrf": hidden(page, "csrf"), "product_id": product_id, "variation_id": hidden(page, "variation_id"),
        "locale": hidden(page, "locale")}, cookie)
    assert status == 303, status
    success = pay(stripe, server, headers["Location"])
    status, _, page = get(server, urllib.parse.urlparse(success).path + "?" + urllib.parse.urlparse(success).query, cookie=cookie)
    assert status == 200, page
    return re.search(r'id="pw-redeem" href="paywire://redeem\?token=([^"]+)"', page).group(1)


#: Every element's right edge and the document's scroll width, against the viewport's width.
OVERFLOW = """
const width = document.documentElement.clientWidth;
const wider = [...document.querySelectorAll('body *')].map(e => [e.tagName + (e.id ? '#' + e.id : ''), e.getBoundingClientRect().right])
  .filter(([_, right]) => right > width + 0.5);
return {width: width, scroll: document.documentElement.scrollWidth, wider: wider};
"""


def fits(browser, width):
    seen = browser.driver.execute_script(OVERFLOW)
    assert seen["width"] == width, seen
    assert seen["scroll"] <= width and not seen["wider"], f"the page is wider than {width} px: {seen}"


@pytest.mark.parametrize("size", ["narrow", "phone"])
def test_the_success_page_fits_a_phone_and_says_in_words_when_the_link_expires(server, stripe, browser, size):
    from selenium.webdriver.common.by import By

    from browser import SIZES
    _, headers, _ = get(server, "/web/web")
    cookie = visitor_cookie(headers)
    _, _, page = get(server, "/web/web", cookie=cookie)
    status, headers, _ = post_form(server, "/web/web/checkout", {
        "csrf": hidden(page, "csrf"), "product_id": "lifetime", "variation_id": hidden(page, "variation_id"),
        "locale": hidden(page, "locale")}, cookie)
    assert status == 303, status
    success = urllib.parse.urlparse(pay(stripe, server, headers["Location"]))
    browser.size(size)
    browser.open(server.url + "/healthz")   # the server's origin, where the visitor's cookie is set
    name, value = cookie.split("=", 1)
    browser.driver.add_cookie({"name": name, "value": value, "path": "/"})
    paid_at = timeshift.now_ms() / 1000  # the run's clock: the server dates the link on it
    browser.open(f"{server.url}{success.path}?{success.query}")
    browser.wait_until(lambda d: d.find_elements(By.ID, "pw-redeem"), "the redemption link")
    width = SIZES[size][0]
    fits(browser, width)
    browser.screenshot("web-paywall-success-fits")
    # The link as text breaks anywhere: the widest token with no place to break fits too.
    browser.driver.execute_script("document.getElementById('pw-redeem-link').textContent = 'paywire://redeem?token=' + 'W'.repeat(43)")
    fits(browser, width)

    # The expiry in words: how long, then the day and the time with its zone; ISO only for machines.
    expiry = browser.driver.find_element(By.ID, "pw-redeem-expiry")
    expires = datetime.datetime.fromtimestamp(paid_at + 7 * 86400, datetime.timezone.utc)
    words = expiry.text
    assert words.startswith("for 7 days, until ") and words.endswith(" UTC"), words
    assert any(f"{moment.day} {moment:%B %Y}, {moment:%H:%M} UTC" in words
               for moment in (expires, expires - datetime.timedelta(minutes=1), expires + datetime.timedelta(minutes=1))), words
    assert not re.search(r"\d{4}-\d\d-\d\dT", words), "no raw ISO timestamp in the words"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", expiry.get_attribute("datetime"))


def test_each_checkout_of_one_visitor_is_redeemed_on_its_own(server, stripe):
    _, headers, _ = get(server, "/web/web")
    cookie = visitor_cookie(headers)
    lifetime, monthly = bought(server, stripe, cookie, "lifetime"), bought(server, stripe, cookie, "premium_monthly")
    for token, profile_id in ((lifetime, "phone-one"), (monthly, "phone-two")):
        status, _, body = server.call("POST", "/v1/redemptions", {"token": token, "profile_id": profile_id})
        assert status == 200 and body["result"] == "redeemed", body
    _, _, one = server.call("GET", "/v1/profiles/phone-one")
    _, _, two = server.call("GET", "/v1/profiles/phone-two")
    assert as_read(one["profile"]["access_levels"]["premium"])["vendor_product_id"] == "lifetime"
    assert as_read(two["profile"]["access_levels"]["premium"])["vendor_product_id"] == "premium_monthly"


def test_the_checkout_chooses_in_the_pages_language_and_a_page_of_another_variation_is_drawn_again(server, stripe):
    _, headers, page = get(server, "/web/targeted?locale=fr")
    cookie = visitor_cookie(headers)
    assert hidden(page, "variation_id") == "french" and hidden(page, "locale") == "fr"
    form = {"csrf": hidden(page, "csrf"), "product_id": "lifetime", "variation_id": "french", "locale": "fr"}
    status, headers, _ = post_form(server, "/web/targeted/checkout", form, cookie)
    assert status == 303
    [session] = stripe.sessions.values()
    assert session["metadata"]["paywire_variation_id"] == "french" and session["metadata"]["paywire_ab_test_name"] == "targeted_fr"
    # A form drawn for another variation (the bundle changed, or the language did) is not charged: the page again.
    status, headers, _ = post_form(server, "/web/targeted/checkout", dict(form, locale="de"), cookie)
    assert status == 303 and headers["Location"] == "/web/targeted?locale=de" and len(stripe.sessions) == 1


def test_the_success_page_looks_again_for_a_minute_then_says_to_come_back(server):
    _, headers, _ = get(server, "/web/web")
    cookie = visitor_cookie(headers)
    status, _, page = get(server, "/web/web/success?session_id=cs_test_never", cookie=cookie)
    assert status == 200 and "Confirming your payment" in page
    assert '<meta http-equiv="refresh" content="2;url=/web/web/success?session_id=cs_test_never&amp;attempt=1">' in page
    status, _, page = get(server, "/web/web/success?session_id=cs_test_never&attempt=30", cookie=cookie)
    assert status == 200 and "still being confirmed" in page and "http-equiv" not in page
    status, _, page = get(server, "/web/web/success?session_id=cs_test_never")
    assert status == 403, "another browser (no visitor cookie) is told to open the page where it paid"
