"""POST /v1/notifications/play over real HTTP: Pub/Sub pushes of Google Play Real-time
Developer Notifications. The purchase token is the original transaction id the device posted;
each of the 13 subscription types, a one-time product's notification and a voided purchase do
what the spec says; Play Console's test notification and every type the server does not know
are recorded and acknowledged (Pub/Sub retries a non-2xx for days); a replayed messageId, an
unknown token and a malformed push change nothing. With Google's keys, a push is taken by its
OIDC token instead of the API key, and one without a valid token is refused 401. With a service
account, the purchase's state comes from the Play Developer API (a local stand-in here) and a
failed call is answered 503 for Pub/Sub to retry."""
import base64
import json
import time
import uuid

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from conftest import DevServer
from play_api import PACKAGE, PlayAPI, product_purchase, subscription_v2
from notify_helpers import DAY, iso, later_expiry, now_ms, premium, profile, subscribe
import timeshift


def envelope(rtdn, message_id=None):
    """A Pub/Sub push of this DeveloperNotification."""
    return {"message": {"data": base64.b64encode(json.dumps(rtdn).encode()).decode(), "messageId": message_id or str(uuid.uuid4()),
                        "publishTime": "2026-01-01T00:00:00Z"},
            "subscription": "projects/example/subscriptions/play-rtdn"}


def developer_notification(event_at=None, **members):
    return {"version": "1.0", "packageName": "com.example.app", "eventTimeMillis": str(event_at or now_ms()), **members}


def push(token, notification_type=None, event_at=None, message_id=None, voided=None, **extra):
    rtdn = developer_notification(event_at)
    if voided is not None:
        rtdn["voidedPurchaseNotification"] = {"purchaseToken": token, "orderId": "GPA.1", "productType": 1, "refundType": 1, **voided}
    else:
        rtdn["subscriptionNotification"] = {"version": "1.0", "notificationType": notification_type, "purchaseToken": token,
                                            "subscriptionId": "premium_monthly", **extra}
    return envelope(rtdn, message_id)


def post(server, body):
    return server.call("POST", "/v1/notifications/play", body)


def applied(server, *args, **kwargs):
    status, _, body = post(server, push(*args, **kwargs))
    assert status == 200 and body["outcome"] == "applied", body
    return premium(body)


def test_purchase_renewal_grace_hold_recovery_cancel_restart_and_expiry(devserver):
    now = now_ms()
    t = now - 60_000
    first = later_expiry(subscribe(devserver, "droid", "token-1", store="test"))
    grant = applied(devserver, "token-1", 4, event_at=t, expiryTimeMillis=str(first))                 # PURCHASED
    assert grant["is_active"] and grant["expires_at"] == iso(first) and grant["original_transaction_id"] == "token-1"
    # RENEWED without an expiry: one period of premium_monthly from the event by the calendar.
    grant = applied(devserver, "token-1", 2, event_at=t + 1)
    assert grant["renewed_at"] == iso(t + 1) and grant["expires_at"] != iso(first)
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
                 bad_data(encode({"eventTimeMillis": "1", "testNotification": {"version": "1.0"}})),
                 bad_data(encode({"packageName": "p", "eventTimeMillis": "1", "testNotification": "yes"})),
                 bad_data(encode({"packageName": "p", "eventTimeMillis": "1",
                                  "subscriptionNotification": {"notificationType": "2", "purchaseToken": "token-s", "subscriptionId": "x"}})),
                 bad_data(encode({"packageName": "p", "eventTimeMillis": "1",
                                  "oneTimeProductNotification": {"notificationType": 1, "sku": "lifetime"}})),
                 bad_data(encode({"packageName": "p", "eventTimeMillis": "soon",
                                  "subscriptionNotification": {"notificationType": 2, "purchaseToken": "token-s", "subscriptionId": "x"}}))]:
        status, _, answer = post(devserver, body)
        assert status == 400 and answer["error"]["code"] == "invalid_request", (body, answer)
    assert profile(devserver, "strict", etag)[0] == 304


