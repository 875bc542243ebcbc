"""GET /v1/experiments/{placement_id}/results: counts from stored events and purchases, the
Wilson interval and the sample-ratio chi-square compared with scipy and with table values,
exact revenue decimals."""
import hashlib
import json
import os
import sqlite3
import subprocess
import sys

import pytest
from scipy import stats

from conftest import ON_POSTGRES, ROOT, DevServer, purchase, record, shown

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


T0 = 1732300000000   # conftest's records are made at this time, and its purchases by default


def holdout_bundle(tmp_path):
    """A bundle whose placement 'multi' runs test 'multi_test': shown variations v0 and v1 and the
    holdout 'hold' (no paywall), weighted 40/40/20."""
    variations = [{"variation_id": "v0", "paywall_id": "pw-0", "weight": 40, "products": []},
                  {"variation_id": "v1", "paywall_id": "pw-1", "weight": 40, "products": []},
                  {"variation_id": "hold", "weight": 20, "holdout": True}]
    bundle = {"format_version": 1, "response_created_at": 1, "placements": {"multi": {
        "ab_test_name": "multi_test", "placement_audience_version_id": "multi-v1", "variations": variations}}}
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(bundle))
    return str(path)


def exposure(profile_id, variation_id, at=T0, forced=False):
    """A paywall_shown of placement 'multi' as the library records it: a holdout's names no paywall."""
    params = {"placement_id": "multi", "audience_name": "All Users", "revision": 1, "ab_test_name": "multi_test",
              "variation_id": variation_id}
    if variation_id == "hold":
        params["holdout"] = True
    else:
        params.update({"paywall_id": "pw", "paywall_name": "P"})
    if forced:
        params["forced"] = True
    return record(profile_id, "paywall_shown", params, created_at=at)


def multi_results(server):
    status, _, body = server.call("GET", "/v1/experiments/multi/results")
    assert status == 200
    [experiment] = body["experiments"]
    return {v["variation_id"]: v for v in experiment["variations"]}, experiment


@pytest.fixture
def holdout_server(tmp_path):
    server = DevServer("--bundle", holdout_bundle(tmp_path))
    yield server
    server.stop()


def test_a_holdout_row_counts_its_profiles_purchases_made_anywhere_from_their_first_exposure(holdout_server):
    server = holdout_server
    records = [exposure(f"hold-{i}", "hold") for i in range(8)] + [exposure(f"v0-{i}", "v0") for i in range(10)]
    # hold-7 was first exposed later; seeing the holdout again does not move its first exposure.
    records[7] = exposure("hold-7", "hold", at=T0 + 10_000)
    records.append(exposure("hold-7", "hold", at=T0 + 30_000))
    assert server.post_events(records)[0] == 200
    elsewhere = {"placement_id": "settings", "ab_test_name": "", "variation_id": "settings-default"}
    for body in [
        purchase("hold-0", "tx-h0", purchased_at=T0 + 1000),                             # on no paywall: counts
        purchase("hold-1", "tx-h1", amount="59.99", product="premium_annual", purchased_at=T0 + 5000,
                 attribution=elsewhere),                                                  # on another placement: counts
        purchase("hold-2", "tx-h2", purchased_at=T0 - 1000),                             # before its exposure: no
        purchase("hold-3", "tx-h3", purchased_at=T0),                                     # the same millisecond: counts
        purchase("hold-4", "tx-h4", state="pending", purchased_at=T0 + 1000),            # not verified: no
        purchase("hold-7", "tx-h7", purchased_at=T0 + 20_000),                           # after its first exposure: counts
        purchase("stranger", "tx-s", purchased_at=T0 + 1000),                            # never exposed: nowhere
        purchase("v0-0", "tx-v0", purchased_at=T0 + 1000, attribution={"placement_id": "multi", "ab_test_name": "multi_test",
                                                                        "variation_id": "v0"}),
        purchase("v0-1", "tx-v1", purchased_at=T0 + 1000),                               # a shown variation's needs its paywall
    ]:
        assert server.call("POST", "/v1/purchases", body)[0] == 200
    by_id, experiment = multi_results(server)
    hold, v0 = by_id["hold"], by_id["v0"]
    assert (hold["holdout"], v0["holdout"], by_id["v1"]["holdout"]) == (True, False, False)
    assert (hold["weight"], hold["exposed"], hold["purchasers"]) == (20, 8, 4)
    assert (v0["exposed"], v0["purchasers"]) == (10, 1)
    interval = stats.binomtest(4, 8).proportion_ci(confidence_level=0.95, method="wilson")
    assert hold["conversion"]["rate"] == pytest.approx(0.5, abs=1e-12)
    assert (hold["conversion"]["low"], hold["conversion"]["high"]) == (pytest.approx(interval.low, abs=1e-9),
                                                                         pytest.approx(interval.high, abs=1e-9))
    assert hold["revenue"] == [{"currency_code": "USD", "amount": "89.96"}]   # 9.99 * 3 + 59.99
    assert hold["revenue_per_exposed"] == [{"currency_code": "USD", "amount": "11.2450"}]
    assert experiment["forced_exposures"] == 0


