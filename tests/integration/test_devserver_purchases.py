"""POST /v1/purchases and /v1/restores over real HTTP: test-store signatures checked, grants
with calendar expiry, idempotency, refusals with the profile, and the profile route."""
import json

from conftest import DevServer, as_read, event_id, purchase, sign, transaction

JAN_31_2024 = 1706659200000          # 2024-01-31T00:00:00.000Z
NOV_22_2024 = 1732300000000          # 2024-11-22T18:26:40.000Z


def post(server, body):
    return server.call("POST", "/v1/purchases", body)


def test_a_signed_purchase_grants_until_one_calendar_month_later(devserver):
    status, _, body = post(devserver, purchase("buyer", "t-1", purchased_at=JAN_31_2024))
    assert status == 200
    assert body["transaction"] == {"transaction_id": "t-1", "status": "verified"}
    premium = body["profile"]["access_levels"]["premium"]
    # January 31 + 1 month is the last day of February (2024 is a leap year). The grant is the
    # model's JSON of it (Grant+JSON) with the nulls the generated model leaves out.
    assert premium == {"vendor_product_id": "premium_monthly", "activated_at": "2024-01-31T00:00:00.000Z",
                       "expires_at": "2024-02-29T00:00:00.000Z", "transaction_id": "t-1", "original_transaction_id": "t-1",
                       "store": "test", "is_sandbox": True, "is_lifetime": False, "will_renew": True,
                       "is_in_grace_period": False, "is_refund": False}
    assert body["profile"]["subscriptions"]["premium_monthly"] == premium
    assert body["profile"]["is_test_user"] is True
    status, headers, fetched = devserver.call("GET", "/v1/profiles/buyer")
    assert status == 200 and fetched["profile"] == body["profile"]
    assert devserver.call("GET", "/v1/profiles/buyer", headers={"If-None-Match": headers["etag"]})[0] == 304


def test_a_consumable_grants_no_access_level_and_is_listed_as_a_non_subscription(devserver):
    status, _, body = post(devserver, purchase("coin-buyer", "t-c1", product="coins_100"))
    assert status == 200 and body["transaction"]["status"] == "verified"
    assert body["profile"]["access_levels"] == {} and body["profile"]["subscriptions"] == {}
    [coins] = body["profile"]["non_subscriptions"]["coins_100"]
    assert coins == {"purchase_id": "t-c1", "vendor_product_id": "coins_100", "purchased_at": coins["purchased_at"],
                     "is_consumable": True, "is_refund": False, "is_sandbox": True, "store": "test"}


def test_a_non_consumable_grants_for_life_and_no_subscription(devserver):
    body = post(devserver, purchase("buyer", "t-life", product="lifetime", amount="149.00"))[2]
    premium = as_read(body["profile"]["access_levels"]["premium"])
    assert premium["expires_at"] is None and premium["is_lifetime"] is True and premium["will_renew"] is False
    assert body["profile"]["subscriptions"] == {}
    assert [p["is_consumable"] for p in body["profile"]["non_subscriptions"]["lifetime"]] == [False]


def test_a_later_expiry_replaces_an_earlier_one(devserver):
    post(devserver, purchase("buyer", "t-year", product="premium_annual", amount="59.99", purchased_at=NOV_22_2024))
    body = post(devserver, purchase("buyer", "t-month", purchased_at=NOV_22_2024))[2]
    assert body["profile"]["access_levels"]["premium"]["transaction_id"] == "t-year"
    assert body["profile"]["access_levels"]["premium"]["expires_at"] == "2025-11-22T18:26:40.000Z"


def test_a_forged_signature_is_refused_with_the_profile_as_it_stands(devserver):
    forged = json.loads(purchase("buyer", "t-forged"))
    forged["verification"] = sign("t-forged", "t-forged", "premium_monthly", NOV_22_2024, key="not-the-dev-key")
    status, _, body = post(devserver, forged)
    assert status == 422
    assert body["error"]["code"] == "verification_failed"
    assert body["profile"]["access_levels"] == {}
    assert devserver.call("GET", "/v1/profiles/buyer")[2]["profile"]["access_levels"] == {}


def test_the_signature_covers_every_signed_field(devserver):
    tampered = json.loads(purchase("buyer", "t-2"))
    tampered["purchased_at"] += 1
    assert post(devserver, tampered)[2]["error"]["code"] == "verification_failed"


def test_an_unknown_product_is_refused(devserver):
    status, _, body = post(devserver, purchase("buyer", "t-3", product="gold_bars"))
    assert (status, body["error"]["code"]) == (422, "unknown_product")


def test_a_transaction_known_for_another_profile_or_product_is_a_conflict(devserver):
    assert post(devserver, purchase("first", "t-4"))[0] == 200
    status, _, body = post(devserver, purchase("second", "t-4"))
    assert (status, body["error"]["code"]) == (422, "transaction_conflict")
    assert body["profile"]["access_levels"] == {}
    assert post(devserver, purchase("first", "t-4", product="premium_annual", amount="59.99"))[2]["error"]["code"] == "transaction_conflict"


def test_the_same_purchase_again_changes_nothing(devserver):
    first = post(devserver, purchase("buyer", "t-5"))
    again = post(devserver, purchase("buyer", "t-5"))
    assert first[0] == again[0] == 200
    assert first[2] == again[2]
    log = devserver.control("GET", "purchases?profile_id=buyer")["purchases"]
    assert [(p["transaction_id"], p["status"]) for p in log] == [("t-5", "verified")]


