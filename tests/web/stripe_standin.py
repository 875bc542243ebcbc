#!/usr/bin/env python3
"""A local stand-in of Stripe for the web paywall's tests: the part of Stripe's API a server
calls to sell through Checkout, its hosted checkout page, and the webhooks Stripe sends once a
session is paid. Standard library only.

    python3 tests/web/stripe_standin.py --port N --webhook URL --webhook-secret whsec_... --api-key sk_test_...

or, in a test, `StripeStandIn(webhook_url=..., webhook_secret=..., api_key=...)` (`.start()`,
`.url`, `.stop()`, or as a context manager).

What it plays (each as Stripe documents it, API version 2024-06-20):
- POST /v1/checkout/sessions: the form-encoded parameters in Stripe's bracket notation
  (`line_items[0][price]`, `metadata[key]`), `Authorization: Bearer <secret key>`; answers the
  new checkout.session, or Stripe's error object (`{"error": {"type", "message", "param",
  "code"}}`) with 401 or 400.
- GET /v1/checkout/sessions/{id}: the session.
- GET /pay/{id}: a minimal hosted checkout page; POST /pay/{id} (its Pay button) completes the
  session, sends `checkout.session.completed` (and, for a subscription,
  `customer.subscription.created` and `invoice.paid`) to the webhook endpoint signed with
  `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`, retrying a failed
  delivery a few times, and sends the browser to `success_url` with `{CHECKOUT_SESSION_ID}`
  replaced by the session's id.

What it keeps, for tests to assert on: `requests` (every request it answered), `sessions` (by
id) and `deliveries` (every webhook delivery attempt and how it went).

Not played: prices as objects (any `price_...` is taken unless `prices` is given), customers,
payment methods, expiry, `expand`, idempotency keys, anything but Checkout.
"""
import argparse
import hashlib
import hmac
import html
import json
import re
import secrets
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

# The run's date (tests/timeshift.py): this stand-in also runs as a program of its own.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import timeshift  # noqa: E402

API_VERSION = "2024-06-20"
DAY_S = 24 * 3600
SESSION_TEMPLATE = "{CHECKOUT_SESSION_ID}"

#: The create-session parameters the stand-in knows; Stripe refuses any other with
#: "Received unknown parameter", and so does the stand-in, so a misspelt one shows in a test.
KNOWN_PARAMS = {
    "after_expiration", "allow_promotion_codes", "automatic_tax", "billing_address_collection", "cancel_url",
    "client_reference_id", "consent_collection", "currency", "custom_fields", "custom_text", "customer",
    "customer_creation", "customer_email", "customer_update", "discounts", "expand", "expires_at", "invoice_creation",
    "line_items", "locale", "metadata", "mode", "payment_intent_data", "payment_method_collection",
    "payment_method_types", "phone_number_collection", "saved_payment_method_options", "shipping_address_collection",
    "submit_type", "subscription_data", "success_url", "tax_id_collection", "ui_mode",
}
LINE_ITEM_PARAMS = {"price", "price_data", "quantity", "adjustable_quantity", "dynamic_tax_rates", "tax_rates"}
SUBSCRIPTION_DATA_PARAMS = {
    "application_fee_percent", "billing_cycle_anchor", "default_tax_rates", "description", "invoice_settings",
    "metadata", "on_behalf_of", "proration_behavior", "transfer_data", "trial_end", "trial_period_days",
    "trial_settings",
}
#: Stripe's limits on metadata: 50 keys, keys up to 40 characters, values up to 500.
METADATA_KEYS, METADATA_KEY_CHARS, METADATA_VALUE_CHARS = 50, 40, 500


class StripeError(Exception):
    """An answer in Stripe's error shape."""

    def __init__(self, status, message, param=None, code=None, type_="invalid_request_error"):
        super().__init__(message)
        self.status, self.message, self.param, self.code, self.type = status, message, param, code, type_

    def body(self):
        error = {"type": self.type, "message": self.message}
        if self.param is not None:
            error["param"] = self.param
        if self.code is not None:
            error["code"] = self.code
        return {"error": error}


