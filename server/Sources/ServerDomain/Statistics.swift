import Foundation

/// The two statistics experiment results need. No statistics library is among the packages
/// this project may use (swift-numerics has no distributions), so these are written from
/// their textbook formulas on libm's `erfc` and `lgamma`, and `tests/integration` compares
/// them with scipy (`binomtest(...).proportion_ci(method="wilson")`, `chi2.sf`) and table values.
package enum Statistics {
    /// The two-sided 95 % normal quantile, Φ⁻¹(0.975).
    package static let z95 = 1.959963984540054

    /// Wilson's score interval for `successes` out of `trials`:
    /// (p̂ + z²/2n ± z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n). (0, 0) with no trials.
    package static func wilson(successes: Int, trials: Int, z: Double = z95) -> (low: Double, high: Double) {
        guard trials > 0 else { return (0, 0) }
        let n = Double(trials), p = Double(successes) / n, z2 = z * z
        let denominator = 1 + z2 / n
        let center = (p + z2 / (2 * n)) / denominator
        let half = z * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot() / denominator
        return (max(0, center - half), min(1, center + half))
    }

    /// P(χ²ₖ ≥ x), the chi-square survival function, for whole degrees of freedom k ≥ 1, by
    /// its closed forms (the regularized upper incomplete gamma Q(k/2, x/2) at whole and half
    /// whole arguments):
    /// - k even: e^(−x/2) · Σ_{j=0}^{k/2−1} (x/2)^j / j!
    /// - k odd:  erfc(√(x/2)) + e^(−x/2) · Σ_{j=1}^{(k−1)/2} (x/2)^(j−½) / Γ(j+½)
    /// Each term is computed in log space, so large x or k neither overflow nor lose the sum.
    package static func chiSquareSurvival(_ x: Double, degreesOfFreedom k: Int) -> Double {
        guard k >= 1, x > 0 else { return 1 }
        let half = x / 2, logHalf = log(half)
        var sum = 0.0
        if k % 2 == 0 {
            for j in 0..<(k / 2) { sum += exp(Double(j) * logHalf - lgamma(Double(j) + 1) - half) }
        } else {
            sum = erfc(half.squareRoot())
            if k >= 3 {
                for j in 1...((k - 1) / 2) { sum += exp((Double(j) - 0.5) * logHalf - lgamma(Double(j) + 0.5) - half) }
            }
        }
        return min(1, max(0, sum))
    }

    /// Pearson's goodness-of-fit test of `observed` counts against shares proportional to
    /// `weights` (all > 0): Σ (O − E)² / E with E = N·w/Σw, on (cells − 1) degrees of freedom.
    /// With fewer than two cells or no observations there is nothing to test: (0, 0, 1).
    package static func goodnessOfFit(observed: [Int], weights: [Int]) -> (chiSquare: Double, degreesOfFreedom: Int, pValue: Double) {
        let total = observed.reduce(0, +), weightSum = weights.reduce(0, +)
        guard observed.count >= 2, observed.count == weights.count, total > 0, weightSum > 0 else { return (0, 0, 1) }
        var chiSquare = 0.0
        for (count, weight) in zip(observed, weights) {
            let expected = Double(total) * Double(weight) / Double(weightSum)
            chiSquare += (Double(count) - expected) * (Double(count) - expected) / expected
        }
        let freedom = observed.count - 1
        return (chiSquare, freedom, chiSquareSurvival(chiSquare, degreesOfFreedom: freedom))
    }
}
