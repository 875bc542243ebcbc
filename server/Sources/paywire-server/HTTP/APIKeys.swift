import Crypto
import Hummingbird

/// The API keys a server accepts, held only as SHA-256 digests (a key in clear is hashed when
/// the configuration is read and never kept). A request's key is hashed and compared with every
/// digest in time that depends on neither where they differ nor which one matched.
struct APIKeys: Sendable {
    let digests: [[UInt8]]

    var isRequired: Bool { !digests.isEmpty }

    static func digest(of key: some StringProtocol) -> [UInt8] { Array(SHA256.hash(data: Array(key.utf8))) }

    /// 64 hex digits as 32 bytes (a SHA-256 digest, an HMAC-SHA256); nil for anything else.
    static func digest(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    /// Whether an `authorization` header carries `Api-Key <key>` with an accepted key.
    func accepts(_ header: String?) -> Bool {
        let text = header ?? ""
        let prefix = "Api-Key "
        let key = text.hasPrefix(prefix) ? text.dropFirst(prefix.count) : ""
        let given = Self.digest(of: key)
        var matched: UInt8 = 0
        for expected in digests { matched |= Self.same(given, expected) }
        return text.hasPrefix(prefix) && matched == 1
    }

    /// 1 when equal, else 0; every byte is looked at (Stripe's signatures are compared so too).
    static func same(_ a: [UInt8], _ b: [UInt8]) -> UInt8 {
        guard a.count == b.count else { return 0 }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0 ? 1 : 0
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// `401` for an API request without an accepted key, when the server has keys. App Store
/// notifications and Stripe webhooks are exempt (neither sends a key; Apple's signature chain
/// and Stripe's endpoint secret prove where they came from), and so are the operations routes and, when the server checks push tokens, the Play
/// notification route (`RequirePushToken`: Pub/Sub cannot send a key). The key is never echoed
/// or logged.
struct RequireAPIKey: RouterMiddleware {
    typealias Context = ServerContext
    let keys: APIKeys
    /// Paths another check guards instead.
    var exempt: Set<String> = []

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        let guarded = (path.hasPrefix("/v1/") && context.endpointPath != nil && path != "/v1/notifications/app-store" && path != "/v1/webhooks/stripe"
            && !exempt.contains(path)) || path == "/dashboard" || path.hasPrefix("/dashboard/")
        guard keys.isRequired, guarded, !keys.accepts(request.headers[.authorization]) else { return try await next(request, context) }
        return ErrorBody.response(.unauthorized, code: "unauthorized", "this server needs 'authorization: Api-Key <key>' with a key it accepts")
    }
}
