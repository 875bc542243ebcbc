import PaywireWire

/// A fallback bundle: the paywalls an app ships so it can show one with no network.
///
/// Format (documented in README.md and `schema/paywire.schema.json#/$defs/bundle`):
/// `{"format_version": 1, "response_created_at": <ms>, "placements": {"<id>": <placement>},
///   "onboardings": {"<id>": <placement>}}` (`onboardings` optional).
/// The index (which placements exist, where their bytes are) is read eagerly on load; each
/// placement is parsed and checked on first use, so the cost of loading grows with the number
/// of placements, not with the size of their contents.
package final class FallbackBundle {
    /// The only bundle format this build reads.
    package static let formatVersion = 1

    /// The bundle's content version: when its data was produced, in ms since the epoch.
    package let responseCreatedAt: Int
    /// Paywall placements.
    package let paywalls: PlacementSection<Variation>
    /// Onboarding placements.
    package let onboardings: PlacementSection<OnboardingVariation>

    private init(bytes: [UInt8], responseCreatedAt: Int, placementRanges: [String: Range<Int>], onboardingRanges: [String: Range<Int>]) {
        self.responseCreatedAt = responseCreatedAt
        paywalls = PlacementSection(section: "placements", bytes: bytes, ranges: placementRanges)
        onboardings = PlacementSection(section: "onboardings", bytes: bytes, ranges: onboardingRanges)
    }

    /// Checks the whole text's syntax and reads the index; placements stay unparsed.
    package static func load(_ bytes: [UInt8]) throws(WireError) -> FallbackBundle {
        let scanned: Result<BundleHeader, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, limits: JSONLimits(maxDepth: 128, maxBytes: .max))
            do throws(JSONParseError) {
                let header = try scanTopLevel(&parser)
                try parser.expectEnd()
                return .success(header)
            } catch {
                return .failure(error)
            }
        }
        switch scanned {
        case .success(let header): return try build(bytes, header)
        case .failure(let error):
            throw WireError(.invalidFallback, "the bundle is not valid JSON: \(error.reason) at byte \(error.offset)",
                            details: JSONObject([("offset", .number(JSONNumber(error.offset)))]))
        }
    }

    /// `set_fallback` params of the form `{"bundle": {...}}`, indexed where the bundle sits in
    /// the params text: one pass, no tree, no copy. Nil for any other form, or any syntax
    /// error, so the general path reports it exactly as for every other method.
    package static func loadInline(params: [UInt8]) throws(WireError) -> FallbackBundle? {
        guard params.count <= JSONLimits.standard.maxBytes else { return nil }
        let header: BundleHeader? = params.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, limits: .standard)
            var header: BundleHeader?
            var otherSource = false
            do throws(JSONParseError) {
                try parser.scanObject { key, parser throws(JSONParseError) in
                    if key == "bundle" && header == nil && !otherSource {
                        header = try scanTopLevel(&parser)
                    } else {
                        otherSource = otherSource || key == "path" || key == "bundle"
                        _ = try parser.skipValue()
                    }
                }
                try parser.expectEnd()
            } catch {
                return nil
            }
            return otherSource ? nil : header
        }
        guard let header else { return nil }
        return try build(params, header)
    }

    private static func build(_ bytes: [UInt8], _ header: BundleHeader) throws(WireError) -> FallbackBundle {
        guard let formatVersion = header.formatVersion else {
            throw WireError(.invalidFallback, "the bundle has no integer format_version; is this a Paywire fallback file?",
                            details: JSONObject([("field", .string("format_version"))]))
        }
        guard formatVersion == FallbackBundle.formatVersion else {
            throw WireError(.wrongFallbackVersion,
                            "the bundle has format_version \(formatVersion) but this Paywire reads version \(FallbackBundle.formatVersion): export the fallback file again for this version, or update Paywire",
                            details: JSONObject([("found", .number(JSONNumber(formatVersion))),
                                                 ("expected", .number(JSONNumber(FallbackBundle.formatVersion)))]))
        }
        guard let createdAt = header.responseCreatedAt else {
            throw WireError(.invalidFallback, "the bundle needs an integer response_created_at (ms since the epoch)",
                            details: JSONObject([("field", .string("response_created_at"))]))
        }
        guard let ranges = header.placements else {
            throw WireError(.invalidFallback, "the bundle needs a placements object",
                            details: JSONObject([("field", .string("placements"))]))
        }
        return FallbackBundle(bytes: bytes, responseCreatedAt: createdAt, placementRanges: ranges,
                              onboardingRanges: header.onboardings ?? [:])
    }

    private struct BundleHeader {
        package var formatVersion: Int?
        package var responseCreatedAt: Int?
        package var placements: [String: Range<Int>]?
        package var onboardings: [String: Range<Int>]?
    }

    private static func scanTopLevel(_ parser: inout JSONParser) throws(JSONParseError) -> BundleHeader {
        var header = BundleHeader()
        func index(_ parser: inout JSONParser) throws(JSONParseError) -> [String: Range<Int>] {
            var ranges: [String: Range<Int>] = [:]
            try parser.scanObject { placementId, parser throws(JSONParseError) in
                ranges[placementId] = try parser.skipValue()
            }
            return ranges
        }
        try parser.scanObject { key, parser throws(JSONParseError) in
            switch key {
            case "format_version":
                if case .number(let number) = try parser.parseValue() { header.formatVersion = number.intValue }
            case "response_created_at":
                if case .number(let number) = try parser.parseValue() { header.responseCreatedAt = number.intValue }
            case "placements": header.placements = try index(&parser)
            case "onboardings": header.onboardings = try index(&parser)
            default: _ = try parser.skipValue()
            }
        }
        return header
    }
}

/// One kind of placement in a bundle: the index of where each placement's bytes are, and the
/// placements parsed so far.
package final class PlacementSection<V: WeightedVariation> {
    private let section: String
    private let bytes: [UInt8]
    private let ranges: [String: Range<Int>]
    private var loaded: [String: Placement<V>] = [:]

    package init(section: String, bytes: [UInt8], ranges: [String: Range<Int>]) {
        self.section = section
        self.bytes = bytes
        self.ranges = ranges
    }

    /// Every placement id of this kind the bundle holds.
    package var ids: Dictionary<String, Range<Int>>.Keys { ranges.keys }

    /// Where the placement's JSON text is in the bundle.
    package func range(of id: String) -> Range<Int>? { ranges[id] }

    /// The placement named `id`, parsed and checked on first use; nil when the bundle has none.
    package func placement(_ id: String) throws(WireError) -> Placement<V>? {
        if let cached = loaded[id] { return cached }
        guard let range = ranges[id] else { return nil }
        let value: JSONValue
        do {
            value = try JSONParser.parse(Array(bytes[range]), limits: JSONLimits(maxDepth: 128, maxBytes: .max))
        } catch {
            throw WireError(.invalidFallback, "\(section).\(id): \(error.reason)")
        }
        let placement = try Placement<V>.load(id: id, section: section, from: value)
        loaded[id] = placement
        return placement
    }
}
