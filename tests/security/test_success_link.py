"""The web paywall's success page gives its buyer one redemption link per purchase (F9). Each
load of `GET /web/{placement_id}/success` made a new link and voided the one before, so the link
the buyer saved (copied, scanned, mailed to themselves) stopped working when the page was
reloaded, or merely opened again from the browser's history. The link is now the same on every
load in the buyer's browser, and only that browser's cookie makes it."""
import re
import uuid

from attacker import Account, Visitor, unique

LINK = re.compile(r'id="pw-redeem" href="paywire://redeem\?token=([^"]+)"')


def bought(shop):
    """A visitor of the web paywall who paid for lifetime: the visitor, and the checkout's id."""
    buyer = Visitor(shop)
    assert buyer.request("GET", "/web/onboarding")[0] == 200 and buyer.cookie
    session_id = "cs_live_" + uuid.uuid4().hex[:16]
    assert shop.stripe_sends_a_checkout(session_id, buyer.profile_id, web_paywall=True) == buyer.profile_id
    return buyer, session_id


def success_link(visitor, session_id):
    status, _, page = visitor.request("GET", f"/web/onboarding/success?session_id={session_id}")
    found = LINK.search(page)
    assert status == 200 and found, page[-400:]
    return found.group(1)


def redeem(shop, token):
    app = Account(shop, unique("app"))
    status, _, answer = app.call("POST", "/v1/redemptions", {"token": token, "profile_id": app.id})
    assert status == 200, answer
    return answer["result"], answer["profile"]


def test_the_link_the_buyer_saved_still_redeems_after_the_page_was_loaded_again(shop):
    buyer, session_id = bought(shop)
    saved = success_link(buyer, session_id)
    for _ in range(3):
        assert success_link(buyer, session_id) == saved, "a reload gave another link"
    result, profile = redeem(shop, saved)
    assert result == "redeemed" and "premium" in profile["access_levels"], (result, profile)
    status, _, page = buyer.request("GET", f"/web/onboarding/success?session_id={session_id}")
    assert status == 200 and "already opened in the app" in page and not LINK.search(page)


def test_another_browser_gets_no_link_and_cannot_make_the_buyers(shop):
    buyer, session_id = bought(shop)
    stranger = Visitor(shop)
    assert stranger.request("GET", "/web/onboarding")[0] == 200
    status, _, page = stranger.request("GET", f"/web/onboarding/success?session_id={session_id}")
    assert status == 403 and not LINK.search(page)
    # A cookie naming the buyer's profile with another credential is a new visitor, not the buyer.
    forged = Visitor(shop, cookie=f"paywire_visitor={buyer.profile_id}." + "A" * 42 + "Q")
    status, _, page = forged.request("GET", f"/web/onboarding/success?session_id={session_id}")
    assert status == 403 and not LINK.search(page)
    saved = success_link(buyer, session_id)
    assert redeem(shop, saved)[0] == "redeemed"
