import Foundation
import PaywireModel
import PaywireWire

/// One variation's numbers in `GET /v1/experiments/{placement_id}/results`.
package struct VariationResult: Sendable {
    package let variationId: String
    package let weight: Int
    /// A holdout: its profiles were shown nothing, so its conversion is the baseline.
    package let holdout: Bool
    /// Unique profiles with a `paywall_shown` of this placement, test and variation that no
    /// debug override forced.
    package let exposed: Int
    /// Unique profiles among them with a verified purchase attributed to this variation; for a
    /// holdout, with a verified purchase made at or after their first exposure, wherever.
    package let purchasers: Int
    /// Purchasers of whom a store notification reported a purchase refunded.
    package let refunds: Int
    /// The purchases counted here, by where they were made: a store (or the test store), the web.
    package var storePurchases = 0
    package var webPurchases = 0
    /// Of those, the ones whose access has moved to another profile since (still counted here).
    package var transferred = 0
    /// Of the purchases counted here, those made as tests (a store's sandbox, the test store).
    package var testPurchases = 0
    /// Of `exposed`, the profiles none of whose exposures named the placement's revision (a
    /// paywall from a vendor file): counted, and shown apart.
    package var exposedUnversioned = 0
    /// Purchasers whose subscription bought here grants access now (a grace period counts).
    package let activeSubscribers: Int
    package let rate: Double
    package let low: Double
    package let high: Double
    /// Exact decimal strings by currency (sorted by currency code).
    package let revenue: [(currency: String, amount: String)]
    package let revenuePerExposed: [(currency: String, amount: String)]
    /// The cell counted apart by where its profiles were shown the paywall.
    package var app = PlatformResult.none
    package var web = PlatformResult.none
}

/// One side of a cell: its profiles shown the paywall there, and their purchasers.
package struct PlatformResult: Sendable, Equatable {
    package let exposed: Int
    package let purchasers: Int

    package static let none = PlatformResult(exposed: 0, purchasers: 0)

    package func write(to writer: inout JSONWriter) {
        let interval = Statistics.wilson(successes: purchasers, trials: exposed)
        writer.object { writer in
            writer.member("exposed", exposed)
            writer.member("purchasers", purchasers)
            writer.key("conversion")
            writer.object { writer in
                writer.member("rate", .double(exposed == 0 ? 0 : Double(purchasers) / Double(exposed)))
                writer.member("low", .double(interval.low))
                writer.member("high", .double(interval.high))
            }
        }
    }
}

package struct ExperimentResult: Sendable {
    package let abTestName: String
    package let variations: [VariationResult]
    /// Profiles whose only exposures in this test were forced by a debug override.
    package let forcedExposures: Int
    package let chiSquare: Double
    package let degreesOfFreedom: Int
    package let pValue: Double
    /// Sample-ratio mismatch: p < 0.001, or exposures of a variation weighted 0.
    package let mismatch: Bool
}

package struct PlacementResults: Sendable {
    package let placementId: String
    package let generatedAt: Int
    package let experiments: [ExperimentResult]

    /// As the spec's `ExperimentResults`, written once.
    package var document: [UInt8] {
        var writer = JSONWriter(reservingCapacity: 1024)
        writer.object { writer in
            writer.member("placement_id", placementId)
            writer.member("generated_at", generatedAt)
            writer.key("experiments")
            writer.array { writer in for experiment in experiments { experiment.write(to: &writer) } }
        }
        return writer.bytes
    }
}

extension ExperimentResult {
    package func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("ab_test_name", abTestName)
            writer.key("variations")
            writer.array { writer in for variation in variations { variation.write(to: &writer) } }
            writer.member("forced_exposures", forcedExposures)
            writer.key("sample_ratio")
            writer.object { writer in
                writer.member("chi_square", .double(chiSquare))
                writer.member("degrees_of_freedom", degreesOfFreedom)
                writer.member("p_value", .double(pValue))
                writer.member("mismatch", mismatch)
            }
        }
    }
}

extension VariationResult {
    package func write(to writer: inout JSONWriter) {
        func money(_ key: String, _ list: [(currency: String, amount: String)], to writer: inout JSONWriter) {
            writer.key(key)
            writer.array { writer in
                for item in list {
                    writer.object { writer in
                        writer.member("currency_code", item.currency)
                        writer.member("amount", item.amount)
                    }
                }
            }
        }
        writer.object { writer in
            writer.member("variation_id", variationId)
            writer.member("weight", weight)
            writer.member("holdout", holdout)
            writer.member("exposed", exposed)
            writer.member("exposed_unversioned", exposedUnversioned)
            writer.member("purchasers", purchasers)
            writer.member("refunds", refunds)
            writer.member("store_purchases", storePurchases)
            writer.member("web_purchases", webPurchases)
            writer.member("test_purchases", testPurchases)
            writer.member("transferred", transferred)
            writer.member("active_subscribers", activeSubscribers)
            writer.key("conversion")
            writer.object { writer in
                writer.member("rate", .double(rate))
                writer.member("low", .double(low))
                writer.member("high", .double(high))
            }
            money("revenue", revenue, to: &writer)
            money("revenue_per_exposed", revenuePerExposed, to: &writer)
            writer.key("platforms")
            writer.object { writer in
                writer.key("app")
                app.write(to: &writer)
                writer.key("web")
                web.write(to: &writer)
            }
        }
    }
}

