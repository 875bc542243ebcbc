"""A product from the test store validates against the peers' published cross-platform product
schema: Adapty's `AdaptyPaywallProduct.Response` (adapty/cross_platform.yaml, vendored unchanged;
provenance in adapty/README.md), whose subscription requires a base plan and whose offer requires
an identifier and pricing phases.

The mapping only moves what Paywire carries; it computes nothing:
- `adapty_product_id` is Adapty's own backend id of the product, which Paywire has no equivalent
  of: it is the vendor_product_id;
- null members are left out (the peer's encoder leaves absent optionals out: encodeIfPresent);
- the subscription's `offer` keeps schema 1.1's string `offer_identifier` until schema 2.0, so
  the peer's object is taken from the same offer's entry in `offers`, where the library writes
  it (`{type, id}`, since schema 1.2).
Each offer in `offers` is the peer's `AdaptySubscriptionOffer` as written, and each phase carries
the peer's `subscription_period` and `localized_subscription_period` beside Paywire's `period`.

One correction to the peer's schema: `AdaptySubscriptionOffer.Identifier` says `type: string`,
yet its branches are object rules (required type and id) and the SDK's encoder writes an object
(AdaptySubscriptionOffer.Identifier+Codable.swift: a keyed container of type and id), so as
published no value validates (a string matches both branches of its oneOf, an object is not a
string). The test reads it as `type: object`. The schema also lists `base_plan_id` ("Android
Only") beside `group_identifier` ("iOS Only") in the subscription's required members, and the
introductory offer's `id` as "Android Only": a Play product is checked with every requirement,
an App Store product without the two Android-only ones."""
import copy
import json
from pathlib import Path

import jsonschema
import paywire
import pytest
import yaml

HERE = Path(__file__).resolve().parent
PEER = yaml.safe_load((HERE / "adapty" / "cross_platform.yaml").read_text())
USD = {"currency_code": "USD", "currency_symbol": "$"}
MONTH = {"unit": "month", "number_of_units": 1}
PLAY = {"vendor_product_id": "premium", "title": "Premium", "description": "All features", "price": "9.99", **USD,
        "localized_price": "$9.99", "period": MONTH, "access_level": "premium", "group_identifier": "premium",
        "base_plan_id": "monthly-autorenew",
        "offers": [{"offer_id": "free-week-then-half", "offer_tags": ["intro"], "phases": [
            {"payment_mode": "free_trial", "period": {"unit": "week", "number_of_units": 1}},
            {"payment_mode": "pay_as_you_go", "period": MONTH, "number_of_periods": 3, "price": "4.99"}]}]}
APP_STORE = {"vendor_product_id": "premium_ios", "title": "Premium", "description": "All features", "price": "9.99", **USD,
             "localized_price": "$9.99", "period": MONTH, "access_level": "premium", "group_identifier": "premium-group",
             "intro_offer": {"payment_mode": "free_trial", "period": {"unit": "week", "number_of_units": 1}}}
PAYWALL_PRODUCTS = [{"vendor_product_id": "premium", "base_plan_id": "monthly-autorenew", "offer_id": "free-week-then-half"},
                    "premium_ios"]
CONFIG = {
    "profile_id": "profile-peers",
    "store": {"type": "test", "now": "2024-01-15T10:30:00.000Z", "products": [PLAY, APP_STORE]},
    "fallback": {"bundle": {"format_version": 1, "response_created_at": 1705314600000, "placements": {"peers": {
        "ab_test_name": "peers", "placement_audience_version_id": "peers-v1",
        "variations": [{"variation_id": "peers-a", "paywall_id": "pw-peers", "paywall_name": "Peers", "weight": 100,
                        "products": PAYWALL_PRODUCTS}]}}}},
}


