"""A Play purchase that replaces another (an upgrade or downgrade: a new purchase token naming
the old one as `linkedPurchaseToken`): the old grant ends when the new one starts, and the new
purchase is its owner's, granted once."""
from notify_helpers import DAY, as_read, iso, now_ms, profile, subscribe
from play_api import subscription_v2
from test_notifications_play import asking, healthy, play_api, post, push  # noqa: F401 (fixtures)


def linked(expiry_ms, replaced, start_ms, product="premium_annual"):
    purchase = subscription_v2(expiry_ms, product=product, start_ms=start_ms)
    purchase["linkedPurchaseToken"] = replaced
    return purchase


def test_an_upgrade_ends_the_old_purchase_and_moves_the_grant_to_the_new_token(asking, healthy):
    now = now_ms()
    subscribe(asking, "upgrader", "token-monthly")
    healthy.subscriptions["token-monthly"] = subscription_v2(now + 20 * DAY)
    assert post(asking, push("token-monthly", 4, event_at=now - 5000))[0] == 200
    started = now - 1000
    healthy.subscriptions["token-annual"] = linked(now + 365 * DAY, "token-monthly", started)
    message = push("token-annual", 4, event_at=now - 500, message_id="m-upgrade", subscriptionId="premium_annual")
    status, _, answer = post(asking, message)
    assert status == 200 and answer["outcome"] == "applied" and answer["profile_id"] == "upgrader", answer
    _, _, body = profile(asking, "upgrader")
    premium = as_read(body["access_levels"]["premium"])
    assert premium["vendor_product_id"] == "premium_annual" and premium["is_active"], premium
    new = as_read(body["subscriptions"]["premium_annual"])
    assert new["expires_at"] == iso(now + 365 * DAY) and new["transaction_id"] == "token-annual" and new["store"] == "play_store"
    old = as_read(body["subscriptions"]["premium_monthly"])
    assert old["expires_at"] == iso(started) and old["cancellation_reason"] == "upgraded" and not old["is_active"], old
    assert old["will_renew"] is False, "never granted twice"

    # Pub/Sub redelivers: nothing moves again, nothing is doubled.
    before = body
    status, _, answer = post(asking, message)
    assert status == 200 and answer["outcome"] == "duplicate", answer
    assert profile(asking, "upgrader")[2]["subscriptions"] == before["subscriptions"]


def test_a_replaced_purchase_this_server_never_saw_moves_nothing_and_the_new_one_waits_for_the_device(asking, healthy):
    now = now_ms()
    healthy.subscriptions["token-new-unseen"] = linked(now + 365 * DAY, "token-never-seen", now - 1000)
    status, _, answer = post(asking, push("token-new-unseen", 4, subscriptionId="premium_annual"))
    assert status == 404 and answer["error"]["code"] == "unknown_transaction", answer
