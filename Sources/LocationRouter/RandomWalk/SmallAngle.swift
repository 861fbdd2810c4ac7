/// The sine and cosine of an angle within ±π/4 by their minimax polynomials (fdlibm's kernels, as every libm
/// uses them after its range reduction): within an ulp of the exact values, in a few dozen arithmetic operations,
/// and the same bits on every platform, since nothing here depends on the C library.
///
/// What a random-walk step turns by: a heading noise of at most π/4 per step needs no range reduction.
enum SmallAngle {
    /// The largest angle ``sinCos(_:)`` takes.
    static let limit = Double.pi / 4

    /// `(sin x, cos x)` for |x| ≤ π/4.
    @inline(__always)
    static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
        let z = x * x
        let v = z * x
        let s = 8.33333333332248946124e-03 + z * (-1.98412698298579493134e-04 + z * (2.75573137070700676789e-06
            + z * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10)))
        let sine = x + v * (-1.66666666666666324348e-01 + z * s)
        let r = z * (4.16666666666666019037e-02 + z * (-1.38888888888741095749e-03 + z * (2.48015872894767294178e-05
            + z * (-2.75573143513906633035e-07 + z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11)))))
        let halfZ = 0.5 * z
        let w = 1 - halfZ
        return (sine, w + (((1 - w) - halfZ) + z * r))
    }
}
