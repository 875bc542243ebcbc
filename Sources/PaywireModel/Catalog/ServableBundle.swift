import PaywireWire

/// A bundle as the backend serves it (what `paywire-server` serves): every placement checked
/// by the rules the client applies, and each backend response built once, with the placement's
/// JSON text exactly as authored (numbers and key order untouched).
///
/// Response bodies follow `api/openapi.yaml`: `{"response_created_at": <ms>, "placement": ...}`.
public struct ServableBundle: Sendable {
    /// One ready response: its body and its strong `ETag` (quoted MD5 of the body).
    public struct Response: Sendable {
        public let body: [UInt8]
        public let etag: String
    }

    public let responseCreatedAt: WideInt
    /// `placements` responses by placement id.
    public let placements: [String: Response]
    /// `onboardings` responses by placement id.
    public let onboardings: [String: Response]

    /// Reads and checks a bundle: a bad placement fails here, naming it, rather than on the
    /// device later. Paywire's format only: responses carry each placement's text as authored,
    /// and a vendor file's placements are not in the shape the API serves.
    public static func load(_ bytes: [UInt8]) throws(WireError) -> ServableBundle {
        let bundle = try FallbackBundle.load(bytes)
        guard bundle.format == .paywire else {
            throw WireError(.invalidFallback,
                            "the backend serves Paywire bundles (format_version \(FallbackBundle.paywireFormatVersion)); this is a \(bundle.format.rawValue) fallback file, which the library reads but the backend does not serve",
                            details: JSONObject([("format", .string(bundle.format.rawValue))]))
        }
        return ServableBundle(
            responseCreatedAt: bundle.responseCreatedAt,
            placements: try responses(bundle.paywalls, bytes: bytes, createdAt: bundle.responseCreatedAt),
            onboardings: try responses(bundle.onboardings, bytes: bytes, createdAt: bundle.responseCreatedAt))
    }

    /// The strong ETag the server gives a body: its quoted MD5.
    public static func etag(of body: [UInt8]) -> String { "\"" + Hex.encode(MD5.digest(body)) + "\"" }

    private static func responses<V>(_ section: PlacementSection<V>, bytes: [UInt8], createdAt: WideInt) throws(WireError) -> [String: Response] {
        var responses: [String: Response] = [:]
        for id in section.ids {
            guard try section.placement(id) != nil, let range = section.range(of: id) else { continue }
            var body = Array("{\"response_created_at\":\(createdAt),\"placement\":".utf8)
            body.append(contentsOf: bytes[range])
            body.append(UInt8(ascii: "}"))
            responses[id] = Response(body: body, etag: etag(of: body))
        }
        return responses
    }
}
