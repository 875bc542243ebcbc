"""Family Sharing over real HTTP: a grant carries `ownership_type` from the signed transaction's
inAppOwnershipType (`purchased`, `family_shared`), and the App Store's REVOKE (a family member's
access withdrawn) ends a family-shared grant, which a refund it is not."""
from conftest import as_read
from notify_helpers import app_store_body, app_store_fixtures, iso, now_ms
from test_app_store_purchases import buy, claim, storekit


chain, server, clean = app_store_fixtures("family")


def grant_of(body, product="premium_monthly"):
    return as_read(body["profile"]["subscriptions"][product])


def test_a_grant_says_whose_purchase_it_is(server, chain):
    status, _, body = buy(server, "buyer", claim(chain, storekit("3000000001")))
    assert status == 200 and grant_of(body)["ownership_type"] == "purchased", body
    assert as_read(body["profile"]["access_levels"]["premium"])["ownership_type"] == "purchased"
    status, _, body = buy(server, "child", claim(chain, storekit("3000000002", inAppOwnershipType="FAMILY_SHARED")))
    assert status == 200 and grant_of(body)["ownership_type"] == "family_shared", body


def test_revoke_ends_a_family_shared_grant(server, chain):
    status, _, body = buy(server, "sibling", claim(chain, storekit("3000000003", inAppOwnershipType="FAMILY_SHARED",
                                                                     expiresDate=now_ms() + 20 * 24 * 3600_000)))
    assert status == 200 and grant_of(body)["expires_at"] is not None
    revoked_at = now_ms() - 1000
    status, _, answer = server.call("POST", "/v1/notifications/app-store", app_store_body(
        chain, "REVOKE", "3000000003", signed_at=revoked_at,
        transaction={"inAppOwnershipType": "FAMILY_SHARED", "revocationDate": revoked_at, "revocationReason": 0}))
    assert status == 200 and answer["outcome"] == "applied", answer
    grant = as_read(answer["profile"]["access_levels"]["premium"])
    assert grant["is_active"] is False and grant["is_refund"] is False and grant["expires_at"] == iso(revoked_at)
    assert grant["ownership_type"] == "family_shared" and grant["will_renew"] is False
