import Testing
@testable import PaywireWire

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

    /// Skipping reads strings a word at a time: put each kind of byte that needs attention at
    /// every offset of a word and check skipping agrees with parsing, to the byte.
    @Test(arguments: [Array(#"\""#.utf8), Array(#"\u00e9"#.utf8), Array("é".utf8), [UInt8(0x01)], [UInt8(0x1F)], [UInt8(0x7F)]])
    func skippingAStringAgreesWithParsingItWhereverTheSpecialByteFalls(_ special: [UInt8]) {
        for prefix in 0..<20 {
            let text = [UInt8(ascii: "\"")] + Array(repeating: UInt8(ascii: "a"), count: prefix) + special
                + Array(repeating: UInt8(ascii: "b"), count: 11) + [UInt8(ascii: "\"")]
            let parsed = Result { () throws(JSONParseError) in try JSONParser.parse(text) }
            let skipped: Result<Range<Int>, JSONParseError> = text.withUnsafeBufferPointer { buffer in
                var parser = JSONParser(bytes: buffer, limits: .standard)
                return Result { () throws(JSONParseError) in try parser.skipValue() }
            }
            switch (parsed, skipped) {
            case (.success, .success(let range)): #expect(range == 0..<text.count)
            case (.failure(let parseError), .failure(let skipError)): #expect(parseError.offset == skipError.offset)
            default: Issue.record("parse and skip disagree on \(text) (prefix \(prefix)): \(parsed) vs \(skipped)")
            }
        }
    }

    @Test func writerEscapesAndRoundTrips() throws {
        let original = try JSONParser.parse(#"{"k":"q\"\\\n\t\u0001é","n":[1.50,-2e3],"o":{}}"#)
        let encoded = JSONWriter.encode(original)
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"k":"q\"\\\n\t\u0001é","n":[1.50,-2e3],"o":{}}"#)
        #expect(try JSONParser.parse(encoded) == original)
    }
}
