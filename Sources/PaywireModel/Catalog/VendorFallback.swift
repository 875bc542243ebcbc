import PaywireWire

/// The fallback file Adapty's dashboard exports (what its SDK's `setFallback` takes), read as
/// it is into the placements Paywire's own bundle holds, so the core serves it by the same
/// rules: the same md5 bucketing, cross-placement groups, products, remote config, and the
/// content version that arbitrates between cache and bundle.
///
/// Shape (format versions 8 to 11):
/// `{"meta": {"version": 8, "response_created_at": <ms>, "developer_ids": [<id>, ...]},
///   "data": {"<id>": {"meta": {"placement": {...}}, "data": [<variation>, ...]}, ...}}`;
/// a placement may also be that object written as a JSON string. A variation is a paywall
/// (`paywall_id`, `products`, ...; from format 10 a flow, `flow_id` and its paywalls) or an
/// onboarding (`onboarding_id`, `onboarding_builder`, ...); which one a placement serves is read
/// from its first variation when the file is indexed. What each version changed, what each
/// vendor field becomes, and the fields with no place in Paywire's model:
/// docs/concepts/fallback-and-cache.md.
package enum VendorFallback {
    /// The versions of the vendor's format this build reads: 8 (its SDKs 3.x until 3.11), 9
    /// (3.12 on: product references name their access level and period), 10 (4.0: flows) and 11
    /// (4.1: a flow's layouts).
    package static let formatVersions = 8...11
    /// The first version whose paywall variations are flows.
    static let firstFlowVersion = 10

    /// Where each placement of `data` is, by the kind its variations serve. A placement whose
    /// kind cannot be told (no variations, not an object) is filed with the paywalls, where the
    /// first `get_paywall` of it reports what is wrong.
    package struct Index {
        package var paywalls: [String: Range<Int>] = [:]
        package var onboardings: [String: Range<Int>] = [:]
    }

    /// Indexes the top-level `data` member: each placement's byte range and kind, without
    /// building any of it. Nil (the value skipped) when `data` is not an object.
    package static func scanData(_ parser: inout JSONParser) throws(JSONParseError) -> Index? {
        parser.skipWhitespace()
        guard parser.peek() == UInt8(ascii: "{") else {
            _ = try parser.skipValue()
            return nil
        }
        var index = Index()
        try parser.scanObject { id, parser throws(JSONParseError) in
            parser.skipWhitespace()
            let start = parser.position
            let isOnboarding: Bool
            switch parser.peek() {
            case UInt8(ascii: "{"): isOnboarding = try servesOnboarding(&parser)
            case UInt8(ascii: "\""): isOnboarding = servesOnboarding(text: try parser.parseString())
            default:
                _ = try parser.skipValue()
                isOnboarding = false
            }
            if isOnboarding { index.onboardings[id] = start..<parser.position } else { index.paywalls[id] = start..<parser.position }
        }
        return index
    }

    /// Checks the header (`meta`) and makes the bundle over the indexed placements.
    static func bundle(_ bytes: [UInt8], meta: JSONValue?, data: Index?) throws(WireError) -> FallbackBundle {
        guard case .object(let object)? = meta else {
            throw invalid("the dashboard's fallback file needs a meta object", field: "meta")
        }
        let fields = Fields(object, path: "meta")
        guard case .number(let number)? = fields.optional("version"), let version = number.intValue else {
            throw invalid("the dashboard's fallback file needs an integer meta.version", field: "meta.version")
        }
        guard formatVersions.contains(version) else {
            throw FallbackBundle.wrongVersion(.adapty, found: version, supported: formatVersions)
        }
        guard case .number(let createdNumber)? = fields.optional("response_created_at"), let createdAt = createdNumber.wideValue, createdAt >= 0 else {
            throw invalid("the dashboard's fallback file needs meta.response_created_at, ms since the epoch", field: "meta.response_created_at")
        }
        guard var data else {
            throw invalid("the dashboard's fallback file needs a data object holding its placements", field: "data")
        }
        if let listed = try listedPlacements(fields) {
            // As the vendor's SDK reads it: a placement the header does not list is not served.
            data.paywalls = data.paywalls.filter { listed.contains($0.key) }
            data.onboardings = data.onboardings.filter { listed.contains($0.key) }
        }
        return FallbackBundle(
            format: .adapty, formatVersion: version, responseCreatedAt: createdAt,
            paywalls: PlacementSection(section: "data", bytes: bytes, ranges: data.paywalls) { id, value throws(WireError) in
                try VendorPlacement.read(id: id, value) { fields, group throws(WireError) in
                    version >= firstFlowVersion
                        ? try Variation(vendorFlow: fields, version: version, crossPlacementGroup: group)
                        : try Variation(vendor: fields, version: version, crossPlacementGroup: group)
                }
            },
            onboardings: PlacementSection(section: "data", bytes: bytes, ranges: data.onboardings) { id, value throws(WireError) in
                try VendorPlacement.read(id: id, value) { fields, group throws(WireError) in try OnboardingVariation(vendor: fields, crossPlacementGroup: group) }
            })
    }

    /// `meta.developer_ids`, when the file has it.
    private static func listedPlacements(_ meta: Fields) throws(WireError) -> Set<String>? {
        guard let value = meta.optional("developer_ids") else { return nil }
        guard case .array(let elements) = value else {
            throw invalid("meta.developer_ids must be an array of placement ids", field: "meta.developer_ids")
        }
        var ids = Set<String>()
        for element in elements {
            guard case .string(let id) = element else {
                throw invalid("meta.developer_ids must be an array of placement ids", field: "meta.developer_ids")
            }
            ids.insert(id)
        }
        return ids
    }

    private static func invalid(_ message: String, field: String) -> WireError {
        WireError(.invalidFallback, message, details: JSONObject([("field", .string(field))]))
    }

    /// Whether a placement object's first variation is an onboarding (`onboarding_id`, and no
    /// `paywall_id` or, from format 10, `flow_id`). Reads the keys of that one variation and
    /// skips the rest; the same test for every version, since `data` may come before the `meta`
    /// that names the version.
    private static func servesOnboarding(_ parser: inout JSONParser) throws(JSONParseError) -> Bool {
        var sawOnboarding = false
        var sawPaywall = false
        try parser.scanObject { key, parser throws(JSONParseError) in
            parser.skipWhitespace()
            guard key == "data", parser.peek() == UInt8(ascii: "[") else {
                _ = try parser.skipValue()
                return
            }
            try parser.scanArray { element, parser throws(JSONParseError) in
                parser.skipWhitespace()
                guard element == 0, parser.peek() == UInt8(ascii: "{") else {
                    _ = try parser.skipValue()
                    return
                }
                try parser.scanObject { key, parser throws(JSONParseError) in
                    sawOnboarding = sawOnboarding || key == "onboarding_id"
                    sawPaywall = sawPaywall || key == "paywall_id" || key == "flow_id"
                    _ = try parser.skipValue()
                }
            }
        }
        return sawOnboarding && !sawPaywall
    }

    /// The same, for a placement written as JSON text; a text that does not parse is filed
    /// with the paywalls, and reported when asked for.
    private static func servesOnboarding(text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, limits: JSONLimits(maxDepth: 128, maxBytes: .max))
            do throws(JSONParseError) {
                let onboarding = try servesOnboarding(&parser)
                try parser.expectEnd()
                return onboarding
            } catch {
                return false
            }
        }
    }
}
