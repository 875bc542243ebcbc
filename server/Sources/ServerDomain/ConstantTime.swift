/// Comparison of secrets (key digests, signatures, CSRF and redemption tokens) in time that
/// depends on neither where two values differ nor whether they match.
package enum ConstantTime {
    /// 1 when equal, else 0; every byte is looked at (Stripe's signatures are compared so too).
    package static func same(_ a: [UInt8], _ b: [UInt8]) -> UInt8 {
        guard a.count == b.count else { return 0 }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0 ? 1 : 0
    }
}
