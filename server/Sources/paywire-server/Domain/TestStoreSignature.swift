import Crypto
import Foundation

/// The test store's signature of a transaction, checked with swift-crypto's HMAC-MD5 (a
/// well-kept implementation, which thereby cross-checks the core's own):
/// `"testsig1:" + hex(HMAC-MD5(key, transaction_id \n original_transaction_id \n
/// vendor_product_id \n purchased_at))`. MD5 is what the test store signs with; it proves a
/// verification came from a holder of the dev key, nothing more: this is not a real store.
struct TestStoreSignature: Sendable {
    static let defaultKey = "paywire-dev-signing-key"
    static let prefix = "testsig1:"
    /// The key's bytes (a SymmetricKey is made per check: it is not Sendable).
    private let keyBytes: [UInt8]

    init(key: String) { keyBytes = Array(key.utf8) }

    static func payload(_ claim: StoreClaim) -> Data {
        Data("\(claim.transactionId)\n\(claim.originalTransactionId)\n\(claim.vendorProductId)\n\(claim.purchasedAt)".utf8)
    }

    /// Whether `claim.verification` is this key's signature of the claim (compared in constant time).
    func isValid(_ claim: StoreClaim) -> Bool {
        guard claim.verification.hasPrefix(Self.prefix) else { return false }
        let hex = Array(claim.verification.utf8.dropFirst(Self.prefix.utf8.count))
        guard hex.count == 32 else { return false }
        var mac: [UInt8] = []
        for index in stride(from: 0, to: 32, by: 2) {
            guard let high = Self.nibble(hex[index]), let low = Self.nibble(hex[index + 1]) else { return false }
            mac.append(high << 4 | low)
        }
        return HMAC<Insecure.MD5>.isValidAuthenticationCode(mac, authenticating: Self.payload(claim), using: SymmetricKey(data: keyBytes))
    }

    /// A lowercase hex digit's value.
    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