/// Experiment results, computed from what the store holds.
package enum Results {
    /// Results of a placement's experiments (the bundle's), computed from the stored records
    /// and transactions. Exposures or purchases naming a test or variation the bundle does
    /// not have are left out, and so are exposures a debug override forced.
    package static func compute(placementId: String, experiments: [Experiment], facts: ResultFacts, now: Int) -> PlacementResults {
        // Per cell, each profile exposed without a debug override and the time of its first exposure.
        var exposed: [ExperimentCell: [String: Int]] = [:]
        var versioned: [ExperimentCell: Set<String>] = [:], onWeb: [ExperimentCell: Set<String>] = [:]
        var unforced: [String: Set<String>] = [:], forced: [String: Set<String>] = [:]
        for fact in facts.exposures {
            if fact.forced {
                forced[fact.abTestName, default: []].insert(fact.profileId)
            } else {
                let cell = ExperimentCell(abTestName: fact.abTestName, variationId: fact.variationId)
                exposed[cell, default: [:]][fact.profileId] = fact.firstShownAt
                if !fact.unversioned { versioned[cell, default: []].insert(fact.profileId) }
                if fact.onWeb { onWeb[cell, default: []].insert(fact.profileId) }
                unforced[fact.abTestName, default: []].insert(fact.profileId)
            }
        }
        var results: [ExperimentResult] = []
        for experiment in experiments {
            var variations: [VariationResult] = []
            for (variationId, weight) in experiment.variations {
                let cell = ExperimentCell(abTestName: experiment.abTestName, variationId: variationId)
                let holdout = experiment.holdoutVariationIds.contains(variationId)
                let profiles = exposed[cell] ?? [:]
                // A holdout shows no paywall to attribute a purchase to: its profiles' purchases
                // count wherever they were made, from their first exposure on.
                let cellSales = holdout
                    ? (facts.holdoutSales[cell] ?? []).filter { sale in profiles[sale.purchaser].map { sale.purchasedAt >= $0 } ?? false }
                    : facts.sales.filter { $0.abTestName == cell.abTestName && $0.variationId == cell.variationId && profiles[$0.purchaser] != nil }
                var variation = Self.variation(variationId, weight: weight, holdout: holdout, exposed: profiles.count, sales: cellSales, now: now)
                variation.exposedUnversioned = profiles.count - (versioned[cell]?.count ?? 0)
                (variation.app, variation.web) = Self.platforms(profiles: Set(profiles.keys), web: onWeb[cell] ?? [], sales: cellSales)
                variations.append(variation)
            }
            let forcedOnly = (forced[experiment.abTestName] ?? []).subtracting(unforced[experiment.abTestName] ?? []).count
            results.append(Self.sampleRatio(experiment.abTestName, variations, forcedExposures: forcedOnly))
        }
        return PlacementResults(placementId: placementId, generatedAt: now, experiments: results)
    }

    /// One row: `exposed` profiles, and the purchases of those of them it counts.
    private static func variation(_ variationId: String, weight: Int, holdout: Bool, exposed: Int, sales: [Sale], now: Int) -> VariationResult {
        let purchasers = Set(sales.map(\.purchaser)).count
        var revenue = MoneyTotals()
        for sale in sales { if let amount = sale.amount, let currency = sale.currency { revenue.add(amount, currency) } }
        let refunds = Set(sales.filter(\.isRefund).map(\.purchaser)).count
        let active = Set(sales.filter { $0.isActiveSubscription(now: now) }.map(\.purchaser)).count
        let interval = Statistics.wilson(successes: purchasers, trials: exposed)
        var result = VariationResult(
            variationId: variationId, weight: weight, holdout: holdout, exposed: exposed, purchasers: purchasers,
            refunds: refunds, storePurchases: sales.count(where: { !$0.isWeb }), webPurchases: sales.count(where: \.isWeb),
            transferred: sales.count(where: \.isTransferred), activeSubscribers: active,
            rate: exposed == 0 ? 0 : Double(purchasers) / Double(exposed), low: interval.low, high: interval.high,
            revenue: revenue.totals, revenuePerExposed: revenue.perUnit(exposed))
        result.testPurchases = sales.count(where: \.isTest)
        return result
    }

    /// A cell's profiles and purchasers split by where they were shown the paywall: the web
    /// (any exposure of theirs there) or an app. The two sides add up to the cell.
    package static func platforms(profiles: Set<String>, web: Set<String>, sales: [Sale]) -> (app: PlatformResult, web: PlatformResult) {
        let purchasers = Set(sales.map(\.purchaser))
        let webProfiles = profiles.intersection(web)
        let webPurchasers = purchasers.intersection(webProfiles).count
        return (PlatformResult(exposed: profiles.count - webProfiles.count, purchasers: purchasers.count - webPurchasers),
                PlatformResult(exposed: webProfiles.count, purchasers: webPurchasers))
    }

    /// The chi-square check of exposures against the weights, over every row (a holdout's
    /// included: it is bucketed like the others). Variations weighted 0 expect no one: they
    /// stay out of the test, and any exposure of theirs is a mismatch by itself.
    private static func sampleRatio(_ name: String, _ variations: [VariationResult], forcedExposures: Int) -> ExperimentResult {
        let weighted = variations.filter { $0.weight > 0 }
        let fit = Statistics.goodnessOfFit(observed: weighted.map(\.exposed), weights: weighted.map(\.weight))
        let strayExposures = variations.contains { $0.weight == 0 && $0.exposed > 0 }
        return ExperimentResult(abTestName: name, variations: variations, forcedExposures: forcedExposures, chiSquare: fit.chiSquare,
                                degreesOfFreedom: fit.degreesOfFreedom, pValue: strayExposures ? 0 : fit.pValue,
                                mismatch: strayExposures || fit.pValue < 0.001)
    }
}

