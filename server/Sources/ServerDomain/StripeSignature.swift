import Crypto
import Foundation
import PaywireWire

/// Stripe's webhook signature, checked as Stripe documents it ("verify signatures manually"):
/// the `Stripe-Signature` header holds `t=<unix seconds>` and one or more `v1=<hex>`, each the
/// HMAC-SHA256 of `"<t>.<raw body>"` keyed with the endpoint's secret. Schemes other than `v1`
/// (the test-mode `v0`) are ignored. Pure: the clock is passed in.
package struct StripeSignature: Sendable {
    /// The endpoint secrets accepted (more than one while a secret is rotated). Never logged,
    /// never in an error.
    package let secrets: [[UInt8]]
    /// How far the signed time may be from the server's clock, either way.
    package static let toleranceSeconds = 300

    package init(secrets: [String]) {
        self.secrets = secrets.map { Array($0.utf8) }
    }

    /// Why a delivery is refused; the message names no secret and no expected signature.
    package struct Problem: Error, Equatable {
        package let message: String
        package init(_ message: String) { self.message = message }
    }

    /// The header's timestamp and `v1` signatures (bytes); other members are ignored.
    package static func parse(_ header: String) throws(Problem) -> (timestamp: Int, signatures: [[UInt8]]) {
        var timestamp: Int?, signatures: [[UInt8]] = []
        for item in header.split(separator: ",") {
            guard let equals = item.firstIndex(of: "=") else { continue }
            let key = item[..<equals].trimmingCharacters(in: .whitespaces)
            let value = item[item.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            switch key {
            case "t":
                guard timestamp == nil else { throw Problem("Stripe-Signature names t more than once") }
                guard let seconds = Int(value), seconds >= 0 else { throw Problem("Stripe-Signature's t is not a whole number of seconds") }
                timestamp = seconds
            case "v1":
                // A v1 that is not 64 hex digits can match nothing; it is skipped like another scheme.
                if let bytes = Hex.decode(value, count: 32) { signatures.append(bytes) }
            default:
                continue
            }
        }
        guard let timestamp else { throw Problem("Stripe-Signature has no timestamp (t=)") }
        guard !signatures.isEmpty else { throw Problem("Stripe-Signature has no v1 signature") }
        return (timestamp, signatures)
    }

    /// Checks `header` against `body` at `now` (unix seconds); returns the signed timestamp.
    package func verify(header: String?, body: [UInt8], now: Int) throws(Problem) -> Int {
        guard let header, !header.isEmpty else { throw Problem("the Stripe-Signature header is missing") }
        let (timestamp, signatures) = try Self.parse(header)
        guard abs(now - timestamp) <= Self.toleranceSeconds else {
            throw Problem("Stripe-Signature's timestamp is more than \(Self.toleranceSeconds) seconds from the server's clock")
        }
        let signed = Array("\(timestamp).".utf8) + body
        var matched = false
        for secret in secrets {
            let expected = Array(HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: secret)))
            // Every pair is compared, in constant time each, so the time taken says nothing of which came close.
            for signature in signatures where ConstantTime.same(expected, signature) == 1 { matched = true }
        }
        guard matched else { throw Problem("no v1 signature of Stripe-Signature matches the body with an endpoint secret") }
        return timestamp
    }
}
