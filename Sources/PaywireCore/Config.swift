/// The configuration given to `paywire_client_new`, checked field by field.
///
/// A bad value fails client creation with `wrong_param` naming the field; an unknown key is
/// only reported (as a `log` event) so a newer host can talk to an older core.
public struct ClientConfig: Sendable {
    /// Where the fallback bundle comes from.
    enum FallbackSource: Sendable {
        case path(String)
        case inline([UInt8])
    }

    /// Which billing provider answers product and purchase questions.
    enum StoreChoice: Sendable {
        case none
        case test([StoreProduct])
    }

    static let knownKeys: Set<String> = [
        "profile_id", "customer_user_id", "locale", "storage_dir", "fallback", "store",
        "observer_mode", "log_level", "event_queue_limit", "wrapper",
    ]

    /// The default and bounds of `event_queue_limit`.
    public static let defaultEventQueueLimit = 1000
    static let eventQueueLimitRange = 16...1_000_000

    var profileId: String?
    var customerUserId: String?
    var locale: String?
    var storageDir: String?
    var fallback: FallbackSource?
    var store: StoreChoice = .none
    var observerMode = false
    var logLevel: LogLevel = .warn
    /// How many events may wait for the host before the overflow rule applies.
    public private(set) var eventQueueLimit = ClientConfig.defaultEventQueueLimit
    var wrapperName: String?
    var wrapperVersion: String?
    /// Keys present in the config that this version does not know.
    var unknownKeys: [String] = []

    /// Parses and checks a config document (`nil` bytes mean `{}`).
    public static func parse(_ bytes: [UInt8]?) throws(WireError) -> ClientConfig {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes ?? Array("{}".utf8))
        } catch {
            throw WireError(.decodingFailed, "config is not valid JSON: \(error.reason) at byte \(error.offset)")
        }
        let fields = try Fields(value, path: "config")
        return try ClientConfig(Fields(fields.object))
    }

    private init(_ fields: Fields) throws(WireError) {
        profileId = try fields.optionalString("profile_id")
        if profileId?.isEmpty == true { throw WireError.wrongParam("profile_id", "must not be empty") }
        customerUserId = try fields.optionalString("customer_user_id")
        if customerUserId?.isEmpty == true { throw WireError.wrongParam("customer_user_id", "must not be empty") }
        locale = try fields.optionalString("locale")
        storageDir = try fields.optionalString("storage_dir")
        if storageDir?.isEmpty == true { throw WireError.wrongParam("storage_dir", "must not be empty") }
        if let fallback = try fields.optionalObject("fallback") {
            self.fallback = try ClientConfig.fallbackSource(fallback)
        }
        if let store = try fields.optionalObject("store") {
            self.store = try ClientConfig.storeChoice(store)
        }
        observerMode = try fields.optionalBool("observer_mode") ?? false
        logLevel = try fields.optionalEnum("log_level", LogLevel.self) ?? .warn
        eventQueueLimit = try fields.optionalInt("event_queue_limit", in: ClientConfig.eventQueueLimitRange)
            ?? ClientConfig.defaultEventQueueLimit
        if let wrapper = try fields.optionalObject("wrapper") {
            wrapperName = try wrapper.identifier("name")
            wrapperVersion = try wrapper.identifier("version")
        }
        unknownKeys = fields.unknownKeys(ClientConfig.knownKeys)
    }

    /// `{"path": "..."}` or `{"bundle": {...}}`, exactly one of them.
    static func fallbackSource(_ fields: Fields) throws(WireError) -> FallbackSource {
        let path = try fields.optionalString("path")
        let bundle = fields.optional("bundle")
        switch (path, bundle) {
        case (let path?, nil):
            guard !path.isEmpty else { throw WireError.wrongParam(fields.fieldPath("path"), "must not be empty") }
            return .path(path)
        case (nil, let bundle?):
            guard case .object = bundle else {
                throw WireError.wrongParam(fields.fieldPath("bundle"), "expected an object, got \(bundle.typeName)")
            }
            return .inline(JSONWriter.encode(bundle))
        case (nil, nil):
            throw WireError.wrongParam(fields.path, "needs either path or bundle")
        case (.some, .some):
            throw WireError.wrongParam(fields.path, "takes either path or bundle, not both")
        }
    }

    private static func storeChoice(_ fields: Fields) throws(WireError) -> StoreChoice {
        switch try fields.string("type") {
        case "none":
            return .none
        case "test":
            var catalog: [StoreProduct] = []
            var seen = Set<String>()
            if fields.optional("products") != nil {
                for product in try fields.objects("products") {
                    let loaded = try TestStore.loadProduct(product)
                    guard seen.insert(loaded.vendorProductId).inserted else {
                        throw WireError.wrongParam(product.fieldPath("vendor_product_id"), "duplicate product '\(loaded.vendorProductId)'")
                    }
                    catalog.append(loaded)
                }
            }
            return .test(catalog)
        case "host":
            throw WireError.wrongParam(fields.fieldPath("type"), "'host' is not available in this version; use 'test' or 'none'")
        case let other:
            throw WireError.wrongParam(fields.fieldPath("type"), "'\(other)' is not one of: test, none")
        }
    }
}
