"""Purchases and restores validated by the dev server over real HTTP: the core's test-store
signature checked by the server's own HMAC, access verified by the backend's answer, a forged
receipt revoked, and a purchase made offline verified once the backend is back."""
import json
import pathlib
import socket
import time

import paywire
from conftest import DevServer, logs

ROOT = pathlib.Path(__file__).resolve().parents[2]
PRODUCTS = json.loads((ROOT / "examples/config.json").read_text())["store"]["products"]


def store(forge=None, restore=None):
    products = [dict(product) for product in PRODUCTS]
    if forge:
        for product in products:
            if product["vendor_product_id"] == forge:
                product["purchase"] = {"type": "success", "forge_verification": True}
    result = {"type": "test", "products": products}
    if restore:
        result["restore"] = {"type": "success", "product_ids": restore}
    return result


def buyer(server_url, tmp_path, profile_id, **store_options):
    return paywire.Client({
        "profile_id": profile_id, "storage_dir": str(tmp_path / profile_id), "store": store(**store_options),
        "transport": {"type": "http", "base_url": server_url, "request_timeout_ms": 1000},
        "fallback": {"path": str(ROOT / "examples/bundle.json")},
        "analytics": {"retry_min_ms": 50, "retry_max_ms": 200, "flush_interval_ms": 600000}})


def buy_in_a_view(client, product="premium_monthly"):
    paywall = client.call("get_paywall", {"placement_id": "onboarding", "fetch_policy": "return_cache_data_else_load"})
    view = client.call("create_paywall_view", {"paywall": paywall})
    client.call("paywall_view_make_purchase", {"view_id": view["id"], "product_id": product})
    return paywall


def wait_for_profile(client, predicate, timeout=10.0):
    """Polls events until a did_load_latest_profile whose profile satisfies `predicate`."""
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        event = client.poll(0.2)
        if event is None:
            continue
        seen.append(event)
        if event["event"] == "did_load_latest_profile" and predicate(event["profile"]):
            return event["profile"], seen
    raise AssertionError(f"no such profile within {timeout} s: {json.dumps(seen)[:1500]}")


def verified(level="premium"):
    return lambda profile: profile["access_levels"].get(level, {}).get("verified") is True


def test_a_purchase_is_verified_by_the_backend_which_checks_the_signature(devserver, tmp_path):
    with buyer(devserver.url, tmp_path, "http-buyer") as client:
        paywall = buy_in_a_view(client)
        profile, _ = wait_for_profile(client, verified())
        assert profile["access_levels"]["premium"]["is_active"] is True
    kept = devserver.control("GET", "purchases?profile_id=http-buyer")["purchases"]
    assert [(p["status"], p["vendor_product_id"]) for p in kept] == [("verified", "premium_monthly")]
    assert kept[0]["attribution"]["variation_id"] == paywall["variation_id"]
    assert kept[0]["attribution"]["ab_test_name"] == paywall["placement"]["ab_test_name"]


def test_a_forged_receipt_is_refused_and_its_access_revoked(devserver, tmp_path):
    with buyer(devserver.url, tmp_path, "http-forger", forge="premium_monthly") as client:
        buy_in_a_view(client)
        # The client's first event is its profile snapshot (no access yet), then the grant.
        wait_for_profile(client, lambda profile: "premium" in profile["access_levels"])
        profile, seen = wait_for_profile(client, lambda profile: "premium" not in profile["access_levels"])
        refusal = [e for e in seen if e["event"] == "log" and e["details"].get("code") == "verification_failed"]
        assert len(refusal) == 1 and refusal[0]["level"] == "warn"
        assert client.call("get_profile", {"fetch_policy": "return_cache_data_else_load"})["access_levels"] == {}
    kept = devserver.control("GET", "purchases?profile_id=http-forger")["purchases"]
    assert [p["status"] for p in kept] == ["refused"]


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_purchase_made_offline_is_verified_once_the_backend_is_back(tmp_path):
    port = free_port()
    with buyer(f"http://127.0.0.1:{port}", tmp_path, "http-offline") as client:
        buy_in_a_view(client)
        unverified = client.call("get_profile", {"fetch_policy": "return_cache_data_else_load"})["access_levels"]["premium"]
        assert (unverified["is_active"], unverified["verified"]) == (True, False)
        time.sleep(0.5)   # a few tries fail while nothing listens
        server = DevServer("--port", str(port))
        try:
            profile, _ = wait_for_profile(client, verified(), timeout=15)
            assert profile["access_levels"]["premium"]["is_active"] is True
        finally:
            server.stop()


def test_restore_purchases_gets_access_from_the_backend(devserver, tmp_path):
    with buyer(devserver.url, tmp_path, "http-restorer", restore=["premium_annual"]) as client:
        call_id = client.call_async("restore_purchases")
        result, _ = client.wait_for(call_id, timeout=10)
        assert result["restored_product_ids"] == ["premium_annual"]
        assert result["profile"]["access_levels"]["premium"]["verified"] is True
        assert "premium_annual" in result["profile"]["subscriptions"]


def test_a_restore_with_the_backend_down_fails_and_the_view_stays_open(tmp_path):
    with buyer(f"http://127.0.0.1:{free_port()}", tmp_path, "http-offline-restore", restore=["premium_annual"]) as client:
        paywall = client.call("get_paywall", {"placement_id": "onboarding", "fetch_policy": "return_cache_data_else_load"})
        view = client.call("create_paywall_view", {"paywall": paywall})
        client.call("present_paywall_view", {"view_id": view["id"]})
        client.call("paywall_view_restore", {"view_id": view["id"]})
        deadline = time.monotonic() + 10
        names = []
        while "paywall_view_did_fail_restore" not in names and time.monotonic() < deadline:
            event = client.poll(0.2)
            if event:
                names.append(event["event"])
                if event["event"] == "paywall_view_did_fail_restore":
                    assert event["error"]["code"] == "network_failed"
        assert "paywall_view_did_fail_restore" in names and "paywall_view_did_dismiss" not in names
