"""--transfer-policy over real HTTP, on both engines: a restore on a second profile and an
identity as a customer who already has a profile move purchases (transfer, the default) or
leave them where they are (keep); each move is kept as a transfer, a retry answers the same,
and the dashboard's profile view and the results show web purchases and transfers."""
import html.parser
import json
import time
import urllib.parse

import pytest

from conftest import DevServer, event_id, purchase, shown, transaction
from stripe_helpers import checkout, deliver, stripe_server
import timeshift

NOW = timeshift.now_ms() - 60_000
A = "onboarding-monthly-first"
CELL = {"placement_id": "onboarding", "ab_test_name": "onboarding_annual_first", "variation_id": A}


@pytest.fixture(params=["transfer", "keep"])
def policy_server(request, tmp_path):
    server = stripe_server(tmp_path, "--transfer-policy", request.param, "--data", str(tmp_path / "data"))
    server.policy = request.param
    yield server
    server.stop()


def buy(server, profile_id, transaction_id, product="lifetime", **kwargs):
    status, _, body = server.call("POST", "/v1/purchases", purchase(profile_id, transaction_id, product=product, purchased_at=NOW, **kwargs))
    assert status == 200, body
    return body


def restore(server, profile_id, *transaction_ids, event=None):
    body = {"event_id": event or event_id(), "profile_id": profile_id,
            "transactions": [transaction(t, product="lifetime", purchased_at=NOW) for t in transaction_ids]}
    status, _, answer = server.call("POST", "/v1/restores", body)
    assert status == 200, answer
    return answer


def identify(server, profile_id, customer, event=None):
    body = {"event_id": event or event_id(), "profile_id": profile_id, "customer_user_id": customer}
    status, _, answer = server.call("POST", f"/v1/profiles/{profile_id}/identity", body)
    assert status == 200, answer
    return answer


def grants(server, profile_id):
    """Transaction ids of the profile's access levels and non-subscriptions, as GET answers."""
    status, _, body = server.call("GET", f"/v1/profiles/{profile_id}")
    if status == 404:
        return set()
    assert status == 200, body
    return transactions_of(body["profile"])


def transactions_of(profile):
    ids = {grant.get("transaction_id") for grant in profile.get("access_levels", {}).values()}
    ids |= {item["purchase_id"] for items in profile.get("non_subscriptions", {}).values() for item in items}
    return ids - {None}


def test_a_restore_on_a_second_profile_follows_the_policy(policy_server):
    server = policy_server
    buy(server, "first", "tx-r1")
    answer = restore(server, "second", "tx-r1")
    if server.policy == "transfer":
        assert answer["restored"] == [{"transaction_id": "tx-r1", "vendor_product_id": "lifetime", "from_profile_id": "first"}]
        assert answer["refused"] == []
        assert transactions_of(answer["profile"]) == {"tx-r1"}
        assert grants(server, "first") == set(), "the first profile lost the grant"
        assert grants(server, "second") == {"tx-r1"}
    else:
        assert answer["restored"] == []
        [refused] = answer["refused"]
        assert (refused["transaction_id"], refused["code"]) == ("tx-r1", "belongs_to_another_profile")
        assert "first" not in refused["message"], "the refusal never names the other profile"
        assert transactions_of(answer["profile"]) == set()
        assert grants(server, "first") == {"tx-r1"}, "the other profile keeps its grant"
        # The owner's own restore is no transfer, under either policy.
        own = restore(server, "first", "tx-r1")
        assert own["restored"] == [{"transaction_id": "tx-r1", "vendor_product_id": "lifetime"}] and own["refused"] == []


def test_a_restore_sent_again_answers_the_same_and_moves_nothing_more(tmp_path):
    server = DevServer("--data", str(tmp_path / "data"))
    try:
        buy(server, "first", "tx-i1")
        same = event_id()
        first = restore(server, "second", "tx-i1", event=same)
        again = restore(server, "second", "tx-i1", event=same)
        later = restore(server, "second", "tx-i1")
        dashboard = profile_page(server, "first")
    finally:
        server.stop()
    assert first["restored"] == again["restored"] == [{"transaction_id": "tx-i1", "vendor_product_id": "lifetime", "from_profile_id": "first"}]
    assert later["restored"] == [{"transaction_id": "tx-i1", "vendor_product_id": "lifetime"}], "a new restore by the holder moves nothing"
    assert [row["direction"] for row in dashboard.rows("transfers")] == ["out"], "one transfer kept"


