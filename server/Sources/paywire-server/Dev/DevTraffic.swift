import Hummingbird
import NIOCore
import PaywireModel

/// With `--dev`: counts the API's requests (`/_dev/stats`) and applies the fault switches in
/// force to those the faults cover, as a network or a proxy would fail: a request closed before
/// it is handled, latency, a wrong answer instead of the resource, an answer lost after the
/// work was committed, a batch of events refused for the names it holds. Only routes the API
/// has are counted (404 and 405 are not). This middleware exists only with `--dev`: no
/// production handler reads a fault.
struct DevTraffic: RouterMiddleware {
    typealias Context = ServerContext
    let state: DevState
    /// The most a body it reads may take (`--max-body-bytes`).
    let maxBodyBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard path.hasPrefix("/v1/"), context.endpointPath != nil else { return try await next(request, context) }
        await state.arrived(path)
        do {
            let response = try await faulted(request, context: context, next: next)
            await state.answered(String(response.status.code))
            return response
        } catch {
            await state.answered(error is CloseWithoutResponse ? "no_response" : "500")
            throw error
        }
    }

    private func faulted(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let faults = await state.faults
        guard faults.applies(to: request.uri.path) else { return try await next(request, context) }
        if await state.roll(faults.dropRate) { try await close(context) }
        if faults.latencyMilliseconds > 0 { try await Task.sleep(for: .milliseconds(faults.latencyMilliseconds)) }
        if let failure = Self.answer(faults) { return failure }
        var request = request
        if !faults.refuseEventsNamed.isEmpty, request.method == .post, request.uri.path == "/v1/events" {
            // Read once, then handed on: the route reads the collected bytes.
            let body = Array(try await request.collectBody(upTo: maxBodyBytes).readableBytesView)
            if let refused = Self.refusal(body, names: faults.refuseEventsNamed) { return refused }
        }
        let response = try await next(request, context)
        if await state.roll(faults.loseResponseRate) { try await close(context) }
        return response
    }

    /// `refuse_events_named`: a batch holding a record of one of `names` is refused as a
    /// malformed one would be (`400 invalid_record` naming those records' event ids), so a
    /// client's bisection can be watched.
    static func refusal(_ body: [UInt8], names: [String]) -> Response? {
        guard case .success(let batch) = EventBatch.decode(body) else { return nil }
        let ids = batch.items.filter { names.contains($0.record.header.name) }.map(\.record.header.eventId)
        guard !ids.isEmpty else { return nil }
        return Answer.json(.badRequest, API.recordsError("invalid_record", "fault switch: refuse_events_named \(names)", eventIds: ids)).response
    }

    /// Closes the connection and ends the request without an answer.
    private func close(_ context: Context) async throws -> Never {
        try? await context.channel.close()
        throw CloseWithoutResponse()
    }

    /// The answer a failure fault gives instead of the resource, if one is switched on.
    static func answer(_ faults: Faults) -> Response? {
        switch faults.failure {
        case .status?:
            let retry: HTTPFields = faults.retryAfterSeconds.map { [.retryAfter: String($0)] } ?? [:]
            return ErrorBody.response(.init(code: faults.status), code: "fault", "fault switch: status \(faults.status)", headers: retry)
        case .notModified?:
            return Response(status: .notModified)
        case .malformed?:
            return Response(status: .ok, headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(string: "{\"response_created_at\": 17")))
        case .drop?:
            // Announces a body it never sends: the head goes out, then the connection closes.
            return Response(status: .ok, headers: [.contentType: "application/json"],
                            body: ResponseBody(contentLength: 4096) { _ in throw CloseWithoutResponse() })
        case nil:
            return nil
        }
    }
}
