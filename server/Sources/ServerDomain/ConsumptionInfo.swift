import Foundation
import PaywireModel
import PaywireWire

/// The consumption information Apple asks for with a CONSUMPTION_REQUEST (the App Store Server
/// API's ConsumptionRequest: customerConsented, consumptionStatus, platform,
/// sampleContentProvided, deliveryStatus, appAccountToken, accountTenure, playTime,
/// lifetimeDollarsPurchased, lifetimeDollarsRefunded, userStatus, refundPreference), built from
/// what this server knows. Apple takes it only with the customer's consent, so it is
/// `sendable` only when the profile's `consumption_data_consent` is true. Nothing here calls Apple.
package struct ConsumptionInfo: Sendable, Equatable {
    package var customerConsented: Bool
    /// 0 undeclared, 1 not consumed, 2 partially consumed, 3 fully consumed.
    package var consumptionStatus: Int
    /// 1: an Apple platform (the transaction is the App Store's).
    package var platform = 1
    /// A free trial was part of the purchase.
    package var sampleContentProvided: Bool
    /// 0: delivered and working (the server granted it).
    package var deliveryStatus = 0
    /// 0 undeclared, 1 under 3 days, 2 under 10, 3 under 30, 4 under 90, 5 under 180, 6 under 365, 7 more.
    package var accountTenure: Int
    /// 0: undeclared (the server does not see the app in use).
    package var playTime = 0
    /// 0 undeclared, 1 nothing, 2 under $50, 3 under $100, 4 under $500, 5 under $1000, 6 under $2000, 7 more.
    package var lifetimeDollarsPurchased: Int
    package var lifetimeDollarsRefunded: Int
    /// 1: an active account (the server met it and serves it).
    package var userStatus = 1
    /// 0 undeclared, 1 prefer a refund, 2 prefer to decline, 3 no preference (`--app-store-refund-preference`).
    package var refundPreference: Int

    package init(customerConsented: Bool, consumptionStatus: Int, platform: Int = 1, sampleContentProvided: Bool,
                 deliveryStatus: Int = 0, accountTenure: Int, playTime: Int = 0, lifetimeDollarsPurchased: Int,
                 lifetimeDollarsRefunded: Int, userStatus: Int = 1, refundPreference: Int) {
        self.customerConsented = customerConsented
        self.consumptionStatus = consumptionStatus
        self.platform = platform
        self.sampleContentProvided = sampleContentProvided
        self.deliveryStatus = deliveryStatus
        self.accountTenure = accountTenure
        self.playTime = playTime
        self.lifetimeDollarsPurchased = lifetimeDollarsPurchased
        self.lifetimeDollarsRefunded = lifetimeDollarsRefunded
        self.userStatus = userStatus
        self.refundPreference = refundPreference
    }

    /// Apple's member names.
    package var json: JSONValue {
        .object([("customerConsented", .bool(customerConsented)), ("consumptionStatus", .number(JSONNumber(consumptionStatus))),
                 ("platform", .number(JSONNumber(platform))), ("sampleContentProvided", .bool(sampleContentProvided)),
                 ("deliveryStatus", .number(JSONNumber(deliveryStatus))), ("appAccountToken", .string("")), ("accountTenure", .number(JSONNumber(accountTenure))),
                 ("playTime", .number(JSONNumber(playTime))), ("lifetimeDollarsPurchased", .number(JSONNumber(lifetimeDollarsPurchased))),
                 ("lifetimeDollarsRefunded", .number(JSONNumber(lifetimeDollarsRefunded))), ("userStatus", .number(JSONNumber(userStatus))),
                 ("refundPreference", .number(JSONNumber(refundPreference)))])
    }
}

/// The rules that build `ConsumptionInfo`. Pure: the profile's facts in, the answer out.
package enum Consumption {
    package static let refundPreferences = ["undeclared": 0, "grant": 1, "decline": 2, "no_preference": 3]
    private static let day = 24 * 3600 * 1000

    /// What Apple asks about `transactionId` of the profile `facts` describe, at `now`.
    package static func info(_ facts: ProfileFacts, transactionId: String?, originalTransactionId: String, consented: Bool, now: Int,
                     refundPreference: Int) -> ConsumptionInfo {
        let asked = facts.grants.first { $0.transactionId == transactionId }
            ?? facts.grants.last { $0.originalTransactionId == originalTransactionId }
        let firstPurchase = facts.grants.map(\.purchasedAt).min()
        let refunded = facts.grants.filter { owned in facts.lifecycles[owned.originalTransactionId]?.isRefund ?? false }
        return ConsumptionInfo(
            customerConsented: consented, consumptionStatus: asked.map { status($0, now: now) } ?? 0,
            sampleContentProvided: asked?.offerPaymentMode == "free_trial",
            accountTenure: firstPurchase.map { tenure(days: (now - $0) / day) } ?? 0,
            lifetimeDollarsPurchased: dollars(facts.grants), lifetimeDollarsRefunded: dollars(refunded),
            refundPreference: refundPreference)
    }

    /// A subscription's period is consumed as time passes; of other products the server sees nothing.
    package static func status(_ owned: OwnedGrant, now: Int) -> Int {
        guard owned.productType == .autorenewable || owned.productType == .non_renewing, let end = owned.expiresAt else { return 0 }
        if now <= owned.purchasedAt { return 1 }
        return now >= end ? 3 : 2
    }

    package static func tenure(days: Int) -> Int {
        switch days {
        case ..<0: return 0
        case ..<3: return 1
        case ..<10: return 2
        case ..<30: return 3
        case ..<90: return 4
        case ..<180: return 5
        case ..<365: return 6
        default: return 7
        }
    }

    /// Apple's bucket of what `grants` cost in US dollars; undeclared (0) when a price is not in
    /// dollars (the server converts no currency) or unknown.
    package static func dollars(_ grants: [OwnedGrant]) -> Int {
        var total = Decimal(0)
        for owned in grants {
            guard owned.currencyCode == "USD", let text = owned.priceAmount, let amount = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                return 0
            }
            total += amount
        }
        let bounds: [(Decimal, Int)] = [(Decimal(1) / 100, 1), (50, 2), (100, 3), (500, 4), (1000, 5), (2000, 6)]
        return bounds.first { total < $0.0 }?.1 ?? 7
    }
}
