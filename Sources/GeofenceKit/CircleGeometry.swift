import Foundation

/// A circle on the WGS84 ellipsoid: every point whose geodesic distance to `center` is at most `radius` metres.
///
/// `contains` is the innermost loop of the router, so it is split in two:
///
/// 1. A cheap planar distance with a known error bound. The point is projected on a local plane evaluated at the
///    *mid-latitude* φm of centre and point: x = N(φm)·cos φm·Δλ, y = M(φm)·Δφ, with N and M the prime-vertical
///    and meridional radii of curvature. (A plane tangent at the centre is metres off at 10 km; at the mid-latitude
///    the error is third order in the distance.) cos φm, N(φm) and M(φm) are Taylor-expanded around the centre
///    latitude, so this path has no square root, trigonometry or division.
/// 2. Only points whose planar distance is within ``margin`` of the radius pay for the exact geodesic
///    (``Geodesic/distance(latitude1:longitude1:latitude2:longitude2:)``).
///
/// ## The margin
/// For a point at geodesic distance s ≤ 100 km from a centre at latitude φ0 with |φ0| ≤ 75°, the planar distance
/// differs from s by at most k(φ0)·s³ with
///
///     k(φ0) = 2.4e-16 + 1.2e-15 · tan²φ0   (m⁻²)
///
/// measured against geographiclib over 3,600 bearings, 31 centre latitudes in both hemispheres and distances
/// 250 m … 300 km (`Tests/GeofenceKitTests/Fixtures/make-geodesic-reference.py --margin`): the worst ratio
/// error / (k·s³) is 0.985 for 1 km ≤ s ≤ 100 km (1.02 at 200 km, 1.06 at 300 km); below 1 km the error is
/// rounding noise under 3e-8 m. The margin doubles the bound at s = r and adds 1 µm for rounding:
///
///     margin = 2 · k(φ0) · r³ + 1e-6 m        (0.5 mm at the equator and 1.9 cm at 70° for r = 10 km)
///
/// Bounding the error at s = r is enough for every point, near or far: the sets {planar ≤ r − margin} and
/// {planar < r + margin} are connected and contain the centre, so any point wrongly decided by the plane would be
/// joined to the centre by a path that crosses the true circle s = r inside the same set, where the plane's error
/// exceeds the margin — which the bound rules out.
///
/// Where the bound was not validated (|φ0| > 75°, radius > 100 km, or a non-positive or non-finite radius) the margin
/// is infinite: every point then takes the exact path, which is always correct, only slower.
public struct CircleGeometry: Sendable {
    public let center: Coordinate
    public let radius: Double

    /// sin and cos of the centre latitude.
    @usableFromInline let sinLatitude: Double
    @usableFromInline let cosLatitude: Double
    /// Prime-vertical radius of curvature N at the centre and dN/dφ (metres, metres per radian).
    @usableFromInline let primeVerticalRadius: Double
    @usableFromInline let primeVerticalRadiusSlope: Double
    /// Meridional radius of curvature M at the centre and dM/dφ.
    @usableFromInline let meridionalRadius: Double
    @usableFromInline let meridionalRadiusSlope: Double
    /// (r − margin)², or −1 when r ≤ margin so that the plane never decides "inside".
    @usableFromInline let insideThresholdSquared: Double
    /// (r + margin)², +∞ when the margin is infinite so that the plane never decides "outside".
    @usableFromInline let outsideThresholdSquared: Double
    /// The planar error bound in metres; points whose planar distance is within it of the radius use the geodesic.
    let margin: Double

    /// Latitudes beyond which the margin fit was not validated.
    static let validatedLatitudeLimit = 75.0
    /// Radii beyond which the margin fit was not validated (metres).
    static let validatedRadiusLimit = 100_000.0

    public init(center: Coordinate, radius: Double) {
        self.center = center
        self.radius = radius

        let terms = MidLatitudePlane.Terms(latitude: center.latitude)
        sinLatitude = terms.sinLatitude
        cosLatitude = terms.cosLatitude
        primeVerticalRadius = terms.primeVerticalRadius
        primeVerticalRadiusSlope = terms.primeVerticalRadiusSlope
        meridionalRadius = terms.meridionalRadius
        meridionalRadiusSlope = terms.meridionalRadiusSlope

        let margin = Self.margin(
            radius: radius, centerLatitude: center.latitude, sinLatitude: terms.sinLatitude,
            cosLatitude: terms.cosLatitude)
        self.margin = margin
        let inside = radius - margin
        insideThresholdSquared = inside > 0 ? inside * inside : -1
        outsideThresholdSquared = (radius + margin) * (radius + margin)
    }

    /// The error bound of the mid-latitude plane for this circle; see the type's documentation for its derivation.
    /// - Parameters: sinLatitude, cosLatitude: sin and cos of the centre latitude, when the caller has them.
    static func margin(
        radius: Double, centerLatitude: Double, sinLatitude: Double? = nil, cosLatitude: Double? = nil
    ) -> Double {
        guard radius > 0, radius <= validatedRadiusLimit, abs(centerLatitude) <= validatedLatitudeLimit else {
            return .infinity
        }
        let phi = centerLatitude * Geodesic.radiansPerDegree
        let s = sinLatitude ?? sin(phi), c = cosLatitude ?? cos(phi)
        let tan2 = s * s / (c * c)
        let k = 2.4e-16 + 1.2e-15 * tan2
        return 2 * k * radius * radius * radius + 1e-6
    }

    /// Whether the geodesic distance from the centre to the point is at most `radius` (the boundary is inside).
    @inlinable
    public func contains(latitude: Double, longitude: Double) -> Bool {
        let planarSquared = planarDistanceSquared(latitude: latitude, longitude: longitude)
        // Only the thin band around the boundary takes the exact path (about 1 in a million random points for a
        // 10 km circle); everywhere else the answer is one comparison. A NaN coordinate fails every comparison and
        // is outside.
        if planarSquared > insideThresholdSquared && planarSquared < outsideThresholdSquared {
            return containsExactly(latitude: latitude, longitude: longitude)
        }
        return planarSquared <= insideThresholdSquared
    }

    /// The squared distance in metres on the plane at the mid-latitude of the centre and the point: within the
    /// fitted `margin` of the geodesic for the circles this type validates, and a fine estimate beyond.
    @inlinable
    public func planarDistanceSquared(latitude: Double, longitude: Double) -> Double {
        MidLatitudePlane.distanceSquared(
            centerLatitude: center.latitude, centerLongitude: center.longitude, sinLatitude: sinLatitude,
            cosLatitude: cosLatitude, primeVerticalRadius: primeVerticalRadius,
            primeVerticalRadiusSlope: primeVerticalRadiusSlope, meridionalRadius: meridionalRadius,
            meridionalRadiusSlope: meridionalRadiusSlope, latitude: latitude, longitude: longitude)
    }

    /// The geodesic distance in metres from the centre to the point.
    public func geodesicCentreDistance(latitude: Double, longitude: Double) -> Double {
        Geodesic.distance(
            latitude1: center.latitude, longitude1: center.longitude, latitude2: latitude, longitude2: longitude)
    }

    /// The exact decision, kept out of line so that the inlined fast path stays small.
    @usableFromInline
    func containsExactly(latitude: Double, longitude: Double) -> Bool {
        Geodesic.distance(
            latitude1: center.latitude, longitude1: center.longitude, latitude2: latitude, longitude2: longitude
        ) <= radius
    }
}
