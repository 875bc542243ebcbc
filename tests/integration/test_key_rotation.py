"""Key rotation under a pinned root (issue 56, item 4), end to end: `paywire-server
--certify-signing-key` makes a root's certificate of a short-lived signing key where the root's
private key is kept; the server is given only the signing key and that certificate
(`--signing-key-certificate`) and sends the certificate with every signed answer and document;
the library, pinning only the root (response_verification.root_keys), verifies them, over its
own HTTP transport, and a server whose key another root certified is refused."""
import base64
import subprocess
import time

import paywire
import pytest
import timeshift

from conftest import SERVER, DevServer
from test_purchases_http import store
from test_response_signing import key_id, raw_call, write_key


DAY_MS = 86_400_000


def certify(key_path, root_path, *extra, offset_ms=timeshift.OFFSET_MS):
    """A certificate dated on the run's clock (the one the server and the apps live on), as an
    operator certifies on theirs."""
    run = subprocess.run([SERVER, "--certify-signing-key", key_path, "--root-key", root_path,
                          "--clock-offset-ms", str(offset_ms), *extra], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "PRIVATE KEY" not in run.stdout + run.stderr
    return run.stdout.strip()


def pinned(public_key):
    raw = public_key.public_bytes_raw()
    return {"id": key_id(public_key), "key": base64.b64encode(raw).decode()}


def app(server, root, profile_id):
    return paywire.Client({
        "profile_id": profile_id, "store": store(), "refresh_profile_on_start": False,
        "transport": {"type": "http", "base_url": server.url, "request_timeout_ms": 3000},
        "response_verification": {"mode": "enforced", "root_keys": [root]}, "analytics": {"flush_interval_ms": 600000}})


def test_a_server_given_only_a_certified_signing_key_is_trusted_by_apps_that_pin_the_root(tmp_path):
    root_path, root = write_key(tmp_path, "root")
    key_path, key = write_key(tmp_path, "signing")
    certificate = tmp_path / "signing.cert"
    certificate.write_text(certify(key_path, root_path, "--valid-for-days", "7") + "\n")
    _, root_id, signing_id, public, expires, signature = certificate.read_text().strip().split(";")
    assert (root_id, signing_id) == (key_id(root), key_id(key))
    root.verify(base64.b64decode(signature), f"paywire-signing-key-v1\n{root_id}\n{signing_id}\n{public}\n{expires}".encode())
    server = DevServer("--response-signing-key", key_path, "--signing-key-certificate", str(certificate))
    try:
        status, headers, _ = raw_call(server, "GET", "/v1/placements/onboarding", headers={"x-paywire-key-ids": root_id})
        assert status == 200 and headers["x-paywire-signing-key"] == certificate.read_text().strip()
        with app(server, pinned(root), "rotation-pinned") as client:
            assert client.call("refresh_profile")["verification"] == "verified"
            assert client.call("get_paywall", {"placement_id": "onboarding"})["verification"] == "verified"
        other_path, other = write_key(tmp_path, "other-root")
        with app(server, pinned(other), "rotation-other-root") as client:
            with pytest.raises(paywire.PaywireError) as refused:
                client.call("refresh_profile")
            assert refused.value.code == "response_verification_failed"
    finally:
        server.stop()


def test_a_certificate_of_no_key_given_stops_the_start(tmp_path):
    root_path, _ = write_key(tmp_path, "root")
    key_path, _ = write_key(tmp_path, "signing")
    other_path, _ = write_key(tmp_path, "other")
    certificate = tmp_path / "other.cert"
    certificate.write_text(certify(other_path, root_path))
    with pytest.raises(RuntimeError, match="which no --response-signing-key is"):
        DevServer("--response-signing-key", key_path, "--signing-key-certificate", str(certificate))


def test_a_certificate_lives_from_the_clock_the_certify_command_is_given(tmp_path):
    root_path, _ = write_key(tmp_path, "root")
    key_path, _ = write_key(tmp_path, "signing")
    for offset_ms in (0, 400 * DAY_MS, -400 * DAY_MS):
        before = int(time.time() * 1000) + offset_ms
        expires = int(certify(key_path, root_path, "--valid-for-days", "7", offset_ms=offset_ms).split(";")[4])
        after = int(time.time() * 1000) + offset_ms
        assert before + 7 * DAY_MS <= expires <= after + 7 * DAY_MS, (offset_ms, expires)
