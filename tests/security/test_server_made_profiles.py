"""Profiles the server makes for itself are no device's door (F3). A web purchase made without a
profile is held by `web_purchase:<checkout session id>` until its buyer redeems the link they
were given, and a web paywall's visitor is a profile `web-<32 hex digits>` that its browser's
cookie opens. No device ever used a credential of either, so the first device request naming
one was served and handed a credential of it: with the app key and a checkout session id (in
the success URL, the browser's history, a receipt), an attacker opened the holder, moved its
purchase to a customer of their own, and the buyer's redemption then said `redeemed` and granted
nothing."""
import uuid

import pytest

from attacker import Account, segment, unique
from server_helpers import event_id, record


def refused_as_the_servers_own(answer):
    status, _, body = answer
    return status == 400 and body["error"]["code"] == "invalid_request" and "the server's own profile" in body["error"]["message"]


def test_a_held_web_purchase_opens_on_no_device_route_and_only_its_redemption_link_moves_it(shop):
    session_id = "cs_live_" + uuid.uuid4().hex[:16]
    assert shop.stripe_sends_a_checkout(session_id) == "web_purchase:" + session_id
    holder = Account(shop, "web_purchase:" + session_id)
    # The attacker's own customer, proven by the app's backend.
    attacker, account = Account(shop, unique("attacker")), unique("attacker-account")
    assert attacker.identify(account)[0] == 200

    # The attacker's steps: open the holder with the app key, then identify it as their customer.
    opened = holder.call("GET", f"/v1/profiles/{segment(holder.id)}")
    moved = holder.identify(account)
    assert "premium" not in attacker.profile()["access_levels"], "the held web purchase moved to the attacker's customer"
    assert holder.credentials == [], "a credential of the held profile was handed out"
    assert refused_as_the_servers_own(opened) and refused_as_the_servers_own(moved), (opened, moved)
    redeem = {"token": "A" * 43, "profile_id": holder.id}
    assert refused_as_the_servers_own(holder.call("POST", "/v1/redemptions", redeem))

    # The buyer's link (the operator's, or the success page's) still redeems, for the buyer's own profile.
    status, _, link = shop.server.call("POST", f"/v1/web-purchases/{session_id}/redemption")
    assert status == 200, link
    buyer = Account(shop, unique("buyer"))
    status, _, answer = buyer.call("POST", "/v1/redemptions", {"token": link["token"], "profile_id": buyer.id})
    assert status == 200 and answer["result"] == "redeemed", answer
    assert "premium" in buyer.profile()["access_levels"], "the buyer's redemption granted nothing"


def test_a_holder_named_before_its_purchase_lands_is_refused_so_the_purchase_lands_where_no_device_reaches(shop):
    """The attacker guesses the next checkout's holder and names it first, to hold its credential."""
    session_id = "cs_live_" + uuid.uuid4().hex[:16]
    early = Account(shop, "web_purchase:" + session_id)
    assert refused_as_the_servers_own(early.call("GET", f"/v1/profiles/{segment(early.id)}"))
    assert shop.stripe_sends_a_checkout(session_id) == "web_purchase:" + session_id
    assert early.credentials == []
    assert refused_as_the_servers_own(early.call("GET", f"/v1/profiles/{segment(early.id)}"))


def device_requests(profile_id):
    """Every way a device request names a profile: its path, its body, its records."""
    path = f"/v1/profiles/{segment(profile_id)}"
    return {
        "profile": ("GET", path, None),
        "attributes": ("PUT", path + "/attributes", {"attributes": {"plan": "x"}}),
        "events": ("POST", "/v1/events", {"records": [record(profile_id)]}),
        "restore": ("POST", "/v1/restores", {"event_id": event_id(), "profile_id": profile_id, "transactions": []}),
        "redemption": ("POST", "/v1/redemptions", {"token": "A" * 43, "profile_id": profile_id}),
        "offer": ("POST", "/v1/offers/sign", {"profile_id": profile_id, "vendor_product_id": "premium_monthly", "offer_id": "o",
                                              "offer_type": "promotional"}),
    }


@pytest.mark.parametrize("route", ["profile", "attributes", "events", "restore", "redemption", "offer", "identity"])
@pytest.mark.parametrize("made_for", ["web purchase holder", "web visitor"])
def test_every_device_route_refuses_the_servers_own_profiles(shop, route, made_for):
    """A visitor's id (`web-` and 32 hex digits) is opened by its browser's cookie only, a
    holder's by its redemption link only, whether the server met them yet or not."""
    profile_id = "web-" + uuid.uuid4().hex if made_for == "web visitor" else "web_purchase:cs_" + uuid.uuid4().hex[:12]
    holder = Account(shop, profile_id)
    answer = holder.identify(unique("someone")) if route == "identity" else holder.call(*device_requests(profile_id)[route])
    assert refused_as_the_servers_own(answer), (profile_id, route, answer)
    assert holder.credentials == []
