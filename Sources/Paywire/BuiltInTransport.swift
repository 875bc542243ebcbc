import PaywireCore

/// An HTTP transport the boundary owns: it must stop (abort transfers, deliver nothing more)
/// when the client is freed.
protocol BoundaryTransport: HTTPTransport {
    func close()
}

/// The built-in HTTP client for `transport {type: http}`, when this build has one.
enum BuiltInTransport {
    /// A client for `settings`; nil when this build has none (the core then refuses the
    /// config, naming `transport.type`). Throws when libcurl cannot be set up.
    static func make(_ settings: TransportConfig,
                     deliver: @escaping @Sendable (UInt64, HTTPOutcome) -> Void) throws(WireError) -> BoundaryTransport? {
        #if PAYWIRE_BUILTIN_HTTP
        guard let transport = CurlTransport(connectTimeoutMilliseconds: settings.connectTimeoutMilliseconds,
                                            caFile: settings.caFile, deliver: deliver) else {
            throw WireError(.internal, "libcurl could not be initialized")
        }
        return transport
        #else
        return nil
        #endif
    }
}
