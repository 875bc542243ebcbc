import Foundation
import XCTest

@testable import PaywireKit

final class JSONTests: XCTestCase {
    func testNumbersKeepTheTextTheLibraryWrote() throws {
        let json = try JSONValue(parsing: #"{"amount": 9.990, "big": 123456789012345678901234567890.12, "seq": 17}"#)
        XCTAssertEqual(json["amount"]?.numberValue?.text, "9.990")
        XCTAssertEqual(json["big"]?.numberValue?.text, "123456789012345678901234567890.12")
        XCTAssertEqual(json.jsonText, #"{"amount":9.990,"big":123456789012345678901234567890.12,"seq":17}"#)
        XCTAssertEqual(json["amount"]?.numberValue?.decimal, Decimal(string: "9.99"))
        XCTAssertEqual(json["seq"]?.numberValue?.int, 17)
    }

    func testNumbersCompareByValue() throws {
        XCTAssertEqual(try JSONValue(parsing: "1"), try JSONValue(parsing: "1.0"))
        XCTAssertEqual(try JSONValue(parsing: "[1e2]"), try JSONValue(parsing: "[100]"))
        XCTAssertNotEqual(try JSONValue(parsing: "9.99"), try JSONValue(parsing: "9.991"))
        XCTAssertEqual(Set([try JSONValue(parsing: "1"), try JSONValue(parsing: "1.00")]).count, 1)
    }

    func testInvalidUTF8IsRefusedNotRepaired() {
        let bytes: [UInt8] = Array(#"{"a": ""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        XCTAssertThrowsError(try JSONValue(parsingBytes: bytes))
    }

    func testMalformedTextIsRefused() {
        for text in ["", "{", "[1,]", "01", "1.", "-", "\"\\x\"", "{\"a\":1}x", "nul", "\"\u{01}\"", "[\"\\ud800\"]"] {
            XCTAssertThrowsError(try JSONValue(parsing: text), text)
        }
    }

    func testDepthIsBounded() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        XCTAssertThrowsError(try JSONValue(parsing: deep))
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        XCTAssertNoThrow(try JSONValue(parsing: fine))
    }

    func testStringsRoundTripWithEscapes() throws {
        let text = #"["a\"b\\c\n\t\u0001é😀\ud83d\ude00/"]"#
        let value = try JSONValue(parsing: text)
        XCTAssertEqual(value.arrayValue?.first?.stringValue, "a\"b\\c\n\t\u{01}é😀😀/")
        XCTAssertEqual(try JSONValue(parsing: value.jsonText), value)
    }

    func testCodableThroughFoundationKeepsAmounts() throws {
        let value: JSONValue = ["price": .number(JSONNumber(text: "59.99") ?? 0), "ok": true, "list": [1, "x", nil]]
        let data = try JSONEncoder().encode(value)
        let back = try JSONDecoder().decode(JSONValue.self, from: data)
        XCTAssertEqual(back, value)
    }
}
