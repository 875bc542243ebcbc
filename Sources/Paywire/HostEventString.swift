import PaywireWire
#if canImport(Glibc)
import Glibc
#endif

/// A queued event as the NUL-terminated string the host will be handed: allocated on the thread
/// that emits the event, so a poll hands the pointer over (the host frees it with
/// `paywire_string_free`) and a callback's string is freed after the callback returns.
struct HostEventString: EncodedEvent {
    /// The `malloc`ed string; nil when it could not be allocated.
    let pointer: UnsafeMutablePointer<CChar>?

    init(encoded bytes: [UInt8]) { pointer = CStrings.copyOut(bytes) }

    func discard() { free(pointer) }
}
