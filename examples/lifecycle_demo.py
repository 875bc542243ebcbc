#!/usr/bin/env python3
"""A subscription's life as the device sees it: a user subscribes, renews twice, hits a billing
problem, enters a grace period, recovers, cancels and expires; a second user is refunded. The
store's side arrives as server notifications on the dev server's test-store route; after each
one the app comes to the foreground (`app_did_become_active`), the core asks the backend for the
profile, and the demo prints the access level the device now holds, checked against what the
notification said. Run it with `make demo-lifecycle` (it starts and stops the dev server).

    lifecycle_demo.py DEVSERVER BUNDLE CONFIG
"""
import json
import pathlib
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid

import paywire
from operator_key import OperatorKey

DEVSERVER, BUNDLE, CONFIG = sys.argv[1], sys.argv[2], sys.argv[3]
#: The test store's notifications come from tooling, not a store's signature: an operator key
#: with notifications:write sends them.
OPERATOR = OperatorKey(scopes=["notifications:write"])
DAY = 86_400_000
FIELDS = ("is_active", "expires_at", "renewed_at", "will_renew", "is_in_grace_period", "billing_issue_detected_at", "unsubscribed_at",
          "cancellation_reason", "is_refund")


def now_ms():
    return int(time.time() * 1000)


def notify(url, type_, original_transaction_id, **fields):
    """Posts one test-store server notification; the dev server applies it to the grant."""
    body = {"notification_id": str(uuid.uuid4()), "type": type_, "original_transaction_id": original_transaction_id,
            "event_at": now_ms(), **fields}
    request = urllib.request.Request(url + "/v1/notifications/test-store", data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json", **OPERATOR.headers()})
    answer = json.loads(urllib.request.urlopen(request, timeout=5).read())
    if answer.get("outcome") != "applied":
        raise SystemExit(f"the dev server did not apply {type_}: {answer}")


def seen_by_device(client, timeout=5.0):
    """The app comes to the foreground; returns the premium access level of the profile the
    core emits once the backend answered."""
    client.call("app_did_become_active")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        event = client.poll(0.2)
        if event is not None and event["event"] == "did_load_latest_profile":
            return event["profile"]["access_levels"].get("premium")
    raise SystemExit("the device heard nothing within 5 s")


def differs(level, key, want):
    """Whether the access level says otherwise than `want`; for a time (`..._at`), `want` says
    whether it is set."""
    if key.endswith("_at"):
        return (level.get(key) is not None) != want
    return level.get(key) != want


def check(step, level, expected):
    shown = {key: level.get(key) for key in FIELDS if key in ("is_active", "expires_at") or level.get(key) not in (None, False)}
    print(f"{step:<44} {json.dumps(shown)}")
    wrong = {key: (want, level.get(key)) for key, want in expected.items() if differs(level, key, want)}
    if wrong:
        raise SystemExit(f"  the device's access differs from what the store said (expected, got): {wrong}")


def subscriber(url, directory, profile_id, products):
    return paywire.Client({"profile_id": profile_id, "storage_dir": f"{directory}/{profile_id}",
                           "store": {"type": "test", "products": products},
                           "transport": {"type": "http", "base_url": url, "request_timeout_ms": 2000},
                           "fallback": {"path": BUNDLE}, "refresh_profile_on_start": False})


def buy(client, product="premium_monthly"):
    """Buys through the test store and waits until the backend verified it; the transaction id."""
    result = client.call("make_purchase", {"vendor_product_id": product})
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        event = client.poll(0.2)
        if event and event["event"] == "did_load_latest_profile" and \
                event["profile"]["access_levels"].get("premium", {}).get("verified"):
            return result["transaction"]["transaction_id"]
    raise SystemExit("the backend did not verify the purchase within 5 s")


def first_user(url, directory, products):
    with subscriber(url, directory, "lifecycle-ann", products) as client:
        original = buy(client)
        print(f"{'ann subscribes (verified by the backend)':<44} transaction {original}")
        steps = [
            ("the store renews her", "DID_RENEW", {"transaction_id": original + "-r1", "expires_at": now_ms() + 30 * DAY},
             {"is_active": True, "will_renew": True, "renewed_at": True}),
            ("renews her again; that period has ended now", "DID_RENEW", {"transaction_id": original + "-r2", "expires_at": now_ms() - 60_000},
             {"is_active": False, "renewed_at": True}),
            ("billing fails: a grace period of 3 days", "DID_FAIL_TO_RENEW",
             {"subtype": "GRACE_PERIOD", "grace_period_expires_at": now_ms() + 3 * DAY},
             {"is_active": True, "is_in_grace_period": True, "billing_issue_detected_at": True}),
            ("billing recovers", "DID_RENEW", {"subtype": "BILLING_RECOVERY", "expires_at": now_ms() + 30 * DAY},
             {"is_active": True, "is_in_grace_period": False, "billing_issue_detected_at": False}),
            ("she turns renewal off", "DID_CHANGE_RENEWAL_STATUS", {"subtype": "AUTO_RENEW_DISABLED"},
             {"is_active": True, "will_renew": False, "unsubscribed_at": True, "cancellation_reason": "voluntarily_cancelled"}),
            # A minute ago, not a second: the device judges access by the backend's time, and an
            # HTTP Date header counts whole seconds (and a server may write it from a cache a
            # second old), so an expiry under two seconds old can still read as active.
            ("the period ends: expired", "EXPIRED", {"subtype": "VOLUNTARY", "expires_at": now_ms() - 60_000},
             {"is_active": False, "will_renew": False, "cancellation_reason": "voluntarily_cancelled"}),
        ]
        for step, type_, fields, expected in steps:
            notify(url, type_, original, **fields)
            check(step, seen_by_device(client), expected)


def second_user(url, directory, products):
    with subscriber(url, directory, "lifecycle-bob", products) as client:
        original = buy(client)
        check("bob subscribes", client.call("get_profile", {"fetch_policy": "return_cache_data_else_load"})["access_levels"]["premium"],
              {"is_active": True})
        notify(url, "REFUND", original, refunded_at=now_ms())
        check("the store refunds bob", seen_by_device(client),
              {"is_active": False, "is_refund": True, "cancellation_reason": "refund", "refunded_at": True})


def main():
    products = json.loads(pathlib.Path(CONFIG).read_text())["store"]["products"]
    server = subprocess.Popen([DEVSERVER, "--bundle", BUNDLE, "--products", CONFIG, *OPERATOR.server_args()], stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().split()[2]
        print(f"paywire-devserver at {url}; each line is what the device holds after the store's notification\n")
        with tempfile.TemporaryDirectory() as directory:
            first_user(url, directory, products)
            second_user(url, directory, products)
        print("\nlifecycle demo: every step the device saw matches what the store said")
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
