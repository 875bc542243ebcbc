"""Placements, onboardings and the fallback bundle signed as documents by the server's response
signing key (api/openapi.yaml components/headers/DocumentSignature): the message is rebuilt here
from the raw answer and checked with the `cryptography` package's Ed25519, the key the app
trusts signs (x-paywire-key-ids), a 304 carries none, `paywire-server --sign-bundle` signs a
bundle file, and the library in enforced mode, over its own HTTP transport, serves the server's
placement and the signed bundle verified and refuses an edited bundle."""
import base64
import json
import subprocess

import paywire
import pytest
from cryptography.exceptions import InvalidSignature

from conftest import BACKEND_BUNDLE, SERVER, DevServer, bundle_signature
from test_response_signing import key_id, raw_call, write_key
from test_purchases_http import store


def document_message(kind, document_id, revision, body):
    """What a document signature covers: kind, id and ETag, then the exact bytes."""
    revision = revision[2:] if revision.startswith("W/") else revision
    return f"paywire-document-signature-v1\n{kind}\n{document_id}\n{revision}\n".encode() + body


def check(public_key, kind, document_id, headers, body):
    signature = base64.b64decode(headers["x-paywire-document-signature"], validate=True)
    public_key.verify(signature, document_message(kind, document_id, headers.get("etag", ""), body))


@pytest.fixture(scope="module")
def two_keys(tmp_path_factory):
    """The server with two signing keys (a rotation: the first signs unless the app trusts only the second)."""
    directory = tmp_path_factory.mktemp("documents")
    first, second = write_key(directory, "first"), write_key(directory, "second")
    server = DevServer("--response-signing-key", first[0], "--response-signing-key", second[0])
    yield server, first, second
    server.stop()


def test_placements_and_onboardings_are_signed_as_documents_and_a_304_needs_no_signature(two_keys):
    server, (_, first), _ = two_keys
    for kind, document_id in (("placements", "onboarding"), ("onboardings", "welcome")):
        status, headers, body = raw_call(server, "GET", f"/v1/{kind}/{document_id}")
        assert status == 200
        assert headers["x-paywire-document-key-id"] == key_id(first)
        check(first, kind, document_id, headers, body)
        # Another placement's id, or another kind, does not hold: one document cannot stand for another.
        with pytest.raises(InvalidSignature):
            check(first, kind, "settings", headers, body)
        with pytest.raises(InvalidSignature):
            check(first, "onboardings" if kind == "placements" else "placements", document_id, headers, body)
        status, headers, body = raw_call(server, "GET", f"/v1/{kind}/{document_id}", headers={"if-none-match": headers["etag"]})
        assert status == 304 and body == b""
        assert "x-paywire-document-signature" not in headers


def test_the_key_the_app_trusts_signs_the_placement(two_keys):
    server, _, (_, second) = two_keys
    status, headers, body = raw_call(server, "GET", "/v1/placements/settings", headers={"x-paywire-key-ids": key_id(second)})
    assert status == 200 and headers["x-paywire-document-key-id"] == key_id(second)
    check(second, "placements", "settings", headers, body)


def test_sign_bundle_signs_the_files_exact_bytes_and_refuses_what_is_not_json(tmp_path):
    path, public = write_key(tmp_path, "operator")
    signed = bundle_signature(path)
    assert signed["key_id"] == key_id(public)
    public.verify(base64.b64decode(signed["signature"]), document_message("fallback_bundle", "", "", BACKEND_BUNDLE.read_bytes()))
    not_json = tmp_path / "bundle.json"
    not_json.write_text("{not json")
    run = subprocess.run([SERVER, "--sign-bundle", str(not_json), "--response-signing-key", path], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 1 and "not a JSON object" in run.stderr
    assert "PRIVATE KEY" not in run.stderr + run.stdout


@pytest.mark.parametrize("arguments, says", [
    (["--sign-bundle"], "paywire-server: --sign-bundle needs a value"),
    (["--sign-bundle=b.json", "--port", "1"], "paywire-server: --sign-bundle does not take '--port'"),
    (["--certify-signing-key", "k.pem", "--root-key"], "paywire-server: --root-key needs a value"),
    (["--certify-signing-key=k.pem", "--root-key=r.pem", "--valid-for-days=0"], "paywire-server: --valid-for-days takes 1 to 3650"),
    (["--certify-signing-key=k.pem", "--root-key=r.pem", "--clock-offset-ms=soon"], "paywire-server: --clock-offset-ms needs a whole number"),
])
def test_the_signing_commands_name_what_is_wrong_with_their_arguments(arguments, says):
    run = subprocess.run([SERVER, *arguments], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and run.stderr.startswith(says), run.stderr


def app(server, trusted, fallback, profile_id):
    return paywire.Client({
        "profile_id": profile_id, "store": store(), "fallback": fallback, "refresh_profile_on_start": False,
        "transport": {"type": "http", "base_url": server.url, "request_timeout_ms": 3000},
        "response_verification": {"mode": "enforced", "public_keys": [trusted]},
        "analytics": {"flush_interval_ms": 600000}})


def test_the_library_in_enforced_mode_serves_the_servers_placement_and_the_signed_bundle_verified(two_keys, tmp_path):
    server, (first_path, first), _ = two_keys
    raw = base64.b64encode(first.public_bytes_raw()).decode()
    trusted = {"id": key_id(first), "key": raw}
    signature = bundle_signature(first_path)
    with app(server, trusted, {"path": str(BACKEND_BUNDLE), "signature": signature}, "documents-enforced") as client:
        paywall = client.call("get_paywall", {"placement_id": "onboarding"})
        assert paywall["verification"] == "verified"
        assert paywall["placement"]["developer_id"] == "onboarding"
        onboarding = client.call("get_onboarding", {"placement_id": "welcome"})
        assert onboarding["verification"] == "verified"
        edited = tmp_path / "edited.json"
        edited.write_text(BACKEND_BUNDLE.read_text().replace("premium_monthly", "premium_yearly", 1))
        with pytest.raises(paywire.PaywireError) as refused:
            client.call("set_fallback", {"path": str(edited), "signature": signature})
        assert refused.value.code == "response_verification_failed"
        assert refused.value.details["document"] == "fallback_bundle"
    with pytest.raises(paywire.PaywireError) as refused:
        app(server, trusted, {"path": str(tmp_path / "edited.json"), "signature": signature}, "documents-edited")
    assert refused.value.code == "response_verification_failed"
