"""POST /v1/notifications/app-store over real HTTP: App Store Server Notifications v2 signed
with chains made here by openssl (carrying Apple's marker extensions), checked against
--app-store-root and --app-store-bundle-id. Every handled type changes
the grant as the test-store rules say; a bad signature, a chain to another root, a malformed
payload, a replayed id or an unknown transaction changes nothing."""
import base64
import json

import pytest

from conftest import DevServer
from notify_helpers import DAY, Chain, app_store_body, app_store_server, iso, later_expiry, now_ms, other_key, premium, profile, subscribe


@pytest.fixture(scope="module")
def chain(tmp_path_factory):
    return Chain(tmp_path_factory.mktemp("apple") / "trusted")


@pytest.fixture(scope="module")
def server(chain):
    server = app_store_server(chain, "--trust-host-stores")
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def clean(server):
    server.control("POST", "reset")


def post(server, body):
    return server.call("POST", "/v1/notifications/app-store", body)


def applied(server, chain, type_, original, **kwargs):
    status, _, body = post(server, app_store_body(chain, type_, original, **kwargs))
    assert status == 200, body
    assert body["outcome"] == "applied", body
    return premium(body)


def test_every_handled_type_changes_the_grant(server, chain):
    now = now_ms()
    t = now - 60_000
    first = later_expiry(subscribe(server, "apple", "ot-a", store="app_store"))
    _, etag, _ = profile(server, "apple")
    grant = applied(server, chain, "SUBSCRIBED", "ot-a", subtype="INITIAL_BUY", signed_at=t,
                    transaction={"expiresDate": first}, renewal={"autoRenewStatus": 1})
    assert grant["is_active"] is True and grant["will_renew"] is True and grant["expires_at"] == iso(first)
    assert profile(server, "apple", etag)[0] == 200, "the ETag changed"

    grant = applied(server, chain, "DID_RENEW", "ot-a", signed_at=t + 1,
                    transaction={"transactionId": "ot-a-2", "expiresDate": now - 1000}, renewal={"autoRenewStatus": 1})
    assert grant["renewed_at"] == iso(t + 1) and grant["transaction_id"] == "ot-a-2" and grant["is_active"] is False

    grant = applied(server, chain, "DID_FAIL_TO_RENEW", "ot-a", subtype="GRACE_PERIOD", signed_at=t + 2,
                    transaction={"expiresDate": now - 1000}, renewal={"autoRenewStatus": 1, "gracePeriodExpiresDate": now + DAY})
    assert grant["is_in_grace_period"] is True and grant["is_active"] is True
    assert grant["grace_period_expires_at"] == iso(now + DAY) and grant["billing_issue_detected_at"] == iso(t + 2)

    grant = applied(server, chain, "GRACE_PERIOD_EXPIRED", "ot-a", signed_at=t + 3, transaction={"expiresDate": now - 1000})
    assert grant["is_in_grace_period"] is False and grant["is_active"] is False

    grant = applied(server, chain, "DID_RENEW", "ot-a", subtype="BILLING_RECOVERY", signed_at=t + 4,
                    transaction={"expiresDate": now + 30 * DAY})
    assert grant["is_active"] is True and grant["billing_issue_detected_at"] is None

    grant = applied(server, chain, "DID_CHANGE_RENEWAL_STATUS", "ot-a", subtype="AUTO_RENEW_DISABLED", signed_at=t + 5,
                    transaction={"expiresDate": now + 30 * DAY}, renewal={"autoRenewStatus": 0})
    assert grant["will_renew"] is False and grant["unsubscribed_at"] == iso(t + 5)
    assert grant["cancellation_reason"] == "voluntarily_cancelled"
    grant = applied(server, chain, "DID_CHANGE_RENEWAL_STATUS", "ot-a", subtype="AUTO_RENEW_ENABLED", signed_at=t + 6,
                    renewal={"autoRenewStatus": 1})
    assert grant["will_renew"] is True and grant["unsubscribed_at"] is None

    grant = applied(server, chain, "DID_FAIL_TO_RENEW", "ot-a", signed_at=t + 7, renewal={"autoRenewStatus": 1})
    assert grant["billing_issue_detected_at"] == iso(t + 7) and grant["is_in_grace_period"] is False

    grant = applied(server, chain, "EXPIRED", "ot-a", subtype="BILLING_RETRY", signed_at=t + 8,
                    transaction={"expiresDate": t + 8}, renewal={"autoRenewStatus": 0})
    assert grant["is_active"] is False and grant["cancellation_reason"] == "billing_error" and grant["will_renew"] is False


