import CCurl
import PaywireCore
import PaywireModel
import PaywireWire

/// An HTTP transport the boundary owns: it must stop (abort transfers, deliver nothing more)
/// when the client is freed.
protocol BoundaryTransport: HTTPTransport {
    func close()
}

/// The built-in HTTP client for `transport {type: http}`.
enum BuiltInTransport {
    /// A client for `settings`. The first call in a process loads libcurl; when it cannot be
    /// loaded (missing, too old) the config is refused with `wrong_param` on `transport.type`,
    /// naming the library, so the host knows to install it or carry HTTP itself.
    static func make(_ settings: TransportConfig,
                     deliver: @escaping @Sendable (UInt64, HTTPOutcome) -> Void) throws(WireError) -> BoundaryTransport? {
        if let failure = pw_curl_load() {
            let reason = String(cString: failure)
            var details = JSONObject()
            details.set("field", .string("transport.type"))
            details.set("library", .string(PW_CURL_LIBRARY))
            details.set("underlying_error", .string(reason))
            throw WireError(.wrongParam, "transport.type http needs libcurl \(PW_CURL_MINIMUM_VERSION_TEXT) or later: \(reason); "
                + "install it (Debian: libcurl4) or carry requests in the host with transport.type host", details: details)
        }
        guard let transport = CurlTransport(connectTimeoutMilliseconds: settings.connectTimeoutMilliseconds,
                                            caFile: settings.caFile, deliver: deliver) else {
            throw WireError(.internal, "libcurl could not make a multi handle")
        }
        return transport
    }
}
