import PaywireWire

/// One analytics record of `POST /v1/events`, checked, ready to store.
struct EventRecord: Sendable {
    let eventId: String
    let profileId: String
    let name: String
    /// For `paywall_shown`: what experiment results count.
    let placementId: String?
    let abTestName: String?
    let variationId: String?
    /// For `paywall_shown`: the record's created_at (a holdout's purchasers bought at or after
    /// their first exposure), and whether a debug override forced it (results leave it out).
    let shownAt: Int?
    let forced: Bool
    /// The record as compact JSON (numbers and key order as sent).
    let text: String
}

/// Reads a `POST /v1/events` body: `{"records": [1..100 records], "dropped_count"?}`. A
/// malformed record refuses the whole batch, naming every bad record's event_id, so the
/// client can bisect; nothing of a refused batch is stored.
enum EventBatch {
    static let maxRecords = 100
    /// 2^53 - 1: the largest integer every JSON reader holds exactly (the spec's maximum).
    static let maxSafeInteger = 9_007_199_254_740_991

    enum Problem: Error {
        /// The body is not a batch at all (`invalid_request`).
        case request(String)
        /// Some records are malformed (`invalid_record`), with their event ids when they have one.
        case records(String, eventIds: [String])
    }

    static func parse(_ body: [UInt8]) -> Result<(records: [EventRecord], dropped: Int), Problem> {
        guard let document = try? JSONValue(parsing: body), case .object(let batch) = document else {
            return .failure(.request("the body must be a JSON object {\"records\": [...]}"))
        }
        guard let items = batch["records"]?.asArray, (1...maxRecords).contains(items.count) else {
            return .failure(.request("records must be an array of 1...\(maxRecords) records"))
        }
        var dropped = 0
        if let count = batch["dropped_count"] {
            guard let value = count.asInt, (0...maxSafeInteger).contains(value) else { return .failure(.request("dropped_count must be an integer >= 0")) }
            dropped = value
        }
        var records: [EventRecord] = []
        var badIds: [String] = []
        var firstProblem: String?
        for (index, item) in items.enumerated() {
            switch record(item) {
            case .success(let record): records.append(record)
            case .failure(let problem):
                if let id = item["event_id"]?.asString { badIds.append(id) }
                firstProblem = firstProblem ?? "records[\(index)]: \(problem.message)"
            }
        }
        if let firstProblem { return .failure(.records(firstProblem, eventIds: badIds)) }
        return .success((records, dropped))
    }

    struct RecordProblem: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// One record, checked against the contract's required members and types.
    static func record(_ value: JSONValue) -> Result<EventRecord, RecordProblem> {
        guard case .object(let object) = value else { return .failure(RecordProblem("a record must be an object")) }
        func text(_ key: String, optional: Bool = false) throws(RecordProblem) -> String? {
            guard let member = object[key] else {
                if optional { return nil }
                throw RecordProblem("\(key) is required")
            }
            guard let string = member.asString, !string.isEmpty else { throw RecordProblem("\(key) must be a non-empty string") }
            return string
        }
        do throws(RecordProblem) {
            guard let eventId = try text("event_id"), isUUID(eventId) else { throw RecordProblem("event_id must be a UUID") }
            guard let name = try text("name"), isSnakeCase(name) else { throw RecordProblem("name must be snake_case") }
            guard let profileId = try text("profile_id") else { throw RecordProblem("profile_id is required") }
            _ = try text("install_id")
            _ = try text("session_id")
            _ = try text("customer_user_id", optional: true)
            guard let createdAt = object["created_at"]?.asInt, (0...maxSafeInteger).contains(createdAt) else { throw RecordProblem("created_at must be an integer >= 0 (ms)") }
            guard let seq = object["seq"]?.asInt, (1...maxSafeInteger).contains(seq) else { throw RecordProblem("seq must be an integer >= 1") }
            guard let params = object["params"], params.isObject else { throw RecordProblem("params must be an object") }
            guard let app = object["app"], app.isObject else { throw RecordProblem("app must be an object") }
            guard let sdk = object["sdk"], sdk.isObject, sdk["version"]?.asString != nil else {
                throw RecordProblem("sdk must be an object with a version string")
            }
            if let wrapper = sdk["wrapper"], !wrapper.isObject { throw RecordProblem("sdk.wrapper must be an object") }
            for (path, member) in [("app.platform", app["platform"]), ("app.app_version", app["app_version"]),
                                   ("sdk.wrapper.name", sdk["wrapper"]?["name"]), ("sdk.wrapper.version", sdk["wrapper"]?["version"])]
                where member != nil && member?.asString == nil {
                throw RecordProblem("\(path) must be a string")
            }
            // Sent only when true on paywall_shown; whatever the record, present means a boolean.
            for flag in ["holdout", "forced"] where params[flag] != nil && params[flag]?.asBool == nil {
                throw RecordProblem("params.\(flag) must be a boolean")
            }
            var exposure: (String, String, String)?
            if name == "paywall_shown" { exposure = try shownParams(params) }
            return .success(EventRecord(
                eventId: eventId, profileId: profileId, name: name,
                placementId: exposure?.0, abTestName: exposure?.1, variationId: exposure?.2,
                shownAt: exposure == nil ? nil : createdAt, forced: exposure != nil && params["forced"]?.asBool == true,
                text: String(decoding: value.encoded, as: UTF8.self)))
        } catch {
            return .failure(error)
        }
    }

    /// The params a `paywall_shown` must carry; returns (placement_id, ab_test_name, variation_id).
    /// A holdout's exposure names a paywall only when its variation has one.
    private static func shownParams(_ params: JSONValue) throws(RecordProblem) -> (String, String, String) {
        let holdout = params["holdout"]?.asBool == true
        for key in ["placement_id", "audience_name", "ab_test_name", "variation_id", "paywall_id", "paywall_name"] {
            if holdout, key.hasPrefix("paywall_"), params[key] == nil { continue }
            guard params[key]?.asString != nil else { throw RecordProblem("paywall_shown needs params.\(key) (a string)") }
        }
        guard params["revision"]?.asInt != nil else { throw RecordProblem("paywall_shown needs params.revision (an integer)") }
        return (params["placement_id"]?.asString ?? "", params["ab_test_name"]?.asString ?? "", params["variation_id"]?.asString ?? "")
    }

    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in hex digits.
    static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (48...57).contains(byte) || (97...102).contains(byte) || (65...70).contains(byte) else { return false }
            }
        }
        return true
    }

    /// Lower-case words joined by single underscores (`paywall_shown`).
    static func isSnakeCase(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, (97...122).contains(first), bytes.last != UInt8(ascii: "_") else { return false }
        var previousUnderscore = false
        for byte in bytes {
            let underscore = byte == UInt8(ascii: "_")
            guard underscore || (97...122).contains(byte) || (48...57).contains(byte), !(underscore && previousUnderscore) else { return false }
            previousUnderscore = underscore
        }
        return true
    }
}
