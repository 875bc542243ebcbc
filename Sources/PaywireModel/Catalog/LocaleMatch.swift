import PaywireWire

/// The locale rule shared by every platform: which localization answers a request's locale.
package enum LocaleMatch {
    /// The language used when a request names none, and the one every paywall falls back to.
    package static let defaultLanguage = "en"

    /// The lowercased language subtag of `locale` (`en-US` and `EN_us` -> `en`); `en` when empty.
    /// What audience rules on `language` compare.
    package static func language(of locale: String?) -> String {
        guard let locale, let tag = LanguageTag(locale) else { return defaultLanguage }
        return tag.language
    }

    /// Picks the localization for `locale`: its lookup chain (the exact tag, then less specific
    /// tags that keep its script), then a sibling in the same language and script (`en-GB` for
    /// `en-US`), then the same for `placementDefault`, then for `en`. Tags compare
    /// case-insensitively with `_` read as `-`. Nil when none answers.
    package static func pick<T>(_ localizations: [T], locale: String?, placementDefault: String?, lang: (T) -> String) -> T? {
        let tagged = localizations.compactMap { localization in LanguageTag(lang(localization)).map { ($0, localization) } }
        for requested in [locale, placementDefault, defaultLanguage] {
            guard let requested, let tag = LanguageTag(requested) else { continue }
            for candidate in tag.lookupChain {
                if let hit = tagged.first(where: { $0.0.normalized == candidate }) { return hit.1 }
            }
            if let sibling = tagged.first(where: { $0.0.sharesScript(with: tag) }) { return sibling.1 }
        }
        return nil
    }
}
