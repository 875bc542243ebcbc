"""F2: one identity rule. Profile ids and customer user ids are taken only in Unicode
Normalization Form C, everywhere they enter (a path, a body, a record, the device's own config),
and anything else is refused: two ids the server takes are then the same id exactly when their
bytes are, so the door (Swift strings compare canonically equivalent texts as equal), the store
(SQLite and PostgreSQL compare bytes) and the identity token's `sub` (compared as bytes) agree.

The attacks (app key and an account of one's own), against a victim whose id is NFC
(`Jos\\u00e9-…`): a twin spelled NFD (`Jose\\u0301-…`), the same text to Swift and another row to
the store; and a token the app's backend signed for the attacker's own account, whose name is
the NFD twin of the victim's customer user id."""
from attacker import Account, identity_token, segment, unique
from server_helpers import event_id, record



def twins():
    """The same text twice: composed (NFC, a victim's) and decomposed (NFD, the attacker's)."""
    tail = unique("x")
    return f"Jos\u00e9-{tail}", f"Jose\u0301-{tail}"


def assert_opens_nothing_of(victim, credentials):
    """No credential the attacker was handed opens the victim's profile, which still holds
    its premium and belongs to no customer of the attacker's."""
    for credential in credentials:
        status, _, answer = victim.call("GET", f"/v1/profiles/{segment(victim.id)}", credential=credential)
        assert status == 401, ("a credential the attacker holds opens the victim's profile", answer)
    profile = victim.profile()
    assert "premium" in profile["access_levels"]
    return profile


def test_a_profile_id_twin_opens_nothing_of_the_victims_profile(target):
    victim_id, twin_id = twins()
    victim = Account(target, victim_id)
    victim.buy(unique("tx-victim"))
    assert "premium" in victim.profile()["access_levels"], "the victim's device holds its profile"

    # The attacker's twin profile, then an identity whose path names the twin (the attacker's
    # credential opens it) and whose body names the victim, as the attacker's own customer:
    # then any fresh profile identified as that customer would be handed the victim's.
    attacker_customer = unique("cus-attacker")
    twin = Account(target, twin_id)
    twin.call("GET", f"/v1/profiles/{segment(twin.id)}")
    twin.identify(attacker_customer, path_profile_id=twin.id, body_profile_id=victim.id)
    fresh = Account(target, unique("attacker-fresh"))
    fresh.identify(attacker_customer)

    profile = assert_opens_nothing_of(victim, twin.credentials + fresh.credentials)
    assert "customer_user_id" not in profile, "the victim's profile is no customer's of the attacker"


def test_a_token_for_a_customer_id_twin_proves_nothing(target):
    victim_customer, twin_customer = twins()
    victim = Account(target, unique("victim"))
    victim.buy(unique("tx-victim"))
    assert victim.identify(victim_customer)[0] == 200

    # The app's backend signs the attacker's own account's name: the victim's, decomposed.
    attacker = Account(target, unique("attacker"))
    status, _, answer = attacker.identify(victim_customer, token=identity_token(twin_customer))
    assert status == 422 and answer["error"]["code"] == "identity_unverified", answer

    assert_opens_nothing_of(victim, attacker.credentials)


def test_an_id_not_in_nfc_is_refused_wherever_a_request_names_one(target):
    _, twin_id = twins()
    attacker = Account(target, unique("attacker"))
    named = {
        "path": attacker.call("GET", f"/v1/profiles/{segment(twin_id)}"),
        "purchase": attacker.call("POST", "/v1/purchases", target.purchase(twin_id, unique("tx"))),
        "record": attacker.call("POST", "/v1/events", {"records": [record(twin_id)]}),
        "identity body": attacker.identify(unique("cus"), body_profile_id=twin_id, path_profile_id=attacker.id),
        "customer": attacker.identify(twin_id),
        "restore customer": attacker.call("POST", "/v1/restores", {"event_id": event_id(), "profile_id": attacker.id,
                                                                   "customer_user_id": twin_id, "transactions": []}),
    }
    for where, (status, _, answer) in named.items():
        assert status == 400, (where, answer)
        assert "Normalization Form C" in answer["error"]["message"], (where, answer)
