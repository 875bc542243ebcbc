import PaywireWire

/// The file formats a fallback bundle is read from, told apart by their shape.
package enum FallbackFormat: String, WireEnum, Sendable {
    /// Paywire's own bundle: `format_version`, `response_created_at`, `placements`, `onboardings`.
    case paywire
    /// The fallback file Adapty's dashboard exports, read as it is: `meta`, `data`
    /// (see `VendorFallback`).
    case adapty
}

/// A fallback bundle: the paywalls an app ships so it can show one with no network.
///
/// Paywire's format (documented in docs/concepts/placements.md and
/// `schema/paywire.schema.json#/$defs/bundle`):
/// `{"format_version": 1, "response_created_at": <ms>, "placements": {"<id>": <placement>},
///   "onboardings": {"<id>": <placement>}}` (`onboardings` optional). A file of the vendor's
/// format (`{"meta": {...}, "data": {...}}`, `VendorFallback`) is read as it is, into the same
/// placements. The index (which placements exist, where their bytes are) is read eagerly on
/// load; each placement is parsed and checked on first use, so the cost of loading grows with
/// the number of placements, not with the size of their contents.
package final class FallbackBundle {
    /// The only version of Paywire's own format this build reads.
    package static let paywireFormatVersion = 1

    /// The format the bundle was read from.
    package let format: FallbackFormat
    /// The file's format version (1 for Paywire's format, 8 to 11 for the vendor's).
    package let formatVersion: Int
    /// The bundle's content version: when its data was produced, in ms since the epoch.
    package let responseCreatedAt: WideInt
    /// Paywall placements.
    package let paywalls: PlacementSection<Variation>
    /// Onboarding placements.
    package let onboardings: PlacementSection<OnboardingVariation>

    package init(format: FallbackFormat, formatVersion: Int, responseCreatedAt: WideInt,
                 paywalls: PlacementSection<Variation>, onboardings: PlacementSection<OnboardingVariation>) {
        self.format = format
        self.formatVersion = formatVersion
        self.responseCreatedAt = responseCreatedAt
        self.paywalls = paywalls
        self.onboardings = onboardings
    }

    /// Checks the whole text's syntax and reads the index; placements stay unparsed. `origin`
    /// is the file the bytes came from, when they came from one: every error about the bundle,
    /// now or when a placement is first read, names it, with the line and column where one is
    /// known (`bundle.json:12:5: ...`).
    package static func load(_ bytes: [UInt8], origin: String? = nil) throws(WireError) -> FallbackBundle {
        do throws(WireError) {
            let bundle = try parse(bytes)
            bundle.paywalls.origin = origin
            bundle.onboardings.origin = origin
            return bundle
        } catch {
            // A syntax error knows its place; an error about the header names the file alone.
            let offset = error.details["offset"].flatMap { value -> Int? in
                if case .number(let number) = value { return number.intValue }
                return nil
            }
            throw error.located(file: origin, at: offset.map { TextPosition(of: $0, in: bytes) })
        }
    }

    private static func parse(_ bytes: [UInt8]) throws(WireError) -> FallbackBundle {
        let scanned: Result<TopLevel, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, limits: JSONLimits(maxDepth: 128, maxBytes: .max))
            do throws(JSONParseError) {
                parser.skipWhitespace()
                var top = TopLevel()
                if parser.peek() == UInt8(ascii: "{") {
                    top = try scanTopLevel(&parser)
                } else {
                    _ = try parser.skipValue()
                    top.isObject = false
                }
                try parser.expectEnd()
                return .success(top)
            } catch {
                return .failure(error)
            }
        }
        switch scanned {
        case .success(let top): return try build(bytes, top)
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
        let top: TopLevel? = params.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, limits: .standard)
            var top: TopLevel?
            var otherSource = false
            do throws(JSONParseError) {
                try parser.scanObject { key, parser throws(JSONParseError) in
                    if key == "bundle" && top == nil && !otherSource {
                        top = try scanTopLevel(&parser)
                    } else {
                        otherSource = otherSource || key == "path" || key == "bundle"
                        _ = try parser.skipValue()
                    }
                }
                try parser.expectEnd()
            } catch {
                return nil
            }
            return otherSource ? nil : top
        }
        guard let top else { return nil }
        return try build(params, top)
    }

    /// The error for a file of a format version this library does not read (`supported` are
    /// those it does): which side is older says what to do (the file: export or download it
    /// again; the library: update it). The message and the details name both versions:
    /// `found`, and `expected`, the nearest version this library reads.
    package static func wrongVersion(_ format: FallbackFormat, found: Int, supported: ClosedRange<Int>) -> WireError {
        let fileIsOlder = found < supported.lowerBound
        let expected = fileIsOlder ? supported.lowerBound : supported.upperBound
        let file = format == .paywire ? "the Paywire bundle" : "the fallback file exported from the dashboard"
        let remedy: String
        switch (format, fileIsOlder) {
        case (.paywire, true): remedy = "export the fallback file again for format version \(expected)"
        case (.adapty, true): remedy = "download a new fallback file from the dashboard"
        case (_, false): remedy = "update Paywire to a version that reads format version \(found)"
        }
        let reads = supported.count == 1 ? "the version \(expected)" : "the versions \(supported.lowerBound) to \(supported.upperBound)"
        return WireError(.wrongFallbackVersion,
                         "\(file) has format version \(found), \(fileIsOlder ? "older" : "newer") than \(reads) this Paywire reads: \(remedy)",
                         details: JSONObject([("format", .string(format.rawValue)),
                                              ("found", .number(JSONNumber(found))),
                                              ("expected", .number(JSONNumber(expected))),
                                              ("supported", .array(supported.map { .number(JSONNumber($0)) })),
                                              ("older", .string(fileIsOlder ? "file" : "library"))]))
    }

    private static func build(_ bytes: [UInt8], _ top: TopLevel) throws(WireError) -> FallbackBundle {
        switch top.format {
        case .paywire?: return try buildPaywire(bytes, top)
        case .adapty?: return try VendorFallback.bundle(bytes, meta: top.meta, data: top.vendorData)
        case nil:
            throw WireError(.invalidFallback,
                            "the file is neither a Paywire fallback bundle (format_version, response_created_at, placements) nor a fallback file exported from Adapty's dashboard (meta.version, meta.response_created_at, data)",
                            details: JSONObject([("expected", .array([
                                .object(JSONObject([("format", .string("paywire")),
                                                    ("fields", .array(["format_version", "response_created_at", "placements"].map { .string($0) }))])),
                                .object(JSONObject([("format", .string("adapty")),
                                                    ("fields", .array(["meta.version", "meta.response_created_at", "data"].map { .string($0) }))])),
                            ]))]))
        }
    }

    private static func buildPaywire(_ bytes: [UInt8], _ top: TopLevel) throws(WireError) -> FallbackBundle {
        guard let formatVersion = top.formatVersion else {
            throw WireError(.invalidFallback, "the bundle has no integer format_version; is this a Paywire fallback file?",
                            details: JSONObject([("field", .string("format_version"))]))
        }
        guard formatVersion == paywireFormatVersion else {
            throw wrongVersion(.paywire, found: formatVersion, supported: paywireFormatVersion...paywireFormatVersion)
        }
        guard let createdAt = top.responseCreatedAt else {
            throw WireError(.invalidFallback, "the bundle needs an integer response_created_at (ms since the epoch)",
                            details: JSONObject([("field", .string("response_created_at"))]))
        }
        guard let ranges = top.placements else {
            throw WireError(.invalidFallback, "the bundle needs a placements object",
                            details: JSONObject([("field", .string("placements"))]))
        }
        return FallbackBundle(format: .paywire, formatVersion: formatVersion, responseCreatedAt: createdAt,
                              paywalls: PlacementSection(section: "placements", bytes: bytes, ranges: ranges),
                              onboardings: PlacementSection(section: "onboardings", bytes: bytes, ranges: top.onboardings ?? [:]))
    }

    /// What the top level of a file holds, for either format: one pass reads both formats'
    /// members, since the vendor's file may put `data` before the `meta` that names it.
    private struct TopLevel {
        var isObject = true
        var sawFormatVersion = false
        var formatVersion: Int?
        var sawResponseCreatedAt = false
        var responseCreatedAt: WideInt?
        var placements: [String: Range<Int>]?
        var onboardings: [String: Range<Int>]?
        var meta: JSONValue?
        var sawData = false
        var vendorData: VendorFallback.Index?

        /// The format the members say: `format_version` is Paywire's; else `meta` or `data` the
        /// vendor's; else Paywire's other members; nil when the file has none of them.
        var format: FallbackFormat? {
            guard isObject else { return nil }
            if sawFormatVersion { return .paywire }
            if meta != nil || sawData { return .adapty }
            if sawResponseCreatedAt || placements != nil || onboardings != nil { return .paywire }
            return nil
        }
    }

    private static func scanTopLevel(_ parser: inout JSONParser) throws(JSONParseError) -> TopLevel {
        var top = TopLevel()
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
                top.sawFormatVersion = true
                if case .number(let number) = try parser.parseValue() { top.formatVersion = number.intValue }
            case "response_created_at":
                top.sawResponseCreatedAt = true
                if case .number(let number) = try parser.parseValue() { top.responseCreatedAt = number.wideValue }
            case "placements": top.placements = try index(&parser)
            case "onboardings": top.onboardings = try index(&parser)
            case "meta": top.meta = try parser.parseValue()
            case "data":
                top.sawData = true
                top.vendorData = try VendorFallback.scanData(&parser)
            default: _ = try parser.skipValue()
            }
        }
        return top
    }
}
