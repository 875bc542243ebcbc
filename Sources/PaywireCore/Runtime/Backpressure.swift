import PaywireModel
import PaywireWire

/// Whether the host keeps up with its events, asked where new work enters (a screen's input,
/// a host request) so that work is refused with `busy` at once instead of growing a queue the
/// host does not drain. Answers of async calls have their own bound (`async_call_limit`, at
/// the boundary); `log` events are dropped with a notice instead.
struct Backpressure {
    private let sink: EventSink
    private let eventQueueLimit: Int

    init(sink: EventSink, eventQueueLimit: Int) {
        self.sink = sink
        self.eventQueueLimit = eventQueueLimit
    }

    /// The `busy` error refusing `work`, or nil when the host keeps up.
    func refusal(of work: String) -> WireError? {
        guard sink.isBacklogged else { return nil }
        return WireError(.busy, "\(work) refused: \(eventQueueLimit) events the host must not miss are waiting for it "
                             + "(event_queue_limit); take events (poll, or set a handler) and try again",
                         details: JSONObject([("field", .string("event_queue_limit")),
                                              ("limit", .number(JSONNumber(eventQueueLimit)))]))
    }
}
