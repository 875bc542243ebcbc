"""StoreKit 2 purchases over real HTTP: a purchase or restore from the App Store carries the
transaction's JWS (`signed_transaction`). The server verifies it as it verifies a notification
(the x5c chain to --app-store-root with Apple's markers, ES256, bundle id, environment) and takes
every fact from the signed payload, never from the JSON beside it; a forged, altered, foreign or
revoked transaction is refused with the notification route's codes and grants nothing. The
chains are made here by openssl; the server runs without --trust-host-stores."""
import base64
import json
import uuid

from conftest import as_read
from notify_helpers import BUNDLE_ID, DAY, Chain, app_store_fixtures, iso, now_ms, other_key


chain, server, clean = app_store_fixtures("storekit")


def storekit(transaction_id, product="premium_monthly", original=None, **fields):
    """A JWSTransactionDecodedPayload as StoreKit 2 signs it."""
    purchased = now_ms() - DAY
    payload = {"transactionId": transaction_id, "originalTransactionId": original or transaction_id, "bundleId": BUNDLE_ID,
               "productId": product, "purchaseDate": purchased, "originalPurchaseDate": purchased, "quantity": 1,
               "type": "Auto-Renewable Subscription", "inAppOwnershipType": "PURCHASED", "signedDate": now_ms(),
               "environment": "Sandbox", "transactionReason": "PURCHASE", "storefront": "USA", "price": 9990, "currency": "USD",
               "expiresDate": purchased + 7 * DAY, **fields}
    return {key: value for key, value in payload.items() if value is not None}


def claim(chain, payload, signer=None, **sent):
    """The claim a device posts: the members StoreKit's Transaction gave, and its JWS."""
    body = {"transaction_id": payload["transactionId"], "original_transaction_id": payload["originalTransactionId"],
            "vendor_product_id": payload["productId"], "verification": "", "purchased_at": payload.get("purchaseDate", 0),
            "environment": "sandbox" if payload["environment"] != "Production" else "production", "store": "app_store",
            "signed_transaction": (signer or chain.sign)(payload)}
    body.update(sent)
    return body


def buy(server, profile_id, claim_body):
    body = {"event_id": str(uuid.uuid4()), "profile_id": profile_id, "state": "purchased", "observer_mode": False, **claim_body}
    return server.call("POST", "/v1/purchases", body)


def premium(profile):
    level = profile["access_levels"].get("premium")
    return as_read(level) if level else None


def test_a_signed_purchase_is_granted_from_its_payload(server, chain):
    payload = storekit("2000000001", expiresDate=now_ms() + 3 * DAY)
    # The device's purchase time is off by an hour: the signed one counts.
    status, _, body = buy(server, "sk2", claim(chain, payload, purchased_at=payload["purchaseDate"] + 3600_000))
    assert status == 200 and body["transaction"] == {"transaction_id": "2000000001", "status": "verified"}, body
    grant = premium(body["profile"])
    assert grant.get("is_active") is not False and grant["store"] == "app_store" and grant["is_sandbox"] is True
    assert grant["expires_at"] == iso(payload["expiresDate"]), "the signed expiry, not one catalog period"
    assert grant["activated_at"] == iso(payload["purchaseDate"])
    assert grant["transaction_id"] == "2000000001" and grant["original_transaction_id"] == "2000000001"


def test_a_production_purchase_and_a_promotional_offer(server, chain):
    payload = storekit("2000000002", environment="Production", offerType=2, offerIdentifier="winter_promo",
                       offerDiscountType="PAY_AS_YOU_GO")
    status, _, body = buy(server, "prod", claim(chain, payload))
    assert status == 200, body
    grant = premium(body["profile"])
    assert grant["is_sandbox"] is False and grant["active_promotional_offer_id"] == "winter_promo"


def test_an_introductory_offer_names_its_payment_mode_on_the_grant(server, chain):
    payload = storekit("2000000005", offerType=1, offerDiscountType="FREE_TRIAL")
    status, _, body = buy(server, "trial", claim(chain, payload))
    assert status == 200, body
    grant = premium(body["profile"])
    assert grant["active_introductory_offer_type"] == "free_trial" and grant.get("active_promotional_offer_id") is None
    status, _, body = buy(server, "full-price", claim(chain, storekit("2000000006")))
    assert status == 200 and premium(body["profile"])["active_introductory_offer_type"] is None, body


