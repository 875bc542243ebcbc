"""The device side of identity, transfers and web redemption, over real HTTP: the library (through
the Python binding) against the server, so the identity record, the restore's transfers and the
redemption call are the ones the server answers, not scripted ones. The server's own rules are in
test_transfer_policy.py and test_web_redemption.py."""
import datetime
import json
import pathlib
import time

import pytest

import paywire
from conftest import DevServer, kept_credential, transaction
from stripe_helpers import checkout, deliver, stripe_server
import timeshift

ROOT = pathlib.Path(__file__).resolve().parents[2]
PRODUCTS = json.loads((ROOT / "examples/config.json").read_text())["store"]["products"]
NOW = timeshift.now_ms() - 60_000


@pytest.fixture(params=["transfer", "keep"])
def server(request, tmp_path):
    server = stripe_server(tmp_path, "--transfer-policy", request.param, "--data", str(tmp_path / "data"))
    server.policy = request.param
    yield server
    server.stop()


def device(server, tmp_path, profile_id, store=None):
    return paywire.Client({
        "profile_id": profile_id, "storage_dir": str(tmp_path / profile_id),
        "store": store or {"type": "test", "products": PRODUCTS},
        "transport": {"type": "http", "base_url": server.url, "request_timeout_ms": 2000},
        "refresh_profile_on_start": False,
        "analytics": {"retry_min_ms": 50, "retry_max_ms": 200, "flush_interval_ms": 600000}})


def events_until(client, predicate, timeout=10.0):
    """Polls events until one satisfies `predicate`; returns it and all seen."""
    deadline, seen = time.monotonic() + timeout, []
    while time.monotonic() < deadline:
        event = client.poll(0.2)
        if event is None:
            continue
        seen.append(event)
        if predicate(event):
            return event, seen
    raise AssertionError(f"no such event within {timeout} s: {json.dumps(seen)[:2000]}")


def profile_event(predicate):
    return lambda event: event["event"] == "did_load_latest_profile" and predicate(event)


def verified(level="premium"):
    return profile_event(lambda e: e["profile"]["access_levels"].get(level, {}).get("verified") is True)


def call_result(client, call_id):
    event, _ = events_until(client, lambda e: e["event"] == "call_result" and e["call_id"] == call_id)
    return event


def test_identify_joins_the_customers_profile_and_says_what_moved(server, tmp_path):
    with device(server, tmp_path, "phone-a") as first:
        first.call("identify", {"customer_user_id": "cus-e2e"})
        events_until(first, profile_event(lambda e: e["profile"].get("customer_user_id") == "cus-e2e"))
        assert first.call("flush_analytics", {"timeout_ms": 5000}) == {"remaining": 0}
    with device(server, tmp_path, "phone-b") as second:
        second.call("make_purchase", {"vendor_product_id": "premium_monthly"})
        events_until(second, verified())
        second.call("identify", {"customer_user_id": "cus-e2e"})
        moved, _ = events_until(second, profile_event(lambda e: e["profile"]["profile_id"] == "phone-a"))
        profile = second.call("get_profile", {"fetch_policy": "return_cache_data_else_load"})
        assert profile["profile_id"] == "phone-a" and profile["customer_user_id"] == "cus-e2e"
        if server.policy == "transfer":
            assert [(t["vendor_product_id"], t["from_profile_id"], t["to_profile_id"]) for t in moved["transferred"]] == \
                [("premium_monthly", "phone-b", "phone-a")]
            assert profile["access_levels"]["premium"]["verified"] is True
        else:
            assert "transferred" not in moved
            assert profile["access_levels"] == {}
    # The profile phone-b left is still that device's: read with the credential it kept.
    status, _, left = server.call("GET", "/v1/profiles/phone-b",
                                  headers={"x-paywire-profile-credential": kept_credential(tmp_path / "phone-b", "phone-b")})
    held = status == 200 and "premium" in left["profile"]["access_levels"]
    assert held == (server.policy == "keep"), (status, left)


def test_a_restore_on_a_second_profile_moves_or_fails_by_policy(server, tmp_path):
    status, _, _ = server.call("POST", "/v1/purchases", json.dumps({
        "event_id": "0190b6e2-7c4a-7d3e-9f00-2b8c1e4a5f70", "profile_id": "old-phone", "state": "purchased", "observer_mode": False,
        **transaction("t-restored", product="lifetime", purchased_at=NOW)}).encode())
    assert status == 200
    with device(server, tmp_path, "new-phone", store={"type": "host"}) as client:
        call_id = client.call_async("restore_purchases")
        asked, _ = events_until(client, lambda e: e["event"] == "host_request" and e["kind"] == "store.restore")
        # The host's store gives times as ISO 8601; the core posts them as milliseconds.
        restored = dict(transaction("t-restored", product="lifetime", purchased_at=NOW),
                        purchased_at=datetime.datetime.fromtimestamp(NOW / 1000, datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z"))
        client.call("host_respond", {"request_id": asked["request_id"], "result": {"product_ids": ["lifetime"], "transactions": [restored]}})
        answer = call_result(client, call_id)
    if server.policy == "transfer":
        assert answer["status"] == 0, answer
        moved = answer["envelope"]["success"]["transferred"]
        assert [(t["transaction_id"], t["from_profile_id"], t["to_profile_id"]) for t in moved] == [("t-restored", "old-phone", "new-phone")]
        assert answer["envelope"]["success"]["profile"]["access_levels"]["premium"]["verified"] is True
    else:
        assert answer["envelope"]["error"]["code"] == "belongs_to_another_profile", answer
        assert answer["envelope"]["error"]["details"]["transaction_ids"] == ["t-restored"]
        _, _, owner = server.call("GET", "/v1/profiles/old-phone")
        assert "premium" in owner["profile"]["access_levels"]


def test_a_web_purchase_link_is_redeemed_in_the_app(server, tmp_path):
    status, _ = deliver(server, checkout("cs_e2e", price="price_lifetime", payment_intent="pi_e2e"))
    assert status == 200
    status, _, link = server.call("POST", "/v1/web-purchases/cs_e2e/redemption")
    assert status == 200, link
    with device(server, tmp_path, "web-buyer") as client:
        call_id = client.call_async("redeem_web_purchase", {"url": link["url"] + "&utm_source=email"})
        granted, _ = events_until(client, profile_event(lambda e: "premium" in e["profile"]["access_levels"]))
        assert granted["profile"]["access_levels"]["premium"]["store"] == "stripe"
        answer = call_result(client, call_id)
        assert answer["envelope"]["success"]["result"] == "redeemed"
        again = client.call_async("redeem_web_purchase", {"url": link["url"]})
        assert call_result(client, again)["envelope"]["success"]["result"] == "already_redeemed"
    with device(server, tmp_path, "someone-else") as other:
        late = other.call_async("redeem_web_purchase", {"url": link["url"]})
        answer = call_result(other, late)["envelope"]["success"]
        assert answer["result"] == "belongs_to_another_profile" and answer["profile"]["access_levels"] == {}
