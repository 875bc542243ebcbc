import Foundation

/// The one ordered way to the main actor: work is queued on the main dispatch queue, first in,
/// first out, so delegate calls keep the order of the events they come from. (A `Task` per event
/// would not: tasks are not started in the order they were made.)
enum MainDelivery {
    /// Runs `work` on the main actor after everything queued before it.
    static func async(_ work: @escaping @MainActor @Sendable () -> Void) {
        DispatchQueue.main.async { MainActor.assumeIsolated { work() } }
    }
}
