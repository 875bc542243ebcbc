import PaywireWire
import CPosix

/// A queued event as the NUL-terminated string the host will be handed: written in one
/// allocation on the thread that emits the event, so a poll hands the pointer over (the host
/// frees it with `paywire_string_free`) and a callback's string is freed after the callback
/// returns. One owner at a time (`EncodedEvent`): the queue, then whoever took it.
struct HostEventString: EncodedEvent {
    /// The `malloc`ed string.
    let pointer: UnsafeMutablePointer<CChar>

    init?(_ event: Event, seq: UInt64) {
        let (head, members) = event.parts(seq: seq)
        let length = head.count + (members.isEmpty ? 0 : 1 + members.count) + 1
        guard let raw = malloc(length + 1) else { return nil }
        var at = 0
        func put(_ bytes: ArraySlice<UInt8>) {
            bytes.withUnsafeBufferPointer { source in
                if let base = source.baseAddress { memcpy(raw + at, base, source.count) }
            }
            at += bytes.count
        }
        func put(_ byte: UInt8) {
            raw.storeBytes(of: byte, toByteOffset: at, as: UInt8.self)
            at += 1
        }
        put(head)
        if !members.isEmpty {
            put(UInt8(ascii: ","))
            put(members)
        }
        put(UInt8(ascii: "}"))
        raw.storeBytes(of: 0, toByteOffset: at, as: UInt8.self)
        pointer = raw.assumingMemoryBound(to: CChar.self)
    }

    func discard() { free(pointer) }
}
