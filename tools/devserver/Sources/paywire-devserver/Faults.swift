import Foundation

/// What the server does wrong on purpose, switched at start (flags) or at run time
/// (`POST /_dev/faults`). At most one way of failing at a time; latency adds to any of them.
struct Faults: Sendable, Equatable {
    enum Failure: String, Sendable, Equatable {
        /// Answer every API request with `status` (500 unless given).
        case status
        /// Answer 304 whatever the request's If-None-Match says.
        case notModified = "not_modified"
        /// Answer 200 with a body that is not JSON.
        case malformed
        /// Close the connection before the response is complete.
        case drop
    }

    var latencyMilliseconds = 0
    var failure: Failure?
    var status = 500

    /// Reads `{"latency_ms"?, "status"?, "not_modified"?, "malformed"?, "drop"?}`; `{}` clears.
    init(json: Data) throws(FaultsError) {
        guard let object = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] else {
            throw FaultsError("the body must be a JSON object")
        }
        let known: Set<String> = ["latency_ms", "status", "not_modified", "malformed", "drop"]
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw FaultsError("unknown fault '\(unknown)'; known: \(known.sorted().joined(separator: ", "))")
        }
        if let latency = object["latency_ms"] {
            guard let value = latency as? Int, value >= 0, value <= 600_000 else { throw FaultsError("latency_ms must be 0...600000") }
            latencyMilliseconds = value
        }
        var failures: [Failure] = []
        if let status = object["status"] {
            guard let value = status as? Int, (400...599).contains(value) else { throw FaultsError("status must be 400...599") }
            self.status = value
            failures.append(.status)
        }
        for failure in [Failure.notModified, .malformed, .drop] {
            guard let flag = object[failure.rawValue] else { continue }
            guard let on = flag as? Bool else { throw FaultsError("\(failure.rawValue) must be true or false") }
            if on { failures.append(failure) }
        }
        guard failures.count <= 1 else { throw FaultsError("choose one of status, not_modified, malformed, drop") }
        failure = failures.first
    }

    init() {}

    var json: [String: Any] {
        var object: [String: Any] = ["latency_ms": latencyMilliseconds]
        switch failure {
        case .status?: object["status"] = status
        case let failure?: object[failure.rawValue] = true
        case nil: break
        }
        return object
    }
}

struct FaultsError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
