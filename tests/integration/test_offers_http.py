"""Promotional and win-back offers over real HTTP: the dev server decides who may have an
offer and signs it with ECDSA P-256 over the fields Apple's promotional-offer signature covers
(checked here with the `cryptography` package against the key the server publishes), and the
library signs before the store and refuses an offer the profile may not have."""
import base64
import json
import pathlib
import uuid

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

import paywire

ROOT = pathlib.Path(__file__).resolve().parents[2]
PRODUCTS = json.loads((ROOT / "examples/config.json").read_text())["store"]["products"]
PAST, FUTURE = "2024-01-01T00:00:00.000Z", "2099-01-01T00:00:00.000Z"


def subscriber(devserver, expires_at, product="premium_monthly"):
    """A profile the backend knows with a subscription to `product` ending at `expires_at`."""
    profile_id = str(uuid.uuid4())
    grant = {"vendor_product_id": product, "activated_at": "2023-01-01T00:00:00.000Z", "expires_at": expires_at,
             "is_active": expires_at == FUTURE, "store": "test", "will_renew": False}
    devserver.control("PUT", "profiles/" + profile_id, {"subscriptions": {product: grant}, "access_levels": {}})
    return profile_id


def sign(devserver, profile_id, offer_type, offer_id="offer-1", product="premium_monthly"):
    return devserver.call("POST", "/v1/offers/sign", {"profile_id": profile_id, "vendor_product_id": product,
                                                      "offer_id": offer_id, "offer_type": offer_type})


def verify(devserver, answer, profile_id, offer_id, product="premium_monthly"):
    """Checks the signature as the App Store would: the fields joined by U+2063."""
    key = devserver.control("GET", "offers/key")
    public = serialization.load_pem_public_key(key["public_key_pem"].encode())
    payload = "\u2063".join([key["bundle_id"], answer["key_id"], product, offer_id, profile_id.lower(),
                             answer["nonce"].lower(), str(answer["timestamp"])])
    public.verify(base64.b64decode(answer["signature"]), payload.encode(), ec.ECDSA(hashes.SHA256()))
    with pytest.raises(InvalidSignature):
        public.verify(base64.b64decode(answer["signature"]), payload.replace(offer_id, offer_id + "x").encode(),
                      ec.ECDSA(hashes.SHA256()))


def test_the_server_signs_only_offers_the_profile_may_have(devserver):
    lapsed = subscriber(devserver, PAST)
    status, _, answer = sign(devserver, lapsed, "win_back", "wb-1")
    assert status == 200, answer
    assert answer["key_id"] == devserver.control("GET", "offers/key")["key_id"]
    verify(devserver, answer, lapsed, "wb-1")
    again = sign(devserver, lapsed, "win_back", "wb-1")[2]
    assert again["nonce"] != answer["nonce"]  # a fresh nonce for every purchase
    assert sign(devserver, lapsed, "promotional")[0] == 200  # had one: promotional is fine

    active = subscriber(devserver, FUTURE)
    status, _, refusal = sign(devserver, active, "win_back")
    assert status == 403 and refusal["error"]["code"] == "offer_not_eligible"
    status, _, answer = sign(devserver, active, "promotional", "promo-1")
    assert status == 200
    verify(devserver, answer, active, "promo-1")

    stranger = str(uuid.uuid4())
    for offer_type in ("promotional", "win_back"):
        status, _, refusal = sign(devserver, stranger, offer_type)
        assert status == 403 and refusal["error"]["code"] == "offer_not_eligible"
    assert sign(devserver, stranger, "intro")[0] == 400
    assert devserver.call("POST", "/v1/offers/sign", {"profile_id": stranger})[0] == 400
    assert sign(devserver, lapsed, "promotional")[0] == 200
    status, _, _ = devserver.call("POST", "/v1/offers/sign", {"profile_id": lapsed, "vendor_product_id": "premium_monthly",
                                                          "offer_id": "x", "offer_type": "promotional", "extra": 1})
    assert status == 400


def buyer(devserver, tmp_path, profile_id):
    return paywire.Client({
        "profile_id": profile_id, "storage_dir": str(tmp_path / profile_id),
        "store": {"type": "test", "products": PRODUCTS},
        "transport": {"type": "http", "base_url": devserver.url, "request_timeout_ms": 2000},
        "fallback": {"path": str(ROOT / "examples/bundle.json")}, "refresh_profile_on_start": False,
        "analytics": {"flush_interval_ms": 600000}})


def test_make_purchase_with_an_offer_signs_first_and_refuses_the_ineligible(devserver, tmp_path):
    lapsed = subscriber(devserver, PAST)
    with buyer(devserver, tmp_path, lapsed) as client:
        bought = client.call("make_purchase", {"vendor_product_id": "premium_monthly",
                                               "offer": {"type": "win_back", "id": "wb-1"}})
        assert bought["type"] == "success" and bought["product_id"] == "premium_monthly"

    stranger = str(uuid.uuid4())
    with buyer(devserver, tmp_path, stranger) as client:
        with pytest.raises(paywire.PaywireError) as refused:
            client.call("make_purchase", {"vendor_product_id": "premium_monthly",
                                          "offer": {"type": "promotional", "id": "promo-1"}})
        assert refused.value.code == "purchase_failed"
        assert refused.value.details["reason"] == "offer_not_eligible"
        assert refused.value.details["offer_id"] == "promo-1"
        assert "premium" not in client.call("get_profile", {"fetch_policy": "return_cache_data_else_load"})["access_levels"]