def _key_path(key):
    """`line_items[0][price]` -> ["line_items", "0", "price"]; `a[]` -> ["a", ""]."""
    match = re.fullmatch(r"([^\[\]]+)((?:\[[^\[\]]*\])*)", key)
    if match is None:
        raise StripeError(400, f"Invalid parameter name: {key}", param=key, code="parameter_invalid")
    return [match.group(1)] + re.findall(r"\[([^\[\]]*)\]", match.group(2))


def _as_lists(node, name):
    """Turns each dict whose keys are all array indexes into a list; the indexes must be 0..n-1."""
    if not isinstance(node, dict):
        return node
    for key in list(node):
        node[key] = _as_lists(node[key], f"{name}[{key}]" if name else key)
    if node and all(key.isdigit() for key in node):
        indexes = sorted(int(key) for key in node)
        if indexes != list(range(len(indexes))):
            raise StripeError(400, f"Invalid array: the indexes of {name} must run from 0 without gaps", param=name,
                              code="parameter_invalid")
        return [node[str(index)] for index in indexes]
    return node


def parse_form(body):
    """Stripe's form encoding into nested dicts and lists: `a[b][0][c]=v` -> {"a": {"b": [{"c": "v"}]}}.
    `a[]=x&a[]=y` appends. A key given twice, or both as a value and as an object, is refused."""
    tree = {}
    for key, value in urllib.parse.parse_qsl(body, keep_blank_values=True):
        path = _key_path(key)
        node = tree
        for depth, segment in enumerate(path):
            if segment == "":
                segment = str(len(node))  # `a[]`: the next index
            if depth == len(path) - 1:
                if segment in node:
                    raise StripeError(400, f"Invalid parameter: {key} is given twice", param=key, code="parameter_invalid")
                node[segment] = value
                break
            child = node.setdefault(segment, {})
            if not isinstance(child, dict):
                raise StripeError(400, f"Invalid parameter: {key} is both a value and an object", param=key,
                                  code="parameter_invalid")
            node = child
    return _as_lists(tree, "")


