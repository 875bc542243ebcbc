@testable import ServerDomain
import Testing
@testable import paywire_server

@Suite struct RedemptionTests {
    @Test func aNewTokenIs43CharactersOfBase64URLWhoseDigestIsWhatIsKept() {
        let (token, digest) = Redemption.newToken(SystemRandom())
        #expect(token.utf8.count == 43)
        #expect(Redemption.digest(ofToken: token) == digest)
        #expect(digest.utf8.count == 64)
        #expect(Redemption.newToken(SystemRandom()).token != token)
    }

    @Test(arguments: ["", "short", String(repeating: "A", count: 44), String(repeating: "+", count: 43), String(repeating: "A", count: 42) + "="])
    func aTokenThatIsNot32BytesOfBase64URLHasNoDigest(token: String) {
        #expect(Redemption.digest(ofToken: token) == nil)
    }

    @Test func theLinkAddsTheTokenToTheBasesQuery() {
        #expect(Redemption.link(base: "paywire://redeem", token: "abc") == "paywire://redeem?token=abc")
        #expect(Redemption.link(base: "https://x.test/r?src=mail", token: "abc") == "https://x.test/r?src=mail&token=abc")
    }

    @Test func aLinkRedeemsOnceForOneProfileBeforeItsTime() {
        let open = Redemption.Held(checkoutSessionId: "cs_1", holder: "web_purchase:cs_1", expiresAt: 1000, redeemedBy: nil)
        #expect(Redemption.decide(open, profileId: "p", now: 999) == .redeemed)
        #expect(Redemption.decide(open, profileId: "p", now: 1000) == .expired)
        #expect(Redemption.decide(nil, profileId: "p", now: 0) == .invalid)
        let used = Redemption.Held(checkoutSessionId: "cs_1", holder: "p", expiresAt: 1000, redeemedBy: "p")
        #expect(Redemption.decide(used, profileId: "p", now: 5000) == .alreadyRedeemed)
        #expect(Redemption.decide(used, profileId: "q", now: 10) == .belongsToAnotherProfile)
    }

    @Test func theBuyersLinkIsOneTokenPerCookieAndCheckout() {
        let credential = Redemption.newToken(SystemRandom()).token, other = Redemption.newToken(SystemRandom()).token
        let (token, digest) = Redemption.buyersToken(credential: credential, checkoutSessionId: "cs_1")
        #expect(Redemption.digest(ofToken: token) == digest, "a token the redemption route takes")
        #expect(Redemption.buyersToken(credential: credential, checkoutSessionId: "cs_1").token == token, "the same on every load")
        #expect(Redemption.buyersToken(credential: credential, checkoutSessionId: "cs_2").token != token)
        #expect(Redemption.buyersToken(credential: other, checkoutSessionId: "cs_1").token != token)
    }

    @Test func aGivenLinkIsShownAgainWhileItRedeemsAndGivenAgainOtherwise() {
        let given = WebCheckoutState(holder: "web-1", redeemable: true, redeemedBy: nil, tokenDigest: "d1", tokenExpiresAt: 1000)
        #expect(Redemption.stillGiven(given, digest: "d1", now: 999) == 1000)
        #expect(Redemption.stillGiven(given, digest: "d1", now: 1000) == nil, "expired: given again")
        #expect(Redemption.stillGiven(given, digest: "d2", now: 10) == nil, "an operator gave another since")
        #expect(Redemption.stillGiven(WebCheckoutState(holder: "web-1", redeemable: true, redeemedBy: nil), digest: "d1", now: 10) == nil)
    }
}
