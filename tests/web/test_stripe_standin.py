"""The Stripe stand-in itself: it must refuse what Stripe refuses and send what Stripe sends, or
the web paywall's tests prove nothing. Signatures are checked here with an HMAC computed
independently of the stand-in's own code."""
import json
import pathlib
import subprocess
import sys
import time
import urllib.parse

import pytest

import http_checks
import timeshift
from local_site import webhook_endpoint
from stripe_standin import StripeError, StripeStandIn, parse_form

KEY = "sk_test_standin_key_1234"
SECRET = "whsec_standin_test_secret"
HERE = pathlib.Path(__file__).resolve().parent


@pytest.fixture
def endpoint():
    site = webhook_endpoint()
    yield site
    site.stop()


@pytest.fixture
def standin(endpoint):
    with StripeStandIn(api_key=KEY, webhook_url=endpoint.url + "/webhook", webhook_secret=SECRET, backoff_s=0.01) as running:
        yield running


def call(base_url, method, path, form=None, key=KEY, **kwargs):
    return http_checks.call(base_url, method, path, form=form, key=key, **kwargs)


def verified(request, secret=SECRET):
    return http_checks.verified(request, secret)


def session_form(mode="payment", price="price_monthly", **extra):
    form = {"mode": mode, "line_items[0][price]": price, "line_items[0][quantity]": "1",
            "success_url": "http://127.0.0.1:9/web/pl/success?session_id={CHECKOUT_SESSION_ID}",
            "cancel_url": "http://127.0.0.1:9/web/pl", "client_reference_id": "profile-1",
            "metadata[paywire_placement_id]": "pl", "metadata[paywire_web_paywall]": "1"}
    form.update(extra)
    return {key: value for key, value in form.items() if value is not None}


# ---- the form encoding -------------------------------------------------------------------------

def test_brackets_make_nested_objects_and_arrays():
    body = urllib.parse.urlencode([
        ("mode", "subscription"), ("line_items[0][price]", "price_a"), ("line_items[0][quantity]", "1"),
        ("line_items[1][price]", "price_b"), ("metadata[paywire_placement_id]", "pl"), ("metadata[empty]", ""),
        ("subscription_data[metadata][paywire_variation_id]", "v1"), ("payment_method_types[]", "card"),
        ("payment_method_types[]", "link"), ("success_url", "https://x.test/s?id={CHECKOUT_SESSION_ID}")])
    assert parse_form(body) == {
        "mode": "subscription", "line_items": [{"price": "price_a", "quantity": "1"}, {"price": "price_b"}],
        "metadata": {"paywire_placement_id": "pl", "empty": ""},
        "subscription_data": {"metadata": {"paywire_variation_id": "v1"}}, "payment_method_types": ["card", "link"],
        "success_url": "https://x.test/s?id={CHECKOUT_SESSION_ID}"}


@pytest.mark.parametrize("body, param", [
    ("line_items[1][price]=p", "line_items"),            # an array must start at 0
    ("line_items[0][price]=p&line_items[2][price]=q", "line_items"),
    ("mode=payment&mode=subscription", "mode"),          # given twice
    ("metadata=x&metadata[a]=b", "metadata[a]"),         # a value, then an object
    ("metadata[a]=b&metadata=x", "metadata"),
    ("a]b=1", "a]b"),
])
def test_malformed_brackets_are_refused_naming_the_parameter(body, param):
    with pytest.raises(StripeError) as refused:
        parse_form(body)
    assert refused.value.status == 400 and refused.value.param == param


# ---- the API's refusals ------------------------------------------------------------------------

@pytest.mark.parametrize("key", [None, "", "sk_test_someone_elses_key"])
def test_a_request_without_the_secret_key_is_refused_in_stripes_shape(standin, key):
    status, _, body = call(standin.url, "POST", "/v1/checkout/sessions", session_form(), key=key)
    assert status == 401
    assert body["error"]["type"] == "invalid_request_error" and body["error"]["message"]
    assert KEY not in body["error"]["message"]
    assert standin.sessions == {}
    status, _, body = call(standin.url, "GET", "/v1/checkout/sessions/cs_test_x", key=key)
    assert status == 401 and body["error"]["type"] == "invalid_request_error"