def signature_header(body, secret, t):
    """Stripe-Signature for `body` (bytes) at unix time `t`."""
    digest = hmac.new(secret.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={t},v1={digest}"


def _random_id(prefix, length=24):
    return prefix + secrets.token_hex(length)[:length]


def _missing(param, what=None):
    return StripeError(400, f"Missing required param: {param}." + (f" {what}" if what else ""), param=param,
                       code="parameter_missing")


def _invalid(param, message):
    return StripeError(400, message, param=param, code="parameter_invalid")


def _check_metadata(metadata, param):
    if metadata in ("", None):
        return {}
    if not isinstance(metadata, dict):
        raise _invalid(param, f"Invalid object: {param} must be a hash of keys and values")
    if len(metadata) > METADATA_KEYS:
        raise _invalid(param, f"Invalid {param}: at most {METADATA_KEYS} keys")
    for key, value in metadata.items():
        if not isinstance(value, str):
            raise _invalid(f"{param}[{key}]", f"Invalid {param}[{key}]: metadata values are strings")
        if len(key) > METADATA_KEY_CHARS or len(value) > METADATA_VALUE_CHARS:
            raise _invalid(f"{param}[{key}]", f"Invalid {param}[{key}]: keys are at most {METADATA_KEY_CHARS} characters, "
                                              f"values at most {METADATA_VALUE_CHARS}")
    # Stripe keeps no key whose value is empty (an empty value is how a key is unset).
    return {key: value for key, value in metadata.items() if value != ""}


def _check_url(value, param):
    parsed = urllib.parse.urlparse(value)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise _invalid(param, f"Not a valid URL: {param}")


def _text(container, key, param):
    """A string parameter, or None when absent; an object or array where a string belongs is refused."""
    value = container.get(key)
    if value is not None and not isinstance(value, str):
        raise _invalid(param, f"Invalid string: {param}")
    return value


def validate_create(params, prices=None):
    """What Stripe checks of a create-session request, as far as the stand-in plays it. `prices`
    (price id -> "one_time" | "recurring"), when given, is the account's catalog."""
    if not isinstance(params, dict):
        raise _invalid("", "Invalid request: the parameters must be named")
    for key in ("mode", "success_url", "cancel_url", "client_reference_id", "customer", "customer_email", "locale"):
        _text(params, key, key)
    for key in params:
        if key not in KNOWN_PARAMS:
            raise StripeError(400, f"Received unknown parameter: {key}", param=key, code="parameter_unknown")
    mode = params.get("mode")
    if mode in (None, ""):
        raise _missing("mode")
    if mode not in ("payment", "subscription"):
        raise _invalid("mode", f"Invalid mode: must be one of payment or subscription (the stand-in plays no '{mode}')")
    items = params.get("line_items")
    if items in (None, "", []):
        raise _missing("line_items", f"line_items is required in {mode} mode.")
    if not isinstance(items, list):
        raise _invalid("line_items", "Invalid array: line_items")
    for index, item in enumerate(items):
        where = f"line_items[{index}]"
        if not isinstance(item, dict):
            raise _invalid(where, f"Invalid object: {where}")
        for key in item:
            if key not in LINE_ITEM_PARAMS:
                raise StripeError(400, f"Received unknown parameter: {where}[{key}]", param=f"{where}[{key}]",
                                  code="parameter_unknown")
        price = _text(item, "price", f"{where}[price]")
        if not price:
            raise _missing(f"{where}[price]", "A line item needs a price (price_data is not played by the stand-in).")
        if prices is not None:
            if price not in prices:
                raise StripeError(400, f"No such price: '{price}'", param=f"{where}[price]", code="resource_missing")
            kind = prices[price]
            if mode == "payment" and kind == "recurring":
                raise _invalid(f"{where}[price]", "You must provide at least one recurring price in `subscription` mode "
                                                  "when using prices; a recurring price cannot be bought in `payment` mode.")
            if mode == "subscription" and kind != "recurring":
                raise _invalid(f"{where}[price]", "You must provide at least one recurring price in `subscription` mode "
                                                  "when using prices.")
        quantity = _text(item, "quantity", f"{where}[quantity]")
        if quantity in (None, ""):
            raise _missing(f"{where}[quantity]", "Quantity is required when a line item has a price.")
        if not quantity.isdigit() or int(quantity) < 1:
            raise _invalid(f"{where}[quantity]", f"Invalid positive integer: {where}[quantity]")
    success_url = params.get("success_url")
    if not success_url:
        raise _missing("success_url")
    _check_url(success_url, "success_url")
    if params.get("cancel_url"):
        _check_url(params["cancel_url"], "cancel_url")
    reference = params.get("client_reference_id")
    if reference is not None and len(reference) > 200:
        raise _invalid("client_reference_id", "Invalid client_reference_id: a string of at most 200 characters")
    metadata = _check_metadata(params.get("metadata"), "metadata")
    subscription_data = params.get("subscription_data")
    if subscription_data is not None:
        if mode != "subscription":
            raise _invalid("subscription_data", "You can only pass `subscription_data` in `subscription` mode.")
        if not isinstance(subscription_data, dict):
            raise _invalid("subscription_data", "Invalid object: subscription_data")
        for key in subscription_data:
            if key not in SUBSCRIPTION_DATA_PARAMS:
                raise StripeError(400, f"Received unknown parameter: subscription_data[{key}]",
                                  param=f"subscription_data[{key}]", code="parameter_unknown")
        _check_metadata(subscription_data.get("metadata"), "subscription_data[metadata]")
    if params.get("payment_intent_data") is not None and mode != "payment":
        raise _invalid("payment_intent_data", "You can only pass `payment_intent_data` in `payment` mode.")
    return metadata


class StripeStandIn:
    """The stand-in, on 127.0.0.1. `api_key`: the secret key a caller must send. `webhook_url`:
    where events go (None: nowhere). `prices`: price id -> "one_time" | "recurring" (None: any
    price is taken). `retries`, `backoff_s`: a failed delivery is tried again `retries` times,
    waiting backoff_s, then twice as long, and so on."""

    def __init__(self, api_key="sk_test_standin", webhook_url=None, webhook_secret="whsec_standin", port=0,
                 prices=None, retries=3, backoff_s=0.05, delivery_timeout_s=10):
        self.api_key, self.webhook_url, self.webhook_secret = api_key, webhook_url, webhook_secret
        self.prices, self.retries, self.backoff_s, self.delivery_timeout_s = prices, retries, backoff_s, delivery_timeout_s
        self.sessions, self.requests, self.deliveries, self.events = {}, [], [], []
        self._private = {}  # session id -> its line items and subscription metadata (not in the session object)
        self.lock = threading.Lock()
        standin = self

        class Handler(_Handler):
            owner = standin

        self._server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self._server.daemon_threads = True
        self._thread = None

    @property
    def port(self):
        return self._server.server_address[1]

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self):
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), name="stripe-standin",
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self):
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # ---- the API ------------------------------------------------------------------------------

    def authorize(self, headers):
        given = headers.get("Authorization", "")
        if not given.startswith("Bearer ") or not given[len("Bearer "):].strip():
            raise StripeError(401, "You did not provide an API key. You need to provide your API key in the Authorization "
                                   "header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').")
        key = given[len("Bearer "):].strip()
        if not hmac.compare_digest(key.encode(), self.api_key.encode()):
            raise StripeError(401, f"Invalid API Key provided: {key[:8]}{'*' * max(0, len(key) - 12)}{key[-4:]}")

    def create_session(self, params):
        metadata = validate_create(params, self.prices)
        now = timeshift.now_s()
        session_id = _random_id("cs_test_", 58)
        mode = params["mode"]
        subscription_data = params.get("subscription_data") or {}
        session = {
            "id": session_id, "object": "checkout.session", "livemode": False, "created": now, "expires_at": now + DAY_S,
            "mode": mode, "status": "open", "payment_status": "unpaid", "url": f"{self.url}/pay/{session_id}",
            "success_url": params["success_url"], "cancel_url": params.get("cancel_url"),
            "client_reference_id": params.get("client_reference_id"), "customer": params.get("customer"),
            "customer_email": params.get("customer_email"), "metadata": metadata, "currency": None,
            "amount_subtotal": None, "amount_total": None, "payment_intent": None, "subscription": None, "invoice": None,
            "locale": params.get("locale"), "ui_mode": params.get("ui_mode", "hosted"),
        }
        with self.lock:
            self.sessions[session_id] = session
            self._private[session_id] = {
                "line_items": [{"price": item["price"], "quantity": int(item["quantity"])} for item in params["line_items"]],
                "subscription_metadata": dict(subscription_data.get("metadata") or {}),
            }
        return session

    def session(self, session_id):
        with self.lock:
            session = self.sessions.get(session_id)
        if session is None:
            raise StripeError(404, f"No such checkout.session: '{session_id}'", param="id", code="resource_missing")
        return session

    # ---- paying -------------------------------------------------------------------------------

    def complete(self, session_id):
        """Pays the open session: completes it, delivers its events, answers where the browser goes."""
        with self.lock:
            session = self.sessions.get(session_id)
            if session is None:
                raise StripeError(404, f"No such checkout.session: '{session_id}'", param="id", code="resource_missing")
            if session["status"] != "open":
                raise StripeError(409, "This Checkout Session is no longer active.", code="checkout_session_inactive")
            private = self._private[session_id]
            now = timeshift.now_s()
            customer = session["customer"] or _random_id("cus_", 14)
            session.update(status="complete", payment_status="paid", customer=customer, currency="usd",
                           amount_subtotal=999, amount_total=999)
            events = []
            if session["mode"] == "payment":
                session["payment_intent"] = _random_id("pi_")
                events.append(self._event("checkout.session.completed", dict(session), now))
            else:
                subscription_id, invoice_id = _random_id("sub_"), _random_id("in_")
                session["subscription"], session["invoice"] = subscription_id, invoice_id
                price = private["line_items"][0]["price"]
                subscription = {
                    "id": subscription_id, "object": "subscription", "status": "active", "customer": customer,
                    "livemode": False, "created": now, "start_date": now, "current_period_start": now,
                    "current_period_end": now + 30 * DAY_S, "cancel_at_period_end": False, "canceled_at": None,
                    "ended_at": None, "cancellation_details": {"reason": None, "comment": None, "feedback": None},
                    "latest_invoice": invoice_id, "metadata": dict(private["subscription_metadata"]),
                    "items": {"object": "list", "has_more": False, "data": [
                        {"id": _random_id("si_", 14), "object": "subscription_item", "quantity": item["quantity"],
                         "price": {"id": item["price"], "object": "price", "type": "recurring",
                                   "recurring": {"interval": "month", "interval_count": 1}}}
                        for item in private["line_items"]]},
                }
                invoice = {
                    "id": invoice_id, "object": "invoice", "status": "paid", "paid": True, "customer": customer,
                    "subscription": subscription_id, "billing_reason": "subscription_create", "livemode": False,
                    "created": now, "currency": "usd", "amount_paid": 999, "payment_intent": _random_id("pi_"),
                    "subscription_details": {"metadata": dict(private["subscription_metadata"])},
                    "lines": {"object": "list", "has_more": False, "data": [
                        {"id": _random_id("il_", 14), "object": "line_item", "price": {"id": price, "object": "price"},
                         "period": {"start": now, "end": now + 30 * DAY_S}, "subscription": subscription_id}]},
                }
                events += [self._event("checkout.session.completed", dict(session), now),
                           self._event("customer.subscription.created", subscription, now),
                           self._event("invoice.paid", invoice, now)]
            self.events += events
            target = session["success_url"].replace(SESSION_TEMPLATE, session_id)
        for event in events:
            self.deliver(event)
        return target

    @staticmethod
    def _event(type_, obj, now):
        return {"id": _random_id("evt_"), "object": "event", "api_version": API_VERSION, "created": now, "livemode": False,
                "pending_webhooks": 1, "request": {"id": None, "idempotency_key": None}, "type": type_,
                "data": {"object": obj}}

    def deliver(self, event):
        """POSTs one event to the endpoint, signed; tries again after a failure (not a 2xx, or
        no answer), `retries` times with a doubling wait. True once delivered."""
        if not self.webhook_url:
            return False
        body = json.dumps(event).encode()
        wait = self.backoff_s
        for attempt in range(1, self.retries + 2):
            # Signed again each attempt, as Stripe does: the timestamp is the attempt's.
            t = timeshift.now_s()
            request = urllib.request.Request(self.webhook_url, data=body, method="POST", headers={
                "Content-Type": "application/json; charset=utf-8", "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
                "Stripe-Signature": signature_header(body, self.webhook_secret, t)})
            record = {"event_id": event["id"], "type": event["type"], "attempt": attempt, "status": None, "error": None}
            try:
                with urllib.request.urlopen(request, timeout=self.delivery_timeout_s) as answer:
                    record["status"] = answer.status
            except urllib.error.HTTPError as error:
                record["status"], record["error"] = error.code, error.read()[:500].decode(errors="replace")
            except (OSError, urllib.error.URLError) as error:
                record["error"] = str(error)
            record["delivered"] = record["status"] is not None and 200 <= record["status"] < 300
            with self.lock:
                self.deliveries.append(record)
            if record["delivered"]:
                return True
            if attempt <= self.retries:
                time.sleep(wait)
                wait *= 2
        return False

    def pay_page(self, session_id):
        session = self.session(session_id)
        with self.lock:
            items = self._private[session_id]["line_items"]
        price = html.escape(items[0]["price"])
        action = html.escape(f"/pay/{session_id}")
        cancel = session.get("cancel_url")
        cancel_link = f'<p><a id="cancel" href="{html.escape(cancel)}">Cancel</a></p>' if cancel else ""
        state = "" if session["status"] == "open" else "<p id=\"state\">This session is no longer open.</p>"
        return (f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Stripe stand-in checkout</title>"
                f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"></head><body>"
                f"<h1 id=\"price\">{price}</h1><p>Mode: {html.escape(session['mode'])}</p>{state}"
                f"<form method=\"post\" action=\"{action}\"><button id=\"pay\" type=\"submit\">Pay</button></form>"
                f"{cancel_link}</body></html>")


