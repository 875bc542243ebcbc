"""The browser tooling works before any paywall relies on it: headless Chromium opens a local
page at a phone's and a desktop's size, a person's keys choose a plan and submit the form, the
browser lands where the server sent it, and the screenshots are real PNGs of the viewport. Then
the same browser pays on the Stripe stand-in's hosted page, and the webhook that follows is one
Stripe's libraries would accept."""
import html
import urllib.parse

import pytest

from browser import SIZES, png_size
from http_checks import call, verified
from local_site import LocalSite
from stripe_standin import StripeStandIn

PLANS = [("monthly", "Monthly, 9.99 a month"), ("annual", "Annual, 59.99 a year"), ("lifetime", "Lifetime, 149.99 once")]
KEY = "sk_test_browser_smoke"
SECRET = "whsec_browser_smoke"


def page(title, body):
    return (200, {"Content-Type": "text/html; charset=utf-8"},
            f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<style>body{font-family:sans-serif;margin:16px}label{display:block;padding:12px;border:1px solid #999;"
            "margin:8px 0;border-radius:8px}button{width:100%;padding:14px;font-size:18px}</style>"
            f"</head><body>{body}</body></html>")


def plans_page(request):
    radios = "".join(f'<label for="plan-{plan}"><input type="radio" id="plan-{plan}" name="product_id" value="{plan}"> '
                     f"{html.escape(text)}</label>" for plan, text in PLANS)
    return page("Plans", f'<h1>Choose a plan</h1><form method="post" action="/checkout">{radios}'
                         '<button type="submit" id="continue">Continue</button></form>')


def checkout(request):
    chosen = request.form().get("product_id", [""])[0]
    return 303, {"Location": "/done?" + urllib.parse.urlencode({"product_id": chosen})}, b""


def done(request):
    return page("Done", f'<h1 id="chosen">{html.escape(request.query.get("product_id", [""])[0])}</h1>')


@pytest.fixture
def site():
    running = LocalSite({("GET", "/"): plans_page, ("POST", "/checkout"): checkout, ("GET", "/done"): done})
    yield running
    running.stop()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_plan_is_chosen_and_submitted_with_the_keyboard(browser, site, size):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.size(size)
    browser.open(site.url + "/")
    width, height = SIZES[size]
    assert browser.driver.execute_script("return [window.innerWidth, window.innerHeight]") == [width, height]
    # Nothing is chosen yet; Tab enters the radio group at its first plan.
    assert not any(radio.is_selected() for radio in browser.driver.find_elements(By.NAME, "product_id"))
    browser.keys(Keys.TAB)
    assert browser.focused().get_attribute("value") == "monthly"
    # An arrow moves the choice to the next plan; Tab leaves the group for the button.
    browser.keys(Keys.ARROW_DOWN)
    assert browser.focused().get_attribute("value") == "annual"
    assert browser.driver.find_element(By.ID, "plan-annual").is_selected()
    button = browser.driver.find_element(By.ID, "continue")
    box = button.rect
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, f"the button does not fit a {width} px viewport: {box}"
    shot = browser.screenshot("smoke-plans-chosen")
    assert png_size(shot) == (width, height)

    browser.keys(Keys.TAB)
    assert browser.focused().get_attribute("id") == "continue"
    browser.keys(Keys.SPACE)
    browser.wait_until(lambda driver: urllib.parse.urlsplit(driver.current_url).path == "/done", "the page after the form")
    assert browser.url == site.url + "/done?product_id=annual"
    assert browser.driver.find_element(By.ID, "chosen").text == "annual"
    posted = site.received("POST", "/checkout")
    assert len(posted) == 1 and posted[0].form() == {"product_id": ["annual"]}
    assert png_size(browser.screenshot("smoke-done")) == (width, height)


def thanks(request):
    return page("Thanks", f'<h1 id="thanks">{html.escape(request.query.get("session_id", [""])[0])}</h1>')


@pytest.fixture
def merchant():
    """The merchant's side: the webhook endpoint and the success page."""
    running = LocalSite({("POST", "/webhook"): lambda request: (200, {"Content-Type": "application/json"}, "{}"),
                         ("GET", "/success"): thanks})
    yield running
    running.stop()


def test_the_browser_pays_on_the_standins_hosted_page(browser, merchant):
    from selenium.webdriver.common.by import By

    with StripeStandIn(api_key=KEY, webhook_url=merchant.url + "/webhook", webhook_secret=SECRET) as standin:
        status, _, session = call(standin.url, "POST", "/v1/checkout/sessions", key=KEY, form={
            "mode": "payment", "line_items[0][price]": "price_lifetime", "line_items[0][quantity]": "1",
            "success_url": merchant.url + "/success?session_id={CHECKOUT_SESSION_ID}", "cancel_url": merchant.url + "/",
            "client_reference_id": "visitor-1", "metadata[paywire_price_id]": "price_lifetime"})
        assert status == 200, session
        browser.size("phone")
        browser.open(session["url"])
        assert browser.driver.find_element(By.ID, "price").text == "price_lifetime"
        assert png_size(browser.screenshot("standin-checkout")) == SIZES["phone"]
        browser.driver.find_element(By.ID, "pay").click()
        browser.wait_until(lambda driver: driver.current_url.startswith(merchant.url + "/success"), "the success page")

        assert browser.url == f"{merchant.url}/success?session_id={session['id']}"
        assert browser.driver.find_element(By.ID, "thanks").text == session["id"]
        deliveries = merchant.received("POST", "/webhook")
        assert len(deliveries) == 1
        event = verified(deliveries[0], SECRET)
        assert event["type"] == "checkout.session.completed"
        paid = event["data"]["object"]
        assert paid["id"] == session["id"] and paid["payment_status"] == "paid"
        assert paid["client_reference_id"] == "visitor-1" and paid["metadata"] == {"paywire_price_id": "price_lifetime"}
        # The webhook came before the browser was sent on, as the stand-in delivers it first.
        paths = [request.path for request in merchant.requests]
        assert paths.index("/webhook") < paths.index("/success")
