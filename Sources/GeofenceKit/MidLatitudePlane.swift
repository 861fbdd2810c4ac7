/// The cheap distance of the circle test: a plane evaluated at the mid-latitude of the centre and the point, with
/// the ellipsoid's radii of curvature linearised around the centre's latitude. One formula for every circle
/// representation (``CircleGeometry``, the monitor's packed slots), so they decide alike.
@usableFromInline
enum MidLatitudePlane {
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