def test_an_anonymous_profile_identified_as_a_customer_with_a_profile_follows_the_policy(policy_server):
    server = policy_server
    first = identify(server, "customer-q", "user-42")
    assert (first["profile_id"], first["profile"]["customer_user_id"], first["transferred"]) == ("customer-q", "user-42", [])
    buy(server, "anon-p", "tx-p1")
    buy(server, "anon-p", "tx-p2", product="coins_100")
    same = event_id()
    answer = identify(server, "anon-p", "user-42", event=same)
    assert answer["profile_id"] == "customer-q", "the customer's existing profile, under either policy"
    if server.policy == "transfer":
        assert answer["transferred"] == [
            {"transaction_id": "tx-p1", "vendor_product_id": "lifetime", "from_profile_id": "anon-p", "to_profile_id": "customer-q"},
            {"transaction_id": "tx-p2", "vendor_product_id": "coins_100", "from_profile_id": "anon-p", "to_profile_id": "customer-q"}]
        assert transactions_of(answer["profile"]) == {"tx-p1", "tx-p2"}
        assert grants(server, "anon-p") == set() and grants(server, "customer-q") == {"tx-p1", "tx-p2"}
        assert identify(server, "anon-p", "user-42", event=same) == answer, "the same request answers the same"
    else:
        assert answer["transferred"] == []
        assert transactions_of(answer["profile"]) == set()
        assert grants(server, "anon-p") == {"tx-p1", "tx-p2"} and grants(server, "customer-q") == set()
    later = identify(server, "anon-p", "user-42")
    assert (later["profile_id"], later["transferred"]) == ("customer-q", []), "asking again moves nothing more"
    assert answer["profile"] == later["profile"]


def test_a_customer_without_a_profile_makes_the_asking_profile_theirs(tmp_path):
    server = DevServer("--data", str(tmp_path / "data"))
    try:
        buy(server, "anon-n", "tx-n1")
        answer = identify(server, "anon-n", "user-new")
        assert (answer["profile_id"], answer["transferred"]) == ("anon-n", [])
        assert answer["profile"]["customer_user_id"] == "user-new" and transactions_of(answer["profile"]) == {"tx-n1"}
        # A later device's profile is pointed at the one that held the customer first.
        buy(server, "device-2", "tx-n2")
        second = identify(server, "device-2", "user-new")
        assert second["profile_id"] == "anon-n"
        assert second["transferred"] == [{"transaction_id": "tx-n2", "vendor_product_id": "lifetime",
                                          "from_profile_id": "device-2", "to_profile_id": "anon-n"}]
        assert identify(server, "anon-n", "user-new")["profile_id"] == "anon-n"
        assert grants(server, "anon-n") == {"tx-n1", "tx-n2"}
    finally:
        server.stop()


@pytest.mark.parametrize("body", [
    {"event_id": "e-1", "profile_id": "someone-else", "customer_user_id": "u"},
    {"event_id": "e-1", "profile_id": "p-400", "customer_user_id": ""},
    {"event_id": "e-1", "profile_id": "p-400"},
    {"profile_id": "p-400", "customer_user_id": "u"},
])
def test_a_malformed_identity_is_refused_and_changes_nothing(devserver, body):
    status, _, answer = devserver.call("POST", "/v1/profiles/p-400/identity", body)
    assert status == 400 and answer["error"]["code"] == "invalid_request"
    assert devserver.call("GET", "/v1/profiles/p-400")[0] == 404


def test_the_transfer_policy_flag_takes_only_its_two_values():
    with pytest.raises(RuntimeError, match="--transfer-policy"):
        DevServer("--transfer-policy", "merge")


class Page(html.parser.HTMLParser):
    """A dashboard profile page: per table class, each row's data-* and data-field texts."""

    def __init__(self, text):
        super().__init__()
        self.tables, self.table, self.row, self.field, self.fields = {}, None, None, None, {}
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.table = attrs.get("class")
            self.tables.setdefault(self.table, [])
        elif tag == "tr" and self.table and any(k.startswith("data-") for k in attrs):
            self.row = {k[5:].replace("-", "_"): v for k, v in attrs.items() if k.startswith("data-")}
            self.tables[self.table].append(self.row)
        if attrs.get("data-field"):
            self.field = attrs["data-field"]
            target = self.row if self.row is not None else self.fields
            target[self.field] = ""

    def handle_endtag(self, tag):
        if tag == "tr":
            self.row = None
        if tag == "td" or (tag == "span" and self.row is None) or tag == "p":
            self.field = None
        if tag == "table":
            self.table = None

    def handle_data(self, data):
        if self.field:
            target = self.row if self.row is not None else self.fields
            target[self.field] = target.get(self.field, "") + data

    def rows(self, table):
        return self.tables.get(table, [])


