"""CONSUMPTION_REQUEST over real HTTP: Apple asks, for a refund request, what the developer
knows of the purchase. The server stores the answer built from what it knows (delivery and
consumption status, account tenure, lifetime dollars purchased and refunded, the operator's
refund preference) and marks it sendable only when the user consented on the device
(`consumption_data_consent` in the profile's attributes); the operator lists them with
GET /v1/app-store/consumption-requests. Nothing is sent to Apple from here."""
import uuid

from notify_helpers import DAY, app_store_body, app_store_fixtures, now_ms
from test_app_store_purchases import buy, claim, storekit


chain, server, clean = app_store_fixtures("consumption", "--app-store-refund-preference", "decline")


def consent(server, profile_id, value):
    status, _, body = server.call("PUT", f"/v1/profiles/{profile_id}/attributes", {
        "event_id": str(uuid.uuid4()), "profile_id": profile_id, "attributes": {"consumption_data_consent": value}})
    assert status == 200 and body["stored"] is True, body


def requests(server, profile_id=None):
    status, _, body = server.call("GET", "/v1/app-store/consumption-requests" + (f"?profile_id={profile_id}" if profile_id else ""))
    assert status == 200, body
    return body["consumption_requests"]


def ask(server, chain, original, notification_id=None, outcome="recorded"):
    status, _, body = server.call("POST", "/v1/notifications/app-store", app_store_body(
        chain, "CONSUMPTION_REQUEST", original, notification_id=notification_id,
        transaction={"inAppOwnershipType": "PURCHASED"}))
    assert status == 200 and body["outcome"] == outcome, body
    return body


def test_a_consented_request_is_stored_with_what_the_server_knows(server, chain):
    status, _, _ = buy(server, "consenting", claim(chain, storekit("4000000001", expiresDate=now_ms() + 20 * DAY,
                                                                   offerType=1, offerDiscountType="FREE_TRIAL")))
    assert status == 200
    consent(server, "consenting", True)
    ask(server, chain, "4000000001", notification_id="c0a5e000-0000-4000-8000-000000000001")
    [entry] = requests(server)
    assert entry["notification_id"] == "c0a5e000-0000-4000-8000-000000000001" and entry["profile_id"] == "consenting"
    assert entry["original_transaction_id"] == "4000000001" and entry["sendable"] is True
    info = entry["consumption_request"]
    assert info["customerConsented"] is True and info["platform"] == 1 and info["deliveryStatus"] == 0
    assert info["sampleContentProvided"] is True, "bought with a free trial"
    assert info["consumptionStatus"] == 2, "a subscription period under way is partially consumed"
    assert info["accountTenure"] == 1, "the first purchase was a day ago: under 3 days"
    assert info["lifetimeDollarsPurchased"] == 2, "9.99 USD from the catalog: under 50 dollars"
    assert info["lifetimeDollarsRefunded"] == 1, "nothing refunded"
    assert info["refundPreference"] == 2, "--app-store-refund-preference decline"


def test_without_consent_a_request_is_kept_but_not_sendable(server, chain):
    buy(server, "silent", claim(chain, storekit("4000000002")))
    buy(server, "declined", claim(chain, storekit("4000000003")))
    consent(server, "declined", False)
    ask(server, chain, "4000000002")
    ask(server, chain, "4000000003")
    for entry in requests(server):
        assert entry["sendable"] is False and entry["consumption_request"]["customerConsented"] is False, entry
    assert [entry["profile_id"] for entry in requests(server, "declined")] == ["declined"]


def test_a_refund_counts_and_a_replayed_request_is_stored_once(server, chain):
    buy(server, "refunded", claim(chain, storekit("4000000004")))
    consent(server, "refunded", True)
    status, _, body = server.call("POST", "/v1/notifications/app-store", app_store_body(
        chain, "REFUND", "4000000004", transaction={"revocationDate": now_ms() - 10}))
    assert status == 200 and body["outcome"] == "applied"
    buy(server, "refunded", claim(chain, storekit("4000000005", product="premium_annual")))
    ask(server, chain, "4000000005", notification_id="c0a5e000-0000-4000-8000-000000000005")
    ask(server, chain, "4000000005", notification_id="c0a5e000-0000-4000-8000-000000000005", outcome="duplicate")
    [entry] = requests(server, "refunded")
    assert entry["consumption_request"]["lifetimeDollarsRefunded"] == 2, "9.99 USD refunded"
    assert entry["consumption_request"]["lifetimeDollarsPurchased"] == 3, "9.99 and 59.99 USD: under 100 dollars"


def test_a_request_for_an_unknown_transaction_is_not_stored(server, chain):
    status, _, body = server.call("POST", "/v1/notifications/app-store", app_store_body(chain, "CONSUMPTION_REQUEST", "4000009999"))
    assert status == 404 and body["error"]["code"] == "unknown_transaction"
    assert requests(server) == []
