"""The servers the security suite attacks: each test module meets the development server and
the production binary (no --dev, the test store's key a secret of the operator's), both with
an app key, proven identities (--identity-secret) and a response signing key, as an app in
production runs them. The engine is the run's: SQLite, or the PostgreSQL that
tests/postgres/cluster.py started (`make test-security` runs the suite on both). The server
itself, the library's client and the claims a device sends come from tests/server_helpers.py,
shared with tests/integration."""
import base64
import hashlib
import hmac
import json
import pathlib
import sys
import uuid

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from server_helpers import DEV_SIGNING_KEY, PRODUCTS, SERVER, DevServer, bundle_signature, database_url, purchase  # noqa: E402
import timeshift  # noqa: E402

from attacker import APP_KEY, IDENTITY_AUDIENCE, IDENTITY_SECRET  # noqa: E402

#: The production server's test store key: the operator's secret, which no attacker holds.
PRODUCTION_STORE_KEY = "the-operators-secret-test-store-key-0123456789"
#: Stripe's endpoint secret for the shop's webhooks: the operator's and Stripe's, no attacker's.
WEBHOOK_SECRET = "whsec_the_operators_stripe_endpoint_secret"


class Target:
    """A server under attack, and what only its operator and the store hold: the key that
    signs the store's transactions and the response signing key's public half (what every copy
    of the app is given)."""

    def __init__(self, mode, directory, *extra):
        """`extra`: more of the server's arguments (a Stripe webhook secret, a limit)."""
        self.mode = mode
        signing = Ed25519PrivateKey.generate()
        pem = directory / "response-signing.pem"
        pem.write_bytes(signing.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                              serialization.NoEncryption()))
        raw = signing.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        #: As an app's config lists it (response_verification.public_keys).
        self.public_key = {"id": hashlib.sha256(raw).hexdigest()[:16], "key": base64.b64encode(raw).decode()}
        #: The fallback bundle's signature by the same key (config fallback.signature).
        self.bundle_signature = bundle_signature(pem)
        doors = ["--app-key", APP_KEY, "--identity-secret", IDENTITY_SECRET, "--identity-audience", IDENTITY_AUDIENCE,
                 "--response-signing-key", str(pem), *extra]
        if mode == "production":
            self.store_key = PRODUCTION_STORE_KEY
            self.server = DevServer(*doors, "--database", database_url(directory), "--test-signing-key", PRODUCTION_STORE_KEY,
                                    executable=SERVER)
        else:
            self.store_key = DEV_SIGNING_KEY
            self.server = DevServer(*doors)

    def purchase(self, profile_id, transaction_id, product="premium_monthly"):
        """A `POST /v1/purchases` body the store signed (a real purchase)."""
        return purchase(profile_id, transaction_id, product, key=self.store_key)

    def stripe_sends_a_checkout(self, session_id, profile_id=None, web_paywall=False):
        """What Stripe sends when a buyer paid for lifetime: held for redemption when it names no
        profile; a web paywall's checkout names its visitor's. Answers the profile holding it."""
        session = {"id": session_id, "object": "checkout.session", "mode": "payment", "payment_status": "paid", "status": "complete",
                   "client_reference_id": profile_id, "customer": "cus_" + session_id, "subscription": None,
                   "payment_intent": "pi_" + session_id, "amount_total": 4999, "currency": "usd",
                   "metadata": {"paywire_price_id": "price_lifetime", **({"paywire_web_paywall": "1"} if web_paywall else {})}}
        body = json.dumps({"id": "evt_" + uuid.uuid4().hex[:24], "object": "event", "api_version": "2024-06-20",
                           "created": timeshift.now_s(), "livemode": False, "pending_webhooks": 1,
                           "type": "checkout.session.completed", "data": {"object": session}}).encode()
        t = timeshift.now_s()
        signature = hmac.new(WEBHOOK_SECRET.encode(), f"{t}.".encode() + body, hashlib.sha256).hexdigest()
        status, _, answer = self.server.call("POST", "/v1/webhooks/stripe", body, operator=False,
                                             headers={"stripe-signature": f"t={t},v1={signature}"})
        assert status == 200, answer
        return answer["profile_id"]

    def stop(self):
        self.server.stop()


@pytest.fixture(scope="module", params=["development", "production"])
def target(request, tmp_path_factory):
    """The server a module's attacks run against, once in each mode."""
    server = Target(request.param, tmp_path_factory.mktemp(request.param))
    yield server
    server.stop()


def shop_arguments(directory):
    """The arguments of a server that also sells on the web: Stripe's webhooks (the catalog's
    products priced `price_<product id>`) and the web paywall (`/web/{placement_id}`; its
    Checkout Sessions are never created here: Stripe's API is an address that answers nothing)."""
    products = json.loads(PRODUCTS.read_text())["store"]["products"]
    for product in products:
        product["stripe_price_id"] = "price_" + product["vendor_product_id"]
    (directory / "products.json").write_text(json.dumps(products))
    return ["--products", str(directory / "products.json"), "--stripe-webhook-secret", WEBHOOK_SECRET,
            "--stripe-api-key", "sk_test_the_operators", "--stripe-api-base", "http://127.0.0.1:9", "--stripe-api-timeout-ms", "500",
            "--public-url", "https://shop.example"]


@pytest.fixture(scope="module", params=["development", "production"])
def shop(request, tmp_path_factory):
    """A server that also sells on the web (`shop_arguments`), once in each mode."""
    directory = tmp_path_factory.mktemp(request.param)
    server = Target(request.param, directory, *shop_arguments(directory))
    yield server
    server.stop()
