"""POST /v1/notifications/test-store over real HTTP: every App Store notification type as plain
JSON walks a grant through its lifecycle, the profile's ETag follows, a replay changes
nothing, an unknown transaction is refused with nothing stored."""
import uuid

from conftest import as_read
from notify_helpers import DAY, iso, later_expiry, ms, now_ms, premium, profile, subscribe


def notify(server, type_, original_transaction_id, notification_id=None, **fields):
    body = {"notification_id": notification_id or str(uuid.uuid4()), "type": type_,
            "original_transaction_id": original_transaction_id, **fields}
    return server.call("POST", "/v1/notifications/test-store", body)


def applied(server, *args, **fields):
    status, _, body = notify(server, *args, **fields)
    assert status == 200, body
    assert body["outcome"] == "applied", body
    return premium(body)


def test_a_subscription_renews_fails_to_bill_recovers_unsubscribes_and_expires(devserver):
    now = now_ms()
    t = now - 60_000   # event times: in the past, so an end dated by one is already over
    first = later_expiry(subscribe(devserver, "sub", "ot-1"))
    _, etag, before = profile(devserver, "sub")
    assert "is_active" not in before["access_levels"]["premium"]   # no notification yet: the purchase's own lifecycle

    grant = applied(devserver, "SUBSCRIBED", "ot-1", subtype="INITIAL_BUY", expires_at=first, event_at=t)
    assert grant["is_active"] is True and grant["will_renew"] is True and grant["renewed_at"] is None
    assert grant["expires_at"] == iso(first)
    status, etag2, _ = profile(devserver, "sub", etag)
    assert status == 200 and etag2 != etag, "a notification that changed the profile changes its ETag"
    assert profile(devserver, "sub", etag2)[0] == 304

    grant = applied(devserver, "DID_RENEW", "ot-1", transaction_id="ot-1-r1", expires_at=now + 60 * DAY, event_at=t + 1)
    assert grant["renewed_at"] == iso(t + 1) and grant["transaction_id"] == "ot-1-r1"
    assert grant["expires_at"] == iso(now + 60 * DAY) and grant["original_transaction_id"] == "ot-1"
    assert profile(devserver, "sub", etag2)[0] == 200

    # The period ends while billing fails: access goes on through the grace period only.
    applied(devserver, "DID_RENEW", "ot-1", expires_at=now - 1000, event_at=t - 2000)
    grant = applied(devserver, "DID_FAIL_TO_RENEW", "ot-1", subtype="GRACE_PERIOD", grace_period_expires_at=now + 3 * DAY, event_at=t)
    assert grant["is_in_grace_period"] is True and grant["is_active"] is True
    assert grant["grace_period_expires_at"] == iso(now + 3 * DAY) and grant["billing_issue_detected_at"] == iso(t)
    grant = applied(devserver, "GRACE_PERIOD_EXPIRED", "ot-1", event_at=t + 5)
    assert grant["is_in_grace_period"] is False and grant["is_active"] is False
    assert grant["billing_issue_detected_at"] == iso(t), "the billing issue stays on record"

    grant = applied(devserver, "DID_RENEW", "ot-1", subtype="BILLING_RECOVERY", expires_at=now + 30 * DAY, event_at=t + 10)
    assert grant["is_active"] is True and grant["billing_issue_detected_at"] is None and grant["grace_period_expires_at"] is None

    grant = applied(devserver, "DID_CHANGE_RENEWAL_STATUS", "ot-1", subtype="AUTO_RENEW_DISABLED", event_at=t + 20)
    assert grant["will_renew"] is False and grant["unsubscribed_at"] == iso(t + 20)
    assert grant["cancellation_reason"] == "voluntarily_cancelled" and grant["is_active"] is True
    grant = applied(devserver, "DID_CHANGE_RENEWAL_STATUS", "ot-1", subtype="AUTO_RENEW_ENABLED", event_at=t + 30)
    assert grant["will_renew"] is True and grant["unsubscribed_at"] is None and grant["cancellation_reason"] is None
    applied(devserver, "DID_CHANGE_RENEWAL_STATUS", "ot-1", subtype="AUTO_RENEW_DISABLED", event_at=t + 40)

    grant = applied(devserver, "EXPIRED", "ot-1", subtype="VOLUNTARY", event_at=t + 50)
    assert grant["is_active"] is False and grant["will_renew"] is False
    assert grant["expires_at"] == iso(t + 50) and grant["cancellation_reason"] == "voluntarily_cancelled"
    assert grant["unsubscribed_at"] == iso(t + 40)
    _, _, seen = profile(devserver, "sub")
    assert premium(seen) == grant and as_read(seen["subscriptions"]["premium_monthly"]) == grant


