"""An experiment with a holdout, 300 profiles driven through the real library against the dev
server: each asks `get_presentation`, is shown its paywall (`log_show_paywall`) or held out
(the library records the exposure itself), and may buy, on the paywall, on no paywall or on
another placement's. Four testers force variations with debug overrides. The results route
must count exactly what the simulation did: exposures per row, purchasers (a shown variation's
bought on its paywall, a holdout's anywhere after the exposure), the testers apart, and the
sample-ratio check over all three rows."""
import json
import random
import time

import pytest
from scipy import stats

import paywire
from conftest import HOLDOUT_PLACEMENT, PRODUCTS, DevServer, bundle_with_a_holdout

PROFILES = 300
SEED = 20261125
PLACEMENT = HOLDOUT_PLACEMENT
SHOWN, HOLDOUT = ("upgrade-monthly", "upgrade-annual"), "upgrade-none"
WEIGHTS = {"upgrade-monthly": 40, "upgrade-annual": 40, HOLDOUT: 20}
#: Testers and the variation each forces (their exposures are left out of every row).
TESTERS = {"tester-0": "upgrade-monthly", "tester-1": "upgrade-annual", "tester-2": HOLDOUT, "tester-3": HOLDOUT}
STORE = json.loads(PRODUCTS.read_text())["store"]


def wait_until_verified(client, timeout=30.0):
    """A purchase counts once the backend verified it: the profile says so."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        event = client.poll(0.1)
        if event and event["event"] == "did_load_latest_profile":
            if any(level.get("verified") for level in event["profile"]["access_levels"].values()):
                return
    raise AssertionError("a purchase was not verified in time")


#: Where a profile bought, and whether its row counts it (a shown variation counts only its
#: paywall's purchases; a holdout counts its profiles' purchases made anywhere).
COUNTED = {"its paywall": True, "no paywall (shown)": False, "no paywall (held out)": True, "another placement": True}


def simulate(profile_id, url, bundle, rng, forced=None):
    """One profile meets the placement and may buy. Returns (variation, where it bought or None)."""
    config = {"profile_id": profile_id, "store": STORE, "fallback": {"path": bundle},
              "transport": {"type": "http", "base_url": url, "request_timeout_ms": 5000},
              "analytics": {"retry_min_ms": 20, "retry_max_ms": 200, "close_flush_ms": 0}}
    if forced:
        config["debug"] = True
    with paywire.Client(config) as client:
        if forced:
            client.call("set_debug_overrides", {"placements": {PLACEMENT: forced}})
        answer = client.call("get_presentation", {"placement_id": PLACEMENT})
        # A tester always buys, on its paywall or (held out) on none: the purchase counts nowhere.
        variation, roll, bought = answer["variation_id"], 0.0 if forced else rng.random(), None
        assert answer["decision"] == ("holdout" if variation == HOLDOUT else "present")
        assert answer.get("forced", False) is bool(forced)
        if answer["decision"] == "present":
            client.call("log_show_paywall", {"paywall": answer["paywall"]})
            if roll < 0.10:
                product = answer["paywall"]["products"][0]["vendor_product_id"]
                client.call("make_purchase", {"vendor_product_id": product, "paywall": answer["paywall"]})
                bought = "its paywall"
            elif roll < 0.14:
                client.call("make_purchase", {"vendor_product_id": "premium_annual"})
                bought = "no paywall (shown)"
        elif roll < 0.07:
            client.call("make_purchase", {"vendor_product_id": "premium_monthly"})
            bought = "no paywall (held out)"
        elif roll < 0.11:
            settings = client.call("get_paywall", {"placement_id": "settings"})
            client.call("make_purchase", {"vendor_product_id": "lifetime", "paywall": settings})
            bought = "another placement"
        if bought:
            wait_until_verified(client)
        client.call("flush_analytics", {"timeout_ms": 30000})
        return variation, bought


def test_a_300_profile_experiment_with_a_holdout_counts_what_the_profiles_did(tmp_path):
    bundle = bundle_with_a_holdout(tmp_path)
    server = DevServer("--bundle", bundle)
    rng = random.Random(SEED)
    exposed, counted, ways = dict.fromkeys(WEIGHTS, 0), dict.fromkeys(WEIGHTS, 0), set()
    try:
        for user in range(PROFILES):
            variation, bought = simulate(f"holdout-user-{SEED}-{user:04d}", server.url, bundle, rng)
            exposed[variation] += 1
            counted[variation] += bool(bought) and COUNTED[bought]
            ways.add(bought)
        for tester, variation in TESTERS.items():
            forced_variation, bought = simulate(tester, server.url, bundle, rng, forced=variation)
            assert forced_variation == variation
            ways.add(bought and "tester")
        status, _, body = server.call("GET", f"/v1/experiments/{PLACEMENT}/results")
    finally:
        server.stop()
    assert status == 200
    # Every way of buying happened at least once (a tester's purchase counts nowhere).
    assert ways >= {*COUNTED, "tester"}, ways
    [experiment] = body["experiments"]
    rows = {row["variation_id"]: row for row in experiment["variations"]}
    assert {v: (row["exposed"], row["purchasers"], row["holdout"]) for v, row in rows.items()} == \
        {v: (exposed[v], counted[v], v == HOLDOUT) for v in WEIGHTS}
    assert experiment["forced_exposures"] == len(TESTERS)
    chi_square, p_value = stats.chisquare([exposed[v] for v in WEIGHTS], [PROFILES * w / 100 for w in WEIGHTS.values()])
    assert experiment["sample_ratio"]["chi_square"] == pytest.approx(chi_square, rel=1e-9)
    assert experiment["sample_ratio"]["p_value"] == pytest.approx(p_value, rel=1e-9)
    assert experiment["sample_ratio"]["degrees_of_freedom"] == 2