def test_a_refund_and_a_revocation(server, chain):
    now = now_ms()
    subscribe(server, "refunded", "ot-r", store="app_store")
    grant = applied(server, chain, "REFUND", "ot-r", transaction={"revocationDate": now - 5, "revocationReason": 0})
    assert grant["is_refund"] is True and grant["refunded_at"] == iso(now - 5) and grant["is_active"] is False
    subscribe(server, "revoked", "ot-v", store="app_store")
    grant = applied(server, chain, "REVOKE", "ot-v", signed_at=now - 5, transaction={"revocationDate": now - 5})
    assert grant["is_refund"] is False and grant["is_active"] is False


def test_a_chain_signed_by_the_root_alone_is_trusted_when_markers_are_off(server, tmp_path):
    # No intermediate, no markers: the leaf signed by the root, as a developer's own root may.
    direct = Chain(tmp_path / "direct", intermediate=False, markers=())
    other = app_store_server(direct, "--app-store-unmarked-roots")
    try:
        other.control("POST", "reset")
        subscribe(other, "direct", "ot-d")
        status, _, body = post(other, app_store_body(direct, "REFUND", "ot-d"))
        assert status == 200 and premium(body)["is_refund"] is True
    finally:
        other.stop()


def test_consumption_requests_are_recorded_and_replays_change_nothing(server, chain):
    subscribe(server, "replay", "ot-p", store="app_store")
    _, etag, _ = profile(server, "replay")
    status, _, body = post(server, app_store_body(chain, "CONSUMPTION_REQUEST", "ot-p"))
    assert status == 200 and body["outcome"] == "recorded"
    assert profile(server, "replay", etag)[0] == 304
    first = app_store_body(chain, "REFUND", "ot-p", notification_id="8a7c1d2e-0000-4000-8000-000000000001")
    assert post(server, first)[2]["outcome"] == "applied"
    _, etag, _ = profile(server, "replay")
    again = app_store_body(chain, "DID_RENEW", "ot-p", notification_id="8a7c1d2e-0000-4000-8000-000000000001",
                           transaction={"expiresDate": now_ms() + DAY})
    status, _, body = post(server, again)
    assert status == 200 and body["outcome"] == "duplicate" and premium(body)["is_refund"] is True
    assert profile(server, "replay", etag)[0] == 304


def test_an_unknown_transaction_is_refused_with_nothing_stored(server, chain):
    body = app_store_body(chain, "REFUND", "ot-nobody")
    status, _, answer = post(server, body)
    assert status == 404 and answer["error"]["code"] == "unknown_transaction"
    assert server.control("GET", "notifications")["notifications"] == []


#: A proof that fails (the JWS, its chain, its signature) is a 401: who sent it is unknown. A
#: proven payload that is wrong for this server is a 400.
UNPROVEN = ("malformed_jws", "untrusted_certificate", "invalid_signature")


def refused(server, body, code):
    status, _, answer = post(server, body)
    assert status == (401 if code in UNPROVEN else 400) and answer["error"]["code"] == code, answer
    assert answer["error"]["message"]