def test_play_consoles_test_notification_is_acknowledged_logged_and_recorded_under_no_profile():
    # A server of its own, so its log can be read once it stopped.
    own = DevServer()
    try:
        body = envelope(developer_notification(testNotification={"version": "1.0"}), message_id="play-test-1")
        status, _, answer = post(own, body)
        assert status == 200 and answer["outcome"] == "recorded" and answer["type"] == "TEST_NOTIFICATION", answer
        assert "profile" not in answer and "original_transaction_id" not in answer and "profile_id" not in answer
        assert "TEST_NOTIFICATION received" in answer["message"]
        [entry] = own.control("GET", "notifications")["notifications"]
        assert entry["notification_id"] == "play-test-1" and entry["outcome"] == "recorded" and entry["profile_id"] == ""
        status, _, again = post(own, body)
        assert status == 200 and again["outcome"] == "duplicate"
    finally:
        own.stop()
    log = own.process.stderr.read()
    assert "Google Play test notification received" in log and "play-test-1" in log


@pytest.mark.parametrize("members, type_name", [
    ({"subscriptionNotification": {"version": "1.0", "notificationType": 99, "purchaseToken": "token-u", "subscriptionId": "premium_monthly"}},
     "SUBSCRIPTION_NOTIFICATION_99"),
    ({"oneTimeProductNotification": {"version": "1.0", "notificationType": 7, "purchaseToken": "token-u", "sku": "lifetime"}},
     "ONE_TIME_PRODUCT_NOTIFICATION_7"),
    ({"somethingGoogleAddsLater": {"version": "1.0", "purchaseToken": "token-u"}}, "UNKNOWN_NOTIFICATION"),
    ({}, "UNKNOWN_NOTIFICATION"),
])
def test_a_notification_the_server_does_not_know_is_recorded_and_acknowledged(devserver, members, type_name):
    subscribe(devserver, "unknowing", "token-u")
    _, etag, _ = profile(devserver, "unknowing")
    status, _, answer = post(devserver, envelope(developer_notification(**members)))
    assert status == 200 and answer["outcome"] == "recorded" and answer["type"] == type_name, answer
    assert "profile" not in answer
    assert profile(devserver, "unknowing", etag)[0] == 304, "nothing changes"


@pytest.mark.parametrize("notification_type", [17, 18, 19, 20, 22])
def test_later_subscription_types_are_recorded_on_the_subscription(devserver, notification_type):
    subscribe(devserver, f"later-{notification_type}", f"token-l{notification_type}")
    status, _, answer = post(devserver, push(f"token-l{notification_type}", notification_type))
    assert status == 200 and answer["outcome"] == "recorded" and answer["profile_id"] == f"later-{notification_type}", answer


def one_time(token, notification_type, sku="lifetime", **kwargs):
    return envelope(developer_notification(oneTimeProductNotification={
        "version": "1.0", "notificationType": notification_type, "purchaseToken": token, "sku": sku}), **kwargs)


def test_a_one_time_product_purchase_is_recorded_and_its_cancellation_ends_access(devserver):
    subscribe(devserver, "buyer", "token-o", product="lifetime")
    _, etag, before = profile(devserver, "buyer")
    assert premium(before)["is_lifetime"] and premium(before)["expires_at"] is None
    status, _, answer = post(devserver, one_time("token-o", 1))
    assert status == 200 and answer["outcome"] == "recorded" and answer["type"] == "ONE_TIME_PRODUCT_PURCHASED", answer
    assert profile(devserver, "buyer", etag)[0] == 304
    status, _, answer = post(devserver, one_time("token-o", 2))
    assert status == 200 and answer["outcome"] == "applied" and answer["type"] == "ONE_TIME_PRODUCT_CANCELED", answer
    assert not premium(answer)["is_active"] and not premium(answer)["is_refund"]


