import Testing
@testable import PaywireWire

@Suite struct TextPositionTests {
    @Test func linesAndColumnsCountFromOneAndColumnsCountCharacters() {
        let text = Array("ab\ncé\nxyz".utf8)
        #expect(TextPosition(of: 0, in: text) == TextPosition(line: 1, column: 1))
        #expect(TextPosition(of: 3, in: text) == TextPosition(line: 2, column: 1))
        // "é" is two bytes and one column: the newline after it is column 3.
        #expect(TextPosition(of: 6, in: text) == TextPosition(line: 2, column: 3))
        #expect(TextPosition(of: 9, in: text) == TextPosition(line: 3, column: 3))
        #expect(TextPosition(of: 100, in: text) == TextPosition(line: 3, column: 4))
    }

    @Test func aLocatedErrorStartsWithFileLineAndColumnAndKeepsItsDetails() {
        let error = WireError(.invalidFallback, "bad", details: JSONObject([("field", .string("f"))]))
        let located = error.located(file: "b.json", at: TextPosition(line: 3, column: 7))
        #expect(located.message == "b.json:3:7: bad")
        #expect(located.details["field"] == .string("f"))
        #expect(located.details["line"] == .number(JSONNumber(3)))
        #expect(error.located(file: nil, at: nil) == error)
    }
}