def test_every_bad_signature_chain_and_payload_is_refused_and_changes_nothing(server, chain, tmp_path):
    subscribe(server, "victim", "ot-x", store="app_store")
    _, etag, _ = profile(server, "victim")
    # A signature by a key that is not the leaf's.
    refused(server, {"signedPayload": chain.sign({"notificationType": "REFUND"}, key=other_key())}, "invalid_signature")
    # A well-signed payload whose signature was then altered.
    good = app_store_body(chain, "REFUND", "ot-x")["signedPayload"]
    head, payload, signature = good.split(".")
    flipped = signature[:10] + ("A" if signature[10] != "A" else "B") + signature[11:]
    refused(server, {"signedPayload": f"{head}.{payload}.{flipped}"}, "invalid_signature")
    # A payload swapped under a valid signature.
    forged = base64.urlsafe_b64encode(json.dumps({"notificationType": "REFUND"}).encode()).rstrip(b"=").decode()
    refused(server, {"signedPayload": f"{head}.{forged}.{signature}"}, "invalid_signature")
    # A chain of its own, valid in itself, to a root the server was not given.
    stranger = Chain(tmp_path / "stranger", name="stranger root")
    refused(server, app_store_body(stranger, "REFUND", "ot-x"), "untrusted_certificate")
    # The trusted leaf's key, but the stranger's certificates in x5c.
    refused(server, {"signedPayload": chain.sign({"notificationType": "REFUND"}, x5c=stranger.x5c)}, "untrusted_certificate")
    # The inner transaction signed by the stranger.
    refused(server, app_store_body(chain, "REFUND", "ot-x", sign_inner=stranger.sign), "untrusted_certificate")
    # Malformed: not a JWS, no x5c, another alg, a payload that is not JSON, no transaction.
    refused(server, {"signedPayload": "not-a-jws"}, "malformed_jws")
    refused(server, {"signedPayload": chain.sign({"notificationType": "REFUND"}, x5c=[])}, "malformed_jws")
    refused(server, {"signedPayload": chain.sign(b"not json")}, "invalid_payload")
    refused(server, {"signedPayload": chain.sign({"notificationType": "REFUND", "notificationUUID": "u", "signedDate": 1,
                                                  "data": {}})}, "invalid_payload")
    refused(server, {}, "invalid_request")
    assert profile(server, "victim", etag)[0] == 304
    assert server.control("GET", "notifications")["notifications"] == []


def test_without_a_root_nothing_is_trusted(chain):
    bare = DevServer()
    try:
        status, _, body = bare.call("POST", "/v1/notifications/app-store", app_store_body(chain, "REFUND", "ot-x"))
        assert status == 401 and body["error"]["code"] == "untrusted_certificate"
        assert "--app-store-root" in body["error"]["message"]
    finally:
        bare.stop()


def test_apple_needs_no_key_but_the_test_stores_notifications_take_an_operators_not_the_apps(chain):
    """Apple cannot send the server's key: its signature chain is the proof of origin. The test
    store has no signature: its notifications come from tooling, with an operator key."""
    from conftest import purchase
    keyed = app_store_server(chain, "--trust-host-stores", "--api-key", "k-1")
    try:
        key = {"authorization": "Api-Key k-1"}
        status, _, body = keyed.call("POST", "/v1/purchases", purchase("keyed", "ot-k", store="app_store",
                                                                       purchased_at=now_ms() - DAY), headers=key)
        assert status == 200, body
        status, _, body = post(keyed, app_store_body(chain, "REFUND", "ot-k", signed_at=now_ms(),
                                                     transaction={"revocationDate": now_ms()}))
        assert status == 200 and body["outcome"] == "applied", body
        notification = {"notification_id": "n-1", "type": "REFUND", "original_transaction_id": "ot-k"}
        for refused in (key, None):
            status, _, body = keyed.call("POST", "/v1/notifications/test-store", notification, headers=refused, operator=False)
            assert status == 401 and body["error"]["code"] == "unauthorized"
    finally:
        keyed.stop()
