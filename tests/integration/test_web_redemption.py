"""Redemption links of web purchases over real HTTP: a Stripe checkout without
client_reference_id is held for redemption; the operator asks
POST /v1/web-purchases/{checkout_session_id}/redemption for a link (a new single-use token,
stored as its SHA-256 only); POST /v1/redemptions answers redeemed, already_redeemed,
belongs_to_another_profile, expired or invalid, with the asking profile."""
import base64
import os
import sqlite3
import time
import urllib.parse

import pytest

from conftest import ON_POSTGRES, as_read
from stripe_helpers import checkout, deliver, event, invoice, stripe_server, subscription_object
import timeshift


@pytest.fixture
def server(tmp_path):
    server = stripe_server(tmp_path, "--data", str(tmp_path / "data"))
    yield server
    server.stop()


def held_checkout(server, session_id, **kwargs):
    kwargs.setdefault("price", "price_lifetime")
    kwargs.setdefault("payment_intent", "pi_" + session_id)
    status, answer = deliver(server, checkout(session_id, **kwargs))
    assert status == 200 and answer["checkout_session_id"] == session_id, answer
    assert answer["profile_id"] == "web_purchase:" + session_id
    return answer


def link(server, session_id):
    status, _, body = server.call("POST", f"/v1/web-purchases/{session_id}/redemption")
    assert status == 200, body
    return body


def redeem(server, token, profile_id):
    status, _, body = server.call("POST", "/v1/redemptions", {"token": token, "profile_id": profile_id})
    assert status == 200, body
    assert body["profile_id"] == profile_id
    return body["result"], body["profile"]


def has_premium(profile):
    grant = profile.get("access_levels", {}).get("premium")
    return grant is not None and as_read(grant)["is_refund"] is False


def test_a_held_purchase_is_redeemed_once_and_then_answers_who_has_it(server):
    held_checkout(server, "cs_gift")
    issued = link(server, "cs_gift")
    token = issued["token"]
    assert len(token) == 43 and len(base64.urlsafe_b64decode(token + "=")) == 32
    assert issued["url"] == "paywire://redeem?token=" + token
    assert urllib.parse.parse_qs(urllib.parse.urlparse(issued["url"]).query)["token"] == [token]

    result, profile = redeem(server, token, "app-user")
    assert result == "redeemed" and has_premium(profile)
    assert profile["access_levels"]["premium"]["vendor_product_id"] == "lifetime"
    status, _, body = server.call("GET", "/v1/profiles/app-user")
    assert status == 200 and has_premium(body["profile"])

    result, profile = redeem(server, token, "app-user")
    assert result == "already_redeemed" and has_premium(profile)
    result, profile = redeem(server, token, "someone-else")
    assert result == "belongs_to_another_profile" and not has_premium(profile)
    # The holder is the server's own profile: no device route opens it, before or after.
    status, _, body = server.call("GET", "/v1/profiles/web_purchase:cs_gift")
    assert status == 400 and "the server's own profile" in body["error"]["message"], body
    # Once redeemed, no new link is given.
    status, _, body = server.call("POST", "/v1/web-purchases/cs_gift/redemption")
    assert status == 409 and body["error"]["code"] == "already_redeemed"


def test_tokens_that_were_never_given_are_invalid(server):
    held_checkout(server, "cs_inv")
    link(server, "cs_inv")
    never = base64.urlsafe_b64encode(os.urandom(32)).decode().rstrip("=")
    for token in [never, "not-a-token", "", "x" * 43, never[:-1] + "+"]:
        status, _, body = server.call("POST", "/v1/redemptions", {"token": token, "profile_id": "guesser"})
        if token == "":
            assert status == 400, body
            continue
        assert status == 200 and body["result"] == "invalid" and not has_premium(body["profile"]), (token, body)


def test_a_new_link_voids_the_earlier_one(server):
    held_checkout(server, "cs_again")
    first = link(server, "cs_again")["token"]
    second = link(server, "cs_again")["token"]
    assert first != second
    assert redeem(server, first, "late")[0] == "invalid"
    assert redeem(server, second, "late")[0] == "redeemed"


def test_a_link_expires(tmp_path):
    server = stripe_server(tmp_path, "--redemption-ttl-seconds", "1", "--redemption-link-base", "https://example.com/redeem?app=1")
    try:
        held_checkout(server, "cs_exp")
        issued = link(server, "cs_exp")
        assert issued["url"] == "https://example.com/redeem?app=1&token=" + issued["token"]
        time.sleep(1.3)
        result, profile = redeem(server, issued["token"], "slow")
        assert result == "expired" and not has_premium(profile)
        # The operator sends a new link, which redeems.
        assert redeem(server, link(server, "cs_exp")["token"], "slow")[0] == "redeemed"
    finally:
        server.stop()


def test_links_only_for_held_purchases(server):
    status, _, body = server.call("POST", "/v1/web-purchases/cs_never/redemption")
    assert status == 404 and body["error"]["code"] == "unknown_web_purchase"
    deliver(server, checkout("cs_named", profile="named", price="price_lifetime", payment_intent="pi_named"))
    status, _, body = server.call("POST", "/v1/web-purchases/cs_named/redemption")
    assert status == 409 and body["error"]["code"] == "not_redeemable"


def test_a_redeemed_subscription_keeps_its_lifecycle_with_the_new_owner(server):
    now = timeshift.now_s()
    status, answer = deliver(server, checkout("cs_subgift", mode="subscription", subscription="sub_gift", customer="cus_gift"))
    assert status == 200 and answer["checkout_session_id"] == "cs_subgift", answer
    status, answer = deliver(server, event("customer.subscription.created", subscription_object("sub_gift", customer="cus_gift")))
    assert status == 200 and answer["profile_id"] == "web_purchase:cs_subgift", answer
    result, profile = redeem(server, link(server, "cs_subgift")["token"], "gifted")
    assert result == "redeemed" and has_premium(profile)
    end = now + 60 * 86400
    status, answer = deliver(server, invoice("in_gift_2", "sub_gift", now + 30 * 86400, end, customer="cus_gift"))
    assert status == 200 and answer["outcome"] == "applied" and answer["profile_id"] == "gifted", answer
    status, _, body = server.call("GET", "/v1/profiles/gifted")
    assert body["profile"]["access_levels"]["premium"]["expires_at"].startswith(time.strftime("%Y-%m-%d", time.gmtime(end)))


@pytest.mark.skipif(ON_POSTGRES, reason="reads the SQLite file")
def test_the_database_keeps_no_token(server, tmp_path):
    held_checkout(server, "cs_hash")
    token = link(server, "cs_hash")["token"]
    raw = base64.urlsafe_b64decode(token + "=")
    database = tmp_path / "data" / "devserver.sqlite"
    with sqlite3.connect(database) as connection:
        digests = [row[0] for row in connection.execute("SELECT token_sha256 FROM web_purchases WHERE checkout_session_id = 'cs_hash'")]
    import hashlib
    assert digests == [hashlib.sha256(raw).hexdigest()]
    everything = b"".join(path.read_bytes() for path in (tmp_path / "data").iterdir() if path.is_file())
    for form in [token.encode(), raw, raw.hex().encode(), base64.b64encode(raw).rstrip(b"=")]:
        assert form not in everything