def peer_validator(android):
    defs = copy.deepcopy(PEER["$defs"])
    defs["AdaptySubscriptionOffer.Identifier"]["type"] = "object"
    if not android:
        subscription = defs["AdaptyPaywallProduct.Subscription"]
        subscription["required"] = [name for name in subscription["required"] if name != "base_plan_id"]
        introductory = defs["AdaptySubscriptionOffer.Identifier"]["oneOf"][0]
        assert introductory["properties"]["type"]["const"] == "introductory"
        introductory["required"] = ["type"]
    return jsonschema.Draft202012Validator({"$schema": PEER["$schema"], "$defs": defs,
                                            "$ref": "#/$defs/AdaptyPaywallProduct.Response"})


def without_nulls(value):
    if isinstance(value, dict):
        return {key: without_nulls(item) for key, item in value.items() if item is not None}
    if isinstance(value, list):
        return [without_nulls(item) for item in value]
    return value


def to_peer(product):
    """The moves above; nothing else changes."""
    peer = copy.deepcopy(product)
    peer["adapty_product_id"] = product["vendor_product_id"]
    subscription = peer.get("subscription") or {}
    offer = subscription.get("offer")
    if offer:
        [listed] = [entry for entry in subscription["offers"] if (entry["type"], entry["offer_id"]) == (offer["type"], offer["offer_id"])]
        offer["offer_identifier"] = listed["offer_identifier"]
    return without_nulls(peer)


def offer_validator():
    defs = copy.deepcopy(PEER["$defs"])
    defs["AdaptySubscriptionOffer.Identifier"]["type"] = "object"
    return jsonschema.Draft202012Validator({"$schema": PEER["$schema"], "$defs": defs, "$ref": "#/$defs/AdaptySubscriptionOffer"})


@pytest.fixture(scope="module")
def products():
    with paywire.Client(CONFIG) as client:
        paywall = client.call("get_paywall", {"placement_id": "peers"})
        return {product["vendor_product_id"]: product for product in client.call("get_paywall_products", {"paywall": paywall})}


def test_a_play_product_with_a_base_plan_and_a_multi_phase_offer_validates(products):
    product = products["premium"]
    assert product["subscription"]["base_plan_id"] == "monthly-autorenew"
    assert len(product["subscription"]["offer"]["phases"]) == 2
    peer_validator(android=True).validate(to_peer(product))


def test_every_listed_offer_is_the_peers_offer_as_written(products):
    play = products["premium"]["subscription"]["offers"]
    assert play[0]["offer_identifier"] == {"type": "introductory", "id": "free-week-then-half"}
    assert [phase["subscription_period"] for phase in play[0]["phases"]] == [{"unit": "week", "number_of_units": 1}, MONTH]
    for offer in play:
        offer_validator().validate(without_nulls(offer))
    [intro] = products["premium_ios"]["subscription"]["offers"]
    assert intro["offer_identifier"] == {"type": "introductory"}, "no id is known for the App Store's introductory offer"


def test_an_app_store_product_with_its_intro_offer_validates(products):
    product = products["premium_ios"]
    assert product["subscription"]["base_plan_id"] is None
    assert [phase["payment_mode"] for phase in product["subscription"]["offer"]["phases"]] == ["free_trial"]
    peer_validator(android=False).validate(to_peer(product))


@pytest.mark.parametrize("member", ["base_plan_id", "phases", "offer_id"])
def test_the_check_catches_a_product_without_play_s_model(products, member):
    """What a product lacked before base plans and phases, or a Play offer without its id, fails."""
    product = copy.deepcopy(products["premium"])
    if member == "base_plan_id":
        del product["subscription"]["base_plan_id"]
    elif member == "phases":
        del product["subscription"]["offer"]["phases"]
    else:
        for offer in product["subscription"]["offers"]:
            offer["offer_identifier"].pop("id")
    with pytest.raises(jsonschema.ValidationError):
        peer_validator(android=True).validate(to_peer(product))


def test_the_published_identifier_rule_accepts_nothing():
    """Why the correction above: as published, neither the encoder's object nor a string validates."""
    identifier = jsonschema.Draft202012Validator({"$defs": PEER["$defs"], "$ref": "#/$defs/AdaptySubscriptionOffer.Identifier"})
    assert not identifier.is_valid({"type": "introductory", "id": "free-week-then-half"})
    assert not identifier.is_valid("free-week-then-half")
