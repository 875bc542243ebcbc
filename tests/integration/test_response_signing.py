"""The server's signature on the answers that carry access (--response-signing-key), checked
outside Swift: the message is rebuilt here from the request and the raw answer, as
api/openapi.yaml describes it, and checked with the `cryptography` package's Ed25519 (PyPI;
installed by make deps). Rotation (the first key signs, unless the request names the keys it
trusts), no key (nothing signed, and the start says so), a key file that is not one, and the app's
key door in front of the signed routes."""
import base64
import hashlib
import http.client
import json
import time
import uuid

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from conftest import DevServer, purchase
import timeshift

SIGNED_ROUTES = ("GET /v1/profiles/{id}", "POST /v1/purchases", "POST /v1/restores", "POST /v1/profiles/{id}/identity",
                 "POST /v1/redemptions")


def write_key(directory, name):
    """A new Ed25519 key as `openssl genpkey -algorithm ed25519` writes it; its path and public key."""
    key = Ed25519PrivateKey.generate()
    path = directory / f"{name}.pem"
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()))
    return str(path), key.public_key()


def key_id(public_key):
    """The id the server lists a key under: the first 8 bytes of SHA-256 of the raw key, in hex."""
    raw = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def raw_call(server, method, path, body=None, headers=None):
    """One request; (status, headers lowercased, the body's exact bytes)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
        connection.request(method, path, body=data, headers={"content-type": "application/json",
                                                               "x-paywire-profile-id": "signing-test", **(headers or {})})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def message(nonce, signed_at, status, method, path, etag, body):
    """What the signature covers (api/openapi.yaml, components/headers/Signature)."""
    etag = etag[2:] if etag.startswith("W/") else etag
    head = f"paywire-response-signature-v1\n{nonce}\n{signed_at}\n{status} {method} {path}\n{etag}\n"
    return head.encode() + body


def check(public_key, nonce, status, headers, method, path, body):
    """Raises unless the answer is signed over this request by `public_key`; the time signed."""
    signed_at = int(headers["x-paywire-signed-at"])
    signature = base64.b64decode(headers["x-paywire-signature"], validate=True)
    public_key.verify(signature, message(nonce, signed_at, status, method, path, headers.get("etag", ""), body))
    return signed_at


def nonce():
    return base64.b64encode(uuid.uuid4().bytes).decode()


@pytest.fixture
def signed_server(tmp_path):
    path, public_key = write_key(tmp_path, "signing")
    server = DevServer("--response-signing-key", path)
    yield server, public_key
    server.stop()


def test_every_answer_that_carries_access_is_signed_over_its_request(signed_server):
    server, public_key = signed_server
    profile = "signed-" + uuid.uuid4().hex[:8]
    asked = nonce()
    status, headers, body = raw_call(server, "POST", "/v1/purchases", purchase(profile, "t-" + uuid.uuid4().hex[:8]),
                                     {"x-paywire-nonce": asked})
    assert status == 200, body
    assert headers["x-paywire-signature-key-id"] == key_id(public_key)
    signed_at = check(public_key, asked, status, headers, "POST", "/v1/purchases", body)
    assert abs(signed_at - timeshift.now_ms()) < 60_000
    # The same answer does not hold for another request: another nonce, another route, another body.
    with pytest.raises(InvalidSignature):
        check(public_key, nonce(), status, headers, "POST", "/v1/purchases", body)
    with pytest.raises(InvalidSignature):
        check(public_key, asked, status, headers, "POST", "/v1/restores", body)
    with pytest.raises(InvalidSignature):
        check(public_key, asked, status, headers, "POST", "/v1/purchases", body.replace(b'"premium"', b'"vip"'))

    asked = nonce()
    status, headers, body = raw_call(server, "GET", f"/v1/profiles/{profile}", headers={"x-paywire-nonce": asked})
    assert status == 200 and b"premium" in body
    check(public_key, asked, status, headers, "GET", f"/v1/profiles/{profile}", body)
    etag = headers["etag"]

    # A 304 is signed over the ETag it confirms (and its empty body); a 404 too.
    asked = nonce()
    status, headers, body = raw_call(server, "GET", f"/v1/profiles/{profile}", headers={"x-paywire-nonce": asked, "if-none-match": etag})
    assert status == 304 and body == b"" and headers["etag"] == etag
    check(public_key, asked, status, headers, "GET", f"/v1/profiles/{profile}", body)
    asked = nonce()
    status, headers, body = raw_call(server, "GET", "/v1/profiles/never-met", headers={"x-paywire-nonce": asked})
    assert status == 404
    check(public_key, asked, status, headers, "GET", "/v1/profiles/never-met", body)

    # Restores, identity and redemptions: each answer carries the profile, each is signed.
    for method, path, request in (
            ("POST", "/v1/restores", {"event_id": str(uuid.uuid4()), "profile_id": profile, "transactions": []}),
            ("POST", f"/v1/profiles/{profile}/identity", {"event_id": str(uuid.uuid4()), "profile_id": profile,
                                                          "customer_user_id": "customer-" + profile}),
            ("POST", "/v1/redemptions", {"token": "not-a-token", "profile_id": profile})):
        asked = nonce()
        status, headers, body = raw_call(server, method, path, request, {"x-paywire-nonce": asked})
        assert status == 200, (path, body)
        check(public_key, asked, status, headers, method, path, body)

    # An answer that carries no access is not signed.
    status, headers, _ = raw_call(server, "GET", "/v1/placements/onboarding", headers={"x-paywire-nonce": nonce()})
    assert status == 200 and "x-paywire-signature" not in headers


def test_behind_the_app_key_door_the_answers_that_carry_access_are_still_signed(tmp_path):
    path, public_key = write_key(tmp_path, "signing")
    server = DevServer("--response-signing-key", path, "--app-key", "the-app-key")
    try:
        profile = "door-" + uuid.uuid4().hex[:8]
        app = {"authorization": "Api-Key the-app-key"}
        for method, path_, body in (("POST", "/v1/purchases", purchase(profile, "t-" + uuid.uuid4().hex[:8])),
                                    ("GET", f"/v1/profiles/{profile}", None),
                                    ("POST", f"/v1/profiles/{profile}/identity",
                                     {"event_id": str(uuid.uuid4()), "profile_id": profile, "customer_user_id": "c-" + profile})):
            asked = nonce()
            status, headers, answer = raw_call(server, method, path_, body, {"x-paywire-nonce": asked, **app})
            assert status == 200, (path_, answer)
            check(public_key, asked, status, headers, method, path_, answer)
        # The door answers before the operation: a request without the key is refused, unsigned.
        status, headers, _ = raw_call(server, "GET", f"/v1/profiles/{profile}", headers={"x-paywire-nonce": nonce()})
        assert status == 401 and "x-paywire-signature" not in headers
    finally:
        server.stop()


def test_a_request_without_a_nonce_gets_an_answer_signed_over_none_and_a_bad_nonce_is_refused(signed_server):
    server, public_key = signed_server
    status, headers, body = raw_call(server, "GET", "/v1/profiles/never-met")
    check(public_key, "", status, headers, "GET", "/v1/profiles/never-met", body)
    status, _, body = raw_call(server, "GET", "/v1/profiles/never-met", headers={"x-paywire-nonce": "x" * 129})
    assert status == 400 and json.loads(body)["error"]["code"] == "invalid_request"


def test_rotation_the_first_key_signs_unless_the_app_trusts_only_a_later_one(tmp_path):
    new_path, new_key = write_key(tmp_path, "new")
    old_path, old_key = write_key(tmp_path, "old")
    server = DevServer("--response-signing-key", new_path, "--response-signing-key", old_path)
    try:
        def signer(trusted):
            asked = nonce()
            extra = {"x-paywire-nonce": asked, **({"x-paywire-key-ids": trusted} if trusted else {})}
            status, headers, body = raw_call(server, "GET", "/v1/profiles/never-met", headers=extra)
            signing = new_key if headers["x-paywire-signature-key-id"] == key_id(new_key) else old_key
            check(signing, asked, status, headers, "GET", "/v1/profiles/never-met", body)
            return headers["x-paywire-signature-key-id"]

        assert signer(None) == key_id(new_key)
        assert signer(key_id(old_key)) == key_id(old_key)
        assert signer(f"{key_id(old_key)},{key_id(new_key)}") == key_id(new_key)
        assert signer("someone-elses") == key_id(new_key)
    finally:
        server.stop()
    log = server.process.stderr.read()
    # Each key is named at start by its id and public half; no private key is ever written.
    for public_key in (new_key, old_key):
        raw = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        assert key_id(public_key) in log and base64.b64encode(raw).decode() in log
    for path in (new_path, old_path):
        pem_body = "".join(line for line in open(path).read().splitlines() if not line.startswith("-----"))
        assert pem_body not in log and pem_body[-20:] not in log


def test_without_a_key_nothing_is_signed_and_the_start_says_so(tmp_path):
    server = DevServer()
    try:
        status, headers, _ = raw_call(server, "GET", "/v1/profiles/never-met", headers={"x-paywire-nonce": nonce()})
        assert status == 404 and not any(name.startswith("x-paywire-sign") for name in headers)
    finally:
        server.stop()
    assert "response signing is off" in server.process.stderr.read()


def test_a_key_file_that_is_not_an_ed25519_key_stops_the_start(tmp_path):
    not_a_key = tmp_path / "p256.pem"
    from cryptography.hazmat.primitives.asymmetric import ec
    not_a_key.write_bytes(ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    with pytest.raises(RuntimeError, match="is not an Ed25519 private key"):
        DevServer("--response-signing-key", str(not_a_key))
