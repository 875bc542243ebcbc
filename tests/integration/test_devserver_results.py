"""GET /v1/experiments/{placement_id}/results: counts from stored events and purchases, the
Wilson interval and the sample-ratio chi-square compared with scipy and with table values,
exact revenue decimals."""
import json

import pytest
from scipy import stats

from conftest import DevServer, purchase, record, shown

TEST = "onboarding_annual_first"
A, B = "onboarding-monthly-first", "onboarding-annual-first"


def cell(placement_id, variation_id):
    return {"placement_id": placement_id, "audience_name": "All Users", "ab_test_name": TEST,
            "variation_id": variation_id, "paywall_id": "pw", "paywall_name": "Paywall"}


def seed(server, exposed, buyers, amounts=("9.99",)):
    """`exposed[v]` profiles shown variation v; the first `buyers[v]` of them buy (amounts in turn)."""
    records = [shown(f"{v}-{i}", v) for v, count in exposed.items() for i in range(count)]
    for start in range(0, len(records), 100):
        assert server.post_events(records[start:start + 100])[0] == 200
    n = 0
    for v, count in buyers.items():
        for i in range(count):
            amount = amounts[n % len(amounts)]
            n += 1
            body = purchase(f"{v}-{i}", f"tx-{v}-{i}", amount=amount, attribution=cell("onboarding", v))
            assert server.call("POST", "/v1/purchases", body)[0] == 200


def results(server, placement="onboarding"):
    status, _, body = server.call("GET", f"/v1/experiments/{placement}/results")
    assert status == 200
    return body


def variations(body):
    [experiment] = body["experiments"]
    return {v["variation_id"]: v for v in experiment["variations"]}, experiment["sample_ratio"]


def test_counts_rates_and_intervals_match_scipy(devserver):
    seed(devserver, {A: 120, B: 95}, {A: 9, B: 17})
    by_id, ratio = variations(results(devserver))
    for v, (n, k) in {A: (120, 9), B: (95, 17)}.items():
        assert (by_id[v]["exposed"], by_id[v]["purchasers"], by_id[v]["weight"]) == (n, k, 50)
        interval = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
        assert by_id[v]["conversion"]["rate"] == pytest.approx(k / n, abs=1e-12)
        assert by_id[v]["conversion"]["low"] == pytest.approx(interval.low, abs=1e-9)
        assert by_id[v]["conversion"]["high"] == pytest.approx(interval.high, abs=1e-9)
    chi_square, p_value = stats.chisquare([120, 95], [107.5, 107.5])
    assert ratio["chi_square"] == pytest.approx(chi_square, rel=1e-9)
    assert ratio["p_value"] == pytest.approx(p_value, rel=1e-9)
    assert (ratio["degrees_of_freedom"], ratio["mismatch"]) == (1, False)


def test_a_skewed_split_is_flagged_as_a_sample_ratio_mismatch(devserver):
    seed(devserver, {A: 300, B: 200}, {})
    _, ratio = variations(results(devserver))
    assert ratio["p_value"] == pytest.approx(stats.chi2.sf(20.0, 1), rel=1e-9)
    assert ratio["mismatch"] is True


def test_a_profile_counts_once_however_often_it_saw_the_paywall(devserver):
    devserver.post_events([shown("same", A) for _ in range(5)])
    assert variations(results(devserver))[0][A]["exposed"] == 1


def test_purchasers_must_be_exposed_to_the_variation_they_are_attributed_to(devserver):
    seed(devserver, {A: 3}, {})
    devserver.call("POST", "/v1/purchases", purchase("stranger", "tx-s", attribution=cell("onboarding", A)))
    devserver.call("POST", "/v1/purchases", purchase(f"{A}-0", "tx-p", state="pending", attribution=cell("onboarding", A)))
    assert variations(results(devserver))[0][A]["purchasers"] == 0


def test_revenue_is_summed_exactly_per_currency_and_divided_half_even(devserver):
    seed(devserver, {A: 3, B: 8}, {A: 3, B: 1}, amounts=("0.10", "0.20", "0.30"))
    devserver.call("POST", "/v1/purchases", purchase(f"{B}-1", "tx-eur", amount="4.5", currency="EUR",
                                                     attribution=cell("onboarding", B)))
    by_id, _ = variations(results(devserver))
    # 0.1 + 0.2 + 0.3 in binary floating point would be 0.6000000000000001.
    assert by_id[A]["revenue"] == [{"currency_code": "USD", "amount": "0.60"}]
    assert by_id[A]["revenue_per_exposed"] == [{"currency_code": "USD", "amount": "0.2000"}]
    assert by_id[B]["revenue"] == [{"currency_code": "EUR", "amount": "4.5"}, {"currency_code": "USD", "amount": "0.10"}]
    # 0.10 / 8 = 0.0125 -> 0.0125; 4.5 / 8 = 0.5625 exactly.
    assert by_id[B]["revenue_per_exposed"] == [{"currency_code": "EUR", "amount": "0.5625"},
                                               {"currency_code": "USD", "amount": "0.0125"}]


