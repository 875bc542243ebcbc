import Testing
@testable import PaywireCore

@Suite struct JSONParserTests {
    @Test func parsesEveryValueKindAndKeepsKeyOrder() throws {
        let value = try JSONParser.parse(#"{"z":1,"a":[true,false,null],"m":"x"}"#)
        guard case .object(let object) = value else { Issue.record("not an object"); return }
        #expect(object.keys == ["z", "a", "m"])
        #expect(object["a"] == .array([.bool(true), .bool(false), .null]))
        #expect(object["m"] == .string("x"))
    }

    @Test func keepsNumberTextExactly() throws {
        for text in ["59.99", "0", "-0", "1e999", "0.1e-5", "12345678901234567890"] {
            #expect(try JSONParser.parse(text) == .number(JSONNumber(validatedText: text)))
        }
    }

    @Test func numberConversionsRefuseWhatDoesNotFit() {
        #expect(JSONNumber(validatedText: "1e999").doubleValue == nil)
        #expect(JSONNumber(validatedText: "3.0").intValue == 3)
        #expect(JSONNumber(validatedText: "3.5").intValue == nil)
        #expect(JSONNumber(validatedText: "1e300").intValue == nil)
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try JSONParser.parse(#""a\n\"\\\/\u00e9\ud83d\ude00""#) == .string("a\n\"\\/é😀"))
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "+1", "\"\\ud800\"", "\"\\udc00\"", "\"a\u{01}\"",
        "{\"a\" 1}", "[1 2]", "nul", "tru", "{} x", "'a'", "\"\\q\"",
    ])
    func refusesMalformedInput(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
    }

    @Test func refusesNestingDeeperThanTheLimit() {
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deep) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect((try? JSONParser.parse(fine)) != nil)
    }

    @Test func refusesInputOverTheSizeLimit() {
        #expect(throws: JSONParseError.self) {
            try JSONParser.parse(Array("[1,2,3]".utf8), limits: JSONLimits(maxDepth: 8, maxBytes: 4))
        }
    }

    @Test func skipValueReturnsTheRangeOfEachValue() throws {
        let bytes = Array(#"{"a": {"b": [1, "x"]}, "c": 2}"#.utf8)
        var ranges: [String: String] = [:]
        try bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, limits: .standard)
            try parser.scanObject { key, parser throws(JSONParseError) in
                let range = try parser.skipValue()
                ranges[key] = String(decoding: bytes[range], as: UTF8.self)
            }
        }
        #expect(ranges == ["a": #"{"b": [1, "x"]}"#, "c": "2"])
    }

    @Test func writerEscapesAndRoundTrips() throws {
        let original = try JSONParser.parse(#"{"k":"q\"\\\n\t\u0001é","n":[1.50,-2e3],"o":{}}"#)
        let encoded = JSONWriter.encode(original)
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"k":"q\"\\\n\t\u0001é","n":[1.50,-2e3],"o":{}}"#)
        #expect(try JSONParser.parse(encoded) == original)
    }
}