@pytest.mark.parametrize("change, param, code", [
    ({"mode": None}, "mode", "parameter_missing"),
    ({"mode": "setup"}, "mode", "parameter_invalid"),
    ({"line_items[0][price]": None, "line_items[0][quantity]": None}, "line_items", "parameter_missing"),
    ({"line_items[0][price]": None}, "line_items[0][price]", "parameter_missing"),
    ({"line_items[0][quantity]": None}, "line_items[0][quantity]", "parameter_missing"),
    ({"line_items[0][quantity]": "0"}, "line_items[0][quantity]", "parameter_invalid"),
    ({"success_url": None}, "success_url", "parameter_missing"),
    ({"success_url": "/relative/only"}, "success_url", "parameter_invalid"),
    ({"metadata[paywire_placement_id]": "x" * 501}, "metadata[paywire_placement_id]", "parameter_invalid"),
    ({"subscription_data[metadata][a]": "b"}, "subscription_data", "parameter_invalid"),  # payment mode
    ({"line_items[0][colour]": "red"}, "line_items[0][colour]", "parameter_unknown"),
    ({"paywire_placement_id": "pl"}, "paywire_placement_id", "parameter_unknown"),
])
def test_what_stripe_requires_is_checked_naming_the_parameter(standin, change, param, code):
    status, _, body = call(standin.url, "POST", "/v1/checkout/sessions", session_form(**change))
    assert status == 400, body
    assert body["error"]["type"] == "invalid_request_error"
    assert body["error"]["param"] == param and body["error"]["code"] == code, body
    assert standin.sessions == {}


def test_a_json_body_is_refused_as_stripe_takes_only_forms(standin):
    status, _, body = call(standin.url, "POST", "/v1/checkout/sessions", body=json.dumps({"mode": "payment"}),
                           content_type="application/json")
    assert status == 400 and body["error"]["type"] == "invalid_request_error"


def test_with_a_catalog_a_price_must_exist_and_suit_the_mode():
    prices = {"price_monthly": "recurring", "price_lifetime": "one_time"}
    with StripeStandIn(api_key=KEY, prices=prices) as standin:
        for mode, price, status, code in [("payment", "price_nope", 400, "resource_missing"),
                                          ("payment", "price_monthly", 400, "parameter_invalid"),
                                          ("subscription", "price_lifetime", 400, "parameter_invalid"),
                                          ("payment", "price_lifetime", 200, None),
                                          ("subscription", "price_monthly", 200, None)]:
            answer_status, _, body = call(standin.url, "POST", "/v1/checkout/sessions", session_form(mode=mode, price=price))
            assert answer_status == status, (mode, price, body)
            if code:
                assert body["error"]["code"] == code and body["error"]["param"] == "line_items[0][price]"


# ---- sessions ----------------------------------------------------------------------------------

def test_a_created_session_has_stripes_shape_and_can_be_read_back(standin):
    before = timeshift.now_s()
    status, headers, session = call(standin.url, "POST", "/v1/checkout/sessions", session_form())
    assert status == 200, session
    assert session["id"].startswith("cs_test_") and len(session["id"]) > len("cs_test_") + 20
    assert session["object"] == "checkout.session" and session["livemode"] is False
    assert session["status"] == "open" and session["payment_status"] == "unpaid" and session["mode"] == "payment"
    assert session["url"] == f"{standin.url}/pay/{session['id']}"
    assert session["client_reference_id"] == "profile-1"
    assert session["metadata"] == {"paywire_placement_id": "pl", "paywire_web_paywall": "1"}
    assert session["success_url"].endswith("session_id={CHECKOUT_SESSION_ID}")
    assert before <= session["created"] <= timeshift.now_s() and session["expires_at"] == session["created"] + 24 * 3600
    assert session["payment_intent"] is None and session["subscription"] is None
    # Kept for tests: the request as it came, parsed.
    request = standin.requests[-1]
    assert request["params"]["line_items"] == [{"price": "price_monthly", "quantity": "1"}]
    assert request["headers"]["Authorization"] == f"Bearer {KEY}"

    status, _, read = call(standin.url, "GET", f"/v1/checkout/sessions/{session['id']}")
    assert status == 200 and read == session
    status, _, missing = call(standin.url, "GET", "/v1/checkout/sessions/cs_test_nothing")
    assert status == 404 and missing["error"]["code"] == "resource_missing"
    second = call(standin.url, "POST", "/v1/checkout/sessions", session_form())[2]
    assert second["id"] != session["id"] and len(standin.sessions) == 2


