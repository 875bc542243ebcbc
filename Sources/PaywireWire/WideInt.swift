/// The integer type of every value that can pass 2^31: times in milliseconds since the epoch
/// (2^31 ms is 25 days), durations, amounts in minor units, counts and byte sizes.
///
/// It is 64 bits on every target. Where `Int` is 64 bits (x86_64, arm64: the server, the unit
/// tests and the native library) it is `Int` itself, so code that only runs there meets the
/// model's values unchanged; where `Int` is 32 bits (wasm32, 32-bit ARM) it is `Int64`. Mixing a
/// `WideInt` with a plain `Int` therefore type-checks on 64-bit targets and fails on 32-bit ones:
/// `make check-wasm32` compiles the wire, the model and the core for wasm32 so that any mix
/// (and any literal above 2^31 written as `Int`) fails the build.
#if _pointerBitWidth(_32)
public typealias WideInt = Int64
#else
public typealias WideInt = Int
#endif

extension WideInt {
    /// `self + other`, held at `WideInt.max` (or `.min`) instead of trapping: a time or an
    /// amount built from input (a date plus a duration the input names) never crashes the host.
    @inlinable public func clampedAdding(_ other: WideInt) -> WideInt {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self - other`, held at the bounds instead of trapping.
    @inlinable public func clampedSubtracting(_ other: WideInt) -> WideInt {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other > 0 ? .min : .max) : difference
    }

    /// `self * other`, held at the bounds instead of trapping.
    @inlinable public func clampedMultiplied(by other: WideInt) -> WideInt {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) == (other < 0) ? .max : .min) : product
    }
}
