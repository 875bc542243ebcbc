import Foundation

/// What a success says went otherwise than asked, told to the developer without events:
/// `paywire_client_new`'s `warnings` (configuration keys the library ignored), and the `source`
/// and `backend_error` of a paywall served from the device because the backend refused the
/// credentials. Each goes to ``handler``, which writes it to standard error unless the app sets
/// its own (its logger, or a no-op).
public enum PaywireWarnings {
    private static let current = Locked<@Sendable (String) -> Void>({ message in
        FileHandle.standardError.write(Data("paywire: warning: \(message)\n".utf8))
    })

    /// Receives each warning's text, on the thread that read the answer; standard error by default.
    public static var handler: @Sendable (String) -> Void {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    /// The warnings `success` carries, told to ``handler``.
    static func report(_ success: JSONValue) {
        for warning in success["warnings"]?.arrayValue ?? [] {
            if let message = warning["message"]?.stringValue { handler(message) }
        }
        if let refusal = success["backend_error"]?.objectValue, let source = success["source"]?.stringValue {
            let status = refusal["status"]?.numberValue?.description ?? "?"
            let code = refusal["code"]?.stringValue ?? "no code"
            handler("the backend refused the request (HTTP \(status), \(code)): this paywall came from the "
                    + "\(source == "fallback" ? "fallback bundle" : source); check the api_key")
        }
    }
}