def test_a_one_time_notification_for_an_unknown_token_waits_for_the_device(devserver):
    status, _, answer = post(devserver, one_time("token-nobody-o", 1))
    assert status == 404 and answer["error"]["code"] == "unknown_transaction"


# ---- the push's OIDC token ---------------------------------------------------------------

AUDIENCE = "https://paywire.example/v1/notifications/play"
PUSH_ACCOUNT = "rtdn-push@example-project.iam.gserviceaccount.com"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def rsa_key():
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def jwk(key, kid):
    numbers = key.public_key().public_numbers()
    as_bytes = lambda n: n.to_bytes((n.bit_length() + 7) // 8, "big")
    return {"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256", "n": b64url(as_bytes(numbers.n)), "e": b64url(as_bytes(numbers.e))}


def oidc_token(key, kid="push-key-1", alg="RS256", **changes):
    """What Pub/Sub signs for an authenticated push subscription (Google's documented claims)."""
    now = timeshift.now_s()
    claims = {"iss": "https://accounts.google.com", "aud": AUDIENCE, "azp": "1234567890", "email": PUSH_ACCOUNT,
              "email_verified": True, "sub": "1234567890", "iat": now - 10, "exp": now + 3600, **changes}
    claims = {name: value for name, value in claims.items() if value is not None}
    signing_input = b64url(json.dumps({"alg": alg, "kid": kid, "typ": "JWT"}).encode()) + "." + b64url(json.dumps(claims).encode())
    return signing_input + "." + b64url(key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256()))


@pytest.fixture(scope="module")
def push_keys():
    return {"push-key-1": rsa_key(), "push-key-2": rsa_key()}


@pytest.fixture(scope="module")
def authenticated(tmp_path_factory, push_keys):
    """A server that takes Play pushes by their OIDC token, and other /v1 requests by API key."""
    jwks = tmp_path_factory.mktemp("jwks") / "google-certs.json"
    jwks.write_text(json.dumps({"keys": [jwk(key, kid) for kid, key in push_keys.items()]}))
    own = DevServer("--api-key", "operator-key", "--play-push-jwks", str(jwks), "--play-push-audience", AUDIENCE,
                    "--play-push-service-account", PUSH_ACCOUNT, "--operator-key-guesses", "100000")  # many wrong tokens, on purpose
    yield own
    own.stop()


def test_a_push_with_googles_token_needs_no_api_key(authenticated, push_keys):
    body = envelope(developer_notification(testNotification={"version": "1.0"}))
    status, _, answer = authenticated.call("POST", "/v1/notifications/play", body,
                                           headers={"authorization": "Bearer " + oidc_token(push_keys["push-key-2"], kid="push-key-2")})
    assert status == 200 and answer["type"] == "TEST_NOTIFICATION", answer
    status, _, _ = authenticated.call("GET", "/v1/profiles/someone", headers={"authorization": "Api-Key operator-key"})
    assert status == 404, "other routes still take the API key (past it: a profile never met)"
    status, _, _ = authenticated.call("GET", "/v1/profiles/someone")
    assert status == 401


