"""App Store plan changes over real HTTP. An upgrade (DID_CHANGE_RENEWAL_PREF, subtype UPGRADE,
whose transaction is the new product's) ends the old product's grant at once, with
cancellation_reason upgraded, and starts the new product's; a downgrade or crossgrade
(DID_CHANGE_RENEWAL_PREF whose renewal info names another autoRenewProductId) changes nothing
until the renewal, and the grant says what it will renew into (will_renew_vendor_product_id)
until then. A refund of the replaced product leaves the new grant standing."""
from conftest import as_read
from notify_helpers import DAY, app_store_body, app_store_fixtures, iso, now_ms
from test_app_store_purchases import buy, claim, storekit


chain, server, clean = app_store_fixtures("plans")


def notify(server, chain, type_, original, outcome="applied", **kwargs):
    status, _, body = server.call("POST", "/v1/notifications/app-store", app_store_body(chain, type_, original, **kwargs))
    assert status == 200 and body["outcome"] == outcome, body
    return body["profile"]


def sub(profile, product):
    return as_read(profile["subscriptions"][product])


def test_an_upgrade_ends_the_old_grant_at_once_and_starts_the_new_one(server, chain):
    now = now_ms()
    buy(server, "upgrader", claim(chain, storekit("5000000001", expiresDate=now + 20 * DAY)))
    at = now - 1000
    profile = notify(server, chain, "DID_CHANGE_RENEWAL_PREF", "5000000001", subtype="UPGRADE", signed_at=at,
                     transaction={"transactionId": "5000000002", "productId": "premium_annual", "purchaseDate": at,
                                  "expiresDate": at + 365 * DAY},
                     renewal={"autoRenewProductId": "premium_annual", "autoRenewStatus": 1})
    old, new = sub(profile, "premium_monthly"), sub(profile, "premium_annual")
    assert old["is_active"] is False and old["expires_at"] == iso(at) and old["cancellation_reason"] == "upgraded"
    assert old["will_renew"] is False
    assert new["is_active"] is True and new["expires_at"] == iso(at + 365 * DAY) and new["transaction_id"] == "5000000002"
    assert new["activated_at"] == iso(at) and new.get("will_renew_vendor_product_id") is None
    premium = as_read(profile["access_levels"]["premium"])
    assert premium["vendor_product_id"] == "premium_annual" and premium["is_active"] is True
    # The old product refunded later (prorated): the new grant stands.
    profile = notify(server, chain, "REFUND", "5000000001", outcome="recorded",
                     transaction={"revocationDate": now_ms(), "productId": "premium_monthly"})
    status, _, body = server.call("GET", "/v1/profiles/upgrader")
    assert as_read(body["profile"]["access_levels"]["premium"])["vendor_product_id"] == "premium_annual"
    assert as_read(body["profile"]["access_levels"]["premium"])["is_active"] is True


def test_a_downgrade_waits_for_the_renewal_and_the_grant_says_so(server, chain):
    now = now_ms()
    renewal_at = now + 10 * DAY
    buy(server, "downgrader", claim(chain, storekit("5000000011", product="premium_annual", expiresDate=renewal_at)))
    profile = notify(server, chain, "DID_CHANGE_RENEWAL_PREF", "5000000011", subtype="DOWNGRADE",
                     transaction={"productId": "premium_annual", "expiresDate": renewal_at},
                     renewal={"autoRenewProductId": "premium_monthly", "autoRenewStatus": 1})
    annual = sub(profile, "premium_annual")
    assert annual["is_active"] is True and annual["expires_at"] == iso(renewal_at)
    assert annual["will_renew_vendor_product_id"] == "premium_monthly" and "premium_monthly" not in profile["subscriptions"]
    # Changed back before the renewal: nothing is pending.
    profile = notify(server, chain, "DID_CHANGE_RENEWAL_PREF", "5000000011",
                     transaction={"productId": "premium_annual", "expiresDate": renewal_at},
                     renewal={"autoRenewProductId": "premium_annual", "autoRenewStatus": 1})
    assert sub(profile, "premium_annual").get("will_renew_vendor_product_id") is None
    notify(server, chain, "DID_CHANGE_RENEWAL_PREF", "5000000011", subtype="DOWNGRADE",
           transaction={"productId": "premium_annual", "expiresDate": renewal_at},
           renewal={"autoRenewProductId": "premium_monthly", "autoRenewStatus": 1})
    # The renewal: the new period is the monthly product's.
    renewed_at = now - 500
    profile = notify(server, chain, "DID_RENEW", "5000000011", signed_at=renewed_at,
                     transaction={"transactionId": "5000000012", "productId": "premium_monthly", "expiresDate": now + 30 * DAY},
                     renewal={"autoRenewProductId": "premium_monthly", "autoRenewStatus": 1})
    annual, monthly = sub(profile, "premium_annual"), sub(profile, "premium_monthly")
    assert annual["is_active"] is False and annual["expires_at"] == iso(renewed_at) and annual["cancellation_reason"] is None
    assert monthly["is_active"] is True and monthly["expires_at"] == iso(now + 30 * DAY)
    assert monthly.get("will_renew_vendor_product_id") is None
    assert as_read(profile["access_levels"]["premium"])["vendor_product_id"] == "premium_monthly"
