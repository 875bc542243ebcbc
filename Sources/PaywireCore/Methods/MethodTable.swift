import PaywireModel
import PaywireWire

/// One method of the wire: how its params are read and which part answers. Adding a method
/// is adding one entry to one of the area lists below. A class: every call copies the entry it
/// resolved, and one reference costs less to copy and destroy than a name and two closures.
final class MethodEntry: Sendable {
    typealias Handler = @Sendable (Client, Fields) throws(WireError) -> CallOutcome
    /// Reads the params text itself when it can, skipping the general parse (an inline bundle
    /// of megabytes is indexed where it sits); nil from it means "take the general path".
    typealias FastPath = @Sendable (Client, [UInt8]) throws(WireError) -> CallOutcome?

    let name: String
    let fastPath: FastPath?
    let run: Handler
    /// Whether the method feeds a screen the host draws, whose events must all reach it: such
    /// a call is refused with `busy` while the host has fallen behind on its events.
    let feedsScreen: Bool

    init(_ name: String, fastPath: FastPath? = nil, feedsScreen: Bool = false, _ run: @escaping Handler) {
        self.name = name
        self.fastPath = fastPath
        self.feedsScreen = feedsScreen
        self.run = run
    }

    /// An entry whose answer is always there at once.
    static func now(_ name: String, _ run: @escaping @Sendable (Client, Fields) throws(WireError) -> CallResponse) -> MethodEntry {
        MethodEntry(name) { (client: Client, params: Fields) throws(WireError) -> CallOutcome in .done(try run(client, params)) }
    }

    /// An entry answering at once that feeds a screen (see `feedsScreen`).
    static func screen(_ name: String, _ run: @escaping @Sendable (Client, Fields) throws(WireError) -> CallResponse) -> MethodEntry {
        MethodEntry(name, feedsScreen: true) { (client: Client, params: Fields) throws(WireError) -> CallOutcome in .done(try run(client, params)) }
    }
}

/// The methods of this version, by name; one hash of the name's bytes finds the handler.
enum MethodTable {
    static let index = MethodIndex(clientMethods + deliveryMethods + profileMethods + paywallViewMethods + onboardingMethods + purchaseMethods)

    /// A `null` success, the answer of methods that only act.
    static let done = CallResponse.success { writer in writer.null() }
}