class _Handler(BaseHTTPRequestHandler):
    owner = None
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _record(self, body):
        with self.owner.lock:
            self.owner.requests.append({"method": self.command, "path": self.path, "headers": dict(self.headers.items()),
                                        "body": body.decode(errors="replace")})

    def _send(self, status, body, content_type="application/json", location=None):
        data = body if isinstance(body, bytes) else (json.dumps(body) if content_type == "application/json" else body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type + ("" if content_type == "application/json" else "; charset=utf-8"))
        self.send_header("Content-Length", str(len(data)))
        if content_type == "application/json":
            self.send_header("Stripe-Version", API_VERSION)
        if location:
            self.send_header("Location", location)
        self.end_headers()
        self.wfile.write(data)

    def _body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def do_GET(self):
        self._route(b"")

    def do_POST(self):
        self._route(self._body())

    def _route(self, body):
        self._record(body)
        path = urllib.parse.urlsplit(self.path).path
        owner = self.owner
        try:
            if path == "/v1/checkout/sessions" and self.command == "POST":
                owner.authorize(self.headers)
                content_type = self.headers.get("Content-Type", "").split(";")[0].strip()
                if content_type != "application/x-www-form-urlencoded":
                    raise StripeError(400, "Invalid request: the body must be application/x-www-form-urlencoded, as Stripe's "
                                           f"API takes it (got '{content_type}')")
                params = parse_form(body.decode("utf-8"))
                with owner.lock:
                    owner.requests[-1]["params"] = params
                self._send(200, owner.create_session(params))
            elif (match := re.fullmatch(r"/v1/checkout/sessions/([A-Za-z0-9_]+)", path)) and self.command == "GET":
                owner.authorize(self.headers)
                self._send(200, owner.session(match.group(1)))
            elif (match := re.fullmatch(r"/pay/([A-Za-z0-9_]+)", path)) and self.command == "GET":
                self._send(200, owner.pay_page(match.group(1)), content_type="text/html")
            elif (match := re.fullmatch(r"/pay/([A-Za-z0-9_]+)", path)) and self.command == "POST":
                target = owner.complete(match.group(1))
                self._send(303, b"", content_type="text/plain", location=target)
            elif path.startswith("/v1/"):
                raise StripeError(404, f"Unrecognized request URL ({self.command}: {path}).")
            else:
                self._send(404, "not found", content_type="text/plain")
        except StripeError as error:
            self._send(error.status, error.body())
        except UnicodeDecodeError:
            self._send(400, StripeError(400, "Invalid request: the body is not UTF-8").body())


def main():
    parser = argparse.ArgumentParser(description="A local stand-in of Stripe's Checkout API, hosted page and webhooks.")
    parser.add_argument("--port", type=int, default=12111)
    parser.add_argument("--webhook", help="the webhook endpoint's URL (e.g. http://127.0.0.1:8080/v1/webhooks/stripe)")
    parser.add_argument("--webhook-secret", default="whsec_standin")
    parser.add_argument("--api-key", default="sk_test_standin")
    arguments = parser.parse_args()
    standin = StripeStandIn(api_key=arguments.api_key, webhook_url=arguments.webhook, webhook_secret=arguments.webhook_secret,
                            port=arguments.port)
    print(f"stripe stand-in on {standin.url} (webhooks to {arguments.webhook or 'nowhere'})", flush=True)
    try:
        standin._server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        standin._server.server_close()


if __name__ == "__main__":
    main()
