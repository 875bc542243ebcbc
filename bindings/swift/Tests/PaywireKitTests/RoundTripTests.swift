import Foundation
import XCTest

@testable import PaywireKit

/// Every shape the conformance vectors spell out reads into the generated models and writes back
/// to the same JSON (numbers compared by value). Which shapes, and why the others are left out,
/// is tests/conformance/roundtrip_cases.py's choice, shared with the JVM and .NET tests
/// (`make test-swift-kit` writes build/roundtrip-cases.json first). Events a step matches as a
/// subset may leave required members out: those that do not read are skipped; exact ones must
/// read (a seq filled in when the case leaves it out, as the driver does not compare it then).
final class RoundTripTests: XCTestCase {
    private enum Outcome { case params, result, event, partialEventSkipped }

    func testEveryVectorShapeRoundTripsThroughTheGeneratedModels() throws {
        let selection = try JSONValue(parsing: String(contentsOfFile: repositoryFile("build/roundtrip-cases.json"), encoding: .utf8))
        var vectors: [String: [String: JSONValue]] = [:]
        var counts: [Outcome: Int] = [:]
        var failures: [String] = []
        for place in selection["cases"]?.arrayValue ?? [] {
            do {
                let step = try self.step(place, vectors: &vectors)
                counts[try roundTrip(place, step), default: 0] += 1
            } catch {
                failures.append("\(place["case"]?.stringValue ?? "?")#\(place["step"]?.numberValue?.text ?? "?") \(place["kind"]?.stringValue ?? ""): \(error)")
            }
        }
        XCTAssert(failures.isEmpty, "\(failures.count) failed, first: \(failures.first ?? "")")
        print("round trip: \(counts[.params] ?? 0) params, \(counts[.result] ?? 0) results, \(counts[.event] ?? 0) events; "
              + "\(counts[.partialEventSkipped] ?? 0) partial events skipped; left out: \(selection["skipped"] ?? nil)")
        XCTAssertGreaterThan(counts[.params] ?? 0, 500, "the vectors give enough params to check")
        XCTAssertGreaterThan(counts[.result] ?? 0, 100, "the vectors give enough results to check")
        XCTAssertGreaterThan(counts[.event] ?? 0, 80, "the vectors give enough whole events to check")
    }

    private func roundTrip(_ place: JSONValue, _ step: JSONValue) throws -> Outcome {
        let method = place["method"]?.stringValue ?? ""
        switch place["kind"]?.stringValue {
        case "params":
            let params = step["params"] ?? .null
            try same(params, GeneratedRoundTrip.params(method, params))
            return .params
        case "result":
            let result = step["expect"]?["success"] ?? .null
            try same(result, GeneratedRoundTrip.result(method, result))
            return .result
        default:
            let index = place["event"]?.numberValue?.int ?? -1
            let events = step["events"]?.arrayValue ?? []
            guard events.indices.contains(index), case .object(var members) = events[index] else {
                throw JSONShapeError(path: [], message: "no event \(index) in the step")
            }
            let exact = place["exact"]?.boolValue ?? false
            if exact && members["seq"] == nil { members["seq"] = 1 }
            let event: PaywireEvent
            do {
                event = try PaywireEvent(json: .object(members))
            } catch {
                if exact { throw error }
                return .partialEventSkipped
            }
            if case .unknown(let name, _) = event { throw JSONShapeError(path: [], message: "the vectors expect \(name), which the schema lacks") }
            try same(.object(members), event.jsonValue)
            return .event
        }
    }

    private func same(_ expected: JSONValue, _ actual: JSONValue?) throws {
        guard let actual else { throw JSONShapeError(path: [], message: "no model for it") }
        guard actual == expected else {
            throw JSONShapeError(path: [], message: "wrote \(actual.jsonText.prefix(400)) for \(expected.jsonText.prefix(400))")
        }
    }

    private func step(_ place: JSONValue, vectors: inout [String: [String: JSONValue]]) throws -> JSONValue {
        let file = place["file"]?.stringValue ?? ""
        if vectors[file] == nil {
            let text = try String(contentsOfFile: repositoryFile("tests/conformance/vectors/\(file)"), encoding: .utf8)
            var cases: [String: JSONValue] = [:]
            for entry in try JSONValue(parsing: text)["cases"]?.arrayValue ?? [] {
                if let id = entry["id"]?.stringValue { cases[id] = entry }
            }
            vectors[file] = cases
        }
        let steps = vectors[file]?[place["case"]?.stringValue ?? ""]?["steps"]?.arrayValue ?? []
        let index = place["step"]?.numberValue?.int ?? -1
        guard steps.indices.contains(index) else { throw JSONShapeError(path: [], message: "no such step") }
        return steps[index]
    }
}
