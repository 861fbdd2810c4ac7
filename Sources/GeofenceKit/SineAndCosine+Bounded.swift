/// The sine and cosine of a bearing computed here, within a known bound of the C library's: for callers that can
/// tell when a difference that small could change their result, and call the library only then
/// (``GeoMotion/moves(from:_:scale:distances:bearings:count:latitudes:longitudes:stride:)``: generated regions, 20
/// centres a device, where the library's `sincos` was a quarter of registering a million devices; and 2σ₁ of
/// Vincenty's arc, whose steps ``DirectLine/arc()`` brackets for a generated catalog's million centres).
extension SineAndCosine {
    /// For every angle of [−2π, 2π], `bounded(_:)`'s sine and cosine are within this of the library's.
    ///
    /// The error of each step, for |x| ≤ 2π: x = q·π/2 + r with q the integer nearest x·2/π, |q| ≤ 4, and
    /// π/2 = P1 + P2 (P1 of 33 bits, a multiple of 2⁻³², and P2 its remainder rounded, off by under 1e-26). q·P1 is
    /// exact, and so is x − q·P1: x itself for q = 0, otherwise |x| ≥ 0.78, both are multiples of ulp(x) ≤ 2⁻³² and
    /// the difference is under 0.8. Subtracting q·P2 rounds twice, so r is within 1.1e-16 of x − q·π/2, and
    /// |r| ≤ π/4 + 1e-15. The polynomials are fdlibm's minimax kernels on [−π/4, π/4] (relative error under 2⁻⁵⁸);
    /// evaluated in doubles, the last addition dominates their rounding, at most 1.1e-16 for results of magnitude
    /// ≤ 1, the terms before it under 3e-17. With the argument's error
    /// (|d sin/dr|, |d cos/dr| ≤ 1) that is under 2.6e-16 from the true values, and the library's own error is
    /// under 1 ulp (1.1e-16 below 1 in magnitude, 2.2e-16 at 1): under 5e-16 apart. Measured: at most 2.2e-16
    /// over 100 million random bearings of [0, 2π) and the multiples of π/4 on both sides.
    package static var boundedError: Double { 1e-15 }

    /// Sine and cosine of `angle` (radians, |angle| ≤ 2π) within ``boundedError`` of the library's; no call.
    @inline(__always)
    package static func bounded(_ angle: Double) -> (sin: Double, cos: Double) {
        // The nearest quadrant: ⌊v + ½⌋ by truncation, shifted to stay positive (`rounded()` is a call of the C
        // library's `round` on the baseline x86-64, a sixth of the function).
        let quadrant = Int(angle * (2 / Double.pi) + 4.5) - 4
        let q = Double(quadrant)
        let r = (angle - q * 1.570_796_326_734_125_614_17) - q * 6.077_100_506_506_192_249_32e-11
        let z = r * r
        // fdlibm's two kernels side by side, (sine, cosine) in one vector: each Horner step one multiplication and
        // one addition for both, lane by lane the operations of evaluating them apart (the same bits, in half the
        // instructions). sin r = r + r·z·S(z) and cos r = 1 − z/2 + z²·C(z), S and C of degree 5 in z.
        var p = SIMD2(1.589_690_995_211_550_102_21e-10, -1.135_964_755_778_819_482_65e-11)
        p = SIMD2(-2.505_076_025_340_686_341_95e-08, 2.087_572_321_298_174_827_90e-09) + z * p
        p = SIMD2(2.755_731_370_707_006_767_89e-06, -2.755_731_435_139_066_330_35e-07) + z * p
        p = SIMD2(-1.984_126_982_985_794_931_34e-04, 2.480_158_728_947_672_941_78e-05) + z * p
        p = SIMD2(8.333_333_333_322_489_461_24e-03, -1.388_888_888_887_410_957_49e-03) + z * p
        p = SIMD2(-1.666_666_666_666_663_243_48e-01, 4.166_666_666_666_660_190_37e-02) + z * p
        let kernels = SIMD2(r, 1 - 0.5 * z) + SIMD2(r * z, z * z) * p
        // The quadrant turns (sin r, cos r) into the angle's: (s, c), (c, −s), (−s, −c), (−c, s) for quadrants 0 to 3
        // (mod 4). Chosen with masks, not a branch: a random bearing's quadrant is random, and the jump through a
        // table of four cases was mispredicted three times in four (the same bits: a negation flips the sign bit).
        let sine = kernels.x.bitPattern, cosine = kernels.y.bitPattern
        let swaps = 0 &- UInt64(quadrant & 1)
        let sineSign = UInt64((quadrant >> 1) & 1) << 63
        let cosineSign = UInt64(((quadrant &+ 1) >> 1) & 1) << 63
        return (
            Double(bitPattern: ((sine & ~swaps) | (cosine & swaps)) ^ sineSign),
            Double(bitPattern: ((cosine & ~swaps) | (sine & swaps)) ^ cosineSign)
        )
    }
}
