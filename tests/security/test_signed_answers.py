"""F11: a signed answer names its profile, and the core refuses a verified answer about another.

The attack (app key and an account of one's own that paid once): a proxy between a device and
the server rewrites the device's restore to name the paying profile, with that profile's
credential, and keeps the device's nonce. The server's answer is genuine and signed over the
device's nonce and route, but it is about the paying profile. Were nothing in the signed text
about the profile, the device (enforced verification) would show the paying profile's premium
as verified, keep it through restarts, and every device behind the proxy would share one
purchase. The door holds when the device refuses the answer in enforced mode and marks it
failed in informational mode, and nothing verified is kept."""
import json
import pathlib

import paywire
import pytest

from attacker import APP_KEY, CREDENTIAL_HEADER, Account, RewritingProxy, unique
from server_helpers import BACKEND_BUNDLE, PRODUCTS



def device(target, base_url, mode, storage_dir, profile_id):
    """The app on a device: the library's client, verifying the server's answers in `mode`."""
    return paywire.Client({
        "profile_id": profile_id, "api_key": APP_KEY, "storage_dir": str(storage_dir),
        "store": {"type": "test", "products": json.loads(pathlib.Path(PRODUCTS).read_text())["store"]["products"],
                  "restore": {"type": "success", "product_ids": []}},
        "transport": {"type": "http", "base_url": base_url, "request_timeout_ms": 5000},
        "response_verification": {"mode": mode, "public_keys": [target.public_key]},
        "refresh_profile_on_start": False, "fallback": {"path": str(BACKEND_BUNDLE), "signature": target.bundle_signature},
        "analytics": {"retry_min_ms": 50, "retry_max_ms": 200, "flush_interval_ms": 600000}})


@pytest.fixture
def rewriting(target):
    """The paying profile the attacker holds, and the proxy that names it on every restore."""
    payer = Account(target, unique("payer"))
    payer.buy(unique("tx-payer"))
    rewrites = []

    def rewrite(method, path, headers, body):
        if method == "POST" and path == "/v1/restores":
            claim = json.loads(body)
            claim["profile_id"] = payer.id
            headers = {**{name: value for name, value in headers.items() if name.lower() != CREDENTIAL_HEADER},
                       CREDENTIAL_HEADER: payer.credential}
            rewrites.append(claim)
            body = json.dumps(claim).encode()
        return headers, body

    proxy = RewritingProxy(target.server.port, rewrite)
    yield proxy, rewrites
    proxy.close()


def test_a_restore_rewritten_to_name_a_paying_profile_is_refused_in_enforced_mode(target, rewriting, tmp_path):
    proxy, rewrites = rewriting
    profile_id = unique("device")
    with device(target, proxy.url, "enforced", tmp_path / "device", profile_id) as app:
        with pytest.raises(paywire.PaywireError) as refused:
            app.call("restore_purchases")
        assert rewrites, "the proxy rewrote the restore"
        assert refused.value.code == "response_verification_failed"
        profile = app.call("get_profile", {"fetch_policy": "return_cache_data_else_load"})
        assert profile["access_levels"] == {}, "the paying profile's premium stays the paying profile's"
    # Started again (the proxy is gone): nothing was kept that grants anything.
    with device(target, target.server.url, "enforced", tmp_path / "device", profile_id) as app:
        assert app.call("get_profile", {"fetch_policy": "return_cache_data_else_load"})["access_levels"] == {}


def test_a_restore_rewritten_to_name_a_paying_profile_is_marked_failed_in_informational_mode(target, rewriting, tmp_path):
    proxy, rewrites = rewriting
    with device(target, proxy.url, "informational", tmp_path / "device", unique("device")) as app:
        restored = app.call("restore_purchases")["profile"]
        assert rewrites, "the proxy rewrote the restore"
        # Informational mode applies what failed its check, and says so on every grant.
        assert restored["access_levels"]["premium"]["verification"] == "failed"
        assert restored["verification"] == "failed"
