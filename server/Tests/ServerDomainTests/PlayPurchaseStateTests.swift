import PaywireWire
@testable import ServerDomain
import Testing

@Suite struct PlayPurchaseStateTests {
    private func json(_ text: String) throws -> JSONValue { try JSONValue(parsing: Array(text.utf8)) }
    private let event = LifecycleEvent(kind: .didRenew, storeType: "SUBSCRIPTION_RENEWED", subtype: nil, at: 1_000)

    @Test func googlesNanosecondsAreCutToMilliseconds() {
        #expect(PlayPurchaseState.rfc3339("2026-12-26T10:00:00.123456789Z") == PlayPurchaseState.rfc3339("2026-12-26T10:00:00.123Z"))
        #expect(PlayPurchaseState.rfc3339("2026-12-26T10:00:00Z") != nil)
        #expect(PlayPurchaseState.rfc3339("2026-12-26T10:00:00.12x4Z") == nil)
    }

    @Test func theLatestLineItemGivesTheExpiryProductAndRenewal() throws {
        let purchase = try json(#"""
        {"subscriptionState":"SUBSCRIPTION_STATE_IN_GRACE_PERIOD","lineItems":[
          {"productId":"monthly","expiryTime":"2026-01-01T00:00:00Z","autoRenewingPlan":{"autoRenewEnabled":false}},
          {"productId":"annual","expiryTime":"2026-06-01T00:00:00.5Z","autoRenewingPlan":{"autoRenewEnabled":true}}]}
        """#)
        let next = try PlayPurchaseState.subscription(event, purchase)
        #expect(next.vendorProductId == "annual")
        #expect(next.willRenew == true)
        #expect(next.expiresAt == PlayPurchaseState.rfc3339("2026-06-01T00:00:00.500Z"))
        #expect(next.gracePeriodExpiresAt == next.expiresAt)
    }

    @Test func aPrepaidPlanDoesNotRenewAndNoLineItemsIsAProblem() throws {
        let prepaid = try PlayPurchaseState.subscription(event, try json(#"{"lineItems":[{"productId":"p","expiryTime":"2026-01-01T00:00:00Z","prepaidPlan":{}}]}"#))
        #expect(prepaid.willRenew == false)
        #expect(throws: PlayAPIProblem.self) { try PlayPurchaseState.subscription(event, try json(#"{"lineItems":[]}"#)) }
    }

    @Test func aCanceledOneTimePurchaseRevokes() throws {
        #expect(try PlayPurchaseState.product(event, try json(#"{"purchaseState":1}"#)).kind == .revoke)
        #expect(try PlayPurchaseState.product(event, try json(#"{"purchaseState":0}"#)).kind == .other)
        #expect(throws: PlayAPIProblem.self) { try PlayPurchaseState.product(event, try json(#"{"purchaseState":7}"#)) }
    }

    @Test func aLinkedTokenNamesTheReplacedPurchaseButNeverItself() throws {
        let link = PlayLink.of(try json(#"{"linkedPurchaseToken":"old","startTime":"2026-02-01T00:00:00Z","testPurchase":{}}"#), token: "new", at: 5)
        #expect(link == PlayLink(replacedToken: "old", startedAt: PlayPurchaseState.rfc3339("2026-02-01T00:00:00Z") ?? -1, environment: .sandbox))
        #expect(PlayLink.of(try json(#"{"linkedPurchaseToken":"same"}"#), token: "same", at: 5) == nil)
        #expect(PlayLink.of(try json(#"{}"#), token: "new", at: 5) == nil)
    }
}
