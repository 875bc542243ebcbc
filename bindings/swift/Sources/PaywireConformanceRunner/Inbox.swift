import Foundation
import PaywireKit

/// The events a runner's handler collected for one named client, and how many times the
/// library released the handler's user_data. The handler runs on a library thread; the runner
/// reads from its own.
final class Inbox: @unchecked Sendable {
    private let condition = NSCondition()
    private var events: [JSONValue] = []
    private var problem: String?
    private var frees = 0

    func add(_ text: [UInt8]) {
        condition.lock()
        defer { condition.unlock() }
        do {
            let event = try JSONValue(parsingBytes: text)
            if let trouble = RoundTrip.eventProblem(event) { problem = problem ?? trouble }
            events.append(event)
        } catch {
            problem = problem ?? "an event is not JSON: \(String(decoding: text, as: UTF8.self).prefix(300))"
        }
        condition.broadcast()
    }

    func released() {
        condition.lock()
        frees += 1
        condition.unlock()
    }

    var releases: Int {
        condition.lock()
        defer { condition.unlock() }
        return frees
    }

    /// Waits up to `timeoutMs` for `count` events; takes all collected so far.
    func drain(count: Int, timeoutMs: Int) -> (events: [JSONValue], frees: Int, problem: String?) {
        let deadline = Date(timeIntervalSinceNow: Double(timeoutMs) / 1000)
        condition.lock()
        defer { condition.unlock() }
        while events.count < count, condition.wait(until: deadline) {}
        let taken = events
        events = []
        return (taken, frees, problem)
    }
}

/// The handler's user_data: the inbox, retained until the library releases it.
enum Handlers {
    static let onEvent: @convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void = { text, userData in
        guard let text, let userData else { return }
        let inbox = Unmanaged<Inbox>.fromOpaque(userData).takeUnretainedValue()
        inbox.add(Array(UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))))
    }

    static let onFree: @convention(c) (UnsafeMutableRawPointer?) -> Void = { userData in
        guard let userData else { return }
        Unmanaged<Inbox>.fromOpaque(userData).takeRetainedValue().released()
    }

    static let ignore: @convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void = { _, _ in }
}
