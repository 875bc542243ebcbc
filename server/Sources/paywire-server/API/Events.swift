import PaywireAPI

/// `POST /v1/events`: a batch stored once per record, `{accepted, duplicates}`; a malformed
/// record refuses the whole batch, naming every bad record's event_id.
extension API {
    func postEvents(_ input: Operations.PostEvents.Input) async throws -> Operations.PostEvents.Output {
        switch EventBatch.parse(RawBody.current) {
        case .failure(.request(let message)):
            return .badRequest(.init(body: .json(Self.recordsError("invalid_request", message))))
        case .failure(.records(let message, let ids)):
            return .badRequest(.init(body: .json(Self.recordsError("invalid_record", message, eventIds: ids))))
        case .success(let batch):
            let names = DevTraffic.refusedEventNames
            let refused = batch.records.filter { names.contains($0.name) }
            if !refused.isEmpty {
                return .badRequest(.init(body: .json(Self.recordsError("invalid_record", "fault switch: refuse_events_named \(names)",
                                                                       eventIds: refused.map(\.eventId)))))
            }
            let stored = try await setup.store.storeEvents(batch.records, dropped: batch.dropped)
            ServerMetrics.events(accepted: stored.accepted, duplicates: stored.duplicates)
            return .ok(.init(body: .json(.init(accepted: stored.accepted, duplicates: stored.duplicates))))
        }
    }

    static func recordsError(_ code: String, _ message: String, eventIds: [String]? = nil) -> Components.Schemas.RecordsError {
        .init(error: .init(code: code, message: message, eventIds: eventIds))
    }
}
