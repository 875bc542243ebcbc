"""POST /v1/notifications/play over real HTTP: Pub/Sub pushes of Google Play Real-time
Developer Notifications. The purchase token is the original transaction id the device posted;
each of the 13 subscription types and a voided purchase do what the spec says; a replayed
messageId, an unknown token and a malformed push change nothing."""
import base64
import json
import uuid

import pytest

from notify_helpers import DAY, iso, now_ms, premium, profile, subscribe


def push(token, notification_type=None, event_at=None, message_id=None, voided=None, **extra):
    rtdn = {"version": "1.0", "packageName": "com.example.app", "eventTimeMillis": str(event_at or now_ms())}
    if voided is not None:
        rtdn["voidedPurchaseNotification"] = {"purchaseToken": token, "orderId": "GPA.1", "productType": 1, "refundType": 1, **voided}
    else:
        rtdn["subscriptionNotification"] = {"version": "1.0", "notificationType": notification_type, "purchaseToken": token,
                                            "subscriptionId": "premium_monthly", **extra}
    return {"message": {"data": base64.b64encode(json.dumps(rtdn).encode()).decode(), "messageId": message_id or str(uuid.uuid4()),
                        "publishTime": "2026-01-01T00:00:00Z"},
            "subscription": "projects/example/subscriptions/play-rtdn"}


def post(server, body):
    return server.call("POST", "/v1/notifications/play", body)


def applied(server, *args, **kwargs):
    status, _, body = post(server, push(*args, **kwargs))
    assert status == 200 and body["outcome"] == "applied", body
    return premium(body)


def test_purchase_renewal_grace_hold_recovery_cancel_restart_and_expiry(devserver):
    now = now_ms()
    t = now - 60_000
    subscribe(devserver, "droid", "token-1", store="test")
    grant = applied(devserver, "token-1", 4, event_at=t, expiryTimeMillis=str(now + 30 * DAY))        # PURCHASED
    assert grant["is_active"] and grant["expires_at"] == iso(now + 30 * DAY) and grant["original_transaction_id"] == "token-1"
    # RENEWED without an expiry: one period of premium_monthly from the event by the calendar.
    grant = applied(devserver, "token-1", 2, event_at=t + 1)
    assert grant["renewed_at"] == iso(t + 1) and grant["expires_at"] != iso(now + 30 * DAY)
    applied(devserver, "token-1", 2, event_at=t + 2, expiryTimeMillis=now - 1000)
    grant = applied(devserver, "token-1", 6, event_at=t + 3)                                            # IN_GRACE_PERIOD
    assert grant["is_in_grace_period"] and grant["is_active"]
    assert grant["grace_period_expires_at"] == iso(t + 3 + 3 * DAY), "3 days unless the sender says"
    grant = applied(devserver, "token-1", 5, event_at=t + 4)                                            # ON_HOLD
    assert not grant["is_in_grace_period"] and not grant["is_active"] and grant["billing_issue_detected_at"] == iso(t + 3)
    grant = applied(devserver, "token-1", 1, event_at=t + 5, expiryTimeMillis=now + 30 * DAY)           # RECOVERED
    assert grant["is_active"] and grant["billing_issue_detected_at"] is None
    grant = applied(devserver, "token-1", 3, event_at=t + 6)                                            # CANCELED
    assert not grant["will_renew"] and grant["unsubscribed_at"] == iso(t + 6) and grant["is_active"]
    grant = applied(devserver, "token-1", 7, event_at=t + 7)                                            # RESTARTED
    assert grant["will_renew"] and grant["unsubscribed_at"] is None
    applied(devserver, "token-1", 3, event_at=t + 8)
    grant = applied(devserver, "token-1", 13, event_at=t + 9)                                           # EXPIRED
    assert not grant["is_active"] and grant["cancellation_reason"] == "voluntarily_cancelled"


@pytest.mark.parametrize("notification_type", [8, 9, 10, 11])
def test_price_change_deferral_and_pauses_are_recorded_only(devserver, notification_type):
    subscribe(devserver, "noted", "token-n")
    _, etag, _ = profile(devserver, "noted")
    status, _, body = post(devserver, push("token-n", notification_type))
    assert status == 200 and body["outcome"] == "recorded" and body["type"].startswith("SUBSCRIPTION_")
    assert profile(devserver, "noted", etag)[0] == 304


def test_a_revoked_subscription_and_a_voided_purchase(devserver):
    now = now_ms()
    subscribe(devserver, "revoked", "token-r")
    grant = applied(devserver, "token-r", 12, event_at=now - 10)                                        # REVOKED
    assert not grant["is_active"] and not grant["is_refund"]
    subscribe(devserver, "voided", "token-v")
    status, _, body = post(devserver, push("token-v", voided={}, event_at=now - 20))
    assert status == 200 and body["type"] == "VOIDED_PURCHASE"
    grant = premium(body)
    assert grant["is_refund"] and grant["refunded_at"] == iso(now - 20) and not grant["is_active"]


def test_a_replayed_message_id_changes_nothing(devserver):
    subscribe(devserver, "again", "token-a")
    assert post(devserver, push("token-a", 3, message_id="m-1"))[2]["outcome"] == "applied"
    _, etag, _ = profile(devserver, "again")
    status, _, body = post(devserver, push("token-a", 7, message_id="m-1"))
    assert status == 200 and body["outcome"] == "duplicate" and premium(body)["will_renew"] is False
    assert profile(devserver, "again", etag)[0] == 304


def test_an_unknown_purchase_token_is_refused_with_nothing_stored(devserver):
    status, _, body = post(devserver, push("token-nobody", 2))
    assert status == 404 and body["error"]["code"] == "unknown_transaction"
    assert devserver.control("GET", "notifications")["notifications"] == []


def test_malformed_pushes_are_refused(devserver):
    subscribe(devserver, "strict", "token-s")
    _, etag, _ = profile(devserver, "strict")
    good = push("token-s", 2)
    bad_data = lambda data: {**good, "message": {**good["message"], "data": data}}
    encode = lambda value: base64.b64encode(json.dumps(value).encode()).decode()
    for body in [{}, {"message": good["message"]}, {**good, "message": {"data": good["message"]["data"]}},
                 bad_data("%%% not base64"), bad_data(base64.b64encode(b"not json").decode()),
                 bad_data(encode({"packageName": "p", "eventTimeMillis": "1"})),
                 bad_data(encode({"packageName": "p", "eventTimeMillis": "1",
                                  "subscriptionNotification": {"notificationType": 14, "purchaseToken": "token-s", "subscriptionId": "x"}})),
                 bad_data(encode({"packageName": "p", "eventTimeMillis": "soon",
                                  "subscriptionNotification": {"notificationType": 2, "purchaseToken": "token-s", "subscriptionId": "x"}}))]:
        status, _, answer = post(devserver, body)
        assert status == 400 and answer["error"]["code"] == "invalid_request", (body, answer)
    assert profile(devserver, "strict", etag)[0] == 304