/// A verified purchase, with the cell it is attributed to (none when it was made on no
/// paywall of the placement) and what store notifications said of it since.
package struct Sale: Sendable {
    package let abTestName: String?
    package let variationId: String?
    package let purchaser: String
    package let amount: String?
    package let currency: String?
    package let productType: ProductType
    /// The store's purchase time (ms).
    package let purchasedAt: Int
    package let expiresAt: Int?
    /// Nil when no notification came for its original transaction.
    package let lifecycle: LifecycleState?
    /// Where it was bought (`stripe`: on the web).
    package var store = StoreName.test
    package var environment = StoreEnvironment.production
    /// Who holds its access now (another profile than the purchaser: it moved).
    package var owner = ""

    package init(abTestName: String?, variationId: String?, purchaser: String, amount: String?, currency: String?,
                 productType: ProductType, purchasedAt: Int, expiresAt: Int?, lifecycle: LifecycleState?,
                 store: StoreName = .test, environment: StoreEnvironment = .production, owner: String = "") {
        self.abTestName = abTestName
        self.variationId = variationId
        self.purchaser = purchaser
        self.amount = amount
        self.currency = currency
        self.productType = productType
        self.purchasedAt = purchasedAt
        self.expiresAt = expiresAt
        self.lifecycle = lifecycle
        self.store = store
        self.environment = environment
        self.owner = owner
    }

    package var isRefund: Bool { lifecycle?.isRefund ?? false }
    package var isWeb: Bool { store == .stripe }
    /// Bought as a test: a sandbox purchase of a store, or the test store's.
    package var isTest: Bool { environment.isSandbox || store == .test }
    /// Its access moved to another profile (a restore, an identity, a redemption) since.
    package var isTransferred: Bool { !owner.isEmpty && !Identity.same(owner, purchaser) }

    /// Access now, by the rule the profile's grants follow (the model's `GrantStanding`).
    package func isActiveSubscription(now: Int) -> Bool {
        guard productType.hasPeriod else { return false }
        return (lifecycle?.standing ?? GrantStanding(expiresAt: expiresAt)).isActive(now: now)
    }
}

/// Sums of exact decimal amounts by currency (Foundation's `Decimal`: base 10, 38 digits, so
/// sums of prices are exact), written with as many decimals as the most precise amount.
package struct MoneyTotals {
    private var sums: [String: (total: Decimal, scale: Int)] = [:]

    package mutating func add(_ amount: String, _ currency: String) {
        guard let value = Decimal(string: amount, locale: Locale(identifier: "en_US_POSIX")) else { return }
        let scale = amount.contains("e") || amount.contains("E") ? max(0, -Int(value.exponent)) : amount.split(separator: ".").dropFirst().first?.count ?? 0
        let current = sums[currency] ?? (0, 0)
        sums[currency] = (current.total + value, max(current.scale, scale))
    }

    package var totals: [(currency: String, amount: String)] {
        sums.keys.sorted().compactMap { currency in sums[currency].map { (currency, Self.text($0.total, scale: $0.scale)) } }
    }

    /// Each total divided by `count`, rounded half-even to 4 decimals; none when count is 0.
    package func perUnit(_ count: Int) -> [(currency: String, amount: String)] {
        guard count > 0 else { return [] }
        return sums.keys.sorted().compactMap { currency in
            sums[currency].map { (currency, Self.text($0.total / Decimal(count), scale: 4)) }
        }
    }

    /// `value` rounded half-even to `scale` decimals, written with exactly that many.
    package static func text(_ value: Decimal, scale: Int) -> String {
        var source = value, rounded = Decimal()
        NSDecimalRound(&rounded, &source, scale, .bankers)
        let plain = rounded.description
        let parts = plain.split(separator: ".", maxSplits: 1)
        let whole = parts.first.map(String.init) ?? "0"
        guard scale > 0 else { return whole }
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        return whole + "." + fraction + String(repeating: "0", count: max(0, scale - fraction.count))
    }
}
