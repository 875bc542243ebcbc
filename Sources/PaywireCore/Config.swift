import PaywireModel
import PaywireWire

/// The configuration given to `paywire_client_new`, checked field by field.
///
/// A bad value fails client creation with `wrong_param` naming the field. A key one slip away
/// from a known one (`fallbak`) is refused the same way, with the key it likely meant; any
/// other unknown key is only reported (in the answer's `warnings`, and as a `log` event) so a
/// newer host can talk to an older core.
public struct ClientConfig: Sendable {
    /// Where the fallback bundle comes from.
    enum FallbackSource: Sendable {
        /// A file, with the operator's signature of its exact bytes when given (`signature`).
        case path(String, signature: SignedDocument?)
        case inline([UInt8])
    }


    static let knownKeys: Set<String> = [
        "profile_id", "customer_user_id", "identity_token", "locale", "storage_dir", "fallback", "store",
        "observer_mode", "log_level", "event_queue_limit", "async_call_limit", "wrapper", "host_request_timeout_ms",
        "products_retry_delay_ms", "context", "transport", "api_key", "analytics", "refresh_profile_on_start", "debug",
        "offline_access_max_age_ms", "response_verification", "clock_offset_ms",
    ]

    /// How long the core waits for a `host_respond` before the flow fails with `timeout`.
    static let defaultHostRequestTimeout: WideInt = 30_000
    /// How long the core waits before retrying a failed products load the host asked to retry.
    static let defaultProductsRetryDelay: WideInt = 2000
    /// What audience rules know about the app: `context {platform, app_version, installed_at}`.
    var platform: String?
    var appVersion: String?
    var installedAt: WideInt?
    /// `transport`: where the remote source is and who carries the requests; nil for bundle only.
    public private(set) var transport: TransportConfig?
    var hostRequestTimeoutMilliseconds = ClientConfig.defaultHostRequestTimeout
    var productsRetryDelayMilliseconds = ClientConfig.defaultProductsRetryDelay

    /// The default and bounds of `event_queue_limit`.
    public static let defaultEventQueueLimit = 1000
    static let eventQueueLimitRange = 16...1_000_000
    /// The default and bounds of `async_call_limit`.
    public static let defaultAsyncCallLimit = 1000
    static let asyncCallLimitRange = 1...1_000_000

