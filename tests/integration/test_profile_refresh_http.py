"""The device's profile kept fresh over real HTTP: a starting client hears of a purchase made
elsewhere, a refund the store told the backend reaches a running client when the app comes to
the foreground, and an unchanged profile costs a 304."""
import time
import uuid

import pytest

import paywire
from notify_helpers import now_ms, subscribe


def next_profile(client, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        event = client.poll(0.2)
        if event is not None and event["event"] == "did_load_latest_profile":
            return event["profile"]
    raise AssertionError("no did_load_latest_profile")


def test_a_refund_reaches_a_running_client_and_an_unchanged_profile_costs_a_304(devserver, make_client):
    subscribe(devserver, "integration-profile", "web-1")   # bought elsewhere (the web)
    client = make_client(refresh_on_start=True)
    assert next_profile(client)["access_levels"] == {}      # the snapshot every client starts with
    level = next_profile(client)["access_levels"]["premium"]
    assert level["is_active"] is True and level["verified"] is True

    status, _, body = devserver.call("POST", "/v1/notifications/test-store", {
        "notification_id": str(uuid.uuid4()), "type": "REFUND", "original_transaction_id": "web-1",
        "refunded_at": now_ms()})
    assert status == 200 and body["outcome"] == "applied", body
    client.call("app_did_become_active")
    level = next_profile(client)["access_levels"]["premium"]
    assert level["is_active"] is False and level["is_refund"] is True and level["cancellation_reason"] == "refund"

    before = devserver.stats()["by_status"].get("304", 0)
    client.call("app_did_become_active")
    time.sleep(0.5)
    assert devserver.stats()["by_status"].get("304", 0) == before + 1
    assert [e for e in client.events(0.2) if e["event"] == "did_load_latest_profile"] == []


def test_refresh_profile_fails_when_the_backend_does(devserver, make_client):
    client = make_client()
    devserver.faults(status=500)
    with pytest.raises(paywire.PaywireError) as failure:
        client.call("refresh_profile")
    assert failure.value.code == "network_failed" and failure.value.details["status"] == 500
    assert client.call("get_profile")["profile_id"] == "integration-profile"   # get_profile answers from the device
