import PaywireWire

/// One kind of placement in a bundle: the index of where each placement's bytes are, and the
/// placements parsed so far. How a placement's JSON becomes a `Placement` is the bundle
/// format's (`read`): the section itself only indexes, parses on first use and keeps.
package final class PlacementSection<V: WeightedVariation> {
    /// Makes a checked placement of the JSON a placement id's bytes hold.
    package typealias Reader = (_ id: String, _ value: JSONValue) throws(WireError) -> Placement<V>

    private let section: String
    private let bytes: [UInt8]
    private let ranges: [String: Range<Int>]
    private let read: Reader
    private var loaded: [String: Placement<V>] = [:]
    /// The file the bundle was read from, named with the line and column of a placement that
    /// turns out to be invalid when it is first read.
    package var origin: String?

    /// A section of a Paywire bundle (`section` is `placements` or `onboardings`).
    package convenience init(section: String, bytes: [UInt8], ranges: [String: Range<Int>]) {
        self.init(section: section, bytes: bytes, ranges: ranges) { id, value throws(WireError) in
            try Placement<V>.load(id: id, section: section, from: value)
        }
    }

    /// A section whose placements `read` makes; `section` names them in errors (`data.<id>`).
    package init(section: String, bytes: [UInt8], ranges: [String: Range<Int>], read: @escaping Reader) {
        self.section = section
        self.bytes = bytes
        self.ranges = ranges
        self.read = read
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
                .located(file: origin, at: TextPosition(of: range.lowerBound + error.offset, in: bytes))
        }
        do throws(WireError) {
            let placement = try read(id, value)
            loaded[id] = placement
            return placement
        } catch {
            // Where the placement begins: its members are parsed values, without places of their own.
            throw error.located(file: origin, at: TextPosition(of: range.lowerBound, in: bytes))
        }
    }
}
