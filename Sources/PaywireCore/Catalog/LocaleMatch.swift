/// The locale rule shared by every platform: match on the language subtag only.
enum LocaleMatch {
    /// The language used when a request names none, and the one every paywall falls back to.
    static let defaultLanguage = "en"

    /// The lowercased language subtag of `locale` (`en-US` and `EN_us` -> `en`); `en` when empty.
    static func language(of locale: String?) -> String {
        guard let locale else { return defaultLanguage }
        let subtag = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? ""
        let lowered = subtag.lowercased()
        return lowered.isEmpty ? defaultLanguage : lowered
    }

    /// Picks the localization for `language`, else the default language's, else none.
    static func pick<T>(_ localizations: [T], language: String, lang: (T) -> String) -> T? {
        localizations.first { LocaleMatch.language(of: lang($0)) == language }
            ?? localizations.first { LocaleMatch.language(of: lang($0)) == defaultLanguage }
    }
}
