/// A queued event's complete JSON as the queue holds it until the host takes it. The boundary
/// holds it as the C string it hands over (made on the emitting thread, so a poll copies nothing);
/// tests hold the bytes.
public protocol EncodedEvent {
    /// Holds `bytes`, one event's complete JSON.
    init(encoded bytes: [UInt8])
    /// Releases what it holds: the queue replaced it, or the queue is emptied with it untaken.
    func discard()
}

extension Array: EncodedEvent where Element == UInt8 {
    public init(encoded bytes: [UInt8]) { self = bytes }
    public func discard() {}
}
