import CPaywire
import Foundation

/// ``PaywireError`` is the wire's `error` (generated: `code`, `message`, `details`); every call
/// of this binding throws it. Compare `code` (``ErrorCode``, with `unknown` for a code a newer
/// library sends); `message` is for people and may change; `details` carries
/// `underlying_error` and the like.
extension PaywireError: Error, CustomStringConvertible, LocalizedError {
    /// The error codes of the wire (`ErrorCode`).
    public typealias Code = ErrorCode

    public var description: String { details.isEmpty ? "\(code): \(message)" : "\(code): \(message) \(JSONValue.object(details))" }

    public var errorDescription: String? { message }

    /// An error this binding makes itself (not read from a library envelope).
    static func binding(_ code: ErrorCode, _ message: String, details: JSONObject = [:]) -> PaywireError {
        PaywireError(code: code, message: message, details: details)
    }

    /// The client was closed: a call waiting for its result gets this instead.
    static let closed = binding(.closed, "the client is closed; no result will come for this call")

    /// What a refused `paywire_client_call_async` means (no call id, no event follows).
    static func refused(status: Int32, name: String) -> PaywireError {
        let details: JSONObject = ["status": .number(JSONNumber(Int(status))), "status_name": .string(name)]
        switch status {
        case NativeStatus.busy:
            return binding(.busy,
                           "the client already has its maximum of async calls waiting for their results (async_call_limit); "
                           + "try again once some have completed", details: details)
        case NativeStatus.closed, NativeStatus.invalidHandle:
            return binding(.closed, "the client is closed", details: details)
        case NativeStatus.invalidArgument:
            return binding(.wrongParam, "the call was refused: a NULL or malformed argument", details: details)
        case NativeStatus.invalidUTF8:
            return binding(.invalidUtf8, "the call was refused: an argument is not valid UTF-8", details: details)
        default:
            // An unknown negative status reads as FAILED: the call did not happen.
            return binding(.internal, "the call was refused with status \(status) (\(name))", details: details)
        }
    }

    /// The error of an envelope the library wrote, or a description of why it could not be read.
    static func from(envelope: JSONValue?, status: Int32, name: String) -> PaywireError {
        if let error = envelope?["error"], let decoded = try? PaywireError(json: error) { return decoded }
        return binding(.internal, "the library answered status \(status) (\(name)) without a readable error",
                       details: ["status": .number(JSONNumber(Int(status))), "envelope": envelope ?? .null])
    }
}

/// The ABI's pinned statuses (paywire.h), and BUSY, which the header gains with the async call limit.
enum NativeStatus {
    static let ok = PAYWIRE_OK
    static let failed = PAYWIRE_FAILED
    static let invalidArgument = PAYWIRE_INVALID_ARGUMENT
    static let invalidUTF8 = PAYWIRE_INVALID_UTF8
    static let invalidHandle = PAYWIRE_INVALID_HANDLE
    static let closed = PAYWIRE_CLOSED
    static let timeout = PAYWIRE_TIMEOUT
    /// paywire_client_call_async: the client has `async_call_limit` calls whose call_result the
    /// host has not taken yet; `out_call_id` is 0 and no event follows. Wire code `busy`.
    static let busy: Int32 = -12
}
