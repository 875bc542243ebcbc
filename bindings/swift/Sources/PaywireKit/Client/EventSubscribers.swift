/// The `client.events` streams: each subscriber gets every event from when it subscribed, in
/// order, buffered without bound (nothing is dropped; a stream that is not read holds its events
/// until it is read or cancelled). Closing the client finishes every stream.
final class EventSubscribers: Sendable {
    private struct State {
        var next = 0
        var streams: [Int: AsyncStream<PaywireEvent>.Continuation] = [:]
        var finished = false
    }

    private let state = Locked(State())

    func stream() -> AsyncStream<PaywireEvent> {
        AsyncStream(bufferingPolicy: .unbounded) { continuation in
            let id: Int? = state.withLock { state in
                guard !state.finished else { return nil }
                state.next += 1
                state.streams[state.next] = continuation
                return state.next
            }
            guard let id else {
                continuation.finish()
                return
            }
            continuation.onTermination = { [weak self] _ in
                _ = self?.state.withLock { $0.streams.removeValue(forKey: id) }
            }
        }
    }

    func yield(_ event: PaywireEvent) {
        let streams = state.withLock { Array($0.streams.values) }
        for stream in streams { stream.yield(event) }
    }

    func finish() {
        let streams = state.withLock { state in
            state.finished = true
            defer { state.streams = [:] }
            return Array(state.streams.values)
        }
        for stream in streams { stream.finish() }
    }
}
