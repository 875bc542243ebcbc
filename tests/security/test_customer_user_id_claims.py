"""F1: a `customer_user_id` changes nothing unless it came through `identify` with its proof.

The attack (app key and an account of one's own): before the victim first identifies, name
the victim's customer user id on a purchase the server refuses, or on an empty restore. Were
the claim's id bound to the attacker's profile, that profile would hold the customer first: the
victim's later identify, with a valid token, would land there and move the victim's purchases
to it. The door holds when the victim stays on their own profile with their purchases, and the
attacker's profile holds neither the customer nor any access."""
import json

import pytest

from attacker import Account, unique
from server_helpers import event_id



def claim_naming(attacker, customer_user_id, kind):
    """The attacker's claim naming `customer_user_id`: a purchase whose store signature is
    forged (the server refuses it), or a restore of nothing (which the server takes)."""
    if kind == "refused purchase":
        body = json.loads(attacker.target.purchase(attacker.id, unique("tx-forged")))
        body.update(customer_user_id=customer_user_id, verification="testsig1:" + "0" * 32)
        return attacker.call("POST", "/v1/purchases", body)
    return attacker.call("POST", "/v1/restores", {"event_id": event_id(), "profile_id": attacker.id,
                                                 "customer_user_id": customer_user_id, "transactions": []})


@pytest.mark.parametrize("kind, status", [("refused purchase", 422), ("empty restore", 200)])
def test_a_customer_user_id_named_in_a_claim_binds_nothing(target, kind, status):
    victim_customer = unique("cus-victim")
    attacker = Account(target, unique("attacker"))
    answered, _, answer = claim_naming(attacker, victim_customer, kind)
    assert answered == status, answer

    victim = Account(target, unique("victim"))
    bought = victim.buy(unique("tx-victim"))["transaction"]["transaction_id"]
    identified, _, answer = victim.identify(victim_customer)
    assert identified == 200, answer

    assert (answer["profile_id"], answer["transferred"]) == (victim.id, []), "the victim stays on their own profile"
    assert answer["profile"]["customer_user_id"] == victim_customer
    assert "premium" in victim.profile()["access_levels"], "with their purchase"
    held = attacker.profile()
    assert "customer_user_id" not in held, "the claim bound no customer to the attacker's profile"
    assert held.get("access_levels", {}) == {} and bought not in json.dumps(held), "and moved nothing to it"
