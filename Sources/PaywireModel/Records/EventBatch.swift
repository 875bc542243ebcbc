import PaywireWire

/// A `POST /v1/events` body: `{"records": [1...100 records], "dropped_count"?}`. The device
/// splices the bodies it kept, never encoding them again; the backend reads each record with
/// `AnalyticsRecord.decode`. One malformed record refuses the whole batch, naming every bad
/// record's event id, so the device can bisect.
public enum EventBatch {
    public static let maxRecords = 100

    /// One record of a batch as read: the record, and its exact text as sent (stored as is).
    public struct Item: Sendable {
        public let record: AnalyticsRecord
        public let text: String
    }

    /// Why a batch was refused.
    public enum Problem: Error, Sendable {
        /// The body is not a batch at all (`invalid_request`).
        case request(String)
        /// Some records are malformed (`invalid_record`): the first problem, and the event ids
        /// of every bad record that has one.
        case records(String, eventIds: [String])
    }

    /// `{"records":[...],"dropped_count":n}` of records already encoded.
    public static func encode(_ bodies: [[UInt8]], droppedCount: WideInt) -> [UInt8] {
        var body: [UInt8] = Array(#"{"records":["#.utf8)
        body.reserveCapacity(bodies.reduce(64) { $0 + $1.count + 1 })
        for (index, record) in bodies.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: record)
        }
        body.append(contentsOf: "]".utf8)
        if droppedCount > 0 { body.append(contentsOf: ",\"dropped_count\":\(droppedCount)".utf8) }
        body.append(UInt8(ascii: "}"))
        return body
    }

    /// Reads a batch; every record is checked as the device checked it before keeping it.
    public static func decode(_ bytes: [UInt8]) -> Result<(items: [Item], dropped: WideInt), Problem> {
        decode(parsed: try? JSONParser.parse(bytes))
    }

    /// Reads a batch already parsed (nil: it was no JSON).
    public static func decode(parsed: JSONValue?) -> Result<(items: [Item], dropped: WideInt), Problem> {
        guard case .object(let batch)? = parsed else {
            return .failure(.request("the body must be a JSON object {\"records\": [...]}"))
        }
        guard case .array(let values)? = batch["records"], (1...maxRecords).contains(values.count) else {
            return .failure(.request("records must be an array of 1...\(maxRecords) records"))
        }
        var dropped: WideInt = 0
        if let count = batch["dropped_count"] {
            guard case .number(let number) = count, let value = number.wideValue, (0...RecordRules.maxSafeInteger).contains(value) else {
                return .failure(.request("dropped_count must be a whole number >= 0"))
            }
            dropped = value
        }
        var items: [Item] = []
        var badIds: [String] = []
        var firstProblem: String?
        for (index, value) in values.enumerated() {
            do throws(WireError) {
                items.append(Item(record: try AnalyticsRecord.decode(value), text: String(decoding: JSONWriter.encode(value), as: UTF8.self)))
            } catch {
                if case .object(let object) = value, case .string(let id)? = object["event_id"] { badIds.append(id) }
                firstProblem = firstProblem ?? "records[\(index)].\(error.message)"
            }
        }
        if let firstProblem { return .failure(.records(firstProblem, eventIds: badIds)) }
        return .success((items, dropped))
    }
}
