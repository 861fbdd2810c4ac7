/// Vincenty's arc iterated with sines and cosines computed here, each step bracketed, and the C library called only
/// for a step the bracket cannot decide: the same arc as the library's iteration, bit for bit, with one library call
/// in twenty of its steps instead of two each (a generated catalog places a million centres along geodesics, with
/// about four steps each).
extension DirectLine {
    /// ``arcByLibrary()``, bit for bit, with the library called only where a step's bracket does not decide it.
    ///
    /// Why it is the same arc: every step's σ is the library iteration's σ (by induction from the first guess, which
    /// both start from), so the two take their steps in the same places, test convergence on the same numbers and
    /// stop together; at each step, ``bracketedStep(from:twice:)`` returns the library's next σ or nothing, and
    /// then the library's step is taken. The end (``end(atArc:)``) takes the library's sines and cosines itself.
    ///
    /// Lines from 0 to 0.03 radians of arc (about 190 km) only, whose steps stay under 0.0302 (a step moves σ by at
    /// most 0.0017·σ), where ``shortArcSineAndCosine(_:)`` holds; a positive σ keeps the sign of zero out of the
    /// bracket. Others iterate with the library.
    func arc() -> Double {
        guard sigmaFirstGuess > 0, sigmaFirstGuess <= 0.03 else { return arcByLibrary() }
        // |2σ₁| ≤ 2π: σ₁ is an atan2.
        let twice = SineAndCosine.bounded(2 * sigma1)
        return iterate { sigma in bracketedStep(from: sigma, twice: twice) ?? libraryStep(from: sigma) }
    }

    /// The library's step from σ (``libraryStep(from:)``) when a bracket decides it, or `nil`; `twice`: the bounded
    /// sine and cosine of 2σ₁ (``SineAndCosine/bounded(_:)``). For 0 < σ ≤ 0.0302.
    ///
    /// The step is g + Δ(S, C, K), where g is the first guess, S and C the sine and cosine of σ, K the cosine of
    /// 2σ₁ + σ and Δ = B·S·(K + B/4·(C·(2K² − 1) − B/6·K·(4S² − 3)·(4K² − 3))) as ``DistanceSeries`` evaluates it,
    /// with 0 ≤ B ≤ 0.0017 (B of u² ≤ e′² = 0.0068). Here S and C come from ``shortArcSineAndCosine(_:)``, and K
    /// from cos 2σ₁·C − sin 2σ₁·S. Their distance from the library's, with u = 2⁻⁵³:
    /// - S: within 1.05u·σ of sin σ (below), the library's within an ulp (2u·σ): 3.5e-16·σ apart.
    /// - C: within 2.4e-16 of cos σ (below), the library's within an ulp (u): 3.5e-16 apart.
    /// - K: the identity cos(2σ₁ + σ) = cos 2σ₁·cos σ − sin 2σ₁·sin σ, with cos 2σ₁ and sin 2σ₁ each within 2.6e-16 of
    ///   the true values (``SineAndCosine/boundedError``'s proof), C and S as above, and three roundings of numbers
    ///   under 1: within 8.4e-16 of the true cosine. The library's K is the cosine of 2σ₁ + σ rounded (by at most
    ///   u·6.32 = 7.0e-16, the sum under 2π + 0.031), within an ulp: 9.2e-16. 1.8e-15 apart.
    ///
    /// With m = B·σ (≥ B·|S| for either S), |∂Δ/∂S| ≤ 1.001·B, |∂Δ/∂C| ≤ 0.0005·m and |∂Δ/∂K| ≤ 1.002·m near these
    /// values, so the exact Δ of the two sets of inputs differ by at most 2.2e-15·m; each evaluation in doubles is
    /// within 3.03u·m of its exact Δ (B·S and its product with the bracket: three roundings at most 1.0005·m, the
    /// bracket's B/4 term under 0.0005 with a few u). So the library's Δ lies within 2.9e-15·m of this one, and within
    /// `margin` = 4e-15·m after the roundings of Δ ± margin. Adding g rounds monotonically: when g + (Δ − margin) and
    /// g + (Δ + margin) round to the same number, g plus the library's Δ does too.
    @inline(__always)
    func bracketedStep(from sigma: Double, twice: (sin: Double, cos: Double)) -> Double? {
        let (sinSigma, cosSigma) = Self.shortArcSineAndCosine(sigma)
        let cos2SigmaM = twice.cos * cosSigma - twice.sin * sinSigma
        let delta = series.deltaSigma(sinSigma: sinSigma, cosSigma: cosSigma, cos2SigmaM: cos2SigmaM)
        let margin = 4e-15 * series.b * sigma
        let low = sigmaFirstGuess + (delta - margin)
        let high = sigmaFirstGuess + (delta + margin)
        return low == high ? low : nil
    }

    /// The sine and cosine of an arc 0 < σ ≤ 0.0302 from their Taylor series, for a step's bracket: a few dependent
    /// operations where a library call waits on its reduction, tables and rounding-mode guards (the steps follow
    /// one another, each waiting on the last).
    ///
    /// The sine: σ − σ³/6 + σ⁵/120 − σ⁷/5040 leaves out under σ⁹/9! ≤ 1.9e-18·σ (an alternating series of
    /// decreasing terms); the correction after σ, under 1.6e-4·σ, is computed within 5.2u of itself, and adding it
    /// rounds by at most u·σ: within 1.05u·σ of sin σ. The cosine: 1 − σ²/2 + σ⁴/24 − σ⁶/720 leaves out under
    /// σ⁸/8! ≤ 1.7e-17; σ² is rounded (u·σ², halved exactly), 1 − σ²/2 and the final addition round by at most u
    /// each, the small term (under 4e-8) by far less: within 2.4e-16 of cos σ.
    @inline(__always)
    static func shortArcSineAndCosine(_ sigma: Double) -> (sin: Double, cos: Double) {
        let z = sigma * sigma
        let sine = sigma + sigma * z * (-1.0 / 6 + z * (1.0 / 120 - z * (1.0 / 5_040)))
        let cosine = 1 - 0.5 * z + z * z * (1.0 / 24 - z * (1.0 / 720))
        return (sine, cosine)
    }
}
