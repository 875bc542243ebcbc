"""Helpers of the Stripe webhook tests: a catalog with Stripe prices, Stripe events as Stripe
writes them (https://docs.stripe.com/api/events/object), and their Stripe-Signature made the
way Stripe documents it: HMAC-SHA256 of "<t>.<raw body>" with the endpoint secret, in hex."""
import hashlib
import hmac
import json
import time
import uuid

from conftest import DevServer, PRODUCTS
import timeshift

SECRET = "whsec_test_first_secret"
PRICES = {"premium_monthly": "price_monthly", "premium_annual": "price_annual", "lifetime": "price_lifetime", "coins_100": "price_coins"}
DAY_S = 24 * 3600


def products_file(directory):
    """The example catalog with a stripe_price_id on each product."""
    products = json.loads(PRODUCTS.read_text())["store"]["products"]
    for product in products:
        product["stripe_price_id"] = PRICES[product["vendor_product_id"]]
    path = directory / "products.json"
    path.write_text(json.dumps(products))
    return path


def stripe_server(directory, *extra, secrets=(SECRET,)):
    arguments = ["--products", str(products_file(directory))]
    for secret in secrets:
        arguments += ["--stripe-webhook-secret", secret]
    return DevServer(*arguments, *extra)


def signature(body, secret=SECRET, t=None):
    t = timeshift.now_s() if t is None else t
    return t, hmac.new(secret.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()


def header(body, secret=SECRET, t=None):
    t, v1 = signature(body, secret, t)
    return f"t={t},v1={v1}"


def deliver(server, event, secret=SECRET, t=None, stripe_signature=None, body=None):
    """POST the event with its signature: (status, answer)."""
    body = body if body is not None else json.dumps(event).encode()
    signed = stripe_signature if stripe_signature is not None else header(body, secret, t)
    headers = {} if signed is False else {"Stripe-Signature": signed}
    status, _, answer = server.call("POST", "/v1/webhooks/stripe", body, headers=headers)
    return status, answer


def event(type_, obj, previous=None, event_id=None, created=None):
    data = {"object": obj}
    if previous is not None:
        data["previous_attributes"] = previous
    return {"id": event_id or "evt_" + uuid.uuid4().hex[:24], "object": "event", "api_version": "2024-06-20",
            "created": created or timeshift.now_s(), "livemode": False, "pending_webhooks": 1, "type": type_, "data": data}


def checkout(session_id, profile=None, mode="payment", price=None, subscription=None, payment_intent=None, customer="cus_1",
             payment_status="paid"):
    session = {"id": session_id, "object": "checkout.session", "mode": mode, "payment_status": payment_status, "status": "complete",
               "client_reference_id": profile, "customer": customer, "subscription": subscription,
               "payment_intent": payment_intent, "amount_total": 4999, "currency": "usd", "metadata": {}}
    if price:
        session["metadata"]["paywire_price_id"] = price
    return event("checkout.session.completed", session)


def subscription_object(sub_id, price="price_monthly", status="active", period_end=None, customer="cus_1", cancel_at_period_end=False,
                        metadata=None, ended_at=None, reason=None, start=None):
    now = timeshift.now_s()
    return {"id": sub_id, "object": "subscription", "status": status, "customer": customer, "start_date": start or now - 60,
            "current_period_end": period_end or now + 30 * DAY_S, "cancel_at_period_end": cancel_at_period_end,
            "ended_at": ended_at, "metadata": metadata or {}, "cancellation_details": {"reason": reason},
            "items": {"object": "list", "data": [{"id": "si_1", "price": {"id": price, "object": "price"}}]}}


def invoice(invoice_id, sub_id, period_start, period_end, price="price_monthly", reason="subscription_cycle", customer="cus_1",
            payment_intent=None):
    return event("invoice.paid", {
        "id": invoice_id, "object": "invoice", "subscription": sub_id, "customer": customer, "billing_reason": reason,
        "payment_intent": payment_intent, "status": "paid",
        "lines": {"object": "list", "data": [{"id": "il_1", "price": {"id": price}, "period": {"start": period_start, "end": period_end}}]}})


def charge(charge_id, payment_intent=None, invoice_id=None, refunded=True):
    return event("charge.refunded", {"id": charge_id, "object": "charge", "payment_intent": payment_intent, "invoice": invoice_id,
                                     "amount": 4999, "amount_refunded": 4999 if refunded else 1000, "refunded": refunded})
