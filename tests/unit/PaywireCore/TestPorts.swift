@testable import PaywireCore

/// A random source that counts: the same bits in every run, so an id a test makes is one it
/// can name. SplitMix64 from a seed.
final class CountingRandom: RandomSource {
    private var state: UInt64
    init(seed: UInt64 = 1) { state = seed }

    func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