def test_a_pending_purchase_grants_nothing_until_it_is_posted_purchased(devserver):
    body = post(devserver, purchase("buyer", "t-6", state="pending"))[2]
    assert body["transaction"]["status"] == "pending"
    assert body["profile"]["access_levels"] == {}
    assert post(devserver, purchase("buyer", "t-6", state="pending"))[2]["transaction"]["status"] == "pending"
    body = post(devserver, purchase("buyer", "t-6"))[2]
    assert body["transaction"]["status"] == "verified"
    assert "premium" in body["profile"]["access_levels"]


def test_host_stores_are_refused_unless_trusted():
    body = json.loads(purchase("buyer", "gp-1", store="play_store"))
    body["verification"] = "opaque-token-from-play"
    server = DevServer()
    try:
        status, _, answer = post(server, body)
        assert (status, answer["error"]["code"]) == (422, "unsupported_store")
    finally:
        server.stop()
    server = DevServer("--trust-host-stores")
    try:
        status, _, answer = post(server, body)
        assert (status, answer["transaction"]["status"]) == (200, "verified")
        assert answer["profile"]["is_test_user"] is True   # a sandbox transaction
    finally:
        server.stop()


def test_the_signing_key_can_be_changed():
    server = DevServer("--test-signing-key", "k2")
    try:
        assert post(server, purchase("buyer", "t-k"))[2]["error"]["code"] == "verification_failed"
        assert post(server, purchase("buyer", "t-k", key="k2"))[0] == 200
    finally:
        server.stop()


def test_malformed_purchase_bodies_are_invalid_requests(devserver):
    good = json.loads(purchase("buyer", "t-7"))
    for change in ({"price": {"amount": "9.99", "currency_code": "USD"}}, {"state": "bought"}, {"purchased_at": "now"},
                   {"transaction_id": ""}, {"environment": "staging"}, {"attribution": []}):
        status, _, body = post(devserver, {**good, **change})
        assert (status, body["error"]["code"]) == (400, "invalid_request"), change
    assert post(devserver, b"{not json")[0] == 400


def test_faults_apply_to_purchases(devserver):
    devserver.faults(status=503, retry_after=2)
    status, headers, _ = post(devserver, purchase("buyer", "t-8"))
    assert (status, headers["retry-after"]) == (503, "2")
    devserver.faults()
    assert devserver.call("GET", "/v1/profiles/buyer")[0] == 404, "nothing was stored"


def test_a_restore_moves_access_to_the_restoring_profile_and_lists_refusals(devserver):
    post(devserver, purchase("old-phone", "t-9", purchased_at=NOV_22_2024))
    forged = transaction("t-10")
    forged["verification"] = "testsig1:" + "0" * 32
    body = {"event_id": "0190b6e2-7c4a-7d3e-9f00-2b8c1e4a5f62", "profile_id": "new-phone",
            "transactions": [transaction("t-9", purchased_at=NOV_22_2024), forged,
                             transaction("t-11", product="lifetime")]}
    status, _, answer = devserver.call("POST", "/v1/restores", body)
    assert status == 200
    # t-9 moved from the profile that bought it (--transfer-policy transfer, the default): the answer says from where.
    assert answer["restored"] == [{"transaction_id": "t-9", "vendor_product_id": "premium_monthly", "from_profile_id": "old-phone"},
                                  {"transaction_id": "t-11", "vendor_product_id": "lifetime"}]
    assert [(r["transaction_id"], r["code"]) for r in answer["refused"]] == [("t-10", "verification_failed")]
    assert answer["profile"]["access_levels"]["premium"]["transaction_id"] == "t-11"   # for life beats a month
    assert answer["profile"]["subscriptions"]["premium_monthly"]["transaction_id"] == "t-9"
    assert devserver.call("GET", "/v1/profiles/old-phone")[2]["profile"]["access_levels"] == {}
    assert devserver.call("POST", "/v1/restores", body)[2] == answer, "a restore is idempotent"


def test_an_empty_restore_answers_the_profile(devserver):
    status, _, answer = devserver.call("POST", "/v1/restores", {"event_id": event_id(), "profile_id": "nobody", "transactions": []})
    assert (status, answer["restored"], answer["refused"]) == (200, [], [])
    assert answer["profile"]["access_levels"] == {}
    assert devserver.call("POST", "/v1/restores", {"profile_id": "x", "transactions": {}})[0] == 400


def test_grants_merge_with_a_dev_profile_keeping_the_later_expiry(devserver):
    devserver.control("PUT", "profiles/buyer", {"custom_attributes": {"plan": "team"}, "access_levels": {
        "premium": {"vendor_product_id": "gift", "activated_at": "2024-01-01T00:00:00Z", "expires_at": "2030-01-01T00:00:00Z"},
        "extra": {"vendor_product_id": "gift", "activated_at": "2024-01-01T00:00:00Z", "expires_at": None}}})
    profile = post(devserver, purchase("buyer", "t-12", purchased_at=NOV_22_2024))[2]["profile"]
    assert profile["access_levels"]["premium"]["vendor_product_id"] == "gift"
    assert as_read(profile["access_levels"]["extra"])["expires_at"] is None
    assert profile["subscriptions"]["premium_monthly"]["transaction_id"] == "t-12"
    assert profile["custom_attributes"] == {"plan": "team"}


def test_purchases_and_grants_survive_a_restart(tmp_path):
    server = DevServer("--data", str(tmp_path))
    try:
        granted = post(server, purchase("buyer", "t-13"))[2]["profile"]
    finally:
        server.stop()
    server = DevServer("--data", str(tmp_path))
    try:
        assert server.call("GET", "/v1/profiles/buyer")[2]["profile"] == granted
        assert post(server, purchase("buyer", "t-13"))[2]["transaction"]["status"] == "verified"
    finally:
        server.stop()