def test_forced_exposures_are_left_out_of_every_row_and_counted_apart(holdout_server):
    server = holdout_server
    records = [exposure(f"v0-{i}", "v0") for i in range(5)] + [
        exposure("tester-0", "v0", forced=True), exposure("tester-0", "v0", forced=True),
        exposure("tester-1", "v1", forced=True),
        exposure("tester-2", "hold", forced=True),
        # Forced once, exposed by bucketing too: counted where bucketing put it, not as forced.
        exposure("mixed", "hold", forced=True), exposure("mixed", "v0"),
    ]
    assert server.post_events(records)[0] == 200
    at_v0 = {"placement_id": "multi", "ab_test_name": "multi_test", "variation_id": "v0"}
    assert server.call("POST", "/v1/purchases", purchase("tester-0", "tx-t0", purchased_at=T0 + 1, attribution=at_v0))[0] == 200
    assert server.call("POST", "/v1/purchases", purchase("tester-2", "tx-t2", purchased_at=T0 + 1))[0] == 200
    by_id, experiment = multi_results(server)
    assert experiment["forced_exposures"] == 3
    assert {v: (row["exposed"], row["purchasers"]) for v, row in by_id.items()} == {"v0": (6, 0), "v1": (0, 0), "hold": (0, 0)}
    chi_square, p_value = stats.chisquare([6, 0, 0], [6 * 40 / 100, 6 * 40 / 100, 6 * 20 / 100])
    assert experiment["sample_ratio"]["chi_square"] == pytest.approx(chi_square, rel=1e-9)


@pytest.mark.parametrize("counts, mismatch", [
    ([88, 92, 41], False),   # 40/40/20 as bucketed
    ([100, 104, 16], True),  # the shown variations alike, the holdout short: a mismatch only the holdout shows
])
def test_the_sample_ratio_check_runs_over_every_row_the_holdout_included(tmp_path, counts, mismatch):
    server = DevServer("--bundle", holdout_bundle(tmp_path))
    try:
        records = [exposure(f"{v}-{i}", v) for v, n in zip(["v0", "v1", "hold"], counts) for i in range(n)]
        for start in range(0, len(records), 100):
            assert server.post_events(records[start:start + 100])[0] == 200
        _, experiment = multi_results(server)
    finally:
        server.stop()
    total = sum(counts)
    chi_square, p_value = stats.chisquare(counts, [total * w / 100 for w in (40, 40, 20)])
    ratio = experiment["sample_ratio"]
    assert ratio["chi_square"] == pytest.approx(chi_square, rel=1e-9)
    assert ratio["p_value"] == pytest.approx(p_value, rel=1e-9)
    assert ratio["degrees_of_freedom"] == 2
    assert ratio["mismatch"] is mismatch
    assert bool(p_value < 0.001) is mismatch
    # Over the shown rows alone the second split would pass.
    assert stats.chisquare(counts[:2])[1] > 0.001


