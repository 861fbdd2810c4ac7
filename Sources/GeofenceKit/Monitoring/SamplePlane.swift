/// The mid-latitude plane of ``MidLatitudePlane`` expanded at a sample's position instead of at each circle's
/// centre: its trigonometry and radii of curvature are computed once per sample, so that a monitor's slot keeps
/// only what it cannot derive (the centre and the radius: 24 bytes instead of 72).
///
/// The planar distance from the sample to a centre is the same function as ``CircleGeometry``'s with the two points'
/// roles swapped, so the fit of its error holds with the sample as the first point: for a sample at |φ| ≤ 75° and a
/// centre at geodesic distance s ≤ 100 km, |planar − s| ≤ k(φ)·s³ with k(φ) = 2.4e-16 + 1.2e-15·tan²φ. The
/// decisions built on it (``PackedRegion``) are those of ``CircleGeometry``'s margin, with k taken at the sample:
///
/// - planar > r + m ⇒ s > r, for m = 2·k·r³ + 1 µm: were s ≤ r ≤ 100 km, planar ≤ s + k·s³ ≤ r + k·r³.
/// - planar ≤ r − m ⇒ s ≤ r. The set of points within a planar distance under 99.96 km of the sample is connected
///   and holds the sample (along a meridian, then a parallel), and the fit puts every point at s = 100 km at a planar
///   distance over 99.96 km; so such a centre lies within 100 km, where planar ≥ s − k·s³, increasing in s.
///   Radii over 99.96 km are left to the geodesic.
///
/// Beyond 75° of latitude the margin is infinite: every circle is then decided by the exact geodesic.
struct SamplePlane {
    let latitude: Double
    let longitude: Double
    let terms: MidLatitudePlane.Terms
    /// 2·k(φ) at the sample, or +∞ where the fit does not hold.
    let marginFactor: Double

    /// Radii beyond which the plane does not decide (metres): see the type's documentation.
    static var validatedRadius: Double { 99_960 }

    /// Inlined, as its terms are (``MidLatitudePlane/Terms/init(latitude:)``): the exact path computes one at every
    /// sample that leaves its disc.
    @inline(__always)
    init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
        terms = MidLatitudePlane.Terms(latitude: latitude)
        let s = terms.sinLatitude, c = terms.cosLatitude
        // cos 75° = 0.2588…; a NaN latitude fails the test too.
        marginFactor = c >= 0.258_819_045_102_521 ? 2 * (2.4e-16 + 1.2e-15 * (s * s) / (c * c)) : .infinity
    }

    /// The error bound of the plane for a circle of `radius` metres: +∞ where the plane does not decide.
    @inline(__always)
    func margin(radius: Double) -> Double {
        radius <= Self.validatedRadius ? marginFactor * radius * radius * radius + 1e-6 : .infinity
    }

    /// The bound on the plane's error at planar distance `distance` from the sample, for distances up to about
    /// 105 km (where the fit's doubling still covers the measured error); +∞ beyond 75°.
    @inline(__always)
    func error(atDistance distance: Double) -> Double {
        marginFactor * distance * distance * distance + 1e-6
    }

    /// The squared planar distance in metres from the sample to a point.
    @inline(__always)
    func distanceSquared(latitude pointLatitude: Double, longitude pointLongitude: Double) -> Double {
        MidLatitudePlane.distanceSquared(
            centerLatitude: latitude, centerLongitude: longitude, sinLatitude: terms.sinLatitude,
            cosLatitude: terms.cosLatitude, primeVerticalRadius: terms.primeVerticalRadius,
            primeVerticalRadiusSlope: terms.primeVerticalRadiusSlope, meridionalRadius: terms.meridionalRadius,
            meridionalRadiusSlope: terms.meridionalRadiusSlope, latitude: pointLatitude, longitude: pointLongitude)
    }
}