def test_members_that_disagree_with_the_signed_transaction_are_refused(server, chain):
    payload = storekit("2000000003")
    for sent in [{"transaction_id": "2000000999"}, {"original_transaction_id": "1999"}, {"vendor_product_id": "lifetime"},
                 {"environment": "production"}]:
        status, _, body = buy(server, "liar", claim(chain, payload, **sent))
        assert status == 422 and body["error"]["code"] == "verification_failed", (sent, body)
        assert premium(body["profile"]) is None


def refused(server, claim_body, code, profile_id="victim"):
    status, _, body = buy(server, profile_id, claim_body)
    assert status == 422 and body["error"]["code"] == code, (code, body)
    assert body["error"]["message"]
    assert premium(body["profile"]) is None, "a refused transaction grants nothing"


def test_forged_altered_and_foreign_transactions_grant_nothing(server, chain, tmp_path):
    payload = storekit("2000000004")
    good = chain.sign(payload)
    head, body, signature = good.split(".")
    flipped = signature[:10] + ("A" if signature[10] != "A" else "B") + signature[11:]
    refused(server, claim(chain, payload, signed_transaction=f"{head}.{body}.{flipped}"), "invalid_signature")
    # The payload altered (a later expiry) under the original signature.
    longer = base64.urlsafe_b64encode(json.dumps({**payload, "expiresDate": now_ms() + 365 * DAY}).encode()).rstrip(b"=").decode()
    refused(server, claim(chain, payload, signed_transaction=f"{head}.{longer}.{signature}"), "invalid_signature")
    refused(server, claim(chain, payload, signer=lambda p: chain.sign(p, key=other_key())), "invalid_signature")
    stranger = Chain(tmp_path / "stranger", name="stranger root")
    refused(server, claim(chain, payload, signer=stranger.sign), "untrusted_certificate")
    unmarked = Chain(tmp_path / "unmarked", markers=())
    refused(server, claim(chain, payload, signer=lambda p: chain.sign(p, x5c=unmarked.x5c)), "untrusted_certificate")
    refused(server, claim(chain, storekit("2000000005", bundleId="com.other.app")), "wrong_bundle_id")
    refused(server, claim(chain, storekit("2000000006", environment="Xcode")), "wrong_environment")
    refused(server, claim(chain, payload, signed_transaction="not-a-jws"), "malformed_jws")
    refused(server, claim(chain, storekit("2000000007", purchaseDate=None)), "invalid_payload")
    refused(server, claim(chain, storekit("2000000008", revocationDate=now_ms() - 1000, revocationReason=0)), "revoked")
    log = server.control("GET", "purchases")
    assert all(entry["status"] == "refused" for entry in log["purchases"]), log


def test_without_its_jws_an_app_store_claim_is_still_unsupported(server, chain):
    payload = storekit("2000000009")
    unsigned = claim(chain, payload)
    del unsigned["signed_transaction"]
    refused(server, unsigned, "unsupported_store")
    refused(server, claim(chain, payload, store="play_store"), "verification_failed")


def test_a_restore_verifies_each_signed_transaction(server, chain, tmp_path):
    stranger = Chain(tmp_path / "stranger-restore", name="stranger root")
    good = storekit("2000000010", product="lifetime", type="Non-Consumable", expiresDate=None)
    forged = storekit("2000000011")
    body = {"event_id": str(uuid.uuid4()), "profile_id": "restorer",
            "transactions": [claim(chain, good), claim(chain, forged, signer=stranger.sign)]}
    status, _, answer = server.call("POST", "/v1/restores", body)
    assert status == 200, answer
    assert answer["restored"] == [{"transaction_id": "2000000010", "vendor_product_id": "lifetime"}]
    [refusal] = answer["refused"]
    assert refusal["transaction_id"] == "2000000011" and refusal["code"] == "untrusted_certificate"
    grant = premium(answer["profile"])
    assert grant["vendor_product_id"] == "lifetime" and grant["expires_at"] is None
