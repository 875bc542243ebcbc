"""Helpers of the store-notification tests: times, a subscriber with a verified purchase,
certificate chains made with openssl, and App Store JWS signed with `cryptography`."""
import base64
import datetime
import json
import subprocess
import time
import uuid

import pytest

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

from conftest import DevServer, as_read, purchase
import timeshift

DAY = 24 * 3600 * 1000
BUNDLE_ID = "com.example.app"
LEAF_MARKER = "1.2.840.113635.100.6.11.1"
INTERMEDIATE_MARKER = "1.2.840.113635.100.6.2.1"


def now_ms():
    return timeshift.now_ms()


def ms(text):
    """Milliseconds since the epoch of a time in the dev server's date form."""
    return round(datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)


def later_expiry(subscribed):
    """An expiry a day past the purchase's own (`subscribed`: the profile `subscribe` returned),
    for a store notification that must change the grant whatever the month's length: one
    calendar month after the purchase can be any of 28 to 31 days."""
    return ms(premium(subscribed)["expires_at"]) + DAY


def iso(ms):
    """The dev server's date form: ISO 8601, milliseconds, UTC."""
    if ms is None:
        return None
    moment = datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def subscribe(server, profile_id, transaction_id, product="premium_monthly", store="test", purchased_at=None, attribution=None):
    """A verified purchase posted as the device would; returns the premium grant."""
    status, _, body = server.call("POST", "/v1/purchases", purchase(
        profile_id, transaction_id, product=product, store=store, attribution=attribution,
        purchased_at=purchased_at if purchased_at is not None else now_ms() - DAY))
    assert status == 200, body
    return body["profile"]


def profile(server, profile_id, etag=None):
    """(status, etag, profile) of GET /v1/profiles/{id}."""
    status, headers, body = server.call("GET", f"/v1/profiles/{profile_id}",
                                        headers={"If-None-Match": etag} if etag else None)
    return status, headers.get("etag"), (body or {}).get("profile")


def premium(body):
    """The premium access level of a notification answer or a profile, as a reader takes it."""
    return as_read((body.get("profile") or body)["access_levels"]["premium"])


# ---- certificates and JWS ---------------------------------------------------------------

def _run(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


class Chain:
    """An EC P-256 root CA made with openssl, an intermediate CA and a leaf it signed (or a
    leaf the root signed itself): what Apple's x5c carries, made locally. `markers` names the
    certificates that carry Apple's marker extensions, as Apple's own do: the leaf
    1.2.840.113635.100.6.11.1, the intermediate 1.2.840.113635.100.6.2.1."""

    def __init__(self, directory, name="root", intermediate=True, markers=("leaf", "intermediate")):
        directory.mkdir(parents=True, exist_ok=True)
        self.dir = directory
        ca = "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n"
        leaf = "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n"
        (directory / "ca.ext").write_text(ca + (f"{INTERMEDIATE_MARKER}=ASN1:NULL\n" if "intermediate" in markers else ""))
        (directory / "leaf.ext").write_text(leaf + (f"{LEAF_MARKER}=ASN1:NULL\n" if "leaf" in markers else ""))
        self._key("root")
        _run("req", "-x509", "-new", "-key", "root.key", "-sha256", "-days", "30", "-subj", f"/CN=Paywire test {name}",
             "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
             "-out", "root.pem", cwd=directory)
        issuer = "root"
        if intermediate:
            self._signed("intermediate", "root", "ca.ext")
            issuer = "intermediate"
        self._signed("leaf", issuer, "leaf.ext")
        self.root_path = directory / "root.pem"
        names = ["leaf", "intermediate", "root"] if intermediate else ["leaf", "root"]
        self.x5c = [base64.b64encode(self._der(n)).decode() for n in names]
        self.key = serialization.load_pem_private_key((directory / "leaf.key").read_bytes(), password=None)

    def _key(self, name):
        _run("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", f"{name}.key", cwd=self.dir)

    def _signed(self, name, issuer, extensions):
        self._key(name)
        _run("req", "-new", "-key", f"{name}.key", "-subj", f"/CN=Paywire test {name}", "-out", f"{name}.csr", cwd=self.dir)
        _run("x509", "-req", "-in", f"{name}.csr", "-CA", f"{issuer}.pem", "-CAkey", f"{issuer}.key", "-CAcreateserial",
             "-days", "30", "-sha256", "-extfile", extensions, "-out", f"{name}.pem", cwd=self.dir)

    def _der(self, name):
        certificate = x509.load_pem_x509_certificate((self.dir / f"{name}.pem").read_bytes())
        return certificate.public_bytes(serialization.Encoding.DER)

    def sign(self, payload, key=None, x5c=None):
        """A compact JWS (ES256) of `payload` (a dict, or raw bytes) with this chain in x5c."""
        header = {"alg": "ES256", "x5c": x5c if x5c is not None else self.x5c}
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        signing_input = _b64url(json.dumps(header).encode()) + "." + _b64url(body)
        der = (key or self.key).sign(signing_input.encode(), ec.ECDSA(hashes.SHA256()))
        r, s = decode_dss_signature(der)
        return signing_input + "." + _b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


def _b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def other_key():
    return ec.generate_private_key(ec.SECP256R1())


def app_store_server(chain, *extra):
    """A dev server taking App Store data of BUNDLE_ID signed under `chain`'s root."""
    return DevServer("--app-store-root", str(chain.root_path), "--app-store-bundle-id", BUNDLE_ID, *extra)


def app_store_fixtures(name, *extra):
    """The module fixtures of an App Store test file: `chain` (a chain of its own, with Apple's
    markers), `server` (a dev server taking App Store data signed under it, started with
    `extra`) and `clean` (autouse: every test starts from an empty store). A module takes them
    with `chain, server, clean = app_store_fixtures("name")`."""
    @pytest.fixture(scope="module")
    def chain(tmp_path_factory):
        return Chain(tmp_path_factory.mktemp(name) / "trusted")

    @pytest.fixture(scope="module")
    def server(chain):
        running = app_store_server(chain, *extra)
        yield running
        running.stop()

    @pytest.fixture(autouse=True)
    def clean(server):
        server.control("POST", "reset")

    return chain, server, clean


def app_store_body(chain, notification_type, original_transaction_id, subtype=None, transaction=None, renewal=None,
                   notification_id=None, signed_at=None, sign_inner=None, data=None):
    """`{signedPayload}` of an App Store Server Notification v2, every JWS signed by `chain`
    (the inner ones by `sign_inner` when given); `data` adds to (or, with None values,
    removes from) the payload's data."""
    inner = sign_inner or chain.sign
    transaction_info = {"originalTransactionId": original_transaction_id, "transactionId": original_transaction_id,
                        "productId": "premium_monthly", "bundleId": BUNDLE_ID, "environment": "Sandbox",
                        "purchaseDate": now_ms() - DAY, **(transaction or {})}
    body = {"bundleId": BUNDLE_ID, "environment": "Sandbox", "signedTransactionInfo": inner(transaction_info)}
    if renewal is not None:
        body["signedRenewalInfo"] = inner({"originalTransactionId": original_transaction_id, "autoRenewProductId": "premium_monthly",
                                           "environment": "Sandbox", **renewal})
    body.update(data or {})
    data = {key: value for key, value in body.items() if value is not None}
    payload = {"notificationType": notification_type, "notificationUUID": notification_id or str(uuid.uuid4()),
               "data": data, "version": "2.0", "signedDate": signed_at or now_ms()}
    if subtype:
        payload["subtype"] = subtype
    return {"signedPayload": chain.sign(payload)}
