"""App Store notifications that carry no transaction, over real HTTP: Apple retries anything but
a 2xx for days, so TEST (App Store Connect's check of the URL), RENEWAL_EXTENSION with subtype
SUMMARY (its `summary`), EXTERNAL_PURCHASE_TOKEN (its `externalPurchaseToken`) and any other
type without `data.signedTransactionInfo` answer 200 `recorded`, under no profile. They are
checked like every notification: chain, markers, app and environment."""
import uuid

from notify_helpers import BUNDLE_ID, Chain, app_store_fixtures, app_store_server, now_ms


chain, server, clean = app_store_fixtures("apple-unattached")


def signed(chain, notification_type, subtype=None, notification_id=None, **members):
    payload = {"notificationType": notification_type, "notificationUUID": notification_id or str(uuid.uuid4()),
               "version": "2.0", "signedDate": now_ms(), **members}
    if subtype:
        payload["subtype"] = subtype
    return {"signedPayload": chain.sign(payload)}


def check_data(**extra):
    return {"data": {"bundleId": BUNDLE_ID, "environment": "Sandbox", "appAppleId": 1234, **extra}}


def post(server, body):
    return server.call("POST", "/v1/notifications/app-store", body)


def recorded(server, body, type_):
    status, _, answer = post(server, body)
    assert status == 200, answer
    assert answer["outcome"] == "recorded" and answer["type"] == type_, answer
    assert "profile" not in answer and "profile_id" not in answer and "original_transaction_id" not in answer, answer
    return answer


def test_apples_test_notification_is_answered_recorded_and_logged(chain):
    # A server of its own, so its log can be read once it stopped.
    own = app_store_server(chain)
    try:
        answer = recorded(own, signed(chain, "TEST", notification_id="5e4e0f4a-0000-4000-8000-00000000test", **check_data()), "TEST")
        assert answer["notification_id"] == "5e4e0f4a-0000-4000-8000-00000000test"
        [entry] = own.control("GET", "notifications")["notifications"]
        assert entry["type"] == "TEST" and entry["outcome"] == "recorded"
    finally:
        own.stop()
    log = own.process.stderr.read()
    assert "App Store TEST notification received" in log and "5e4e0f4a-0000-4000-8000-00000000test" in log


def test_a_renewal_extension_summary_is_recorded(server, chain):
    summary = {"requestIdentifier": str(uuid.uuid4()), "environment": "Sandbox", "appAppleId": 1234, "bundleId": BUNDLE_ID,
               "productId": "premium_monthly", "storefrontCountryCodes": ["USA", "CAN"], "succeededCount": 12, "failedCount": 1}
    recorded(server, signed(chain, "RENEWAL_EXTENSION", subtype="SUMMARY", summary=summary), "RENEWAL_EXTENSION")
    [entry] = server.control("GET", "notifications")["notifications"]
    assert entry["subtype"] == "SUMMARY"


def test_an_external_purchase_token_is_recorded(server, chain):
    token = {"externalPurchaseId": "SANDBOX_b2158121-7af9-49d4-9561-1f588205523e", "tokenCreationDate": now_ms(),
             "appAppleId": 1234, "bundleId": BUNDLE_ID}
    recorded(server, signed(chain, "EXTERNAL_PURCHASE_TOKEN", subtype="UNREPORTED", externalPurchaseToken=token),
             "EXTERNAL_PURCHASE_TOKEN")


def test_any_type_without_a_transaction_is_recorded_and_a_replay_is_a_duplicate(server, chain):
    body = signed(chain, "SOME_FUTURE_TYPE", notification_id="7d1c0000-0000-4000-8000-000000000001", **check_data())
    recorded(server, body, "SOME_FUTURE_TYPE")
    status, _, answer = post(server, body)
    assert status == 200 and answer["outcome"] == "duplicate" and "profile" not in answer, answer
    assert len(server.control("GET", "notifications")["notifications"]) == 1


def test_they_are_checked_like_every_notification(server, chain, tmp_path):
    stranger = Chain(tmp_path / "stranger", name="stranger root")
    for body, code in [
        (signed(stranger, "TEST", **check_data()), "untrusted_certificate"),
        (signed(chain, "TEST", **check_data(bundleId="com.other.app")), "wrong_bundle_id"),
        (signed(chain, "TEST", **check_data(environment="Xcode")), "wrong_environment"),
        (signed(chain, "RENEWAL_EXTENSION", subtype="SUMMARY",
                summary={"bundleId": "com.other.app", "environment": "Sandbox"}), "wrong_bundle_id"),
        # A token names its app too.
        (signed(chain, "EXTERNAL_PURCHASE_TOKEN", externalPurchaseToken={"externalPurchaseId": "SANDBOX_1", "bundleId": "com.other.app"}),
         "wrong_bundle_id"),
        (signed(chain, "TEST"), "invalid_payload"),
        (signed(chain, "TEST", notification_id=None, **{"data": {"bundleId": BUNDLE_ID, "environment": "Sandbox"}, "signedDate": "x"}),
         "invalid_payload"),
    ]:
        status, _, answer = post(server, body)
        assert status == (401 if code == "untrusted_certificate" else 400) and answer["error"]["code"] == code, (code, answer)
    assert server.control("GET", "notifications")["notifications"] == []
