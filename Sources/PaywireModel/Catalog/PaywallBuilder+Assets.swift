import PaywireWire

extension PaywallBuilder {
    /// The image and icon URLs a builder configuration names, deduplicated, in document order,
    /// so a host can download them before the paywall shows (`prefetch`): each `image`
    /// section's `url`, and the `icon` of a `features_list` or `icon_grid` item when it is a URL
    /// (an icon may also be a name the host draws from its own set, which is no download).
    /// Nested sections (card, carousel, sticky footer) count where they stand. Links the user
    /// opens are not assets and are left out. An unchecked configuration is read as far as it
    /// makes sense: nothing here fails.
    package static func assetURLs(_ builder: JSONValue?) -> [String] {
        var collector = AssetCollector()
        if case .object(let root)? = builder { collector.sections(root["sections"], depth: 0) }
        return collector.urls
    }

    /// Whether a string names something to download: the schemes an `image` section accepts.
    package static func isAssetURL(_ text: String) -> Bool {
        text.hasPrefix("https://") || text.hasPrefix("http://") || text.hasPrefix("asset://")
    }
}

/// Walks the sections in order, keeping each URL the first time it appears.
private struct AssetCollector {
    private(set) var urls: [String] = []
    private var seen = Set<String>()

    mutating func sections(_ value: JSONValue?, depth: Int) {
        // The same nesting bound the checker enforces: a hostile document cannot recurse deeper.
        guard depth < PaywallBuilder.maxNesting, case .array(let list)? = value else { return }
        for case .object(let fields) in list {
            guard case .string(let type)? = fields["type"] else { continue }
            // Members in the order written, so a nested image before a later one keeps its place.
            for (key, value) in fields.members {
                switch (type, key) {
                case ("image", "url"): add(value)
                case ("features_list", "items"), ("icon_grid", "items"): icons(value)
                case (_, "sections"): sections(value, depth: depth + 1)
                default: continue
                }
            }
        }
    }

    private mutating func icons(_ items: JSONValue) {
        guard case .array(let items) = items else { return }
        for case .object(let item) in items { add(item["icon"]) }
    }

    private mutating func add(_ value: JSONValue?) {
        guard case .string(let text)? = value, PaywallBuilder.isAssetURL(text), seen.insert(text).inserted else { return }
        urls.append(text)
    }
}
