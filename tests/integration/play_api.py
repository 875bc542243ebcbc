"""A local stand-in for Google's OAuth 2.0 token endpoint and the Play Developer API, for the
tests of POST /v1/notifications/play: it checks the service account's signed assertion (the
JWT-bearer grant) and the access token, and serves the documented response shapes of
purchases.subscriptionsv2.get (SubscriptionPurchaseV2) and purchases.products.get
(ProductPurchase), or fails as told."""
import base64
import datetime
import json
import threading
import time
import urllib.parse
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
import timeshift

PACKAGE = "com.example.app"
ACCOUNT = "paywire-play@example-project.iam.gserviceaccount.com"
SCOPE = "https://www.googleapis.com/auth/androidpublisher"


def rfc3339(ms, nanos=True):
    """Google's timestamp form: RFC 3339 in UTC, up to nine fraction digits."""
    moment = datetime.datetime.fromtimestamp(ms // 1000, tz=datetime.timezone.utc)
    fraction = f"{ms % 1000:03d}" + ("456789" if nanos else "")
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + fraction + "Z"


def subscription_v2(expiry_ms, state="SUBSCRIPTION_STATE_ACTIVE", auto_renew=True, product="premium_monthly", start_ms=None):
    """A SubscriptionPurchaseV2 as purchases.subscriptionsv2.get documents it."""
    item = {"productId": product, "expiryTime": rfc3339(expiry_ms),
            "offerDetails": {"basePlanId": "monthly", "offerTags": []}, "latestSuccessfulOrderId": "GPA.3333-4444-5555-66666"}
    if auto_renew is None:
        item["prepaidPlan"] = {"allowExtendAfterTime": rfc3339(expiry_ms - 86_400_000)}
    else:
        item["autoRenewingPlan"] = {"autoRenewEnabled": auto_renew,
                                    "recurringPrice": {"currencyCode": "USD", "units": "9", "nanos": 990000000}}
    return {"kind": "androidpublisher#subscriptionPurchaseV2", "regionCode": "US", "lineItems": [item],
            "startTime": rfc3339(start_ms or expiry_ms - 30 * 86_400_000), "subscriptionState": state,
            "latestOrderId": "GPA.3333-4444-5555-66666", "acknowledgementState": "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED",
            "externalAccountIdentifiers": {"obfuscatedExternalAccountId": "account-1"}, "testPurchase": {}}


def product_purchase(state=0, product="lifetime"):
    """A ProductPurchase as purchases.products.get documents it (purchaseState 0 purchased,
    1 canceled, 2 pending)."""
    return {"kind": "androidpublisher#productPurchase", "purchaseTimeMillis": str(timeshift.now_ms() - 60_000),
            "purchaseState": state, "consumptionState": 0, "developerPayload": "", "orderId": "GPA.1111-2222-3333-44444",
            "purchaseType": 0, "acknowledgementState": 1, "productId": product, "quantity": 1, "regionCode": "US"}


def _b64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PlayAPI:
    """The stand-in, on a free port; `key_file` is the service account's JSON key."""

    def __init__(self, directory):
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.subscriptions = {}
        self.products = {}
        self.fail_status = None
        self.delay = 0.0
        self.refuse_grant = False
        self.grants = 0
        self.calls = []
        self.access_token = "ya29.standin-" + uuid.uuid4().hex
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        pem = self.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption()).decode()
        self.key_file = directory / "service-account.json"
        self.key_file.write_text(json.dumps({
            "type": "service_account", "project_id": "example-project", "private_key_id": "key-1", "private_key": pem,
            "client_email": ACCOUNT, "client_id": "1234567890", "token_uri": self.url + "/token"}))

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def grant_problem(self, form):
        """Why the JWT-bearer grant is refused, or None: the assertion is the account's RS256
        signature over its documented claims."""
        if form.get("grant_type") != ["urn:ietf:params:oauth:grant-type:jwt-bearer"]:
            return "grant_type"
        parts = (form.get("assertion") or [""])[0].split(".")
        if len(parts) != 3:
            return "assertion"
        head, claims, signature = parts
        try:
            self.key.public_key().verify(_b64(signature), f"{head}.{claims}".encode(), padding.PKCS1v15(), hashes.SHA256())
        except Exception:
            return "signature"
        header, body = json.loads(_b64(head)), json.loads(_b64(claims))
        now = timeshift.now_ms() / 1000
        if header.get("alg") != "RS256" or body.get("iss") != ACCOUNT or body.get("aud") != self.url + "/token" \
                or body.get("scope") != SCOPE or not body.get("iat", now + 999) <= now + 5 or not body.get("exp", 0) > now:
            return "claims"
        return None


def _handler(api):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def answer(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            length = int(self.headers.get("content-length") or 0)
            form = urllib.parse.parse_qs(self.rfile.read(length).decode())
            if self.path != "/token":
                return self.answer(404, {"error": "not_found"})
            problem = "refused" if api.refuse_grant else api.grant_problem(form)
            if problem:
                return self.answer(400, {"error": "invalid_grant", "error_description": problem})
            api.grants += 1
            self.answer(200, {"access_token": api.access_token, "expires_in": 3599, "token_type": "Bearer"})

        def do_GET(self):
            api.calls.append(self.path)
            if api.delay:
                time.sleep(api.delay)
            if self.headers.get("authorization") != "Bearer " + api.access_token:
                return self.answer(401, {"error": {"code": 401, "status": "UNAUTHENTICATED"}})
            if api.fail_status:
                return self.answer(api.fail_status, {"error": {"code": api.fail_status, "status": "INTERNAL"}})
            parts = [urllib.parse.unquote(part) for part in self.path.split("/")]
            prefix = ["", "androidpublisher", "v3", "applications", PACKAGE, "purchases"]
            found = None
            if parts[:6] == prefix and len(parts) == 9 and parts[6:8] == ["subscriptionsv2", "tokens"]:
                found = api.subscriptions.get(parts[8])
            elif parts[:6] == prefix and len(parts) == 10 and parts[6] == "products" and parts[8] == "tokens":
                found = api.products.get((parts[7], parts[9]))
            if found is None:
                return self.answer(404, {"error": {"code": 404, "status": "NOT_FOUND"}})
            self.answer(200, found)

    return Handler
