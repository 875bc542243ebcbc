"""A test purchase counts as a test everywhere, whichever store made it: each store spells its test
environment its own way (the App Store's Sandbox, Play's testPurchase, Stripe's livemode false,
the test store, a host store's own `sandbox`), and the model reads each spelling once
(StoreEnvironment). Every one makes its grant `is_sandbox`, its owner `is_test_user`, and counts in
its cell's `test_purchases`; the production purchase beside each does none of that. The Play
replacement, recorded by the server itself from the Play Developer API, once kept `"Sandbox"`,
which the profile read as production."""
import json
import uuid

import pytest

from conftest import DevServer, event_id, shown
from notify_helpers import BUNDLE_ID, DAY, Chain, now_ms, profile, subscribe
from play_api import PlayAPI, subscription_v2
from stripe_helpers import checkout, deliver, products_file
from test_notifications_play import post, push

CELL = {"placement_id": "onboarding", "ab_test_name": "onboarding_annual_first", "variation_id": "onboarding-monthly-first",
        "paywall_name": "P"}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    directory = tmp_path_factory.mktemp("environments")
    chain = Chain(directory / "trusted")
    play = PlayAPI(tmp_path_factory.mktemp("play-api"))
    server = DevServer("--products", str(products_file(directory)), "--stripe-webhook-secret", "whsec_test_first_secret",
                       "--app-store-root", str(chain.root_path), "--app-store-bundle-id", BUNDLE_ID, "--trust-host-stores",
                       "--play-service-account", str(play.key_file), "--play-api-base", play.url)
    yield server, chain, play
    server.stop()
    play.stop()


def purchase(server, profile_id, claim):
    body = {"event_id": event_id(), "profile_id": profile_id, "state": "purchased", "observer_mode": False, "attribution": CELL, **claim}
    status, _, answer = server.call("POST", "/v1/purchases", body)
    assert status == 200 and answer["transaction"]["status"] == "verified", answer
    return answer


def app_store(chain, environment):
    transaction = f"2{uuid.uuid4().int % 10**12:012d}"
    purchased = now_ms() - DAY
    signed = chain.sign({"transactionId": transaction, "originalTransactionId": transaction, "bundleId": BUNDLE_ID,
                         "productId": "premium_monthly", "purchaseDate": purchased, "type": "Auto-Renewable Subscription",
                         "inAppOwnershipType": "PURCHASED", "signedDate": now_ms(), "environment": environment,
                         "expiresDate": purchased + 30 * DAY})
    return {"transaction_id": transaction, "original_transaction_id": transaction, "vendor_product_id": "premium_monthly",
            "verification": "", "purchased_at": purchased, "environment": "production" if environment == "Production" else "sandbox",
            "store": "app_store", "signed_transaction": signed}


def host_store(environment):
    transaction = "galaxy-" + uuid.uuid4().hex[:10]
    return {"transaction_id": transaction, "original_transaction_id": transaction, "vendor_product_id": "premium_monthly",
            "verification": "", "purchased_at": now_ms() - 1000, "environment": environment, "store": "galaxy"}


def stripe(server, profile_id, livemode):
    web = checkout("cs_" + uuid.uuid4().hex[:12], profile=profile_id, price="price_lifetime", payment_intent="pi_" + uuid.uuid4().hex[:12])
    web["livemode"] = livemode
    web["data"]["object"]["metadata"].update({"paywire_placement_id": CELL["placement_id"], "paywire_ab_test_name": CELL["ab_test_name"],
                                              "paywire_variation_id": CELL["variation_id"]})
    assert deliver(server, web)[0] == 200


def play_replacement(server, play, profile_id, test_purchase):
    now = now_ms()
    old, new = f"token-{profile_id}-monthly", f"token-{profile_id}-annual"
    subscribe(server, profile_id, old)
    play.subscriptions[old] = subscription_v2(now + 20 * DAY)
    assert post(server, push(old, 4, event_at=now - 5000))[0] == 200
    replacing = subscription_v2(now + 365 * DAY, product="premium_annual", start_ms=now - 1000)
    replacing["linkedPurchaseToken"] = old
    if not test_purchase:
        replacing.pop("testPurchase")  # a license tester's purchase carries it (play_api's stand-in writes it by default)
    play.subscriptions[new] = replacing
    status, _, answer = post(server, push(new, 4, event_at=now - 500, subscriptionId="premium_annual"))
    assert status == 200 and answer["profile_id"] == profile_id, answer


def grant(server, profile_id, product):
    _, _, body = profile(server, profile_id)
    return body, body["subscriptions"].get(product) or body["non_subscriptions"].get(product, [{}])[0]


@pytest.mark.parametrize("store", ["app_store", "host", "stripe"])
def test_a_stores_sandbox_purchase_is_a_test_and_its_production_purchase_is_not(world, store):
    server, chain, _ = world
    for sandbox in (True, False):
        buyer = f"{store}-{'sandbox' if sandbox else 'production'}-{uuid.uuid4().hex[:6]}"
        if store == "app_store":
            purchase(server, buyer, app_store(chain, "Sandbox" if sandbox else "Production"))
        elif store == "host":
            purchase(server, buyer, host_store("sandbox" if sandbox else "production"))
        else:
            stripe(server, buyer, livemode=not sandbox)
        body, bought = grant(server, buyer, "lifetime" if store == "stripe" else "premium_monthly")
        assert bought["is_sandbox"] is sandbox, (store, bought)
        assert body["is_test_user"] is sandbox, (store, body)


@pytest.mark.parametrize("test_purchase", [True, False])
def test_a_play_replacement_the_server_records_keeps_its_environment(world, test_purchase):
    server, _, play = world
    owner = f"play-{'tester' if test_purchase else 'customer'}"
    play_replacement(server, play, owner, test_purchase)
    _, annual = grant(server, owner, "premium_annual")
    assert annual["store"] == "play_store" and annual["is_sandbox"] is test_purchase, annual


def test_results_count_each_stores_test_purchases_apart(world):
    server, chain, _ = world
    results = lambda: next(v for v in server.call("GET", "/v1/experiments/onboarding/results")[2]["experiments"][0]["variations"]
                           if v["variation_id"] == CELL["variation_id"])
    before = results()
    buyers = [f"results-{n}-{uuid.uuid4().hex[:6]}" for n in range(5)]
    assert server.post_events([shown(buyer, CELL["variation_id"]) for buyer in buyers])[0] == 200
    purchase(server, buyers[0], app_store(chain, "Sandbox"))
    purchase(server, buyers[1], host_store("sandbox"))
    purchase(server, buyers[2], {"transaction_id": "t-" + buyers[2], "original_transaction_id": "t-" + buyers[2],
                                 "vendor_product_id": "premium_monthly", "verification": "", "purchased_at": now_ms(),
                                 "environment": "production", "store": "galaxy"})
    stripe(server, buyers[3], livemode=False)
    stripe(server, buyers[4], livemode=True)
    after = results()
    assert after["purchasers"] - before["purchasers"] == 5
    assert after["test_purchases"] - before["test_purchases"] == 3, "the App Store's, the host's and Stripe's sandbox purchases"
