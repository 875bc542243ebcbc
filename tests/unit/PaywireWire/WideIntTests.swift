import Testing
@testable import PaywireWire

/// Times, amounts, counts and sizes are `WideInt`: 64 bits whatever `Int`'s width. These run on
/// 64-bit hosts; `make check-wasm32` compiles the same code where `Int` is 32 bits.
@Suite struct WideIntTests {
    /// 2200-01-01T00:00:00.000Z: past 2038 (2^31 seconds) and past 2^31 milliseconds by far.
    static let year2200: WideInt = 7_258_118_400_000

    @Test func aTimeIn2200ReadsAndWritesExactly() {
        #expect(ISODate.parse("2200-01-01T00:00:00.000Z") == Self.year2200)
        #expect(ISODate.format(milliseconds: Self.year2200) == "2200-01-01T00:00:00.000Z")
        #expect(ISODate.format(milliseconds: Self.year2200 + 1) == "2200-01-01T00:00:00.001Z")
        #expect(ISODate.parse("9999-12-31T23:59:59.999Z").map { ISODate.format(milliseconds: $0) } == "9999-12-31T23:59:59.999Z")
    }

    @Test func aNumberPast2To31IsReadWholeAsAWideInt() throws {
        let fiveGiB: WideInt = 5 << 30
        let fields = Fields(try JSONValue(parsing: Array(#"{"bytes":5368709120,"at":7258118400000,"written":5.36870912e9}"#.utf8))
                                .objectValue())
        #expect(try fields.wide("bytes") == fiveGiB)
        #expect(try fields.wide("at") == Self.year2200)
        #expect(try fields.wide("written") == fiveGiB)
        #expect(JSONNumber(fiveGiB).text == "5368709120")
        var writer = JSONWriter()
        writer.object { $0.member("bytes", fiveGiB) }
        #expect(writer.string == #"{"bytes":5368709120}"#)
    }

    @Test func aNumberNoIntegerHoldsIsRefusedNotTrapped() throws {
        for text in ["9223372036854775808", "-9223372036854775809", "1e300", "2.5", "9.1e15"] {
            #expect(JSONNumber(validatedText: text).int64Value == nil, "\(text)")
            #expect(JSONNumber(validatedText: text).intValue == nil, "\(text)")
        }
        #expect(JSONNumber(validatedText: "9223372036854775807").int64Value == Int64.max)
        let fields = Fields(try JSONValue(parsing: Array(#"{"at":1e300}"#.utf8)).objectValue())
        #expect(throws: WireError.self) { try fields.wide("at") }
        #expect(throws: WireError.self) { try fields.wide("missing") }
        #expect(throws: WireError.self) {
            try Fields(try JSONValue(parsing: Array(#"{"at":-1}"#.utf8)).objectValue()).wide("at", in: 0...WideInt.max)
        }
    }

    @Test func arithmeticOnInputHoldsAtTheBoundsInsteadOfTrapping() {
        #expect(WideInt.max.clampedAdding(1) == .max)
        #expect(WideInt.min.clampedAdding(-1) == .min)
        #expect(WideInt.min.clampedSubtracting(1) == .min)
        #expect(WideInt.max.clampedSubtracting(-1) == .max)
        #expect(WideInt.max.clampedMultiplied(by: 2) == .max)
        #expect(WideInt.max.clampedMultiplied(by: -2) == .min)
        #expect(Self.year2200.clampedAdding(Milliseconds.day) == Self.year2200 + 86_400_000)
        #expect(ISODate.adding(months: .max, to: Self.year2200) == .max)
        #expect(ISODate.adding(months: .min, to: Self.year2200) == .min)
        #expect(ISODate.adding(months: 1, to: ISODate.parse("2200-01-31T00:00:00.000Z") ?? 0)
                == ISODate.parse("2200-02-28T00:00:00.000Z"))
        #expect(!ISODate.format(milliseconds: .max).isEmpty)
        #expect(!ISODate.format(milliseconds: .min).isEmpty)
    }

    @Test func secondsBecomeMillisecondsWithoutTrapping() {
        #expect(Milliseconds.of(seconds: 1.5) == 1500)
        #expect(Milliseconds.of(seconds: 1e300) == .max)
        #expect(Milliseconds.of(seconds: -3) == 0)
        #expect(Milliseconds.of(seconds: .nan) == 0)
    }
}

private extension JSONValue {
    func objectValue() throws -> JSONObject {
        guard case .object(let object) = self else { throw WireError.wrongParam("", "expected an object") }
        return object
    }
}
