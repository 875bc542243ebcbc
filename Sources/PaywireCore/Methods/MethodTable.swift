/// One method of the wire: how its params are read and which part answers. Adding a method
/// is adding one entry to one of the area lists below.
struct MethodEntry: Sendable {
    typealias Handler = @Sendable (Client, Fields) throws(WireError) -> CallOutcome
    /// Reads the params text itself when it can, skipping the general parse (an inline bundle
    /// of megabytes is indexed where it sits); nil from it means "take the general path".
    typealias FastPath = @Sendable (Client, [UInt8]) throws(WireError) -> CallOutcome?

    let name: String
    let fastPath: FastPath?
    let run: Handler

    init(_ name: String, fastPath: FastPath? = nil, _ run: @escaping Handler) {
        self.name = name
        self.fastPath = fastPath
        self.run = run
    }

    /// An entry whose answer is always there at once.
    static func now(_ name: String, _ run: @escaping @Sendable (Client, Fields) throws(WireError) -> CallResponse) -> MethodEntry {
        MethodEntry(name) { (client: Client, params: Fields) throws(WireError) -> CallOutcome in .done(try run(client, params)) }
    }
}

/// The methods of this version, by name; one hash lookup per call finds the handler.
enum MethodTable {
    static let entries: [String: MethodEntry] = {
        var table: [String: MethodEntry] = [:]
        for entry in clientMethods + deliveryMethods + profileMethods + paywallViewMethods + onboardingMethods + purchaseMethods {
            table[entry.name] = entry
        }
        return table
    }()

    /// A `null` success, the answer of methods that only act.
    static let done = CallResponse.success { writer in writer.null() }
}
