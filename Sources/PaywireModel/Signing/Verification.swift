import PaywireWire

/// Whether the backend's signature covers what a grant or a profile says (config
/// `response_verification`; `#/$defs/verification`).
public enum Verification: String, WireEnum, Sendable {
    /// Verification is disabled, or the backend has not answered yet.
    case not_requested
    /// A signed answer, checked on the wire and again when the profile is read from disk.
    case verified
    /// The signature was missing, bad, for another request or too old (applied anyway in
    /// informational mode), or the profile on disk says more than its signature covers.
    case failed
    /// On the store's word alone: a purchase or restore the backend has not answered yet, or
    /// offline access from the store's current entitlements.
    case store
}