def test_billing_retry_without_grace_ends_access_at_the_expiry(devserver):
    now = now_ms()
    subscribe(devserver, "retry", "ot-retry")
    applied(devserver, "DID_RENEW", "ot-retry", expires_at=now - 1000, event_at=now - 2000)
    grant = applied(devserver, "DID_FAIL_TO_RENEW", "ot-retry", event_at=now)
    assert grant["billing_issue_detected_at"] == iso(now) and grant["is_in_grace_period"] is False
    assert grant["is_active"] is False
    grant = applied(devserver, "EXPIRED", "ot-retry", subtype="BILLING_RETRY", event_at=now + 1)
    assert grant["cancellation_reason"] == "billing_error" and grant["expires_at"] == iso(now - 1000)


def test_a_refund_ends_access_at_once(devserver):
    now = now_ms()
    subscribe(devserver, "refunded", "ot-ref")
    grant = applied(devserver, "REFUND", "ot-ref", event_at=now, refunded_at=now - 10)
    assert grant["is_refund"] is True and grant["refunded_at"] == iso(now - 10) and grant["is_active"] is False
    assert grant["cancellation_reason"] == "refund" and grant["will_renew"] is False
    assert grant["expires_at"] == iso(now - 10)


def test_a_refunded_lifetime_purchase_loses_its_access_and_is_marked_refunded(devserver):
    subscribe(devserver, "lifer", "ot-life", product="lifetime")
    grant = applied(devserver, "REFUND", "ot-life")
    assert grant["is_active"] is False and grant["is_refund"] is True and grant["is_lifetime"] is True
    _, _, seen = profile(devserver, "lifer")
    assert [p["is_refund"] for p in seen["non_subscriptions"]["lifetime"]] == [True]


def test_a_revocation_ends_access_without_a_refund(devserver):
    subscribe(devserver, "family", "ot-rev")
    grant = applied(devserver, "REVOKE", "ot-rev", event_at=now_ms())
    assert grant["is_active"] is False and grant["is_refund"] is False and grant["cancellation_reason"] == "unknown"


def test_a_consumption_request_is_recorded_and_changes_nothing(devserver):
    subscribe(devserver, "consumer", "ot-cons")
    _, etag, _ = profile(devserver, "consumer")
    status, _, body = notify(devserver, "CONSUMPTION_REQUEST", "ot-cons")
    assert status == 200 and body["outcome"] == "recorded" and body["profile_id"] == "consumer"
    assert profile(devserver, "consumer", etag)[0] == 304
    assert [n["type"] for n in devserver.control("GET", "notifications")["notifications"]] == ["CONSUMPTION_REQUEST"]


def test_a_replayed_notification_answers_200_and_changes_nothing(devserver):
    now = now_ms()
    subscribe(devserver, "replay", "ot-rep")
    notification_id = str(uuid.uuid4())
    first = notify(devserver, "DID_RENEW", "ot-rep", notification_id, expires_at=now + 30 * DAY)
    assert first[0] == 200 and first[2]["outcome"] == "applied"
    _, etag, _ = profile(devserver, "replay")
    # The same id again, even saying something else, is the same notification delivered twice.
    status, _, body = notify(devserver, "REFUND", "ot-rep", notification_id)
    assert status == 200 and body["outcome"] == "duplicate" and "nothing changed" in body["message"]
    assert premium(body)["is_refund"] is False and premium(body)["is_active"] is True
    assert profile(devserver, "replay", etag)[0] == 304
    assert len(devserver.control("GET", "notifications")["notifications"]) == 1


def test_an_unknown_transaction_is_refused_and_applies_once_the_purchase_is_posted(devserver):
    notification_id = str(uuid.uuid4())
    status, _, body = notify(devserver, "REFUND", "ot-later", notification_id)
    assert status == 404 and body["error"]["code"] == "unknown_transaction"
    assert devserver.control("GET", "notifications")["notifications"] == []
    subscribe(devserver, "late", "ot-later")
    status, _, body = notify(devserver, "REFUND", "ot-later", notification_id)
    assert status == 200 and body["outcome"] == "applied" and premium(body)["is_refund"] is True


def test_malformed_notifications_are_refused_and_change_nothing(devserver):
    subscribe(devserver, "strict", "ot-strict")
    _, etag, _ = profile(devserver, "strict")
    for bad in [{"type": "REFUND", "original_transaction_id": "ot-strict"},
                {"notification_id": "n", "type": "REFUNDED", "original_transaction_id": "ot-strict"},
                {"notification_id": "n", "type": "REFUND"},
                {"notification_id": "n", "type": "REFUND", "original_transaction_id": "ot-strict", "refunded_at": "soon"},
                {"notification_id": "n", "type": "EXPIRED", "original_transaction_id": "ot-strict", "cancellation_reason": "bored"},
                {"notification_id": "n", "type": "DID_RENEW", "original_transaction_id": "ot-strict", "expires_at": -1}]:
        status, _, body = devserver.call("POST", "/v1/notifications/test-store", bad)
        assert status == 400 and body["error"]["code"] == "invalid_request", (bad, body)
    assert devserver.call("POST", "/v1/notifications/test-store", b"[1]")[0] == 400
    assert devserver.call("GET", "/v1/notifications/test-store")[0] == 405
    assert devserver.call("POST", "/v1/notifications/elsewhere", {})[0] == 404
    assert profile(devserver, "strict", etag)[0] == 304