def profile_page(server, profile_id):
    status, headers, body = server.call("GET", "/dashboard/profiles/" + urllib.parse.quote(profile_id, safe=":"))
    assert status == 200 and headers["content-type"].startswith("text/html"), (status, body)
    return Page(body.decode())


def test_the_dashboard_shows_web_purchases_and_transfers_and_the_results_count_each_purchase_once(tmp_path):
    server = stripe_server(tmp_path, "--data", str(tmp_path / "data"))
    try:
        assert server.post_events([shown("store-buyer", A), shown("web-buyer", A)])[0] == 200
        buy(server, "store-buyer", "tx-store", attribution=CELL)
        web = checkout("cs_web", profile="web-buyer", price="price_lifetime", payment_intent="pi_web")
        web["data"]["object"]["metadata"].update(
            {"paywire_placement_id": "onboarding", "paywire_ab_test_name": CELL["ab_test_name"], "paywire_variation_id": A})
        assert deliver(server, web)[0] == 200
        assert deliver(server, checkout("cs_held", price="price_lifetime", payment_intent="pi_held"))[0] == 200
        # The store buyer is identified as a customer whose profile exists: the purchase moves.
        identify(server, "customer-c", "user-c")
        moved = identify(server, "store-buyer", "user-c")
        assert [t["transaction_id"] for t in moved["transferred"]] == ["tx-store"]

        results = server.call("GET", "/v1/experiments/onboarding/results")[2]
        buyer, customer = profile_page(server, "store-buyer"), profile_page(server, "customer-c")
        web_buyer, held = profile_page(server, "web-buyer"), profile_page(server, "web_purchase:cs_held")
        status, _, _ = server.call("GET", "/dashboard/profiles/nobody")
        dashboard = server.call("GET", "/dashboard")[2].decode()
    finally:
        server.stop()
    [experiment] = results["experiments"]
    row = next(v for v in experiment["variations"] if v["variation_id"] == A)
    assert (row["exposed"], row["purchasers"], row["store_purchases"], row["web_purchases"], row["transferred"]) == (2, 2, 1, 1, 1)
    assert 'data-field="web_purchases">1<' in dashboard and 'data-field="transferred">1<' in dashboard

    [out] = buyer.rows("transfers")
    assert (out["direction"], out["transaction_id"], out["to_profile_id"], out["reason"]) == ("out", "tx-store", "customer-c", "identity")
    [bought] = buyer.rows("purchases")
    assert (bought["moved_away"], bought["owner"], bought["purchaser"]) == ("true", "customer-c", "store-buyer")
    [came] = customer.rows("transfers")
    assert (came["direction"], came["from_profile_id"]) == ("in", "store-buyer")
    assert customer.fields["customer_user_id"] == "user-c"

    [web_row] = web_buyer.rows("purchases")
    assert (web_row["transaction"], web_row["web"], web_row["cell"]) == ("pi_web", "true", f"onboarding / {CELL['ab_test_name']} / {A}")
    [checkout_row] = held.rows("checkouts")
    assert checkout_row["checkout"] == "cs_held" and checkout_row["state"] == "awaiting redemption: no link issued yet"
    assert [r["web"] for r in held.rows("purchases")] == ["true"]
    assert "held" in held.fields
    assert status == 404


def test_a_redemption_is_kept_as_a_transfer_into_the_redeeming_profile(tmp_path):
    server = stripe_server(tmp_path, "--data", str(tmp_path / "data"))
    try:
        assert deliver(server, checkout("cs_gift", price="price_lifetime", payment_intent="pi_gift"))[0] == 200
        token = server.call("POST", "/v1/web-purchases/cs_gift/redemption")[2]["token"]
        assert server.call("POST", "/v1/redemptions", {"token": token, "profile_id": "app-user"})[2]["result"] == "redeemed"
        page, held = profile_page(server, "app-user"), profile_page(server, "web_purchase:cs_gift")
    finally:
        server.stop()
    [came] = page.rows("transfers")
    assert (came["direction"], came["from_profile_id"], came["reason"]) == ("in", "web_purchase:cs_gift", "redemption")
    [redeemed] = page.rows("checkouts")
    assert redeemed["redeemed"] == "true"
    assert held.rows("checkouts")[0]["state"].startswith("redeemed by app-user")
