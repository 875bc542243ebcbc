/// A fallback bundle: the paywalls an app ships so it can show one with no network.
///
/// Format (documented in README.md and `schema/paywire.schema.json#/$defs/bundle`):
/// `{"format_version": 1, "response_created_at": <ms>, "placements": {"<id>": <placement>}}`.
/// The index (which placements exist, where their bytes are) is read eagerly on load; each
/// placement is parsed and checked on first use, so the cost of loading grows with the number
/// of placements, not with the size of their contents.
final class FallbackBundle {
    /// The only bundle format this build reads.
    static let formatVersion = 1

    /// The bundle's content version: when its data was produced, in ms since the epoch.
    let responseCreatedAt: Int
    private let bytes: [UInt8]
    private let placementRanges: [String: Range<Int>]
    private var loaded: [String: Placement] = [:]

    /// Every placement id the bundle holds.
    var placementIds: Dictionary<String, Range<Int>>.Keys { placementRanges.keys }

    private init(bytes: [UInt8], responseCreatedAt: Int, placementRanges: [String: Range<Int>]) {
        self.bytes = bytes
        self.responseCreatedAt = responseCreatedAt
        self.placementRanges = placementRanges
    }

    /// Checks the whole text's syntax and reads the index; placements stay unparsed.
    static func load(_ bytes: [UInt8]) throws(WireError) -> FallbackBundle {
        let scanned: Result<(Int?, Int?, [String: Range<Int>]?), JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, limits: JSONLimits(maxDepth: 128, maxBytes: .max))
            do throws(JSONParseError) {
                return .success(try scanTopLevel(&parser))
            } catch {
                return .failure(error)
            }
        }
        let formatVersion: Int?, createdAt: Int?, ranges: [String: Range<Int>]?
        switch scanned {
        case .success(let header): (formatVersion, createdAt, ranges) = header
        case .failure(let error):
            throw WireError(.invalidFallback, "the bundle is not valid JSON: \(error.reason) at byte \(error.offset)",
                            details: JSONObject([("offset", .number(JSONNumber(error.offset)))]))
        }
        guard let formatVersion else {
            throw WireError(.invalidFallback, "the bundle has no integer format_version; is this a Paywire fallback file?",
                            details: JSONObject([("field", .string("format_version"))]))
        }
        guard formatVersion == FallbackBundle.formatVersion else {
            throw WireError(.wrongFallbackVersion,
                            "the bundle has format_version \(formatVersion) but this Paywire reads version \(FallbackBundle.formatVersion): export the fallback file again for this version, or update Paywire",
                            details: JSONObject([("found", .number(JSONNumber(formatVersion))),
                                                 ("expected", .number(JSONNumber(FallbackBundle.formatVersion)))]))
        }
        guard let createdAt else {
            throw WireError(.invalidFallback, "the bundle needs an integer response_created_at (ms since the epoch)",
                            details: JSONObject([("field", .string("response_created_at"))]))
        }
        guard let ranges else {
            throw WireError(.invalidFallback, "the bundle needs a placements object",
                            details: JSONObject([("field", .string("placements"))]))
        }
        return FallbackBundle(bytes: bytes, responseCreatedAt: createdAt, placementRanges: ranges)
    }

    private static func scanTopLevel(_ parser: inout JSONParser) throws(JSONParseError) -> (Int?, Int?, [String: Range<Int>]?) {
        var formatVersion: Int?
        var createdAt: Int?
        var ranges: [String: Range<Int>]?
        try parser.scanObject { key, parser throws(JSONParseError) in
            switch key {
            case "format_version":
                if case .number(let number) = try parser.parseValue() { formatVersion = number.intValue }
            case "response_created_at":
                if case .number(let number) = try parser.parseValue() { createdAt = number.intValue }
            case "placements":
                var index: [String: Range<Int>] = [:]
                try parser.scanObject { placementId, parser throws(JSONParseError) in
                    index[placementId] = try parser.skipValue()
                }
                ranges = index
            default:
                _ = try parser.skipValue()
            }
        }
        try parser.expectEnd()
        return (formatVersion, createdAt, ranges)
    }

    /// The placement named `id`, parsed and checked on first use; nil when the bundle has none.
    func placement(_ id: String) throws(WireError) -> Placement? {
        if let cached = loaded[id] { return cached }
        guard let range = placementRanges[id] else { return nil }
        let value: JSONValue
        do {
            value = try JSONParser.parse(Array(bytes[range]), limits: JSONLimits(maxDepth: 128, maxBytes: .max))
        } catch {
            throw WireError(.invalidFallback, "placement '\(id)': \(error.reason)")
        }
        let placement = try Placement.load(id: id, from: value)
        loaded[id] = placement
        return placement
    }
}