def test_a_purchase_without_a_price_counts_the_catalog_price(devserver):
    seed(devserver, {A: 2}, {})
    body = json.loads(purchase(f"{A}-0", "tx-no-price", attribution=cell("onboarding", A)))
    del body["price"]
    assert devserver.call("POST", "/v1/purchases", body)[0] == 200
    # premium_monthly is 9.99 USD in the dev server's catalog (examples/config.json).
    assert variations(results(devserver))[0][A]["revenue"] == [{"currency_code": "USD", "amount": "9.99"}]


def test_per_exposed_rounds_half_to_even(devserver):
    # 0.01 / 16 = 0.000625: half way between 0.0006 and 0.0007, so to the even 0.0006.
    seed(devserver, {A: 16}, {A: 1}, amounts=("0.01",))
    assert variations(results(devserver))[0][A]["revenue_per_exposed"] == [{"currency_code": "USD", "amount": "0.0006"}]


def test_an_experiment_without_exposures_is_listed_with_zeros(devserver):
    by_id, ratio = variations(results(devserver))
    assert by_id[A]["exposed"] == by_id[B]["exposed"] == 0
    assert by_id[A]["conversion"] == {"rate": 0, "low": 0, "high": 0}
    assert ratio == {"chi_square": 0, "degrees_of_freedom": 0, "p_value": 1, "mismatch": False}


def test_an_unknown_placement_is_404(devserver):
    assert devserver.call("GET", "/v1/experiments/nowhere/results")[0] == 404


def custom_bundle(tmp_path, weights):
    """A bundle whose placement 'multi' runs test 'multi_test' with these variation weights."""
    variations = [{"variation_id": f"v{i}", "paywall_id": f"pw-{i}", "weight": w, "products": []} for i, w in enumerate(weights)]
    bundle = {"format_version": 1, "response_created_at": 1, "placements": {"multi": {
        "ab_test_name": "multi_test", "placement_audience_version_id": "multi-v1", "variations": variations}}}
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle))
    return str(path)


def seed_cells(server, cells):
    """cells: [(variation_id, exposed, buyers)] of placement 'multi'."""
    records = [record(f"{v}-{i}", "paywall_shown", {"placement_id": "multi", "audience_name": "All Users", "revision": 1,
                                                     "ab_test_name": "multi_test", "variation_id": v, "paywall_id": "pw",
                                                     "paywall_name": "P"})
               for v, n, _ in cells for i in range(n)]
    for start in range(0, len(records), 100):
        assert server.post_events(records[start:start + 100])[0] == 200
    for v, _, k in cells:
        for i in range(k):
            attribution = {"placement_id": "multi", "ab_test_name": "multi_test", "variation_id": v}
            assert server.call("POST", "/v1/purchases", purchase(f"{v}-{i}", f"tx-{v}-{i}", attribution=attribution))[0] == 200
    status, _, body = server.call("GET", "/v1/experiments/multi/results")
    assert status == 200
    return body["experiments"][0]


def test_wilson_intervals_match_newcombes_published_examples(tmp_path):
    """Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3 (score, no correction)."""
    server = DevServer("--bundle", custom_bundle(tmp_path, [25, 25, 25, 25]))
    try:
        experiment = seed_cells(server, [("v0", 263, 81), ("v1", 148, 15), ("v2", 20, 0), ("v3", 29, 1)])
    finally:
        server.stop()
    published = {"v0": (0.2553, 0.3662), "v1": (0.0624, 0.1605), "v2": (0.0, 0.1611), "v3": (0.0061, 0.1718)}
    for variation in experiment["variations"]:
        low, high = published[variation["variation_id"]]
        assert variation["conversion"]["low"] == pytest.approx(low, abs=5e-5)
        assert variation["conversion"]["high"] == pytest.approx(high, abs=5e-5)
    chi_square, p_value = stats.chisquare([263, 148, 20, 29], [115] * 4)
    assert experiment["sample_ratio"]["chi_square"] == pytest.approx(chi_square, rel=1e-9)
    assert experiment["sample_ratio"]["p_value"] == pytest.approx(p_value, rel=1e-6)
    assert experiment["sample_ratio"]["degrees_of_freedom"] == 3


@pytest.mark.parametrize("weights, counts", [
    ([20, 30, 50], [21, 24, 55]),                 # 2 degrees of freedom
    ([10, 20, 30, 40], [12, 18, 33, 37]),         # 3
    ([20, 20, 20, 20, 20], [30, 18, 22, 25, 5]),  # 4, a mismatch
    ([10, 90], [150, 850]),                       # 1, against unequal weights
])
def test_sample_ratio_p_values_match_scipy_for_several_degrees_of_freedom(tmp_path, weights, counts):
    server = DevServer("--bundle", custom_bundle(tmp_path, weights))
    try:
        experiment = seed_cells(server, [(f"v{i}", n, 0) for i, n in enumerate(counts)])
    finally:
        server.stop()
    total = sum(counts)
    chi_square, p_value = stats.chisquare(counts, [total * w / 100 for w in weights])
    ratio = experiment["sample_ratio"]
    assert ratio["chi_square"] == pytest.approx(chi_square, rel=1e-9)
    assert ratio["p_value"] == pytest.approx(p_value, rel=1e-9)
    assert ratio["degrees_of_freedom"] == len(weights) - 1
    assert ratio["mismatch"] == (p_value < 0.001)
