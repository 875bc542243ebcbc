import Testing
@testable import PaywireModel
@testable import PaywireWire

/// Times after 2038, amounts of 10^12 minor units and counts past 2^31 go through the model's
/// codecs with their exact values (`WideInt`: 64 bits on every target; `make check-wasm32`
/// compiles the model where `Int` is 32 bits).
@Suite struct WideValueTests {
    /// 2200-01-01T00:00:00.000Z in milliseconds.
    static let year2200: WideInt = 7_258_118_400_000
    /// Past 2^31: what a 32-bit `Int` cannot hold.
    static let beyondInt32: WideInt = 3_000_000_000

    @Test func aGrantDatedIn2200SurvivesTheBackendsProfileJSON() throws {
        var grant = Profile.Grant(vendorProductId: "yearly", activatedAt: Self.year2200, expiresAt: Self.year2200 + 365 * Milliseconds.day)
        grant.verified = true
        grant.renewedAt = Self.year2200 + 1
        var snapshot = RemoteProfile.Snapshot()
        snapshot.accessLevels = [("premium", grant)]
        guard case .object(let object) = snapshot.json(customerUserId: nil, isActive: { _ in nil }) else {
            Issue.record("the profile is not an object")
            return
        }
        let read = try RemoteProfile.parse(profile: object)
        #expect(read.accessLevels.map(\.grant) == [grant])
        #expect(read.accessLevels.first?.grant.activatedAt == 7_258_118_400_000)
        #expect(read.accessLevels.first?.grant.expiresAt == 7_289_654_400_000)
        #expect(read.accessLevels.first?.grant.renewedAt == 7_258_118_400_001)
        #expect(grant.isActive(now: Self.year2200 + 1) && !grant.isActive(now: Self.year2200 + 366 * Milliseconds.day))
    }

    @Test func aRecordCreatedIn2200WithASeqPast2To31KeepsBoth() throws {
        let header = AnalyticsRecord.Header(eventId: RecordContractTests.eventId, profileId: "p-1", customerUserId: nil,
                                            createdAt: Self.year2200, seq: Self.beyondInt32, name: Exposure.recordName)
        let bytes = AnalyticsRecord.encode(header, source: RecordContractTests.source, sdkVersion: "0.1.0") {
            RecordContractTests.exposure().write(to: &$0)
        }
        let read = try AnalyticsRecord.decode(try JSONValue(parsing: bytes))
        #expect(read.header.createdAt == 7_258_118_400_000)
        #expect(read.header.seq == 3_000_000_000)
    }

    @Test func aBatchReportsMoreThan2To31DroppedRecordsExactly() {
        let body = RecordContractTests.encoded(RecordContractTests.exposure())
        guard case .success(let batch) = EventBatch.decode(EventBatch.encode([body], droppedCount: Self.beyondInt32)) else {
            Issue.record("the batch was refused")
            return
        }
        #expect(batch.dropped == 3_000_000_000)
        guard case .failure = EventBatch.decode(EventBatch.encode([body], droppedCount: RecordRules.maxSafeInteger + 1)) else {
            Issue.record("a count past 2^53 - 1 was kept")
            return
        }
    }

    @Test func anAmountOf10To12MinorUnitsIsExact() throws {
        let amount = try #require(DecimalAmount("10000000000.00"))
        #expect(amount.units(atScale: 2) == 1_000_000_000_000)
        #expect(amount.digitTexts(decimals: 2)?.integer == "10000000000")
        #expect(amount.digitTexts(decimals: 2)?.fraction == "00")
        // A year of it, per month: 10^12 / 12 minor units, rounded down.
        let monthly = PeriodPricing.price(amount, every: SubscriptionPeriod(unit: .year, numberOfUnits: 1), per: .month, decimals: 2)
        #expect(monthly?.units(atScale: 2) == 83_333_333_333)
        let cheaper = try #require(DecimalAmount("5000000000.00"))
        #expect(PeriodPricing.discountPercent(cheaper, every: SubscriptionPeriod(unit: .month, numberOfUnits: 1),
                                              against: amount, every: SubscriptionPeriod(unit: .month, numberOfUnits: 1)) == 50)
        #expect(DecimalAmount("99999999999999999999") == nil)
    }
}
