import PaywireModel
import PaywireWire

/// What the host said in `host_respond`: `result` (its shape depends on the request's kind,
/// and the part that asked reads it) or `error`.
struct HostAnswer: Sendable {
    let result: Fields?
    let errorFields: Fields?

    init(_ params: Fields) throws(WireError) {
        result = try params.optionalObject("result")
        errorFields = try params.optionalObject("error")
        if result == nil && errorFields == nil {
            throw WireError.wrongParam("result", "host_respond needs result or error")
        }
    }

    /// The error the host reported, with `code` defaulting to the flow's failure code.
    func error(code: ErrorCode, fallback: String) -> WireError? {
        guard let errorFields else { return nil }
        var resolved = code
        if case .string(let text)? = errorFields.object["code"], let known = ErrorCode(rawValue: text) { resolved = known }
        var details = JSONObject()
        if case .string(let underlying)? = errorFields.object["underlying_error"] { details.set("underlying_error", .string(underlying)) }
        var message = fallback
        if case .string(let text)? = errorFields.object["message"] { message = text }
        return WireError(resolved, message, details: details)
    }

    /// `result.<key>` when it is `true`.
    func flag(_ key: String) -> Bool {
        if case .bool(true)? = result?.object[key] { return true }
        return false
    }
}
