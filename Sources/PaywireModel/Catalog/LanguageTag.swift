import PaywireWire

/// A BCP 47 language tag as far as choosing a localization needs it: language, script, region.
/// Case-insensitive, `_` read as `-`; variants and extensions are kept only for the exact match.
package struct LanguageTag: Equatable, Sendable {
    /// The whole tag, lowercased, `-` between subtags: what an exact match compares.
    package let normalized: String
    package let language: String
    /// The written script (`hant`, `latn`), as given or as the language and region imply.
    package let script: String?
    package let region: String?
    /// Whether the tag itself named the script (`zh-Hant`), rather than it being implied (`zh-TW`).
    package let namesScript: Bool

    /// Nil for an empty tag or one whose first subtag is not a language (2 to 8 letters).
    package init?(_ text: String) {
        let subtags = text.split(whereSeparator: { $0 == "-" || $0 == "_" }).map { $0.lowercased() }
        guard let language = subtags.first, (2...8).contains(language.count), language.allSatisfy({ $0.isASCIILetter }) else {
            return nil
        }
        var rest = subtags.dropFirst()
        var script: String?
        if let next = rest.first, next.count == 4, next.allSatisfy({ $0.isASCIILetter }) {
            script = next
            rest = rest.dropFirst()
        }
        var region: String?
        if let next = rest.first, (next.count == 2 && next.allSatisfy({ $0.isASCIILetter })) || (next.count == 3 && next.allSatisfy({ $0.isASCIIDigit })) {
            region = next
        }
        self.normalized = subtags.joined(separator: "-")
        self.language = language
        self.region = region
        self.namesScript = script != nil
        self.script = script ?? LanguageTag.impliedScript(language: language, region: region)
    }

    /// Whether text in `other` can be read by someone asking for `self`: the same language in
    /// the same script (both as written or implied; a language with one script has none here).
    package func sharesScript(with other: LanguageTag) -> Bool {
        language == other.language && script == other.script
    }

    /// The lookup chain of this tag, most specific first (RFC 4647 lookup, script-aware): the
    /// exact tag, the tag with its script made explicit, then with subtags removed from the
    /// end. It never falls from a script to the bare language when the bare language implies
    /// another script: `zh-Hant` stops before `zh`, which is written in Simplified characters.
    package var lookupChain: [String] {
        var chain = [normalized]
        func add(_ tag: String) { if !chain.contains(tag) { chain.append(tag) } }
        if let script, let region { add("\(language)-\(script)-\(region)") }
        if let region, script == LanguageTag.impliedScript(language: language, region: region) { add("\(language)-\(region)") }
        if let script {
            add("\(language)-\(script)")
            if script == LanguageTag.impliedScript(language: language, region: nil) { add(language) }
        } else {
            add(language)
        }
        return chain
    }

    /// The script a language is written in when the tag names none, for the languages written
    /// in more than one (CLDR's likely subtags, cut to the ones a paywall meets). Nil for the
    /// rest: their text needs no script to be told apart.
    package static func impliedScript(language: String, region: String?) -> String? {
        switch language {
        case "zh": return ["tw", "hk", "mo"].contains(region ?? "") ? "hant" : "hans"
        case "sr": return region == "me" ? "latn" : "cyrl"
        case "uz": return region == "af" ? "arab" : "latn"
        case "pa": return region == "pk" ? "arab" : "guru"
        case "az": return region == "ir" ? "arab" : "latn"
        case "bs": return "latn"
        default: return nil
        }
    }
}

private extension Character {
    var isASCIILetter: Bool { isASCII && isLetter }
    var isASCIIDigit: Bool { isASCII && isNumber }
}