#: Schema version 5's store: the exposure's time and forced flag were only in the record's text.
#: Migrations run above the highest version applied, so every later one is undone first (7: the
#: App Store's columns and consumption requests; 8: web purchases; 9: transfers and the
#: customer's profile; 10: the exposure's revision; 11 and 12: operators' sessions and audit records;
#: 13: profiles' credentials; 14: the web paywall's exposures).
BEFORE_VERSION_6 = """
    DELETE FROM paywire_migrations WHERE version = 15;
    ALTER TABLE events DROP COLUMN web_paywall;
    DELETE FROM paywire_migrations WHERE version = 14;
    DROP TABLE profile_credentials;
    DELETE FROM paywire_migrations WHERE version = 13;
    DROP TABLE audit_records;
    DELETE FROM paywire_migrations WHERE version = 12;
    DROP TABLE operator_sessions;
    DELETE FROM paywire_migrations WHERE version = 11;
    ALTER TABLE events DROP COLUMN revision;
    DELETE FROM paywire_migrations WHERE version = 10;
    DROP TABLE transfers;
    DROP INDEX transactions_by_purchaser;
    DROP INDEX profiles_by_customer;
    ALTER TABLE profiles DROP COLUMN identified_at;
    DELETE FROM paywire_migrations WHERE version = 9;
    DROP TABLE web_purchases;
    DROP TABLE stripe_links;
    DELETE FROM paywire_migrations WHERE version = 8;
    DROP TABLE consumption_requests;
    ALTER TABLE transactions DROP COLUMN ownership_type;
    ALTER TABLE transactions DROP COLUMN offer_type;
    ALTER TABLE transactions DROP COLUMN offer_id;
    ALTER TABLE transactions DROP COLUMN offer_payment_mode;
    ALTER TABLE lifecycles DROP COLUMN will_renew_product_id;
    ALTER TABLE lifecycles DROP COLUMN replaced_product_id;
    ALTER TABLE lifecycles DROP COLUMN product_changed_at;
    ALTER TABLE lifecycles DROP COLUMN replaced_by_upgrade;
    DELETE FROM paywire_migrations WHERE version = 7;
    DROP INDEX events_by_exposure;
    ALTER TABLE events DROP COLUMN shown_at;
    ALTER TABLE events DROP COLUMN forced;
    CREATE INDEX events_by_exposure ON events(placement_id, ab_test_name, variation_id, profile_id) WHERE name = 'paywall_shown';
    DELETE FROM paywire_migrations WHERE version = 6;
    """


def back_to_version_5(data_dir):
    """The dev server's store on `data_dir` as schema version 5 left it, rows kept."""
    if ON_POSTGRES:
        sys.path.insert(0, str(ROOT / "tests/postgres"))
        from devserver_on_postgres import database
        name = "d_" + hashlib.sha1(os.path.abspath(data_dir).encode()).hexdigest()[:20]
        url = database(os.environ["PAYWIRE_TEST_POSTGRES"], name)
        subprocess.run(["psql", url, "-v", "ON_ERROR_STOP=1", "-qc", BEFORE_VERSION_6], check=True)
    else:
        with sqlite3.connect(os.path.join(data_dir, "devserver.sqlite")) as db:
            db.executescript(BEFORE_VERSION_6)


def test_records_stored_before_schema_version_6_are_read_from_their_text(tmp_path):
    bundle, data = holdout_bundle(tmp_path), str(tmp_path / "data")
    server = DevServer("--bundle", bundle, "--data", data)
    try:
        assert server.post_events([exposure("hold-0", "hold", at=T0 + 500), exposure("hold-1", "hold"),
                                   exposure("v0-0", "v0"), exposure("tester", "v0", forced=True)])[0] == 200
        for body in [purchase("hold-0", "tx-h0", purchased_at=T0 + 100),    # before hold-0's exposure
                     purchase("hold-1", "tx-h1", purchased_at=T0 + 100)]:
            assert server.call("POST", "/v1/purchases", body)[0] == 200
    finally:
        server.stop()
    back_to_version_5(data)
    server = DevServer("--bundle", bundle, "--data", data)
    try:
        by_id, experiment = multi_results(server)
    finally:
        server.stop()
    assert (by_id["hold"]["exposed"], by_id["hold"]["purchasers"], by_id["v0"]["exposed"]) == (2, 1, 1)
    assert experiment["forced_exposures"] == 1
