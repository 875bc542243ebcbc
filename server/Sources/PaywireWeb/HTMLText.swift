/// Text and attribute values as HTML: every string that came from a configuration or a caller
/// passes through here, so no author's text can open a tag, end an attribute or start a script.
enum HTMLText {
    /// The text with `& < > " '` as character references. One function for text and for
    /// double-quoted attribute values alike, so a call site cannot pick the weaker one.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// ` name="value"`, escaped; the leading space lets call sites join attributes by appending.
    static func attribute(_ name: String, _ value: String) -> String {
        " \(name)=\"\(escape(value))\""
    }

    /// Whether a URL may be fetched by a browser as an image: only the web's own schemes, so an
    /// app bundle's `asset://`, a `javascript:` or a `data:` never reaches `src`.
    static func isWebURL(_ url: String) -> Bool {
        let lower = url.lowercased()
        for scheme in ["https://", "http://"] where lower.hasPrefix(scheme) {
            return lower.count > scheme.count
        }
        return false
    }

    /// The name inside an `asset://` URL (what a placeholder shows), nil for any other URL.
    static func assetName(_ url: String) -> String? {
        let scheme = "asset://"
        guard url.lowercased().hasPrefix(scheme) else { return nil }
        return String(url.dropFirst(scheme.count))
    }
}
