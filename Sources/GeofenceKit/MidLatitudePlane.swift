import Foundation

/// The cheap distance of the circle test: a plane evaluated at the mid-latitude of the centre and the point, with
/// the ellipsoid's radii of curvature linearised around the centre's latitude. One formula for every circle
/// representation (``CircleGeometry``, the monitor's packed slots), so they decide alike.
@usableFromInline
enum MidLatitudePlane {
    /// The terms of the plane at one latitude: sin and cos of it, the radii of curvature there and their slopes.
    struct Terms {
        let sinLatitude: Double
        let cosLatitude: Double
        /// Prime-vertical radius of curvature N and dN/dφ (metres, metres per radian).
        let primeVerticalRadius: Double
        let primeVerticalRadiusSlope: Double
        /// Meridional radius of curvature M and dM/dφ.
        let meridionalRadius: Double
        let meridionalRadiusSlope: Double

        /// Inlined (with ``SamplePlane/init(latitude:longitude:)``), so that the exact path's slot tests keep the
        /// terms in registers rather than reading them back from the call's result on the stack.
        @inline(__always)
        init(latitude: Double) {
            let (s, c) = MidLatitudePlane.sinCos(degrees: latitude)
            let a = Geodesic.semiMajorAxis, e2 = Geodesic.eccentricitySquared
            // One division for the four (a monitor computes these at every sample it tests): powers of 1/W.
            let inverseW = 1 / (1 - e2 * s * s).squareRoot()
            let inverseW3 = inverseW * inverseW * inverseW
            sinLatitude = s
            cosLatitude = c
            // N = a / W and M = a (1 − e²) / W³ with W = √(1 − e² sin²φ); the slopes are their derivatives in φ.
            primeVerticalRadius = a * inverseW
            primeVerticalRadiusSlope = a * e2 * s * c * inverseW3
            meridionalRadius = a * (1 - e2) * inverseW3
            meridionalRadiusSlope = 3 * a * (1 - e2) * e2 * s * c * (inverseW3 * inverseW * inverseW)
        }
    }

    /// sin and cos of a latitude in degrees, within a few units in the last place: from a table of whole degrees
    /// and the Taylor series of the remainder (|ε| ≤ 0.5° = 0.0087 rad, so the terms left out are below 1e-18);
    /// three times cheaper than the library's sin and cos, which a monitor pays at every sample it tests.
    @inline(__always)
    static func sinCos(degrees latitude: Double) -> (sin: Double, cos: Double) {
        guard abs(latitude) <= 90 else {
            let phi = latitude * Geodesic.radiansPerDegree
            return (sin(phi), cos(phi))
        }
        // The nearest whole degree, as `Int(latitude + 90.5)` gives it (`rounded()` is a library call on baseline
        // x86-64) but without its checks: the value lies in 0.5…180.5 here.
        let degrees = WholeUnits.floor(latitude + 90.5)
        let e = (latitude - Double(degrees &- 90)) * Geodesic.radiansPerDegree
        let e2 = e * e
        // Multiplied by reciprocals (folded at compile time) rather than divided, a division costing several
        // multiplications: the terms they scale are below 1.3e-5 of the result, so their last bit does not show.
        let sinE = e * (1 - e2 * (1.0 / 6) * (1 - e2 * (1.0 / 20) * (1 - e2 * (1.0 / 42))))
        let cosE = 1 - e2 * 0.5 * (1 - e2 * (1.0 / 12) * (1 - e2 * (1.0 / 30)))
        let index = 2 &* degrees
        let sinWhole = wholeDegrees[index], cosWhole = wholeDegrees[index &+ 1]
        return (sinWhole * cosE + cosWhole * sinE, cosWhole * cosE - sinWhole * sinE)
    }

    /// The squared planar distance in metres from a centre (with its precomputed trigonometry and radii) to a point.
    @inlinable @inline(__always)
    static func distanceSquared(
        centerLatitude: Double, centerLongitude: Double, sinLatitude: Double, cosLatitude: Double,
        primeVerticalRadius: Double, primeVerticalRadiusSlope: Double, meridionalRadius: Double,
        meridionalRadiusSlope: Double, latitude: Double, longitude: Double
    ) -> Double {
        let k = Geodesic.radiansPerDegree
        // Differences are taken in degrees, where they are exact for nearby points and the wrap is exact.
        let dPhi = (latitude - centerLatitude) * k
        var dLonDegrees = longitude - centerLongitude
        if abs(dLonDegrees) > 180 {
            // Across the antimeridian ±360 is exact (Sterbenz) and cheaper than a libm call; `remainder` is only
            // for longitudes outside ±180, which validated coordinates never have.
            dLonDegrees =
                abs(dLonDegrees) <= 540
                ? dLonDegrees - (dLonDegrees > 0 ? 360 : -360) : dLonDegrees.remainder(dividingBy: 360)
        }
        let dLambda = dLonDegrees * k

        let delta = 0.5 * dPhi  // φm − φ0
        let cosMid = cosLatitude * (1 - 0.5 * delta * delta) - sinLatitude * delta
        let n = primeVerticalRadius + primeVerticalRadiusSlope * delta
        let m = meridionalRadius + meridionalRadiusSlope * delta
        let x = n * cosMid * dLambda
        let y = m * dPhi
        return x * x + y * y
    }
}