    var profileId: String?
    var customerUserId: String?
    /// The app's backend's proof of `customerUserId`, sent with the identity the config makes;
    /// held in memory and in that record only.
    var identityToken: String?
    var locale: String?
    var storageDir: String?
    var fallback: FallbackSource?
    /// The `store` object, checked; the client builds its store from it.
    /// The `store` the config asks for, read and checked with the config.
    var store = StoreChoice.none
    /// `store.acknowledge_after_ms`: a purchase the backend has not answered this long after it
    /// was made is acknowledged to the store anyway (Google Play refunds one left 3 days).
    var acknowledgeAfterMilliseconds = ClientConfig.defaultAcknowledgeAfter
    static let defaultAcknowledgeAfter = 2 * Milliseconds.day
    var observerMode = false
    /// `debug`: QA tools are accepted (`set_debug_overrides`). Never on in a release build of an app.
    var debug = false
    /// `refresh_profile_on_start`: with a backend, ask it for the profile as the client starts
    /// (renewals, refunds and purchases made elsewhere since the app last ran).
    var refreshProfileOnStart = true
    /// `offline_access_max_age_ms`: how long the backend's grants give access without its answer.
    var offlineAccessMaxAgeMilliseconds = OfflineAccessRules.defaultMaxAge
    var logLevel: LogLevel = .warn
    /// `clock_offset_ms`: the client's wall clock runs this far from the system's, so a test
    /// suite can run on another date (the last day of a month, 29 February). Never set by an app.
    var clockOffsetMilliseconds: WideInt = 0
    /// How far `clock_offset_ms` may move the clock: a century either way.
    static let clockOffsetRange = -(100 * 366 * Milliseconds.day)...(100 * 366 * Milliseconds.day)
    /// How many events may wait for the host before the overflow rule applies.
    public private(set) var eventQueueLimit = ClientConfig.defaultEventQueueLimit
    /// How many async calls may wait for the host to take their answers before
    /// `paywire_client_call_async` refuses more with BUSY.
    public private(set) var asyncCallLimit = ClientConfig.defaultAsyncCallLimit
    var wrapperName: String?
    var wrapperVersion: String?
    /// `wrapper {name, version}`, when both are given.
    var wrapper: (name: String, version: String)? {
        guard let wrapperName, let wrapperVersion else { return nil }
        return (wrapperName, wrapperVersion)
    }
    /// `api_key`: sent as `authorization: Api-Key <key>` on every backend request; never
    /// written to a log event, an error, a file, or `get_sdk_version`.
    var apiKey: String?
    /// `analytics`: how records are kept and delivered.
    var analytics = AnalyticsConfig()
    /// `response_verification`: whether the backend's answers that carry access must be signed.
    public private(set) var verification = VerificationConfig()
    /// Keys present in the config that this version does not know, by path: the warnings of
    /// `paywire_client_new`'s answer (a near miss of a known key is refused instead).
    public private(set) var unknownKeys: [String] = []

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
        // First: a misspelt key is the likely cause of whatever else looks wrong.
        let unknownHere = try fields.unknownKeysRefusingNearMisses(ClientConfig.knownKeys, kind: "config")
        profileId = try fields.optionalString("profile_id")
        if let profileId { try Identity.checkProfileId(profileId, "profile_id") }
        customerUserId = try fields.optionalString("customer_user_id")
        if let customerUserId { try Identity.checkCustomerUserId(customerUserId, "customer_user_id") }
        identityToken = try fields.optionalString("identity_token")
        if let identityToken {
            guard customerUserId != nil else { throw WireError.wrongParam("identity_token", "proves a customer_user_id: give one beside it") }
            try Identity.checkIdentityToken(identityToken, "identity_token")
        }
        locale = try fields.optionalString("locale")
        storageDir = try fields.optionalString("storage_dir")
        if storageDir?.isEmpty == true { throw WireError.wrongParam("storage_dir", "must not be empty") }
        if let fallback = try fields.optionalObject("fallback") {
            self.fallback = try ClientConfig.fallbackSource(fallback)
        }
        if let store = try fields.optionalObject("store") {
            self.store = try StoreChoice(store)
            acknowledgeAfterMilliseconds = try store.optionalWide("acknowledge_after_ms", in: Milliseconds.minute...(3 * Milliseconds.day))
                ?? ClientConfig.defaultAcknowledgeAfter
        }
        hostRequestTimeoutMilliseconds = try fields.optionalWide("host_request_timeout_ms", in: 10...3_600_000)
            ?? ClientConfig.defaultHostRequestTimeout
        productsRetryDelayMilliseconds = try fields.optionalWide("products_retry_delay_ms", in: 0...600_000)
            ?? ClientConfig.defaultProductsRetryDelay
        observerMode = try fields.optionalBool("observer_mode") ?? false
        debug = try fields.optionalBool("debug") ?? false
        refreshProfileOnStart = try fields.optionalBool("refresh_profile_on_start") ?? true
        offlineAccessMaxAgeMilliseconds = try fields.optionalWide("offline_access_max_age_ms", in: Milliseconds.minute...(366 * Milliseconds.day))
            ?? OfflineAccessRules.defaultMaxAge
        logLevel = try fields.optionalEnum("log_level", LogLevel.self) ?? .warn
        clockOffsetMilliseconds = try fields.optionalWide("clock_offset_ms", in: ClientConfig.clockOffsetRange) ?? 0
        eventQueueLimit = try fields.optionalInt("event_queue_limit", in: ClientConfig.eventQueueLimitRange)
            ?? ClientConfig.defaultEventQueueLimit
        asyncCallLimit = try fields.optionalInt("async_call_limit", in: ClientConfig.asyncCallLimitRange)
            ?? ClientConfig.defaultAsyncCallLimit
        // Every analytics record carries these: the rule the backend reads records by applies here.
        if let wrapper = try fields.optionalObject("wrapper") {
            wrapperName = try wrapper.identifier("name")
            wrapperVersion = try wrapper.identifier("version")
            for (value, key) in [(wrapperName, "name"), (wrapperVersion, "version")] {
                if let value { try RecordRules.check(value, wrapper.fieldPath(key)) }
            }
        }
        if let context = try fields.optionalObject("context") {
            platform = try context.optionalString("platform")
            appVersion = try context.optionalString("app_version")
            for (value, key) in [(platform, "platform"), (appVersion, "app_version")] {
                if let value { try RecordRules.check(value, context.fieldPath(key), allowEmpty: true) }
            }
            if let version = appVersion, AudienceRule.Version(version) == nil {
                throw WireError.wrongParam(context.fieldPath("app_version"), "'\(version)' is not a dotted version like 2.10.1")
            }
            if let installed = try context.optionalString("installed_at") {
                guard let parsed = ISODate.parse(installed) else {
                    throw WireError.wrongParam(context.fieldPath("installed_at"), "'\(installed)' is not an ISO 8601 UTC time")
                }
                installedAt = parsed
            }
        }
        if let transport = try fields.optionalObject("transport") {
            self.transport = try TransportConfig(transport)
        }
        apiKey = try ClientConfig.apiKey(fields)
        if let analytics = try fields.optionalObject("analytics") {
            self.analytics = try AnalyticsConfig(analytics)
        }
        if let verification = try fields.optionalObject("response_verification") {
            self.verification = try VerificationConfig(verification)
            if self.verification.mode != .disabled && transport == nil {
                throw WireError.wrongParam("response_verification.mode", "checks the backend's answers, and no transport is configured")
            }
        }
        unknownKeys = unknownHere + (transport?.unknownKeys ?? []) + self.analytics.unknownKeys + self.verification.unknownKeys
    }

    /// `api_key`: 1 to 512 visible ASCII characters (it goes into a header). Errors never
    /// repeat the value.
    private static func apiKey(_ fields: Fields) throws(WireError) -> String? {
        guard let value = fields.optional("api_key") else { return nil }
        guard case .string(let key) = value else { throw WireError.wrongParam("api_key", "expected a string, got \(value.typeName)") }
        guard !key.isEmpty, key.utf8.count <= 512, key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw WireError.wrongParam("api_key", "must be 1 to 512 visible ASCII characters (no spaces or line breaks)")
        }
        return key
    }

    /// `{"path": "...", "signature"?: {...}}` or `{"bundle": {...}}`, exactly one of them. A
    /// signature covers a file's exact bytes, so it goes with a path only.
    static func fallbackSource(_ fields: Fields) throws(WireError) -> FallbackSource {
        _ = try fields.unknownKeysRefusingNearMisses(["path", "bundle", "signature"], kind: "fallback")
        let path = try fields.optionalString("path")
        let bundle = fields.optional("bundle")
        var signature: SignedDocument?
        if let given = fields.optional("signature") {
            guard path != nil else {
                throw WireError.wrongParam(fields.fieldPath("signature"), "covers a file's exact bytes: give the bundle by path")
            }
            guard let read = SignedDocument(json: given), ResponseSignature.isValidKeyId(read.keyId), read.signature.count == 64 else {
                throw WireError.wrongParam(fields.fieldPath("signature"), "expected {key_id, signature: a 64-byte Ed25519 signature in base64}")
            }
            signature = read
        }
        switch (path, bundle) {
        case (let path?, nil):
            guard !path.isEmpty else { throw WireError.wrongParam(fields.fieldPath("path"), "must not be empty") }
            return .path(path, signature: signature)
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

}

/// `transport`: `{type: host, base_url}` (the host carries each request, as `host_request`
/// events of kind `http`) or `{type: http, base_url, connect_timeout_ms?, request_timeout_ms?,
/// ca_file?}` (the library's own client).
public struct TransportConfig: Sendable {
    public enum Carrier: Sendable {
        case host
        case builtIn
    }

    public static let defaultConnectTimeout: WideInt = 10_000
    public static let defaultRequestTimeout: WideInt = 30_000
    static let knownKeys: Set<String> = ["type", "base_url", "connect_timeout_ms", "request_timeout_ms", "ca_file"]

    public let carrier: Carrier
    /// `base_url` without a trailing slash.
    public let baseURL: String
    /// Built-in client only: how long connecting (TCP and TLS) may take.
    public let connectTimeoutMilliseconds: WideInt
    /// Built-in client only: how long one whole request may take.
    public let requestTimeoutMilliseconds: WideInt
    /// Built-in client only: a PEM file of CA certificates to trust instead of the system's.
    public let caFile: String?
    /// Keys this version does not know (no near miss of a known one: those are refused).
    let unknownKeys: [String]

    init(_ fields: Fields) throws(WireError) {
        // First: a misspelt key is the likely cause of a required one missing.
        unknownKeys = try fields.unknownKeysRefusingNearMisses(TransportConfig.knownKeys, kind: "config")
        switch try fields.string("type") {
        case "host": carrier = .host
        case "http": carrier = .builtIn
        case let other:
            throw WireError.wrongParam(fields.fieldPath("type"), "'\(other)' is not one of: host, http")
        }
        let written = try fields.identifier("base_url")
        // Without its trailing slash, once: every route is appended as "/v1/...".
        baseURL = written.hasSuffix("/") ? String(written.dropLast()) : written
        guard baseURL.hasPrefix("https://") || baseURL.hasPrefix("http://") else {
            throw WireError.wrongParam(fields.fieldPath("base_url"), "expected an http:// or https:// URL")
        }
        let builtInOnly = ["connect_timeout_ms", "request_timeout_ms", "ca_file"]
        if carrier == .host, let key = builtInOnly.first(where: { fields.optional($0) != nil }) {
            throw WireError.wrongParam(fields.fieldPath(key), "applies to the built-in client (type http) only; the host's network stack has its own")
        }
        connectTimeoutMilliseconds = try fields.optionalWide("connect_timeout_ms", in: 100...600_000) ?? TransportConfig.defaultConnectTimeout
        requestTimeoutMilliseconds = try fields.optionalWide("request_timeout_ms", in: 100...3_600_000) ?? TransportConfig.defaultRequestTimeout
        caFile = try fields.optionalString("ca_file")
        if caFile?.isEmpty == true { throw WireError.wrongParam(fields.fieldPath("ca_file"), "must not be empty") }
    }
}