def test_pushes_without_a_valid_token_are_refused_401_and_change_nothing(authenticated, push_keys):
    key = push_keys["push-key-1"]
    stranger = rsa_key()
    refused = {
        "no authorization": None,
        "the API key instead": "Api-Key operator-key",
        "not a JWT": "Bearer not-a-token",
        "another key's signature": "Bearer " + oidc_token(stranger),
        "an unknown kid": "Bearer " + oidc_token(key, kid="push-key-9"),
        "alg none": "Bearer " + oidc_token(key).rsplit(".", 1)[0].replace(
            b64url(json.dumps({"alg": "RS256", "kid": "push-key-1", "typ": "JWT"}).encode()),
            b64url(json.dumps({"alg": "none", "kid": "push-key-1", "typ": "JWT"}).encode())) + ".",
        "another audience": "Bearer " + oidc_token(key, aud="https://elsewhere.example/push"),
        "another service account": "Bearer " + oidc_token(key, email="someone@example-project.iam.gserviceaccount.com"),
        "an unverified email": "Bearer " + oidc_token(key, email_verified=False),
        "another issuer": "Bearer " + oidc_token(key, iss="https://issuer.example"),
        "expired": "Bearer " + oidc_token(key, iat=timeshift.now_s() - 7200, exp=timeshift.now_s() - 3600),
        "no expiry": "Bearer " + oidc_token(key, exp=None),
    }
    for why, header in refused.items():
        body = envelope(developer_notification(testNotification={"version": "1.0"}), message_id=f"refused-{why}")
        status, _, answer = authenticated.call("POST", "/v1/notifications/play", body,
                                               headers={"authorization": header} if header else None)
        assert status == 401 and answer["error"]["code"] == "unauthorized", (why, status, answer)
        assert not header or header.split(" ", 1)[1] not in answer["error"]["message"], "the token is never echoed"
    for path in ["/v1/notifications/play/", "/v1/notifications//play", "//v1/notifications/play", "/v1/notifications/play?x=1"]:
        body = envelope(developer_notification(testNotification={"version": "1.0"}), message_id=f"refused-{path}")
        assert authenticated.call("POST", path, body)[0] == 401, f"{path}: another spelling of the route is checked too"
    stored = {entry["notification_id"] for entry in authenticated.control("GET", "notifications")["notifications"]}
    assert not any(message_id.startswith("refused-") for message_id in stored), "a refused push stores nothing"


def test_the_push_token_flags_go_together_and_a_bad_key_set_stops_the_start(tmp_path):
    with pytest.raises(RuntimeError, match="go together"):
        DevServer("--play-push-jwks", str(tmp_path / "certs.json"), "--play-push-audience", AUDIENCE)
    (tmp_path / "certs.json").write_text(json.dumps({"keys": [{"kty": "RSA", "kid": "short", "n": b64url(b"\x01" * 64), "e": "AQAB"}]}))
    with pytest.raises(RuntimeError, match="2048 bits"):
        DevServer("--play-push-jwks", str(tmp_path / "certs.json"), "--play-push-audience", AUDIENCE,
                  "--play-push-service-account", PUSH_ACCOUNT)


# ---- the purchase's state, from the Play Developer API -----------------------------------

@pytest.fixture(scope="module")
def play_api(tmp_path_factory):
    api = PlayAPI(tmp_path_factory.mktemp("play-api"))
    yield api
    api.stop()


@pytest.fixture()
def healthy(play_api):
    """The stand-in answering, whatever an earlier test told it."""
    play_api.fail_status, play_api.delay, play_api.refuse_grant = None, 0.0, False
    return play_api


@pytest.fixture(scope="module")
def asking(play_api):
    """A server that asks the stand-in after every RTDN, each call within 1.5 s."""
    own = DevServer("--play-service-account", str(play_api.key_file), "--play-api-base", play_api.url, "--play-api-timeout-ms", "1500")
    yield own
    own.stop()


