"""Objects the library hands out carry the peers' cross-platform fields (peer_fields.schema.json),
so a Flutter / React Native / Unity bridge written for the peers maps them one to one: a paywall
product, a profile with a subscription, a lifetime grant and a consumable, all through the ABI."""
import json
from pathlib import Path

import jsonschema
import paywire
import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SCHEMA = json.loads((HERE / "peer_fields.schema.json").read_text())
CONFIG = json.loads((ROOT / "examples" / "config.json").read_text())
CONFIG["fallback"] = {"path": str(ROOT / "examples" / "bundle.json")}
CONFIG["store"]["now"] = "2024-01-15T10:30:00.000Z"


def check(kind, value):
    jsonschema.Draft202012Validator({**SCHEMA, "$ref": f"#/$defs/{kind}"}).validate(value)


@pytest.fixture
def client():
    with paywire.Client(CONFIG) as made:
        yield made


def test_a_paywall_product_has_the_peers_fields(client):
    paywall = client.call("get_paywall", {"placement_id": next(iter(json.loads((ROOT / "examples" / "bundle.json").read_text())["placements"]))})
    products = client.call("get_paywall_products", {"paywall": paywall})
    assert products
    for product in products:
        check("paywall_product", product)
    assert any(product["subscription"] and product["subscription"]["offer"] for product in products)


def test_a_profile_with_a_subscription_has_the_peers_fields(client):
    profile = client.call("make_purchase", {"vendor_product_id": "premium_monthly"})["profile"]
    check("profile", profile)
    assert profile["subscriptions"]["premium_monthly"]["will_renew"] is True


def test_a_lifetime_grant_has_the_peers_fields(client):
    profile = client.call("make_purchase", {"vendor_product_id": "lifetime"})["profile"]
    check("profile", profile)
    assert profile["access_levels"]["premium"]["is_lifetime"] is True


def test_a_consumable_has_the_peers_fields(client):
    profile = client.call("make_purchase", {"vendor_product_id": "coins_100"})["profile"]
    check("profile", profile)
    assert profile["access_levels"] == {} and profile["non_subscriptions"]["coins_100"][0]["is_consumable"] is True


def test_the_check_catches_a_missing_field():
    with pytest.raises(jsonschema.ValidationError):
        check("non_subscription", {"purchase_id": "t", "vendor_product_id": "p", "purchased_at": "2024-01-01T00:00:00Z"})
