import Foundation
import HTTPTypes
import OpenAPIRuntime
import PaywireAPI

/// `POST /v1/events`: a batch stored once per record, `{accepted, duplicates}`; a malformed
/// record refuses the whole batch, naming every bad record's event_id. The batch is read once,
/// by the core's parser, from the body's exact bytes (records are stored as sent).
extension API {
    func postEvents(_ input: Operations.PostEvents.Input) async throws -> Operations.PostEvents.Output {
        try await postEvents(body: RawBody.current)
    }

    func postEvents(body: [UInt8]) async throws -> Operations.PostEvents.Output {
        switch EventBatch.parse(body) {
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

/// `POST /v1/events` answered before the generated server decodes the batch: the operation
/// reads its records with the core's parser anyway (their exact text is what is stored), and
/// the decoder's own pass over a batch of 100 records cost as much as that whole reading
/// (`make bench` (f)). The answer is the operation's own typed output, encoded as the generated
/// server encodes it. Runs after `RawBody.Middleware`, which holds the bytes.
struct EventIntake: ServerMiddleware {
    let api: API

    func intercept(_ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
                   next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?))
        async throws -> (HTTPResponse, HTTPBody?) {
        guard operationID == Operations.PostEvents.id else { return try await next(request, body, metadata) }
        switch try await api.postEvents(body: RawBody.current) {
        case .ok(let ok): return try Self.json(.ok, ok.body.json)
        case .badRequest(let refused): return try Self.json(.badRequest, refused.body.json)
        case let other: throw UnexpectedOutput(output: "\(other)")
        }
    }

    static func json(_ status: HTTPResponse.Status, _ value: some Encodable) throws -> (HTTPResponse, HTTPBody?) {
        let bytes = try WireJSON.encoder().encode(value)
        return (HTTPResponse(status: status, headerFields: [.contentType: "application/json; charset=utf-8",
                                                            .contentLength: String(bytes.count)]), HTTPBody(bytes))
    }

    /// An output `postEvents` never gives (a bug, answered 500 and logged).
    struct UnexpectedOutput: Error {
        let output: String
    }
}
