/// The pinned status codes of the C ABI. Never renumbered; hosts treat an unknown negative as `failed`.
public enum Status: Int32, CaseIterable, Sendable {
    case ok = 0
    case failed = -1
    case invalidArgument = -2
    case invalidUTF8 = -3
    case invalidJSON = -4
    case unknownMethod = -5
    case versionMismatch = -6
    case invalidHandle = -7
    case closed = -8
    case timeout = -9
    case `internal` = -10
    case noMemory = -11
    case busy = -12

    /// The name `paywire_status_name` returns, as in the header's `#define`s without the prefix.
    public var name: String { literalName.description }

    /// The name as static text, which the boundary hands out as `const char *` without copying.
    public var literalName: StaticString {
        switch self {
        case .ok: return "OK"
        case .failed: return "FAILED"
        case .invalidArgument: return "INVALID_ARGUMENT"
        case .invalidUTF8: return "INVALID_UTF8"
        case .invalidJSON: return "INVALID_JSON"
        case .unknownMethod: return "UNKNOWN_METHOD"
        case .versionMismatch: return "VERSION_MISMATCH"
        case .invalidHandle: return "INVALID_HANDLE"
        case .closed: return "CLOSED"
        case .timeout: return "TIMEOUT"
        case .internal: return "INTERNAL"
        case .noMemory: return "NOMEM"
        case .busy: return "BUSY"
        }
    }
}

/// The closed list of `error.code` strings on the wire. Hosts switch on these; `message` is for people.
public enum ErrorCode: String, WireEnum, Sendable {
    case wrongParam = "wrong_param"
    case unknownMethod = "unknown_method"
    case decodingFailed = "decoding_failed"
    case invalidUTF8 = "invalid_utf8"
    case invalidHandle = "invalid_handle"
    case closed = "closed"
    case timeout = "timeout"
    case notFound = "not_found"
    case networkFailed = "network_failed"
    case wrongFallbackVersion = "wrong_fallback_version"
    case invalidFallback = "invalid_fallback"
    case storageFailed = "storage_failed"
    /// Another client (in this process or another) owns the `storage_dir`; `details.path` names it.
    case storageLocked = "storage_locked"
    case productsLoadingFailed = "products_loading_failed"
    case billingUnavailable = "billing_unavailable"
    case purchaseFailed = "purchase_failed"
    case restoreFailed = "restore_failed"
    case renderingFailed = "rendering_failed"
    case webPaymentFailed = "web_payment_failed"
    case purchaseInProgress = "purchase_in_progress"
    case restoreInProgress = "restore_in_progress"
    case invalidState = "invalid_state"
    case requiresAsync = "requires_async"
    case unauthorized = "unauthorized"
    /// The client refused new work because the host has not taken what it already owes it:
    /// `async_call_limit` answers, or `event_queue_limit` events that must be kept.
    case busy = "busy"
    /// The backend keeps a purchase with the profile that owns it (its transfer policy is
    /// `keep`): a restore of only such purchases moves nothing.
    case belongsToAnotherProfile = "belongs_to_another_profile"
    /// The backend does not take transactions of this store (a test purchase sent to a server
    /// not in development mode).
    case unsupportedStore = "unsupported_store"
    /// The backend's answer did not carry a valid signature over this request (config
    /// `response_verification` enforced): it was refused like a network failure.
    case responseVerificationFailed = "response_verification_failed"
    case `internal` = "internal"

    /// The ABI status a call returns alongside an envelope carrying this code.
    public var status: Status {
        switch self {
        case .wrongParam, .requiresAsync: return .invalidArgument
        case .unknownMethod: return .unknownMethod
        case .decodingFailed: return .invalidJSON
        case .invalidUTF8: return .invalidUTF8
        case .invalidHandle: return .invalidHandle
        case .closed: return .closed
        case .timeout: return .timeout
        case .wrongFallbackVersion: return .versionMismatch
        case .internal: return .internal
        case .busy: return .busy
        default: return .failed
        }
    }
}

/// An error as it travels on the wire: `{"error": {"code", "message", "details"}}`.
public struct WireError: Error, Equatable, Sendable {
    /// The machine-readable code.
    public let code: ErrorCode
    /// A sentence for people; never compared by tests.
    public let message: String
    /// Anything that helps: `field`, `underlying_error`, `placement_id`, ...
    public let details: JSONObject

    /// Creates an error.
    public init(_ code: ErrorCode, _ message: String, details: JSONObject = JSONObject()) {
        self.code = code
        self.message = message
        self.details = details
    }

    /// A `wrong_param` error naming the offending field (dotted path).
    public static func wrongParam(_ field: String, _ message: String) -> WireError {
        WireError(.wrongParam, "\(field): \(message)", details: JSONObject([("field", .string(field))]))
    }

    /// The same `wrong_param` error naming its field as `rename` maps it (another place's
    /// name for the same member); unchanged when `rename` has no name for it.
    public func renamingField(_ rename: (String) -> String?) -> WireError {
        guard code == .wrongParam, case .string(let field)? = details["field"], let renamed = rename(field),
              message.hasPrefix(field + ": ") else { return self }
        return WireError.wrongParam(renamed, String(message.dropFirst(field.count + 2)))
    }

    /// The envelope bytes for this error.
    public var envelope: [UInt8] {
        var writer = JSONWriter()
        writer.object { writer in
            writer.key("error")
            write(to: &writer)
        }
        return writer.bytes
    }

    /// `{code, message, details}`, as envelopes and error-carrying events hold it.
    public func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member("code", code.rawValue)
            writer.member("message", message)
            writer.member("details", .object(details))
        }
    }
}

/// What a call hands back to the boundary: a status and the envelope bytes to copy out.
public struct CallResponse: Sendable {
    /// The ABI status.
    public let status: Status
    /// A complete envelope, `{"success": ...}` or `{"error": ...}`.
    public let envelope: [UInt8]

    /// A success envelope around already-encoded result bytes.
    public static func success(_ encodedResult: [UInt8]) -> CallResponse {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encodedResult.count + 12)
        bytes.append(contentsOf: #"{"success":"#.utf8)
        bytes.append(contentsOf: encodedResult)
        bytes.append(UInt8(ascii: "}"))
        return CallResponse(status: .ok, envelope: bytes)
    }

    /// A success envelope whose result is written by `body` straight into the envelope buffer.
    public static func success(_ body: (inout JSONWriter) -> Void) -> CallResponse {
        var writer = JSONWriter(reservingCapacity: 64)
        writer.object { writer in
            writer.key("success")
            body(&writer)
        }
        return CallResponse(status: .ok, envelope: writer.bytes)
    }

    /// The envelope for an error, with the status its code maps to.
    public static func failure(_ error: WireError) -> CallResponse {
        CallResponse(status: error.code.status, envelope: error.envelope)
    }

    /// Creates a response from its parts.
    public init(status: Status, envelope: [UInt8]) {
        self.status = status
        self.envelope = envelope
    }
}