def test_after_an_rtdn_the_expiry_and_renewal_come_from_the_play_developer_api(asking, healthy):
    now = now_ms()
    subscribe(asking, "asked", "token-api-1")
    grants = healthy.grants
    expiry = now + 40 * DAY + 123
    healthy.subscriptions["token-api-1"] = subscription_v2(expiry)
    # The push's own expiry (which real RTDNs do not carry) is not read.
    grant = applied(asking, "token-api-1", 4, event_at=now - 1000, expiryTimeMillis=str(now + 5 * DAY))        # PURCHASED
    assert grant["expires_at"] == iso(expiry) and grant["will_renew"] and grant["is_active"]
    healthy.subscriptions["token-api-1"] = subscription_v2(expiry, state="SUBSCRIPTION_STATE_CANCELED", auto_renew=False)
    grant = applied(asking, "token-api-1", 3, event_at=now - 500)                                              # CANCELED
    assert not grant["will_renew"] and grant["is_active"] and grant["expires_at"] == iso(expiry)
    renewed = now + 70 * DAY
    healthy.subscriptions["token-api-1"] = subscription_v2(renewed)
    grant = applied(asking, "token-api-1", 2, event_at=now - 300)                                              # RENEWED
    assert grant["expires_at"] == iso(renewed) and grant["will_renew"]
    grace_end = now + 3 * DAY + 7
    healthy.subscriptions["token-api-1"] = subscription_v2(grace_end, state="SUBSCRIPTION_STATE_IN_GRACE_PERIOD")
    grant = applied(asking, "token-api-1", 6, event_at=now - 100)                                              # IN_GRACE_PERIOD
    assert grant["is_in_grace_period"] and grant["grace_period_expires_at"] == iso(grace_end)
    assert healthy.grants - grants <= 1, "the access token is kept until it expires"
    assert f"/androidpublisher/v3/applications/{PACKAGE}/purchases/subscriptionsv2/tokens/token-api-1" in healthy.calls


def test_a_one_time_purchases_state_comes_from_the_play_developer_api(asking, healthy):
    subscribe(asking, "one-timer", "token-api-o", product="lifetime")
    healthy.products[("lifetime", "token-api-o")] = product_purchase(state=0)
    status, _, answer = post(asking, one_time("token-api-o", 2))   # CANCELED, but the API says it stands
    assert status == 200 and answer["outcome"] == "recorded", answer
    healthy.products[("lifetime", "token-api-o")] = product_purchase(state=1)
    status, _, answer = post(asking, one_time("token-api-o", 2))
    assert status == 200 and answer["outcome"] == "applied" and not premium(answer)["is_active"], answer
    assert f"/androidpublisher/v3/applications/{PACKAGE}/purchases/products/lifetime/tokens/token-api-o" in healthy.calls


@pytest.mark.parametrize("failure", ["error", "slow", "unknown purchase"])
def test_when_the_play_developer_api_fails_the_push_is_answered_503_for_a_retry(asking, healthy, failure):
    token = "token-retry-" + failure.replace(" ", "-")
    subscribe(asking, token, token)
    _, etag, _ = profile(asking, token)
    if failure == "error":
        healthy.fail_status = 500
    elif failure == "slow":
        healthy.delay = 3.0
    healthy.subscriptions.pop(token, None)
    if failure != "unknown purchase":
        healthy.subscriptions[token] = subscription_v2(now_ms() + 30 * DAY)
    started = time.monotonic()
    status, _, answer = post(asking, push(token, 2, message_id="m-" + token))
    assert status == 503 and answer["error"]["code"] == "play_api_unavailable", answer
    assert time.monotonic() - started < 2.9, "the call has a deadline"
    assert profile(asking, token, etag)[0] == 304
    assert "m-" + token not in {entry["notification_id"] for entry in asking.control("GET", "notifications")["notifications"]}
    healthy.fail_status, healthy.delay = None, 0.0
    healthy.subscriptions[token] = subscription_v2(now_ms() + 30 * DAY)
    status, _, answer = post(asking, push(token, 2, message_id="m-" + token))
    assert status == 200 and answer["outcome"] == "applied", "Pub/Sub's retry lands"


def test_a_refused_service_account_grant_is_answered_503(play_api, healthy):
    own = DevServer("--play-service-account", str(play_api.key_file), "--play-api-base", play_api.url)
    try:
        subscribe(own, "ungranted", "token-ungranted")
        healthy.subscriptions["token-ungranted"] = subscription_v2(now_ms() + 30 * DAY)
        healthy.refuse_grant = True
        status, _, answer = post(own, push("token-ungranted", 2))
        assert status == 503 and answer["error"]["code"] == "play_api_unavailable", answer
        healthy.refuse_grant = False
        status, _, answer = post(own, push("token-ungranted", 2))
        assert status == 200 and answer["outcome"] == "applied", answer
    finally:
        own.stop()