def test_results_and_dashboard_count_refunds_and_active_subscribers_per_variation(devserver):
    from conftest import shown
    from test_devserver_dashboard import CHROMIUM, Cells, dashboard_dom
    a, b = "onboarding-monthly-first", "onboarding-annual-first"
    devserver.post_events([shown(f"na-{i}", a) for i in range(4)] + [shown(f"nb-{i}", b) for i in range(2)])
    cell = lambda v: {"placement_id": "onboarding", "ab_test_name": "onboarding_annual_first", "variation_id": v}
    for i in range(3):
        subscribe(devserver, f"na-{i}", f"ot-na-{i}", attribution=cell(a))
    subscribe(devserver, "nb-0", "ot-nb-0", attribution=cell(b))
    notify(devserver, "REFUND", "ot-na-0")
    notify(devserver, "EXPIRED", "ot-na-1", subtype="VOLUNTARY")
    results = devserver.call("GET", "/v1/experiments/onboarding/results")[2]
    [experiment] = results["experiments"]
    counts = {v["variation_id"]: (v["purchasers"], v["refunds"], v["active_subscribers"]) for v in experiment["variations"]}
    assert counts[a] == (3, 1, 1) and counts[b] == (1, 0, 1)

    assert CHROMIUM, "no chromium on PATH: `make deps` installs Debian's chromium"
    cells = Cells()
    cells.feed(dashboard_dom(devserver))
    test = experiment["ab_test_name"]
    for variation, (purchasers, refunds, active) in counts.items():
        assert int(cells.cells[(test, variation, "purchasers")]) == purchasers
        assert int(cells.cells[(test, variation, "refunds")]) == refunds
        assert int(cells.cells[(test, variation, "active_subscribers")]) == active


def test_lifecycles_and_seen_ids_survive_a_restart_with_data(tmp_path):
    from conftest import DevServer
    server = DevServer("--data", str(tmp_path))
    try:
        subscribe(server, "kept", "ot-kept")
        assert notify(server, "REFUND", "ot-kept", "n-kept")[2]["outcome"] == "applied"
    finally:
        server.stop()
    server = DevServer("--data", str(tmp_path))
    try:
        _, _, seen = profile(server, "kept")
        assert seen["access_levels"]["premium"]["is_refund"] is True
        status, _, body = notify(server, "DID_RENEW", "ot-kept", "n-kept")
        assert status == 200 and body["outcome"] == "duplicate"
    finally:
        server.stop()


def test_a_live_grant_stands_for_the_access_level_over_a_refunded_one_that_would_last_longer(devserver):
    # The model's rule (GrantStanding), which the server and the device share: not refunded
    # beats refunded, whatever the dates; the server's own copy used to keep the later expiry.
    now = now_ms()
    subscribe(devserver, "switcher", "ot-annual", product="premium_annual")
    applied(devserver, "REFUND", "ot-annual", event_at=now, refunded_at=now + 300 * DAY)
    body = subscribe(devserver, "switcher", "ot-monthly", product="premium_monthly")
    grant = premium(body)
    assert grant["vendor_product_id"] == "premium_monthly" and grant["is_refund"] is False
    assert body["subscriptions"]["premium_annual"]["is_refund"] is True


def test_the_stores_first_word_is_applied_even_when_it_only_confirms_the_purchase(devserver):
    own = premium(subscribe(devserver, "confirmed", "ot-confirm"))
    assert "is_active" not in own, "no notification yet: the purchase's own lifecycle"
    _, etag, _ = profile(devserver, "confirmed")
    same = {"subtype": "INITIAL_BUY", "expires_at": ms(own["expires_at"]), "event_at": now_ms() - 60_000}

    grant = applied(devserver, "SUBSCRIBED", "ot-confirm", **same)
    assert grant["is_active"] is True, "from the store's first word on, the grant speaks for the store"
    assert {k: v for k, v in grant.items() if k != "is_active"} == own, "and says what the purchase said"
    assert profile(devserver, "confirmed", etag)[0] == 200, "the profile changed: its ETag too"

    status, _, body = notify(devserver, "SUBSCRIBED", "ot-confirm", **same)
    assert status == 200 and body["outcome"] == "recorded", body
    assert premium(body) == grant
