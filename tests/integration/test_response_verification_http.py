"""Response verification end to end: the library (Python binding, built-in HTTP transport)
against the real dev server signing with --response-signing-key, and a man in the middle: a
small proxy between them that rewrites the profile answers to grant premium for life, as a user
who trusts their own proxy can. Informational mode applies the rewrite marked failed; enforced
mode refuses it and keeps what the backend verified. Without the proxy everything is verified,
on the wire and again when the profile is read back from storage_dir."""
import base64
import hashlib
import http.client
import http.server
import json
import threading
import time

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

import paywire
from conftest import BACKEND_BUNDLE, DevServer, bundle_signature
from test_purchases_http import buy_in_a_view, store, wait_for_profile

LIFETIME_PREMIUM = {"vendor_product_id": "premium_lifetime", "activated_at": "2024-01-01T00:00:00.000Z", "expires_at": None,
                    "is_lifetime": True, "store": "app_store"}


class Rewriter(http.server.BaseHTTPRequestHandler):
    """Forwards every request to the server; a profile answer comes back granting premium for
    life, its headers (the server's signature among them) kept as they were."""
    upstream = None
    rewritten = 0
    #: False: the proxy only forwards.
    rewriting = True

    def forward(self):
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else None
        headers = {name: value for name, value in self.headers.items() if name.lower() not in ("host", "content-length")}
        connection = http.client.HTTPConnection("127.0.0.1", self.upstream, timeout=10)
        try:
            connection.request(self.command, self.path, body=body, headers=headers)
            response = connection.getresponse()
            status, answer, returned = response.status, response.read(), response.getheaders()
        finally:
            connection.close()
        if self.rewriting and self.command == "GET" and self.path.startswith("/v1/profiles/") and status in (200, 404):
            # The profile as the backend answered it (none yet: a 404), granting premium for life.
            document = json.loads(answer) if status == 200 else {"profile": {}}
            document["profile"].setdefault("access_levels", {})["premium"] = LIFETIME_PREMIUM
            status, answer = 200, json.dumps(document).encode()
            type(self).rewritten += 1
        self.send_response(status)
        for name, value in returned:
            if name.lower() not in ("content-length", "transfer-encoding", "connection", "date", "server"):
                self.send_header(name, value)
        self.send_header("content-length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    do_GET = do_POST = do_PUT = forward

    def log_message(self, *args):
        pass


#: The fallback bundle's signature by each signing key, as `paywire-server --sign-bundle` printed it.
BUNDLE_SIGNATURES = {}


@pytest.fixture(scope="module")
def signing(tmp_path_factory):
    """The dev server with a response signing key; the key's id and public half, as an app's config lists them."""
    key = Ed25519PrivateKey.generate()
    path = tmp_path_factory.mktemp("signing") / "response-signing.pem"
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    server = DevServer("--response-signing-key", str(path))
    key_id = hashlib.sha256(raw).hexdigest()[:16]
    BUNDLE_SIGNATURES[key_id] = bundle_signature(path)
    yield server, {"id": key_id, "key": base64.b64encode(raw).decode()}
    server.stop()


@pytest.fixture
def proxy(signing):
    server, _ = signing
    handler = type("BoundRewriter", (Rewriter,), {"upstream": server.port, "rewritten": 0})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", handler
    httpd.shutdown()
    httpd.server_close()


def client(base_url, key, mode, tmp_path, profile_id, **extra):
    return paywire.Client({
        "profile_id": profile_id, "storage_dir": str(tmp_path / profile_id), "store": store(),
        "transport": {"type": "http", "base_url": base_url, "request_timeout_ms": 3000},
        "response_verification": {"mode": mode, "public_keys": [key]},
        "refresh_profile_on_start": False,
        "fallback": {"path": str(BACKEND_BUNDLE), "signature": BUNDLE_SIGNATURES[key["id"]]},
        "analytics": {"retry_min_ms": 50, "retry_max_ms": 200, "flush_interval_ms": 600000}, **extra})


def drain(client, seconds=0.3):
    events, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        event = client.poll(0.05)
        if event is not None:
            events.append(event)
    return events


def test_a_rewritten_profile_answer_is_applied_marked_failed_in_informational_mode(signing, proxy, tmp_path):
    _, key = signing
    url, rewriter = proxy
    with client(url, key, "informational", tmp_path, "mitm-informational") as app:
        profile = app.call("refresh_profile")
        assert rewriter.rewritten == 1
        premium = profile["access_levels"]["premium"]
        assert premium["is_active"] is True and premium["verification"] == "failed"
        assert profile["verification"] == "failed"
        warned = [e for e in drain(app) if e["event"] == "log" and e["details"].get("reason") == "invalid"]
        assert warned and warned[0]["level"] == "warn"


def test_a_rewritten_profile_answer_is_refused_in_enforced_mode_and_nothing_changes(signing, proxy, tmp_path):
    _, key = signing
    url, rewriter = proxy
    with client(url, key, "enforced", tmp_path, "mitm-enforced") as app:
        # First the proxy only forwards: the profile as the backend verified it (nothing bought).
        rewriter.rewriting = False
        before = app.call("refresh_profile")
        assert before["access_levels"] == {} and before["verification"] == "verified"
        rewriter.rewriting = True
        with pytest.raises(paywire.PaywireError) as refused:
            app.call("refresh_profile")
        assert refused.value.code == "response_verification_failed"
        assert rewriter.rewritten == 1
        after = app.call("get_profile", {"fetch_policy": "return_cache_data_else_load"})
        assert after["access_levels"] == {} and after["verification"] == "verified"
        errors = [e for e in drain(app) if e["event"] == "log" and e["level"] == "error"]
        assert errors and errors[0]["details"]["mode"] == "enforced"


def test_without_the_proxy_a_purchase_and_the_profile_are_verified_on_the_wire_and_on_disk(signing, tmp_path):
    server, key = signing
    with client(server.url, key, "enforced", tmp_path, "verified-buyer") as app:
        buy_in_a_view(app)
        profile, _ = wait_for_profile(app, lambda p: p["access_levels"].get("premium", {}).get("verification") == "verified")
        assert profile["access_levels"]["premium"]["is_active"] is True and profile["verification"] == "verified"
        refreshed = app.call("refresh_profile")
        assert refreshed["access_levels"]["premium"]["verification"] == "verified"
    # Read back from storage_dir: the signature kept beside the profile still covers it.
    with client(server.url, key, "enforced", tmp_path, "verified-buyer") as app:
        again = app.call("get_profile", {"fetch_policy": "return_cache_data_else_load"})
        assert again["access_levels"]["premium"]["verification"] == "verified" and again["verification"] == "verified"
        assert not [e for e in drain(app) if e["event"] == "log" and e["level"] in ("warn", "error")]

