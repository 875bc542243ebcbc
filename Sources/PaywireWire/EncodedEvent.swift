/// A queued event's complete JSON as the queue holds it until the host takes it. The boundary
/// holds it as the C string it hands over (made on the emitting thread, so a poll copies nothing);
/// tests hold the bytes. One owner at a time: the queue until the event is taken, then the taker.
public protocol EncodedEvent {
    /// Holds `event` numbered `seq`, as `event.encoded(seq:)`; nil when there is no memory for
    /// it (the queue then counts it dropped, and its `events_overflowed` notice names the seq).
    init?(_ event: Event, seq: UInt64)
    /// Releases what it holds: the queue replaced it, or the queue is emptied with it untaken.
    func discard()
}

extension Array: EncodedEvent where Element == UInt8 {
    public init?(_ event: Event, seq: UInt64) { self = event.encoded(seq: seq) }
    public func discard() {}
}
