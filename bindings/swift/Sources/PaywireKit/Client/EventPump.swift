import Foundation

/// The one thread that takes a client's events: it polls (`paywire_client_poll`) and hands each
/// event to ``ClientCore/dispatch(_:)`` in seq order. It ends when the client is freed (the poll
/// answers CLOSED, then INVALID_HANDLE); a poll that fails otherwise (out of memory, a bug) is
/// tried again after a pause, since giving up would leave calls waiting for ever.
enum EventPump {
    /// How long one poll waits; freeing the client wakes it at once, so this only bounds idling.
    static let sliceMs: Int32 = 1_000
    static let retryPause: TimeInterval = 0.05

    static func start(_ core: ClientCore) {
        let thread = Thread { run(core) }
        thread.name = "paywire-events"
        thread.start()
    }

    private static func run(_ core: ClientCore) {
        while true {
            var out: UnsafeMutablePointer<CChar>?
            let status = core.native.clientPoll(core.handle.pointer, sliceMs, &out)
            let text = core.native.take(out)
            switch status {
            case NativeStatus.ok:
                if let text { core.dispatch(text) }
            case NativeStatus.timeout:
                continue
            case NativeStatus.closed, NativeStatus.invalidHandle:
                core.pumpStopped(.closed)
                return
            case NativeStatus.invalidArgument:
                // Refused for good (a handler is set on this client): nothing will deliver events.
                core.pumpStopped(.from(envelope: text.flatMap { try? JSONValue(parsingBytes: $0) }, status: status,
                                       name: core.native.name(of: status)))
                return
            default:
                Thread.sleep(forTimeInterval: retryPause)
            }
        }
    }
}
