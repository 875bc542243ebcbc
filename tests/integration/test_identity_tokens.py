"""Proven identity over real HTTP, on both engines: a server started with --identity-secret or
--identity-jwks takes `identify` only with a token the app's backend signed for that customer
(sub), for this server (aud), not expired; anything else is 422 identity_unverified and changes
no profile. A second device that holds only the app key cannot claim a customer and read their
purchases, and the Python binding carries the token from `identify` to the server."""
import base64
import hashlib
import hmac
import json
import subprocess
import time

import paywire
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, padding
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

from conftest import BACKEND_BUNDLE, SERVER, DevServer, event_id, purchase
from test_notifications_play import b64url, jwk, rsa_key
import timeshift

AUDIENCE = "paywire:identity-test"
SECRET = "the-app-backends-identity-secret-0123456789"
NEXT_SECRET = "the-next-identity-secret-during-a-rotation-42"
APP_KEY = "pk_identity_app_key"


def token(customer, *, secret=SECRET, alg="HS256", key=None, kid=None, **changes):
    """A JWT as the app's backend would sign it: sub, aud, iat and exp (an hour), changed by `changes`
    (None drops a claim)."""
    now = timeshift.now_s()
    claims = {"sub": customer, "aud": AUDIENCE, "iat": now - 5, "exp": now + 3600, **changes}
    claims = {name: value for name, value in claims.items() if value is not None}
    head = {"alg": alg, "typ": "JWT", **({"kid": kid} if kid else {})}
    signing_input = (b64url(json.dumps(head).encode()) + "." + b64url(json.dumps(claims).encode())).encode()
    if alg == "HS256":
        signature = hmac.new(secret.encode(), signing_input, hashlib.sha256).digest()
    elif alg == "RS256":
        signature = key.sign(signing_input, padding.PKCS1v15(), hashes.SHA256())
    elif alg == "ES256":
        r, s = decode_dss_signature(key.sign(signing_input, ec.ECDSA(hashes.SHA256())))
        signature = r.to_bytes(32, "big") + s.to_bytes(32, "big")
    else:
        signature = b"unsigned"
    return signing_input.decode() + "." + b64url(signature)


def p256_jwk(key, kid):
    numbers = key.public_key().public_numbers()
    return {"kty": "EC", "crv": "P-256", "kid": kid, "use": "sig", "alg": "ES256",
            "x": b64url(numbers.x.to_bytes(32, "big")), "y": b64url(numbers.y.to_bytes(32, "big"))}


@pytest.fixture(scope="module")
def keys():
    return {"rsa-1": rsa_key(), "p256-1": ec.generate_private_key(ec.SECP256R1())}


@pytest.fixture(scope="module")
def proving(tmp_path_factory, keys):
    """A server that proves identities with two secrets (a rotation) and a JWK set."""
    jwks = tmp_path_factory.mktemp("identity") / "app-backend-keys.json"
    jwks.write_text(json.dumps({"keys": [jwk(keys["rsa-1"], "rsa-1"), p256_jwk(keys["p256-1"], "p256-1")]}))
    server = DevServer("--app-key", APP_KEY, "--identity-secret", SECRET, "--identity-secret", NEXT_SECRET,
                       "--identity-jwks", str(jwks), "--identity-audience", AUDIENCE, "--log-level", "debug")
    yield server
    server.stop()


def claim(server, profile_id, customer, identity_token=None):
    body = {"event_id": event_id(), "profile_id": profile_id, "customer_user_id": customer}
    if identity_token is not None:
        body["identity_token"] = identity_token
    return server.call("POST", f"/v1/profiles/{profile_id}/identity", body, headers=APP)


APP = {"authorization": f"Api-Key {APP_KEY}"}


def customer_of(server, profile_id):
    status, _, body = server.call("GET", f"/v1/profiles/{profile_id}", headers=APP)
    return None if status == 404 else body["profile"].get("customer_user_id")


def test_a_claim_is_taken_with_a_token_signed_for_that_customer(proving, keys):
    for n, identity_token in enumerate([token("cus-hs"), token("cus-hs", secret=NEXT_SECRET),
                                        token("cus-hs", alg="RS256", key=keys["rsa-1"], kid="rsa-1"),
                                        token("cus-hs", alg="ES256", key=keys["p256-1"], kid="p256-1"),
                                        token("cus-hs", aud=["another-service", AUDIENCE])]):
        status, _, answer = claim(proving, f"signed-{n}", "cus-hs", identity_token)
        assert status == 200, (n, answer)
        assert answer["profile_id"] == "signed-0", "the first profile that held the customer is theirs"


@pytest.mark.parametrize("case", ["none", "other sub", "expired", "not yet", "other audience", "no exp", "other secret",
                                  "alg none", "unknown kid", "rs256 without kid", "not a jwt claim"])