def test_an_empty_metadata_value_is_not_kept_as_stripe_unsets_it(standin):
    status, _, session = call(standin.url, "POST", "/v1/checkout/sessions",
                              session_form(**{"metadata[paywire_ab_test_name]": "", "metadata[kept]": "x"}))
    assert status == 200, session
    assert session["metadata"] == {"paywire_placement_id": "pl", "paywire_web_paywall": "1", "kept": "x"}


def test_the_hosted_page_shows_the_price_and_a_pay_button(standin):
    session = call(standin.url, "POST", "/v1/checkout/sessions", session_form(price="price_annual"))[2]
    status, headers, page = call(standin.url, "GET", urllib.parse.urlsplit(session["url"]).path, key=None)
    page = page.decode()
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert '<h1 id="price">price_annual</h1>' in page
    assert f'<form method="post" action="/pay/{session["id"]}"><button id="pay" type="submit">Pay</button></form>' in page


# ---- paying and the webhooks -------------------------------------------------------------------

def test_paying_completes_the_session_sends_a_signed_event_and_goes_to_success_url(standin, endpoint):
    session = call(standin.url, "POST", "/v1/checkout/sessions", session_form())[2]
    status, headers, _ = call(standin.url, "POST", f"/pay/{session['id']}", key=None)
    assert status == 303
    assert headers["location"] == f"http://127.0.0.1:9/web/pl/success?session_id={session['id']}"

    deliveries = endpoint.received("POST", "/webhook")
    assert len(deliveries) == 1
    assert deliveries[0].headers["Content-Type"].startswith("application/json")
    event = verified(deliveries[0])
    assert event["object"] == "event" and event["type"] == "checkout.session.completed" and event["id"].startswith("evt_")
    paid = event["data"]["object"]
    assert paid["id"] == session["id"] and paid["status"] == "complete" and paid["payment_status"] == "paid"
    assert paid["client_reference_id"] == "profile-1" and paid["metadata"]["paywire_placement_id"] == "pl"
    assert paid["customer"].startswith("cus_") and paid["payment_intent"].startswith("pi_") and paid["subscription"] is None
    # The same signature made with another secret does not verify: the check above can fail.
    with pytest.raises(AssertionError):
        verified(deliveries[0], secret="whsec_another")
    assert standin.sessions[session["id"]]["status"] == "complete"
    assert [d["delivered"] for d in standin.deliveries] == [True]

    # A session is paid once.
    status, _, body = call(standin.url, "POST", f"/pay/{session['id']}", key=None)
    assert status == 409 and body["error"]["code"] == "checkout_session_inactive"
    assert len(endpoint.received("POST", "/webhook")) == 1


