import PaywireModel
import PaywireWire

/// The token of a web purchase's redemption link (`…/redeem?token=…`, whatever its scheme and
/// host: a custom scheme, a universal link or a page all carry it the same way).
enum RedemptionLink {
    /// The longest token `POST /v1/redemptions` takes (the request's own rule).
    static let maxTokenBytes = RedemptionRequest.maxTokenBytes
    /// The longest link taken, as the schema's `redeem_web_purchase.url` says.
    static let maxURLBytes = 4096

    /// The `token` query member of `url`, percent-decoded. A link without one, with it twice,
    /// empty, or with an escape that is not one (or decodes to bytes that are not UTF-8) is
    /// refused naming `url`: a link that was mangled on its way must not redeem something else.
    static func token(in url: String) throws(WireError) -> String {
        guard url.utf8.count <= maxURLBytes else { throw WireError.wrongParam("url", "the link is longer than \(maxURLBytes) bytes") }
        let beforeFragment = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = beforeFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw WireError.wrongParam("url", "the link has no query: expected …?token=…") }
        var found: [Substring] = []
        for member in parts[1].split(separator: "&") {
            let pair = member.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if pair.first == "token" { found.append(pair.count == 2 ? pair[1] : "") }
        }
        guard found.count == 1, let raw = found.first else {
            throw WireError.wrongParam("url", found.isEmpty ? "the link has no token" : "the link names token more than once")
        }
        guard let token = percentDecoded(raw), !token.isEmpty else {
            throw WireError.wrongParam("url", "the link's token is empty or not validly percent-encoded")
        }
        guard token.utf8.count <= maxTokenBytes else {
            throw WireError.wrongParam("url", "the link's token is longer than \(maxTokenBytes) bytes: no backend token is")
        }
        return token
    }

    /// `text` with `%XX` escapes (and `+` as a space, as forms write it) decoded; nil when an
    /// escape is cut short or not hex, or the bytes are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(Hex.value(ofDigit:)), let low = iterator.next().flatMap(Hex.value(ofDigit:)) else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
