import PaywireModel
import PaywireWire
import ServerDomain

/// `POST /v1/events`: a batch read by the model's reader (`EventBatch`), the rule the device
/// checked each record with before keeping it; each record stored once, `{accepted,
/// duplicates}`. A malformed record refuses the whole batch, naming every bad record's event_id.
extension API {
    func postEvents(parsed: JSONValue?) async throws -> Answer {
        switch EventBatch.decode(parsed: parsed) {
        case .failure(.request(let message)):
            return .json(.badRequest, Self.recordsError("invalid_request", message))
        case .failure(.records(let message, let ids)):
            return .json(.badRequest, Self.recordsError("invalid_record", message, eventIds: ids))
        case .success(let batch):
            let stored = try await setup.store.storeEvents(batch.items.map(EventRecord.init), dropped: batch.dropped)
            ServerMetrics.events(accepted: stored.accepted, duplicates: stored.duplicates)
            return .json(.ok, .object([("accepted", .int(stored.accepted)), ("duplicates", .int(stored.duplicates))]))
        }
    }

    /// `RecordsError`: the code, a message, and with `invalid_record` the bad records' ids.
    static func recordsError(_ code: String, _ message: String, eventIds: [String]? = nil) -> [UInt8] {
        ErrorBody.bytes(code: code, message: message, extra: eventIds.map { [("event_ids", .strings($0))] } ?? [])
    }
}
