"""A restore carries at most 100 transactions, as a batch of events carries at most 100 records
(F6). Without a cap, `POST /v1/restores` with 4,000 claims, 8 at once, was taken whole: 32,000
rows of the purchase log and 19 MB for one attacker's few requests, the server slow to answer
its health check meanwhile. Past the cap the server answers `413 too_many_transactions` before it
verifies or keeps any transaction; the library sends a store's larger restore in several claims
(the conformance vector `purchases.a_restore_of_more_transactions_than_a_claim_carries_is_sent_in_several_claims`)."""
import json
import pathlib
import threading

import paywire
from attacker import APP_KEY, Account, RewritingProxy, segment, unique
from server_helpers import BACKEND_BUNDLE, PRODUCTS, event_id, transaction


def restore(account, transactions):
    return account.call("POST", "/v1/restores", json.dumps(
        {"event_id": event_id(), "profile_id": account.id, "transactions": transactions}).encode())


def meet(account):
    """The account's first request: its profile is minted, and its credential kept."""
    assert account.call("GET", f"/v1/profiles/{segment(account.id)}")[0] == 404 and account.credential


def genuine(target, count, product="premium_monthly"):
    """`count` transactions the store signed (a restore of real purchases)."""
    return [transaction(unique("tx"), product, key=target.store_key) for _ in range(count)]


def refused_as_too_many(answer):
    status, _, body = answer
    return status == 413 and body["error"]["code"] == "too_many_transactions" and body["error"]["max_transactions"] == 100


def test_a_restore_of_4000_claims_8_at_once_is_refused_before_any_is_kept(target):
    hoarder = Account(target, unique("hoarder"))
    meet(hoarder)
    # Small claims, so the body stays under the server's 1 MiB: the cap, not the body's size, refuses them.
    flood = [dict(claim, transaction_id=f"t{i}", original_transaction_id=f"t{i}", verification="x")
             for i, claim in enumerate(genuine(target, 1) * 4000)]
    answers = []

    def send():
        answers.append(restore(hoarder, flood))

    threads = [threading.Thread(target=send) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(answers) == 8 and all(refused_as_too_many(answer) for answer in answers), [a[:2] for a in answers][:2]
    assert target.server.call("GET", "/healthz", operator=False)[0] == 200


def test_101_genuine_transactions_are_refused_whole_and_100_are_taken(target):
    device = Account(target, unique("device"))
    meet(device)
    assert refused_as_too_many(restore(device, genuine(target, 101)))
    assert device.call("GET", f"/v1/profiles/{segment(device.id)}")[0] == 404, "a transaction of the refused restore was kept"
    status, _, answer = restore(device, genuine(target, 100))
    assert status == 200 and len(answer["restored"]) == 100, answer
    assert "premium" in device.profile()["access_levels"]


def test_a_device_whose_store_restores_250_transactions_sends_them_all_in_claims_the_server_takes(target, tmp_path):
    """The cap costs a device nothing: the library sends 100, 100 and 50, one after another, and
    the server keeps each of the 250 (its purchase log has every one)."""
    seen = []

    def count(method, path, headers, body):
        if method == "POST" and path == "/v1/restores":
            seen.append(len(json.loads(body)["transactions"]))
        return headers, body

    proxy = RewritingProxy(target.server.port, count)
    products = json.loads(pathlib.Path(PRODUCTS).read_text())["store"]["products"]
    try:
        with paywire.Client({
                "profile_id": unique("collector"), "api_key": APP_KEY, "storage_dir": str(tmp_path / "device"),
                "store": {"type": "test", "products": products, "signing_key": target.store_key,
                          "restore": {"type": "success", "product_ids": ["premium_monthly"] * 150 + ["lifetime"] * 100}},
                "transport": {"type": "http", "base_url": proxy.url, "request_timeout_ms": 10000},
                "response_verification": {"mode": "enforced", "public_keys": [target.public_key]},
                "refresh_profile_on_start": False, "fallback": {"path": str(BACKEND_BUNDLE), "signature": target.bundle_signature}}) as app:
            restored = app.call("restore_purchases")
    finally:
        proxy.close()
    assert seen == [100, 100, 50]
    assert sorted(set(restored["restored_product_ids"])) == ["lifetime", "premium_monthly"]
    assert len(restored["restored_product_ids"]) == 250, "every restored transaction was taken"
    assert restored["profile"]["access_levels"]["premium"]["verification"] == "verified"