def test_a_subscription_sends_its_checkout_subscription_and_first_invoice(standin, endpoint):
    metadata = {"paywire_placement_id": "pl", "paywire_ab_test_name": "t", "paywire_variation_id": "v1",
                "paywire_price_id": "price_monthly", "paywire_web_paywall": "1"}
    form = session_form(mode="subscription", **{f"subscription_data[metadata][{k}]": v for k, v in metadata.items()})
    session = call(standin.url, "POST", "/v1/checkout/sessions", form)[2]
    assert session["mode"] == "subscription"
    status, headers, _ = call(standin.url, "POST", f"/pay/{session['id']}", key=None)
    assert status == 303 and headers["location"].endswith("session_id=" + session["id"])

    events = [verified(request) for request in endpoint.received("POST", "/webhook")]
    assert [event["type"] for event in events] == ["checkout.session.completed", "customer.subscription.created", "invoice.paid"]
    completed, subscription, invoice = (event["data"]["object"] for event in events)
    assert completed["subscription"].startswith("sub_") and completed["payment_intent"] is None
    assert subscription["id"] == completed["subscription"] and subscription["status"] == "active"
    assert subscription["customer"] == completed["customer"] and subscription["metadata"] == metadata
    assert subscription["items"]["data"][0]["price"]["id"] == "price_monthly"
    assert abs(subscription["current_period_end"] - (timeshift.now_s() + 30 * 24 * 3600)) < 60
    assert invoice["subscription"] == subscription["id"] and invoice["billing_reason"] == "subscription_create"
    assert invoice["lines"]["data"][0]["price"]["id"] == "price_monthly"
    assert invoice["lines"]["data"][0]["period"]["end"] == subscription["current_period_end"]
    assert len({event["id"] for event in events}) == 3


def test_a_failed_delivery_is_tried_again_and_every_attempt_is_kept():
    flaky = webhook_endpoint(statuses=[500, 503])
    try:
        with StripeStandIn(api_key=KEY, webhook_url=flaky.url + "/webhook", webhook_secret=SECRET, backoff_s=0.01) as standin:
            session = call(standin.url, "POST", "/v1/checkout/sessions", session_form())[2]
            status, headers, _ = call(standin.url, "POST", f"/pay/{session['id']}", key=None)
            assert status == 303
            assert [(d["attempt"], d["status"], d["delivered"]) for d in standin.deliveries] == [
                (1, 500, False), (2, 503, False), (3, 200, True)]
            bodies = [request.body for request in flaky.received("POST", "/webhook")]
            assert len(bodies) == 3 and len(set(bodies)) == 1
    finally:
        flaky.stop()


def test_an_endpoint_that_never_answers_well_is_given_up_on_and_the_browser_still_goes_on():
    down = webhook_endpoint(statuses=[500] * 10)
    try:
        with StripeStandIn(api_key=KEY, webhook_url=down.url + "/webhook", retries=2, backoff_s=0.01) as standin:
            session = call(standin.url, "POST", "/v1/checkout/sessions", session_form())[2]
            status, headers, _ = call(standin.url, "POST", f"/pay/{session['id']}", key=None)
            assert status == 303 and headers["location"].endswith(session["id"])
            assert [d["delivered"] for d in standin.deliveries] == [False, False, False]
    finally:
        down.stop()
    # Nothing listening: the connection's failure is recorded too.
    with StripeStandIn(api_key=KEY, webhook_url=down.url + "/webhook", retries=1, backoff_s=0.01) as standin:
        session = call(standin.url, "POST", "/v1/checkout/sessions", session_form())[2]
        assert call(standin.url, "POST", f"/pay/{session['id']}", key=None)[0] == 303
        assert [(d["status"], bool(d["error"])) for d in standin.deliveries] == [(None, True), (None, True)]


def test_it_runs_as_a_program(endpoint):
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([sys.executable, str(HERE / "stripe_standin.py"), "--port", str(port), "--webhook",
                                endpoint.url + "/webhook", "--webhook-secret", SECRET, "--api-key", KEY],
                               stdout=subprocess.PIPE, text=True)
    try:
        assert "stripe stand-in on" in process.stdout.readline()
        base = f"http://127.0.0.1:{port}"
        session = call(base, "POST", "/v1/checkout/sessions", session_form())[2]
        assert call(base, "POST", f"/pay/{session['id']}", key=None)[0] == 303
        assert verified(endpoint.received("POST", "/webhook")[0])["data"]["object"]["id"] == session["id"]
    finally:
        process.terminate()
        process.wait(timeout=10)