def test_a_claim_without_a_valid_token_is_422_identity_unverified_and_changes_no_profile(proving, keys, case):
    now = timeshift.now_s()
    identity_token = {
        "none": None,
        "other sub": token("cus-someone-else"),
        "expired": token("cus-bad", exp=now - 120),
        "not yet": token("cus-bad", nbf=now + 600),
        "other audience": token("cus-bad", aud="another-service"),
        "no exp": token("cus-bad", exp=None),
        "other secret": token("cus-bad", secret="an-attackers-guess-at-the-secret-000000"),
        "alg none": token("cus-bad", alg="none"),
        "unknown kid": token("cus-bad", alg="RS256", key=keys["rsa-1"], kid="rsa-9"),
        "rs256 without kid": token("cus-bad", alg="RS256", key=keys["rsa-1"]),
        "not a jwt claim": b64url(b"[]") + "." + b64url(b"[]") + "." + b64url(b"x"),
    }[case]
    status, _, answer = claim(proving, f"unproven-{case.replace(' ', '-')}", "cus-bad", identity_token)
    assert (status, answer["error"]["code"]) == (422, "identity_unverified"), answer
    assert identity_token is None or identity_token.split(".")[2] not in answer["error"]["message"]
    assert customer_of(proving, f"unproven-{case.replace(' ', '-')}") is None, "no profile was met or claimed"


def test_a_second_device_with_only_the_app_key_cannot_claim_a_customer_and_their_purchases(proving, tmp_path):
    owner = "buyer-device"
    assert claim(proving, owner, "cus-paying", token("cus-paying"))[0] == 200
    status, _, body = proving.call("POST", "/v1/purchases", purchase(owner, "tx-identity-1", product="premium_annual"),
                                   headers=APP)
    assert status == 200, body
    config = {"profile_id": "intruder-device", "api_key": APP_KEY, "storage_dir": str(tmp_path / "intruder"),
              "transport": {"type": "http", "base_url": proving.url}, "refresh_profile_on_start": False}
    with paywire.Client(config) as client:
        client.call("identify", {"customer_user_id": "cus-paying"})
        refused = first_event(client, lambda event: event["event"] == "log"
                              and event.get("details", {}).get("backend_code") == "identity_unverified")
        assert refused["level"] == "error" and "fresh identity_token" in refused["message"]
        profile = client.call("get_profile", {"fetch_policy": "reload_revalidating_cache_data"})
        assert profile.get("access_levels", {}) == {}, "the intruder got none of the customer's access"
    assert customer_of(proving, "intruder-device") is None
    assert "tx-identity-1" in json.dumps(proving.call("GET", f"/v1/profiles/{owner}", headers=APP)[2]), "the owner keeps the purchase"


def first_event(client, predicate, timeout=20.0):
    """The first event `predicate` takes, polling until `timeout` seconds pass."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        event = client.poll(0.2)
        if event is not None and predicate(event):
            return event
    raise AssertionError("no such event came")


def test_the_binding_sends_the_token_and_the_customer_is_joined(proving, tmp_path):
    config = {"profile_id": "bound-device", "api_key": APP_KEY, "storage_dir": str(tmp_path / "bound"),
              "transport": {"type": "http", "base_url": proving.url}, "refresh_profile_on_start": False}
    identity_token = token("cus-bound")
    with paywire.Client(config) as client:
        client.call("identify", {"customer_user_id": "cus-bound", "identity_token": identity_token})
        deadline = time.time() + 20
        while customer_of(proving, "bound-device") != "cus-bound":
            assert time.time() < deadline, "the identity never reached the server"
            time.sleep(0.1)
    # The module's server is stopped to read its whole log: this is the module's last use of it.
    proving.stop()
    logs = proving.process.stderr.read()
    assert identity_token.split(".")[2] not in logs and SECRET not in logs and NEXT_SECRET not in logs, \
        "neither a token nor a secret is ever logged"
    assert "an identity was not verified" in logs, "refusals are logged, with their reason only"


def test_without_identity_flags_the_claim_is_trusted_and_the_start_says_so(tmp_path):
    server = DevServer()
    try:
        status, _, answer = server.call("POST", "/v1/profiles/trusted/identity",
                                        {"event_id": event_id(), "profile_id": "trusted", "customer_user_id": "cus-t"})
        assert status == 200 and answer["profile_id"] == "trusted"
    finally:
        server.stop()
    assert "identify trusts the customer user id a device claims" in server.process.stderr.read()


@pytest.mark.parametrize("flags, says", [
    (["--identity-secret", SECRET], "--identity-audience goes with"),
    (["--identity-audience", AUDIENCE], "--identity-audience goes with"),
    (["--identity-secret", "short", "--identity-audience", AUDIENCE], "at least 32 bytes"),
    (["--identity-jwks", "/nonexistent/keys.json", "--identity-audience", AUDIENCE], "cannot read the identity JWK set"),
])
def test_identity_flags_that_cannot_prove_anything_stop_the_start(tmp_path, flags, says):
    done = subprocess.run([SERVER, "--bundle", str(BACKEND_BUNDLE), "--database", f"sqlite:{tmp_path}/x.sqlite", "--port", "0", *flags],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode != 0 and says in done.stderr, done.stderr
    assert SECRET not in done.stderr and " short" not in done.stderr, "a secret is never echoed"
